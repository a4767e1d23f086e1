import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createEmbedder } from "../../src/embed/create.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { SystemProtocolApi } from "../../src/ledger/service/protocol.ts";
import { startLedgerService } from "../../src/ledger/service/server.ts";
import { runConformance } from "../../src/systems/conformance.ts";
import { HttpSystem } from "../../src/systems/http.ts";
import { PROTOCOL_ROUTES, protocolOpenApi } from "../../src/systems/http-openapi.ts";
import { batchIdOf } from "../../src/systems/http-protocol.ts";
import type { IngestBatch, MemorySystem } from "../../src/systems/types.ts";
import type { Listening } from "../../src/util/http-server.ts";
import { RequestError } from "../../src/util/http-server.ts";

interface Reply {
  status: number;
  body: Record<string, unknown> & { error?: string; field?: string };
}

function client(base: string, token?: string) {
  return async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(body !== undefined ? { "content-type": "application/json" } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as Reply["body"] };
  };
}

const BATCH: IngestBatch = {
  sessionId: "s1",
  sessionIndex: 0,
  time: "2024-03-01",
  turns: [
    { id: "t1", role: "user", content: "I live in Berlin now and I love hiking." },
    { id: "t2", role: "assistant", content: "Berlin has good trails nearby." },
  ],
};

