import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createEmbedder } from "../../src/embed/create.ts";
import type { Embedder } from "../../src/embed/types.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { ROUTES } from "../../src/ledger/service/openapi.ts";
import { startLedgerService } from "../../src/ledger/service/server.ts";
import type { Listening } from "../../src/util/http-server.ts";

interface Reply {
  status: number;
  body: Record<string, unknown> & { error?: string; field?: string };
}

function client(base: string, token?: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const res = await fetch(new URL(path, base), {
      method,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Reply["body"] };
  };
}

const s1 = {
  sessionId: "s1",
  time: "2024-03-01",
  turns: [
    { id: "t1", role: "user", content: "I live in Berlin now and I love hiking." },
    { id: "t2", role: "assistant", content: "Berlin has good trails nearby." },
  ],
};
const s2 = {
  sessionId: "s2",
  time: "2024-06-01",
  turns: [{ id: "t3", role: "user", content: "I moved to Lisbon last week." }],
};

type Memory = { id: string; attribute: string; value: string; status: string; sessionId: string };
type Hit = { sessionIds: string[]; memories: Memory[] };

describe("ledger service (HTTP)", () => {
  let dir: string;
  let ledger: Ledger;
  let service: Listening;
  let call: ReturnType<typeof client>;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "ledger-service-"));
    ledger = new Ledger({ path: join(dir, "store.sqlite"), embedder: await createEmbedder("hashing:64") });
    service = await startLedgerService({
      ledger,
      info: { store: join(dir, "store.sqlite"), embedder: "hashing:64", extractor: "offline rules" },
      port: 0,
      maxBody: 64 * 1024,
    });
    call = client(service.url);
  });
  after(async () => {
    await service.close();
    ledger.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("adds sessions, resolves the update, and searches as of a time", async () => {
    const added = await call("POST", "/v1/namespaces/alice/sessions", s1);
    assert.equal(added.status, 200, added.body.error);
    assert.equal(added.body.turns, 2);
    const moved = await call("POST", "/v1/namespaces/alice/sessions", s2);
    assert.deepEqual(
      (moved.body.links as Array<{ relation: string }>).map((l) => l.relation),
      ["supersedes"],
    );
    const found = await call("POST", "/v1/namespaces/alice/search", { query: "Lisbon", k: 2, at: "2024-07-01" });
    assert.equal(found.status, 200);
    const hits = found.body.hits as Hit[];
    assert.deepEqual(hits[0]?.sessionIds, ["s2"]);
    // The superseded value comes back beside its successor.
    assert.deepEqual(hits[1]?.sessionIds, ["s1"]);
    const health = await call("GET", "/v1/health");
    assert.deepEqual(health.body, {
      ok: true,
      store: join(dir, "store.sqlite"),
      embedder: "hashing:64",
      extractor: "offline rules",
      namespaces: 1,
    });
    assert.deepEqual((await call("GET", "/v1/namespaces")).body, { namespaces: ["alice"] });
  });

  it("renders a flagged context within a token budget", async () => {
    const r = await call("POST", "/v1/namespaces/alice/context", { query: "where do I live?", k: 3, at: "2024-07-01" });
    assert.equal(r.status, 200, r.body.error);
    assert.match(String(r.body.text), /\[residence: updated on 2024-06-01, now "Lisbon"\]/);
    assert.ok(Number(r.body.tokens) > 0);
    const tiny = await call("POST", "/v1/namespaces/alice/context", { query: "where do I live?", tokenBudget: 1 });
    assert.equal(tiny.body.text, "");
    assert.equal(tiny.body.used, 0);
  });

  it("answers what held at a time, every version, and one memory", async () => {
    const then = await call("GET", "/v1/namespaces/alice/memories?attribute=residence&at=2024-04-01");
    assert.deepEqual(
      (then.body.memories as Memory[]).map((m) => m.value),
      ["Berlin"],
    );
    const now = await call("GET", "/v1/namespaces/alice/memories?attribute=residence");
    const [lisbon] = now.body.memories as Memory[];
    assert.equal(lisbon?.value, "Lisbon");
    const history = await call("GET", `/v1/namespaces/alice/memories/${lisbon!.id}/history`);
    assert.deepEqual(
      (history.body.versions as Memory[]).map((m) => [m.value, m.status]),
      [
        ["Berlin", "superseded"],
        ["Lisbon", "active"],
      ],
    );
    const one = await call("GET", `/v1/namespaces/alice/memories/${encodeURIComponent(lisbon!.id)}`);
    assert.equal(one.body.value, "Lisbon");
  });

  it("forgetting hides a memory from search but not from history", async () => {
    await call("POST", "/v1/namespaces/bob/sessions", {
      sessionId: "b1",
      time: "2024-01-01",
      turns: [{ id: "b1t1", role: "user", content: "I love sushi." }],
    });
    const [sushi] = (await call("GET", "/v1/namespaces/bob/memories?attribute=preference:sushi")).body
      .memories as Memory[];
    assert.ok(sushi, "the preference was read");
    const shownBefore = (await call("POST", "/v1/namespaces/bob/search", { query: "sushi" })).body.hits as Hit[];
    assert.ok(shownBefore.some((h) => h.memories.some((m) => m.id === sushi.id)));
    const forgot = await call("POST", `/v1/namespaces/bob/memories/${sushi.id}/forget`, { at: "2024-02-01" });
    assert.equal(forgot.body.status, "retired");
    const shownAfter = (await call("POST", "/v1/namespaces/bob/search", { query: "sushi" })).body.hits as Hit[];
    assert.ok(!shownAfter.some((h) => h.memories.some((m) => m.id === sushi.id)));
    const history = await call("GET", `/v1/namespaces/bob/memories/${sushi.id}/history`);
    assert.deepEqual(
      (history.body.versions as Memory[]).map((m) => m.status),
      ["retired"],
    );
  });

  it("exports a namespace and imports it into an empty one, never a full one", async () => {
    const out = await call("GET", "/v1/namespaces/alice/export");
    assert.equal(out.body.format, "membench-ledger");
    const imported = await call("POST", "/v1/namespaces/alice-copy/import", out.body);
    assert.equal(imported.status, 200, imported.body.error);
    assert.deepEqual(imported.body, { imported: "alice-copy", sessions: 2, turns: 3, memories: 3 });
    const hits = (await call("POST", "/v1/namespaces/alice-copy/search", { query: "Lisbon", k: 1 })).body.hits as Hit[];
    assert.deepEqual(hits[0]?.sessionIds, ["s2"]);
    const again = await call("POST", "/v1/namespaces/alice-copy/import", out.body);
    assert.equal(again.status, 409);
    assert.match(String(again.body.error), /not empty/);
    const dropped = await call("DELETE", "/v1/namespaces/alice-copy");
    assert.deepEqual(dropped.body, { dropped: "alice-copy" });
    assert.equal((await call("POST", "/v1/namespaces/alice-copy/search", { query: "Lisbon" })).status, 404);
  });

  it("refuses a bad body with a 400 naming the field, and writes nothing", async () => {
    const bad = await call("POST", "/v1/namespaces/carol/sessions", {
      sessionId: "c1",
      turns: [{ id: "c1t1", role: "bot", content: "hello" }],
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.field, "turns[0].role");
    assert.match(String(bad.body.error), /^turns\[0\]\.role: /);
    // Refused before anything was written: the namespace was not even created.
    assert.ok(!((await call("GET", "/v1/namespaces")).body.namespaces as string[]).includes("carol"));
    const twice = await call("POST", "/v1/namespaces/carol/sessions", {
      sessionId: "c1",
      turns: [
        { id: "c1t1", role: "user", content: "I live in Oslo." },
        { id: "c1t1", role: "user", content: "I live in Bergen." },
      ],
    });
    assert.equal(twice.status, 400);
    assert.equal(twice.body.field, "turns[1].id");
    assert.match(String(twice.body.error), /duplicate turn id "c1t1"/);
    const time = await call("POST", "/v1/namespaces/alice/search", { query: "x", at: "last tuesday-ish" });
    assert.equal(time.body.field, "at");
    const unknown = await call("POST", "/v1/namespaces/alice/search", { query: "x", kk: 3 });
    assert.equal(unknown.status, 400);
    assert.match(String(unknown.body.error), /unknown field\(s\) kk/);
    const notJson = await call("POST", "/v1/namespaces/alice/search", "{not json");
    assert.equal(notJson.status, 400);
    assert.match(String(notJson.body.error), /not valid JSON/);
    const plain = await call("POST", "/v1/namespaces/alice/search", JSON.stringify({ query: "x" }), {
      "content-type": "text/plain",
    });
    assert.equal(plain.status, 415);
    const big = await call("POST", "/v1/namespaces/alice/search", { query: "x".repeat(70 * 1024) });
    assert.equal(big.status, 413);
  });

  it("answers 404 for an unknown namespace, memory or route", async () => {
    const ns = await call("POST", "/v1/namespaces/nobody/search", { query: "x" });
    assert.equal(ns.status, 404);
    assert.match(String(ns.body.error), /no namespace "nobody"/);
    assert.equal((await call("GET", "/v1/namespaces/alice/memories/m_nope")).status, 404);
    assert.equal((await call("GET", "/v1/namespaces/alice/memories/m_nope/history")).status, 404);
    assert.equal((await call("GET", "/v2/health")).status, 404);
    assert.equal((await call("PUT", "/v1/namespaces/alice/sessions", s1)).status, 404);
  });

  it("describes itself in OpenAPI, and answers every route it describes", async () => {
    const doc = (await call("GET", "/v1/openapi.json")).body as {
      openapi: string;
      paths: Record<
        string,
        Record<string, { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }>
      >;
    };
    assert.equal(doc.openapi, "3.1.0");
    const sessions = doc.paths["/v1/namespaces/{ns}/sessions"]?.post?.requestBody?.content["application/json"];
    assert.deepEqual(sessions?.schema.required?.sort(), ["sessionId", "turns"]);
    await call("POST", "/v1/namespaces/zed/sessions", {
      sessionId: "z1",
      turns: [{ id: "z1t", role: "user", content: "I live in Bergen." }],
    });
    const [bergen] = (await call("GET", "/v1/namespaces/zed/memories?attribute=residence")).body.memories as Memory[];
    for (const route of ROUTES) {
      const path = route.path.replace("{ns}", "zed").replace("{id}", bergen!.id);
      const r = await call(route.method, path, route.method === "POST" ? {} : undefined);
      assert.doesNotMatch(String(r.body.error ?? ""), /^no route/, `${route.method} ${route.path}`);
    }
  });

  it("refuses a foreign Host header (DNS rebinding)", async () => {
    const { port } = new URL(service.url);
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: "127.0.0.1", port, path: "/v1/health", headers: { host: `evil.example:${port}` } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end();
    });
    assert.equal(status, 403);
  });

  it("keeps the store across a restart", async () => {
    await service.close();
    ledger.close();
    ledger = new Ledger({ path: join(dir, "store.sqlite"), embedder: await createEmbedder("hashing:64") });
    service = await startLedgerService({ ledger, info: { store: "x", extractor: "offline rules" }, port: 0 });
    call = client(service.url);
    const hits = (await call("POST", "/v1/namespaces/alice/search", { query: "Lisbon", k: 1 })).body.hits as Hit[];
    assert.deepEqual(hits[0]?.sessionIds, ["s2"]);
  });
});

