import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { ConfigError, SystemError } from "../../src/core/errors.ts";
import { assertConformance } from "../../src/systems/conformance.ts";
import { createMem0System, type Mem0Options, Mem0Options as Schema } from "../../src/systems/mem0.ts";
import { type Mem0Server, startMem0Server } from "../support/mem0-server.ts";

const KEY = "m0-test-key";
const env = { MEM0_API_KEY: KEY };
const noSleep = async () => {};

function options(server: Mem0Server, extra: Partial<Mem0Options> = {}): Mem0Options {
  return Schema.parse({ baseUrl: server.url, pollIntervalMs: 1, flushTimeoutMs: 2000, ...extra });
}

const batch = {
  sessionId: "s1",
  sessionIndex: 0,
  time: "1:56 pm on 8 May, 2023",
  turns: [
    { id: "s1-t1", role: "user" as const, speaker: "Caroline", content: "I adopted a greyhound named Zephyrine." },
    { id: "s1-t2", role: "assistant" as const, content: "Zephyrine is a lovely name." },
  ],
};

describe("mem0 adapter against a local mem0 platform", () => {
  let server: Mem0Server;
  before(async () => {
    server = await startMem0Server(KEY);
  });
  after(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.pendingPolls = 1;
  });

  it("passes the conformance kit, with every request well formed", async () => {
    await assertConformance(() => createMem0System(options(server), {}, { env }));
    assert.deepEqual(server.rejected, []);
  });

  it("sends the session date as mem0's timestamp and provenance as metadata, and reads both back", async () => {
    const system = await createMem0System(options(server), {}, { env });
    await system.open("ep-1");
    await system.ingest("ep-1", batch);
    const add = server.requests.find((r) => r.path === "/v3/memories/add/");
    const body = add!.body as Record<string, unknown>;
    // LoCoMo's "1:56 pm on 8 May, 2023" is read to its day, as everywhere in membench.
    assert.equal(body.timestamp, Date.UTC(2023, 4, 8) / 1000);
    assert.deepEqual(body.metadata, {
      membench_session: "s1",
      membench_turns: ["s1-t1", "s1-t2"],
      membench_time: "2023-05-08T00:00:00.000Z",
    });
    assert.deepEqual(body.messages, [
      { role: "user", content: "Caroline: I adopted a greyhound named Zephyrine." },
      { role: "assistant", content: "Zephyrine is a lovely name." },
    ]);
    assert.equal(add!.headers.authorization, `Token ${KEY}`);
    // Not searchable until the platform's event has finished: flush waits for it.
    assert.deepEqual(await system.search("ep-1", { text: "greyhound Zephyrine", k: 5 }), []);
    await system.flush("ep-1");
    const [hit] = await system.search("ep-1", { text: "greyhound Zephyrine", k: 5 });
    assert.deepEqual(hit!.sessionIds, ["s1"]);
    assert.deepEqual(hit!.turnIds, ["s1-t1", "s1-t2"]);
    assert.equal(hit!.time, "2023-05-08T00:00:00.000Z");
    const search = server.requests.find((r) => r.path === "/v3/memories/search/");
    assert.equal((search!.body as { top_k: number }).top_k, 5);
    await system.close("ep-1");
  });

  it("refuses to start without a key, naming the variable", async () => {
    await assert.rejects(createMem0System(options(server), {}, { env: {} }), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /MEM0_API_KEY/);
      return true;
    });
  });

  it("turns a refused key into an error at create, naming the variable", async () => {
    await assert.rejects(
      createMem0System(options(server, { apiKeyEnv: "OTHER_KEY" }), {}, { env: { OTHER_KEY: "wrong" } }),
      (e: unknown) => {
        assert.ok(e instanceof SystemError);
        assert.match(e.message, /refused the API key in OTHER_KEY \(HTTP 401\)/);
        return true;
      },
    );
  });

  // mem0ai's client keeps no response headers on its errors, so Retry-After cannot be read: backoff only.
  it("retries a 429 with backoff and then succeeds", async () => {
    const waits: number[] = [];
    const system = await createMem0System(
      options(server),
      {},
      {
        env,
        sleep: async (ms) => {
          waits.push(ms);
        },
      },
    );
    await system.open("ep-429");
    server.fail({ status: 429, retryAfter: "2", match: /add/ });
    await system.ingest("ep-429", batch);
    assert.equal(waits.length, 1);
    assert.equal(server.requests.filter((r) => r.path === "/v3/memories/add/").length, 2);
    await system.close("ep-429");
  });

  it("gives up on a flush that never finishes with a clear timeout error", async () => {
    server.pendingPolls = Number.POSITIVE_INFINITY;
    const system = await createMem0System(options(server, { flushTimeoutMs: 30 }), {}, { env });
    await system.open("ep-slow");
    await system.ingest("ep-slow", batch);
    await assert.rejects(system.flush("ep-slow"), /still not processed after .*raise flushTimeoutMs/);
    await system.close("ep-slow");
  });

  it("deletes the user's memories at close, unless keepRemote", async () => {
    for (const keepRemote of [false, true]) {
      const system = await createMem0System(options(server), { keepRemote }, { env, sleep: noSleep });
      await system.open("ep-close");
      await system.ingest("ep-close", batch);
      await system.flush("ep-close");
      const userId = server.memories.at(-1)!.userId;
      await system.close("ep-close");
      const left = server.memories.filter((m) => m.userId === userId).length;
      assert.equal(left, keepRemote ? 2 : 0, `keepRemote ${keepRemote}`);
      const deletes = server.requests.filter((r) => r.method === "DELETE" && r.query.get("user_id") === userId);
      assert.equal(deletes.length, keepRemote ? 0 : 1);
    }
  });

  it("refuses a k above maxResults instead of cutting the result silently", async () => {
    const system = await createMem0System(options(server, { maxResults: 20 }), {}, { env });
    await system.open("ep-k");
    await assert.rejects(system.search("ep-k", { text: "x", k: 50 }), /k = 50 is above the 20/);
    await system.close("ep-k");
  });
});