describe("membench serve: the HTTP system protocol at /v1/systems/ledger", () => {
  let ledger: Ledger;
  let service: Listening;
  let base: string;
  let call: ReturnType<typeof client>;

  before(async () => {
    ledger = new Ledger({ embedder: await createEmbedder("hashing:64") });
    service = await startLedgerService({
      ledger,
      info: { store: ":memory:", embedder: "hashing:64", extractor: "offline rules" },
      port: 0,
    });
    base = `${service.url}v1/systems/ledger`;
    call = client(base);
  });
  after(async () => {
    await service.close();
    ledger.close();
  });

  it("answers caps with the protocol version, its name and version, the ledger's caps and the store's info", async () => {
    const caps = await call("GET", "/caps");
    assert.equal(caps.status, 200);
    assert.deepEqual(caps.body, {
      protocolVersion: "1.0",
      name: "membench-ledger",
      version: caps.body.version,
      caps: { granularity: "session", ranked: true, provenance: true, readback: true, nativeAnswer: false },
      info: { store: ":memory:", embedder: "hashing:64", extractor: "offline rules" },
    });
    assert.match(String(caps.body.version), /^\d+\.\d+\.\d+/);
  });

  it("serves the protocol's OpenAPI document, and answers every route it describes", async () => {
    const doc = await call("GET", "/openapi.json");
    assert.deepEqual(doc.body, protocolOpenApi());
    await call("POST", "/ns/every/open", {});
    for (const route of PROTOCOL_ROUTES) {
      const path = route.path.replace("{ns}", "every");
      const r = await call(route.method.toUpperCase(), path, route.method === "post" ? {} : undefined);
      assert.doesNotMatch(String(r.body.error ?? ""), /^no (route|operation)/, `${route.method} ${route.path}`);
    }
  });

  it("passes the conformance kit through the http client", async () => {
    const report = await runConformance(() => HttpSystem.connect(base));
    const failed = report.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
    assert.deepEqual(failed, []);
    assert.equal(report.checks.filter((c) => c.skipped).length, 0, "provenance and readback were checked, not skipped");
  });

  it("keeps a unit's namespace in the store under its own name (any characters) until close erases it", async () => {
    const ns = "ledger|conv-26/a b";
    const path = `/ns/${encodeURIComponent(ns)}`;
    assert.equal((await call("POST", `${path}/open`, {})).status, 200);
    const ingested = await call("POST", `${path}/ingest`, { batchId: batchIdOf(BATCH), batch: BATCH });
    assert.deepEqual(ingested, { status: 200, body: { ok: true } });
    const listed = (await client(service.url)("GET", "v1/namespaces")).body.namespaces as string[];
    assert.ok(listed.includes(ns), `${listed.join(", ")}`);
    const found = await call("POST", `${path}/search`, { text: "where do I live", k: 3, time: "2024-04-01" });
    const results = found.body.results as Array<{ sessionIds: string[]; turnIds: string[]; score: number }>;
    assert.ok(results.length > 0);
    assert.deepEqual(results[0]!.sessionIds, ["s1"]);
    assert.ok(results[0]!.turnIds.includes("t1"));
    // A retried batch is answered as a duplicate, and nothing more is written.
    const again = await call("POST", `${path}/ingest`, { batchId: batchIdOf(BATCH), batch: BATCH });
    assert.deepEqual(again.body, { ok: true, duplicate: true });
    const back = (await call("POST", `${path}/readback`, { sessionIds: ["s1"] })).body.results as Array<{
      kind: string;
    }>;
    assert.equal(back.filter((r) => r.kind === "turn").length, 2);
    assert.deepEqual((await call("POST", `${path}/close`, {})).body, { ok: true });
    const left = (await client(service.url)("GET", "v1/namespaces")).body.namespaces as string[];
    assert.ok(!left.includes(ns));
    assert.deepEqual((await call("POST", `${path}/close`, {})).body, { ok: true }, "closing again is harmless");
  });

  it("answers mistakes with JSON errors and the right status", async () => {
    await call("POST", "/ns/err/open", {});
    const notOpen = await call("POST", "/ns/never/search", { text: "x", k: 1 });
    assert.equal(notOpen.status, 404);
    assert.equal(notOpen.body.field, "ns");
    assert.match(
      notOpen.body.error!,
      /namespace "never" is not open; POST \/v1\/systems\/ledger\/ns\/never\/open first/,
    );
    const badRole = await call("POST", "/ns/err/ingest", {
      batchId: "b1",
      batch: { ...BATCH, turns: [{ id: "t", role: "robot", content: "hi" }] },
    });
    assert.equal(badRole.status, 400);
    assert.equal(badRole.body.field, "batch.turns[0].role");
    const misspelt = await call("POST", "/ns/err/search", { query: "x", k: 1 });
    assert.equal(misspelt.status, 400);
    assert.equal(misspelt.body.field, "text");
    const unknown = await call("POST", "/ns/err/search", { text: "x", k: 1, tiem: "2024-01-01" });
    assert.match(unknown.body.error!, /unknown field\(s\) tiem/);
    const noId = await call("POST", "/ns/err/ingest", { batch: BATCH });
    assert.equal(noId.body.field, "batchId");
    const answer = await call("POST", "/ns/err/answer", { probe: { id: "q", question: "?" } });
    assert.equal(answer.status, 501);
    assert.match(answer.body.error!, /caps\.nativeAnswer is false/);
    assert.equal((await call("GET", "/ns/err/search")).status, 404);
    const other = await client(service.url)("GET", "v1/systems/mem0/caps");
    assert.equal(other.status, 404);
    assert.match(other.body.error!, /\/v1\/systems\/ledger/);
  });
});

describe("membench serve: the protocol routes share the service's token", () => {
  it("refuses a request without the bearer token, and the client with it passes", async () => {
    const ledger = new Ledger();
    const service = await startLedgerService({
      ledger,
      info: { store: ":memory:", extractor: "offline rules" },
      port: 0,
      token: "s3cret",
    });
    try {
      const base = `${service.url}v1/systems/ledger`;
      assert.equal((await client(base)("GET", "/caps")).status, 401);
      process.env.MEMBENCH_HTTP_TOKEN = "s3cret";
      const system = await HttpSystem.connect(base);
      await system.open("a");
      await system.close("a");
    } finally {
      delete process.env.MEMBENCH_HTTP_TOKEN;
      await service.close();
      ledger.close();
    }
  });
});