describe("ledger service writes", () => {
  it("serialises concurrent writes to one namespace", async () => {
    // Embedding takes time, as with a remote endpoint: unserialised adds would all read the
    // session before any of them wrote, and give every part position 0.
    const hashing = await createEmbedder("hashing:64");
    const slow: Embedder = {
      id: hashing.id,
      dim: hashing.dim,
      embed: async (texts) => {
        await sleep(15);
        return hashing.embed(texts);
      },
    };
    const ledger = new Ledger({ embedder: slow });
    const service = await startLedgerService({
      ledger,
      info: { store: ":memory:", extractor: "offline rules" },
      port: 0,
    });
    const call = client(service.url);
    try {
      const parts = Array.from({ length: 6 }, (_, i) => ({
        sessionId: "shared",
        time: "2024-08-01",
        turns: [{ id: `p${i}`, role: "user", content: `Part ${i} of the story about the lighthouse.` }],
      }));
      const replies = await Promise.all(parts.map((s) => call("POST", "/v1/namespaces/dave/sessions", s)));
      assert.ok(replies.every((r) => r.status === 200));
      const out = (await call("GET", "/v1/namespaces/dave/export")).body as {
        turns: Array<{ id: string; position: number }>;
      };
      assert.deepEqual(
        out.turns.map((t) => t.position).sort((a, b) => a - b),
        [0, 1, 2, 3, 4, 5],
      );
      assert.equal(new Set(out.turns.map((t) => t.id)).size, 6);
    } finally {
      await service.close();
      ledger.close();
    }
  });
});

describe("ledger service with a token", () => {
  it("refuses requests without the bearer token", async () => {
    const ledger = new Ledger();
    const service = await startLedgerService({
      ledger,
      info: { store: ":memory:", extractor: "offline rules" },
      port: 0,
      token: "s3cret",
    });
    try {
      const anonymous = await client(service.url)("GET", "/v1/health");
      assert.equal(anonymous.status, 401);
      const wrong = await client(service.url, "guess")("GET", "/v1/health");
      assert.equal(wrong.status, 401);
      const right = await client(service.url, "s3cret")("GET", "/v1/health");
      assert.equal(right.status, 200);
    } finally {
      await service.close();
      ledger.close();
    }
  });
});
