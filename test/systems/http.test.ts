import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, describe, it } from "node:test";
import { ConfigError, SystemError } from "../../src/core/errors.ts";
import { HttpSystem, HttpSystemOptionsSchema, httpBaseUrl, httpSystemDefinition } from "../../src/systems/http.ts";
import { batchIdOf } from "../../src/systems/http-protocol.ts";
import type { IngestBatch } from "../../src/systems/types.ts";
import { systemContext } from "../support/http-system.ts";

const CAPS = {
  protocolVersion: "1.0",
  name: "scripted",
  version: "9.1",
  caps: { granularity: "session", ranked: true, provenance: true, readback: false, nativeAnswer: false },
  info: { store: "memory" },
};

const BATCH: IngestBatch = {
  sessionId: "s1",
  sessionIndex: 0,
  time: "2024-05-01T10:00:00Z",
  turns: [{ id: "t1", role: "user", content: "I keep bees on the roof." }],
};

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage["headers"];
  body: unknown;
}

type Reply = { status: number; body?: unknown; raw?: string; headers?: Record<string, string> } | "reset" | "hang";

/**
 * A local server that answers the caps and then whatever `reply` says for each
 * other request (by its operation and how many times that operation was asked).
 */
async function scripted(reply: (operation: string, attempt: number, seen: Seen) => Reply, caps: unknown = CAPS) {
  const requests: Seen[] = [];
  const counts = new Map<string, number>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const seen: Seen = {
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      body: text ? JSON.parse(text) : undefined,
    };
    requests.push(seen);
    const operation = req.url === "/base/caps" ? "caps" : req.url!.split("/").pop()!;
    const attempt = (counts.get(operation) ?? 0) + 1;
    counts.set(operation, attempt);
    const r: Reply = operation === "caps" ? { status: 200, body: caps } : reply(operation, attempt, seen);
    if (r === "reset") return req.socket.destroy();
    if (r === "hang") return;
    res.writeHead(r.status, { "content-type": "application/json", ...r.headers });
    res.end(r.raw ?? JSON.stringify(r.body ?? { ok: true }));
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/base`,
    requests,
    count: (operation: string) => counts.get(operation) ?? 0,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

const servers: Array<{ close(): Promise<void> }> = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function serverFor(reply: Parameters<typeof scripted>[0], caps?: unknown) {
  const s = await scripted(reply, caps);
  servers.push(s);
  return s;
}

const ok = (): Reply => ({ status: 200, body: { ok: true } });

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<SystemError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof SystemError, `a SystemError, got ${String(error)}`);
    assert.match(error.message, pattern);
    return error;
  }
  assert.fail(`expected a rejection matching ${pattern}`);
}

describe("http: the definition and its options", () => {
  it("names the row by #name or the URL, and checks its options with defaults", () => {
    const named = httpSystemDefinition("http://127.0.0.1:4180/v1/systems/ledger/", "ledger-http");
    assert.equal(named.id, "ledger-http");
    assert.equal(httpSystemDefinition("http://127.0.0.1:4180/x").id, "http:http://127.0.0.1:4180/x");
    assert.equal(named.needsEmbedder?.({} as never), false);
    assert.deepEqual(HttpSystemOptionsSchema.parse({}), { timeoutMs: 60_000, retries: 3, concurrency: 8 });
    assert.throws(() => HttpSystemOptionsSchema.parse({ timeout: 5 }), /timeout/);
    // A token pasted where the variable's name belongs is refused before it could be recorded.
    assert.throws(() => HttpSystemOptionsSchema.parse({ tokenEnv: "sk-live-123" }), /NAME of an environment variable/);
  });

  it("refuses a URL that is not http(s), carries credentials or a query", () => {
    assert.throws(() => httpBaseUrl("ftp://host/x"), ConfigError);
    assert.throws(() => httpBaseUrl("not a url"), /not a URL/);
    assert.throws(() => httpBaseUrl("http://user:pw@host/x"), /no credentials/);
    assert.throws(() => httpBaseUrl("http://host/x?a=1"), /no query/);
    assert.equal(httpBaseUrl("https://host:8443/a/b///"), "https://host:8443/a/b");
  });
});

describe("http: create reads and checks the caps", () => {
  it("takes caps, name, version and info from the server", async () => {
    const s = await serverFor(ok);
    const system = await httpSystemDefinition(s.url, "mine").create(HttpSystemOptionsSchema.parse({}), systemContext());
    assert.equal(system.id, "mine");
    assert.deepEqual(system.caps, CAPS.caps);
    assert.deepEqual(await system.info?.(), {
      store: "memory",
      name: "scripted",
      version: "9.1",
      protocolVersion: "1.0",
      url: s.url,
    });
  });

  for (const [why, caps, pattern] of [
    [
      "another major version",
      { ...CAPS, protocolVersion: "2.0" },
      /speaks protocol version 2\.0; this membench speaks 1\.x/,
    ],
    ["no protocol version", { ok: true, store: "x" }, /no protocolVersion: not a membench HTTP system/],
    ["a version that is not MAJOR.MINOR", { ...CAPS, protocolVersion: "v1" }, /"v1" is not MAJOR\.MINOR/],
    ["a missing caps field", { ...CAPS, caps: { ...CAPS.caps, readback: undefined } }, /caps\.readback/],
    ["an unknown granularity", { ...CAPS, caps: { ...CAPS.caps, granularity: "paragraph" } }, /caps\.granularity/],
    ["no name", { ...CAPS, name: "" }, /name/],
  ] as const) {
    it(`refuses a server with ${why}, naming its URL`, async () => {
      const s = await serverFor(ok, caps);
      const error = await rejectsWith(HttpSystem.connect(s.url), pattern);
      assert.ok(error.message.includes(`${s.url}/caps`), error.message);
      assert.equal(error.operation, "create");
    });
  }

  it("refuses a tokenEnv naming a variable that is not set", async () => {
    const s = await serverFor(ok);
    await rejectsWith(
      HttpSystem.connect(s.url, { tokenEnv: "MB_TEST_UNSET_TOKEN" }),
      /MB_TEST_UNSET_TOKEN, which is not set/,
    );
    assert.equal(s.count("caps"), 0, "refused before any request");
  });
});

describe("http: transient failures are retried, others are not", () => {
  it("waits for Retry-After on a 503, then succeeds", async () => {
    const s = await serverFor((_op, n) =>
      n === 1 ? { status: 503, body: { error: "busy" }, headers: { "retry-after": "1" } } : ok(),
    );
    const system = await HttpSystem.connect(s.url);
    const started = performance.now();
    await system.open("ns");
    const waited = performance.now() - started;
    assert.equal(s.count("open"), 2);
    assert.ok(waited >= 950, `waited ${waited.toFixed(0)} ms for Retry-After: 1`);
  });

  it("retries 429s, and caps how long a Retry-After may hold it", async () => {
    const s = await serverFor((_op, n) =>
      n <= 2 ? { status: 429, body: { error: "slow down" }, headers: { "retry-after": "3600" } } : ok(),
    );
    const system = await HttpSystem.connect(s.url, {}, { maxRetryAfterMs: 50 });
    const started = performance.now();
    await system.open("ns");
    assert.equal(s.count("open"), 3);
    assert.ok(performance.now() - started < 5_000, "an hour's Retry-After was capped");
  });

  it("does not retry a 400, and says the URL, operation, status and field", async () => {
    const s = await serverFor(() => ({
      status: 400,
      body: { error: "batch.turns[0].role: Invalid option", field: "batch.turns[0].role" },
    }));
    const system = await HttpSystem.connect(s.url);
    const error = await rejectsWith(
      system.ingest("ledger|conv-26", BATCH),
      /400: batch\.turns\[0\]\.role: Invalid option/,
    );
    assert.equal(s.count("ingest"), 1);
    assert.equal(error.operation, "ingest");
    assert.ok(error.message.includes(`POST ${s.url}/ns/ledger%7Cconv-26/ingest`), error.message);
  });

  it("does not retry a 501 (an operation the server does not serve)", async () => {
    const s = await serverFor(() => ({ status: 501, body: { error: "no flush here" } }));
    const system = await HttpSystem.connect(s.url);
    await rejectsWith(system.flush("ns"), /501: no flush here/);
    assert.equal(s.count("flush"), 1);
  });

  it("gives up after `retries`, with the last status and the number of attempts", async () => {
    const s = await serverFor(() => ({ status: 500, raw: "<html>Internal Server Error</html>" }));
    const system = await HttpSystem.connect(s.url, { retries: 2 });
    await rejectsWith(
      system.search("ns", { text: "bees", k: 3 }),
      /500: <html>Internal Server Error<\/html> \(3 attempts\)/,
    );
    assert.equal(s.count("search"), 3);
  });

  it("retries a dropped connection; every attempt of an ingest carries the same batchId", async () => {
    const s = await serverFor((op, n) => (op === "ingest" && n === 1 ? "reset" : ok()));
    const system = await HttpSystem.connect(s.url);
    await system.ingest("ns", BATCH);
    const ingests = s.requests.filter((r) => r.url.endsWith("/ingest"));
    assert.equal(ingests.length, 2);
    const ids = ingests.map((r) => (r.body as { batchId: string }).batchId);
    assert.deepEqual(ids, [batchIdOf(BATCH), batchIdOf(BATCH)]);
    assert.deepEqual((ingests[1]!.body as { batch: unknown }).batch, BATCH);
  });

  it("retries a refused connection, then names the URL and the cause", async () => {
    const s = await scripted(ok);
    await s.close();
    await rejectsWith(
      HttpSystem.connect(s.url, { retries: 1 }),
      /GET http:\/\/127\.0\.0\.1:\d+\/base\/caps: connection failed \(ECONNREFUSED\) \(2 attempts\)/,
    );
  });

  it("times out a hung request and retries it", async () => {
    const s = await serverFor((_op, n) => (n === 1 ? "hang" : { status: 200, body: { results: [] } }));
    const system = await HttpSystem.connect(s.url, { timeoutMs: 300 });
    assert.deepEqual(await system.search("ns", { text: "bees", k: 3 }), []);
    assert.equal(s.count("search"), 2);
    const t = await serverFor(() => "hang");
    const stuck = await HttpSystem.connect(t.url, { timeoutMs: 100, retries: 1 });
    await rejectsWith(stuck.flush("ns"), /no answer within 100 ms \(2 attempts\)/);
  });
});

describe("http: answers are checked against the protocol", () => {
  it("refuses an answer that is not JSON, a malformed result, and more results than k", async () => {
    const s = await serverFor((op) =>
      op === "open"
        ? { status: 200, raw: "OK" }
        : op === "search"
          ? { status: 200, body: { results: [{ text: "bees", score: "high" }] } }
          : {
              status: 200,
              body: {
                results: [
                  { text: "a", score: 1 },
                  { text: "b", score: 0.5 },
                ],
              },
            },
    );
    const system = await HttpSystem.connect(s.url, { retries: 0 });
    await rejectsWith(system.open("ns"), /the answer is not JSON: OK/);
    await rejectsWith(system.search("ns", { text: "bees", k: 5 }), /does not follow protocol v1: results\[0\]\.score/);
    const capped = await serverFor(() => ({
      status: 200,
      body: {
        results: [
          { text: "a", score: 1 },
          { text: "b", score: 0.5 },
        ],
      },
    }));
    const other = await HttpSystem.connect(capped.url);
    await rejectsWith(other.search("ns", { text: "x", k: 1 }), /2 results for k = 1/);
  });

  it("sends the search as the protocol says, and asks for everything with the largest exact k", async () => {
    const s = await serverFor(() => ({ status: 200, body: { results: [] } }));
    const system = await HttpSystem.connect(s.url);
    await system.search("ns", { text: "bees", k: 5, time: "2024-06-01" });
    await system.search("ns", { text: "bees", k: Number.POSITIVE_INFINITY });
    const bodies = s.requests.filter((r) => r.url.endsWith("/search")).map((r) => r.body);
    assert.deepEqual(bodies, [
      { text: "bees", k: 5, time: "2024-06-01" },
      { text: "bees", k: Number.MAX_SAFE_INTEGER },
    ]);
  });

  it("does not call readback or answer when the caps say the server has none", async () => {
    const s = await serverFor(ok);
    const system = await HttpSystem.connect(s.url);
    await rejectsWith(system.readback("ns", ["s1"]), /caps say it has no readback/);
    await rejectsWith(system.answer("ns", { id: "q", question: "?" }), /caps say it does not answer/);
    assert.equal(s.requests.length, 1, "only the caps were asked");
  });
});

describe("http: namespaces, tokens, concurrency, keep-remote", () => {
  it("puts the namespace in one percent-encoded path segment", async () => {
    const s = await serverFor(ok);
    const system = await HttpSystem.connect(s.url);
    await system.open("ledger|conv-26/a b");
    assert.equal(s.requests.at(-1)!.url, "/base/ns/ledger%7Cconv-26%2Fa%20b/open");
    assert.equal(s.requests.at(-1)!.headers["content-type"], "application/json");
  });

  it("sends the bearer token from MEMBENCH_HTTP_TOKEN, or from the variable tokenEnv names", async () => {
    const s = await serverFor(ok);
    process.env.MEMBENCH_HTTP_TOKEN = "tok-default";
    process.env.MB_TEST_TOKEN = "tok-named";
    try {
      await (await HttpSystem.connect(s.url)).open("a");
      await (await HttpSystem.connect(s.url, { tokenEnv: "MB_TEST_TOKEN" })).open("b");
    } finally {
      delete process.env.MEMBENCH_HTTP_TOKEN;
      delete process.env.MB_TEST_TOKEN;
    }
    const opens = s.requests.filter((r) => r.url.endsWith("/open")).map((r) => r.headers.authorization);
    assert.deepEqual(opens, ["Bearer tok-default", "Bearer tok-named"]);
    await (await HttpSystem.connect(s.url)).open("c");
    assert.equal(s.requests.at(-1)!.headers.authorization, undefined, "no token when none is set");
  });

  it("says which variable to set when the server wants a token, and does not retry", async () => {
    const s = await serverFor(() => ({ status: 401, body: { error: "missing or wrong bearer token" } }));
    const system = await HttpSystem.connect(s.url);
    await rejectsWith(system.open("ns"), /401: missing or wrong bearer token; .*set MEMBENCH_HTTP_TOKEN/);
    assert.equal(s.count("open"), 1);
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    let inFlight = 0;
    let most = 0;
    const server = createServer((req, res) => {
      inFlight++;
      most = Math.max(most, inFlight);
      const body = req.url!.endsWith("/caps") ? CAPS : { results: [] };
      setTimeout(() => {
        inFlight--;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
      }, 60);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    servers.push({ close: () => new Promise((done) => server.close(() => done())) });
    const { port } = server.address() as AddressInfo;
    const system = await HttpSystem.connect(`http://127.0.0.1:${port}`, { concurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => system.search(`ns${i}`, { text: "x", k: 1 })));
    assert.equal(most, 2);
  });

  it("with --keep-remote, close leaves the namespace on the server", async () => {
    const s = await serverFor(ok);
    const kept = await httpSystemDefinition(s.url).create(
      HttpSystemOptionsSchema.parse({}),
      systemContext({ keepRemote: true }),
    );
    await kept.close("ns");
    assert.equal(s.count("close"), 0);
    const plain = await HttpSystem.connect(s.url);
    await plain.close("ns");
    assert.equal(s.count("close"), 1);
  });
});