describe("membench serve: a write whose extraction fails", () => {
  it("keeps the turns but fails the ingest (500, retried by the client), and a retry that extracts succeeds", async () => {
    let failures = 1;
    const extractor = {
      id: "flaky",
      extract: async () => {
        if (failures-- > 0) throw new Error("model endpoint down");
        return [];
      },
    };
    const ledger = new Ledger({ extractor, onExtractionError: "keep-turns" });
    const service = await startLedgerService({ ledger, info: { store: ":memory:", extractor: "flaky" }, port: 0 });
    try {
      const base = `${service.url}v1/systems/ledger`;
      const call = client(base);
      await call("POST", "/ns/a/open", {});
      const failed = await call("POST", "/ns/a/ingest", { batchId: batchIdOf(BATCH), batch: BATCH });
      assert.equal(failed.status, 500);
      assert.match(failed.body.error!, /session s1: stored without memories: .*model endpoint down/);
      // The client's retry of the same batch is applied (the failed attempt did not count) and extracts again.
      const system = await HttpSystem.connect(base);
      failures = 1;
      await system.ingest("a", BATCH);
      assert.equal(failures, -1, "the client's first attempt failed again (500) and its retry extracted");
      const turns = (await system.readback("a", ["s1"])).filter((r) => r.kind === "turn");
      assert.deepEqual(
        turns.map((t) => t.turnIds),
        [["t1"], ["t2"]],
      );
    } finally {
      await service.close();
      ledger.close();
    }
  });
});

/** A system whose ingests wait until the test lets them finish, and which counts them. */
function gatedSystem() {
  const applied: string[] = [];
  let release: (failure?: Error) => void = () => {};
  const system: MemorySystem = {
    id: "gated",
    caps: { granularity: "session", ranked: true, provenance: true, readback: false, nativeAnswer: false },
    open: async () => {},
    close: async () => {},
    search: async () => [],
    ingest: (_ns, batch) =>
      new Promise<void>((resolve, reject) => {
        release = (failure) => {
          if (failure) reject(failure);
          else {
            applied.push(batch.sessionId);
            resolve();
          }
        };
      }),
  };
  return { system, applied, release: (failure?: Error) => release(failure) };
}

describe("the reference server: idempotent ingest", () => {
  const body = () => Promise.resolve({ batchId: batchIdOf(BATCH), batch: BATCH });
  const empty = () => Promise.resolve({});

  it("applies a batch once when its retry arrives while the first attempt is still being written", async () => {
    const { system, applied, release } = gatedSystem();
    const api = new SystemProtocolApi(system, { name: "gated", version: "1" });
    await api.handle("POST", ["ns", "a", "open"], empty);
    const first = api.handle("POST", ["ns", "a", "ingest"], body);
    await new Promise((r) => setImmediate(r));
    const retry = api.handle("POST", ["ns", "a", "ingest"], body);
    release();
    assert.deepEqual((await first).body, { ok: true });
    assert.deepEqual((await retry).body, { ok: true, duplicate: true });
    assert.deepEqual(applied, ["s1"]);
  });

  it("applies the retry when the first attempt failed, and again after close and open", async () => {
    const { system, applied, release } = gatedSystem();
    const api = new SystemProtocolApi(system, { name: "gated", version: "1" });
    await api.handle("POST", ["ns", "a", "open"], empty);
    const first = api.handle("POST", ["ns", "a", "ingest"], body);
    await new Promise((r) => setImmediate(r));
    release(new Error("disk full"));
    await assert.rejects(first, /disk full/);
    const retry = api.handle("POST", ["ns", "a", "ingest"], body);
    await new Promise((r) => setImmediate(r));
    release();
    assert.deepEqual((await retry).body, { ok: true });
    assert.deepEqual(applied, ["s1"]);
    await api.handle("POST", ["ns", "a", "close"], empty);
    await api.handle("POST", ["ns", "a", "open"], empty);
    const fresh = api.handle("POST", ["ns", "a", "ingest"], body);
    await new Promise((r) => setImmediate(r));
    release();
    assert.deepEqual((await fresh).body, { ok: true }, "a closed namespace forgets its batches");
    assert.deepEqual(applied, ["s1", "s1"]);
  });

  it("refuses an ingest into a namespace that is not open", async () => {
    const { system } = gatedSystem();
    const api = new SystemProtocolApi(system, { name: "gated", version: "1" });
    await assert.rejects(
      api.handle("POST", ["ns", "a", "ingest"], body),
      (e: unknown) => e instanceof RequestError && e.status === 404,
    );
  });
});
