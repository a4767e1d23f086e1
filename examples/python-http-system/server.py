#!/usr/bin/env python3
"""A memory system membench can measure, in standard-library Python.

It speaks the membench HTTP system protocol v1 (docs/http-protocol.md) over a
tiny in-memory keyword store: every turn is kept with the session and turn it
came from, a search ranks turns by the question's words they share (rarer
words weigh more), and nothing dated after the question's time is returned.
Replace the `KeywordMemory` class with calls to your own system; README.md
sketches mem0, A-Mem, LangMem and MemOS.

    python3 server.py --port 8000
    npx membench run locomo --system 'http:http://127.0.0.1:8000#keyword-py'

No third-party packages: http.server and json only.
"""

import argparse
import hmac
import json
import math
import os
import re
import sys
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import unquote

PROTOCOL_VERSION = "1.0"
NAME, VERSION = "keyword-py", "0.1.0"
# Whole sessions in, turns out with their ids; readback returns what a session wrote.
CAPS = {"granularity": "session", "ranked": True, "provenance": True, "readback": True, "nativeAnswer": False}

WORD = re.compile(r"[a-z0-9]+")
STOPWORDS = set(
    "a an and are as at be but by did do does for from had has have he her his how i in is it its me my of on or"
    " our she so that the their them they this to was we were what when where which who why will with you your".split()
)


class ProtocolError(Exception):
    """An answer other than 200: its status, message and the field at fault."""

    def __init__(self, status, message, field=None):
        super().__init__(message)
        self.status, self.message, self.field = status, message, field


def words(text):
    return {w for w in WORD.findall(text.lower()) if w not in STOPWORDS}


def moment(value, end_of_day=False):
    """An ISO 8601 date or date-time as an aware datetime (UTC when no offset); a bare date is its start, or its end."""
    if value is None:
        return None
    text = value.replace("Z", "+00:00")
    try:
        at = datetime.fromisoformat(text)
    except ValueError:
        raise ProtocolError(400, f"not an ISO 8601 date or date-time: {value!r}", "time")
    if at.tzinfo is None:
        at = at.replace(tzinfo=timezone.utc)
    if end_of_day and len(value) == 10:
        at += timedelta(days=1) - timedelta(microseconds=1)
    return at


class KeywordMemory:
    """One namespace's memory. Each method is one protocol operation: put your system's calls here."""

    def __init__(self):
        self.items = []  # one per turn: text, words, time, session and turn ids
        self.applied = set()  # batchIds already written (idempotent ingest)
        self.lock = threading.Lock()

    def ingest(self, batch):
        # Every turn is read before any is kept: a bad one writes nothing, so a retry writes it all once.
        items = []
        for turn in batch["turns"]:
            who = turn.get("speaker") or turn["role"]
            time = turn.get("time") or batch.get("time")
            items.append(
                {
                    "text": f"{who}: {turn['content']}",
                    "words": words(turn["content"]),
                    "time": time,
                    "at": moment(time),
                    "sessionId": batch["sessionId"],
                    "turnId": turn["id"],
                }
            )
        self.items.extend(items)

    def search(self, text, k, time):
        asked_at = moment(time, end_of_day=True)
        # Nothing from after the question: a memory of the future would leak the answer.
        visible = [i for i in self.items if asked_at is None or i["at"] is None or i["at"] <= asked_at]
        query = words(text)
        df = {w: sum(1 for i in visible if w in i["words"]) for w in query}
        scored = []
        for position, item in enumerate(visible):
            score = sum(math.log(1 + len(visible) / df[w]) for w in query & item["words"])
            if score > 0:
                scored.append((score, position, item))
        # Best first; among equals, the later turn.
        scored.sort(key=lambda s: (-s[0], -s[1]))
        return [result(item, round(score, 6)) for score, _, item in scored[:k]]

    def readback(self, session_ids):
        wanted = set(session_ids)
        return [result(item, 1.0) for item in self.items if item["sessionId"] in wanted]


def result(item, score):
    out = {"text": item["text"], "score": score, "sessionIds": [item["sessionId"]], "turnIds": [item["turnId"]], "kind": "turn"}
    if item["time"]:
        out["time"] = item["time"]
    return out


class Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, address, token):
        super().__init__(address, Handler)
        self.token = token
        self.spaces = {}  # namespace -> KeywordMemory, while open
        self.lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    server_version = f"{NAME}/{VERSION}"

    def log_message(self, format, *args):  # quiet unless --verbose
        if VERBOSE:
            super().log_message(format, *args)

    def do_GET(self):
        self.answer(lambda path, body: self.route("GET", path))

    def do_POST(self):
        self.answer(lambda path, body: self.route("POST", path, body))

    def answer(self, handle):
        try:
            self.check_token()
            # Split before decoding: a namespace may hold any character, "/" included.
            path = [unquote(p) for p in self.path.split("?")[0].split("/") if p]
            body = self.read_body()
            status, out = 200, handle(path, body)
        except ProtocolError as e:
            status, out = e.status, {"error": e.message, **({"field": e.field} if e.field else {})}
        except Exception as e:  # a fault of ours: 500, which the client retries
            status, out = 500, {"error": f"{type(e).__name__}: {e}"}
        data = json.dumps(out).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def check_token(self):
        if not self.server.token:
            return
        given = self.headers.get("Authorization", "")
        if not hmac.compare_digest(given.encode(), f"Bearer {self.server.token}".encode()):
            raise ProtocolError(401, "missing or wrong bearer token")

    def read_body(self):
        size = int(self.headers.get("Content-Length") or 0)
        if not size:
            return {}
        try:
            body = json.loads(self.rfile.read(size))
        except ValueError:
            raise ProtocolError(400, "the body is not JSON")
        if not isinstance(body, dict):
            raise ProtocolError(400, "the body must be a JSON object")
        return body

    def route(self, method, path, body=None):
        if method == "GET" and path == ["caps"]:
            return {"protocolVersion": PROTOCOL_VERSION, "name": NAME, "version": VERSION, "caps": CAPS}
        if method != "POST" or len(path) != 3 or path[0] != "ns":
            raise ProtocolError(404, f"no route {method} {self.path}")
        _, ns, operation = path
        spaces, lock = self.server.spaces, self.server.lock
        if operation == "open":
            with lock:
                spaces.setdefault(ns, KeywordMemory())  # opening an open namespace keeps its data
            return {"ok": True}
        if operation == "close":
            with lock:
                spaces.pop(ns, None)  # erases it; closing an unknown namespace is fine
            return {"ok": True}
        memory = spaces.get(ns)
        if memory is None:
            raise ProtocolError(404, f"namespace {ns!r} is not open", "ns")
        if operation == "ingest":
            batch_id, batch = need(body, "batchId", str), need(body, "batch", dict)
            need(batch, "sessionId", str, "batch.")
            for i, turn in enumerate(need(batch, "turns", list, "batch.")):
                for key in ("id", "role", "content"):
                    need(turn, key, str, f"batch.turns[{i}].")
            with memory.lock:  # one write at a time per namespace, so a retry sees the first attempt
                if batch_id in memory.applied:
                    return {"ok": True, "duplicate": True}
                memory.ingest(batch)
                memory.applied.add(batch_id)
            return {"ok": True}
        if operation == "flush":
            return {"ok": True}  # writes are searchable as soon as ingest answers
        if operation == "search":
            text, k = need(body, "text", str), need(body, "k", int)
            with memory.lock:
                return {"results": memory.search(text, k, body.get("time"))}
        if operation == "readback":
            ids = need(body, "sessionIds", list)
            with memory.lock:
                return {"results": memory.readback(ids)}
        if operation == "answer":
            raise ProtocolError(501, "this system does not answer (caps.nativeAnswer is false)")
        raise ProtocolError(404, f"no operation {operation!r}")


def need(obj, key, kind, prefix=""):
    value = obj.get(key) if isinstance(obj, dict) else None
    if not isinstance(value, kind) or isinstance(value, bool):
        raise ProtocolError(400, f"{prefix}{key}: expected {kind.__name__}", f"{prefix}{key}")
    return value


def main():
    global VERBOSE
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000, help="0 picks a free port")
    parser.add_argument("--token-env", help="environment variable holding the bearer token clients must send")
    parser.add_argument("--verbose", action="store_true", help="log every request")
    args = parser.parse_args()
    VERBOSE = args.verbose
    token = os.environ.get(args.token_env, "") if args.token_env else ""
    if args.token_env and not token:
        sys.exit(f"--token-env names {args.token_env}, which is not set")
    server = Server((args.host, args.port), token)
    print(f"listening on http://{args.host}:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


VERBOSE = False

if __name__ == "__main__":
    main()
