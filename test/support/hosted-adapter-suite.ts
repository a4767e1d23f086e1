/**
 * The checks every hosted adapter must pass against its local server: the
 * conformance kit with every request well formed, a missing key, a refused key,
 * a 429 retried after its Retry-After, a flush that never finishes, and close
 * deleting the remote object unless keepRemote. Each adapter's own test adds what
 * is particular to it (its time fields, its provenance).
 */
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { ConfigError, SystemError } from "../../src/core/errors.ts";
import { assertConformance } from "../../src/systems/conformance.ts";
import type { MemorySystem } from "../../src/systems/types.ts";
import type { RemoteServer } from "./remote-server.ts";

export interface HostedDeps {
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number) => Promise<void>;
}

export interface HostedSuite<S extends RemoteServer & { pendingPolls: number }> {
  name: string;
  keyEnv: string;
  start(key: string): Promise<S>;
  /** Makes the system with raw options (baseUrl and timings are added) through the adapter's schema. */
  create(options: Record<string, unknown>, context: { keepRemote?: boolean }, deps: HostedDeps): Promise<MemorySystem>;
  /** Requests that write a batch, for the injected 429. */
  ingestPath: RegExp;
  /** How much the server still holds for the remote object made for the last namespace opened. */
  remaining(server: S): number;
  /** Options the adapter needs besides baseUrl (e.g. the base URL's path). */
  baseUrl?(server: S): string;
  /** When the adapter processes synchronously there is no flush to time out. */
  asynchronous?: boolean;
}

export const SAMPLE_BATCH = {
  sessionId: "s1",
  sessionIndex: 0,
  time: "2024-01-05T09:00:00Z",
  turns: [
    { id: "s1-t1", role: "user" as const, speaker: "Ana", content: "I adopted a retired greyhound named Zephyrine." },
    { id: "s1-t2", role: "assistant" as const, content: "Zephyrine is a lovely name for a greyhound." },
  ],
};

/** Runs the common checks, then `particular` (the adapter's own tests) in the same describe, with the same server. */
export function hostedAdapterSuite<S extends RemoteServer & { pendingPolls: number }>(
  suite: HostedSuite<S>,
  particular: (server: () => S, env: NodeJS.ProcessEnv) => void,
): void {
  const KEY = `${suite.name}-local-key`;
  const env = { [suite.keyEnv]: KEY };
  let server: S;
  const base = (extra: Record<string, unknown> = {}) => ({
    baseUrl: suite.baseUrl ? suite.baseUrl(server) : server.url,
    pollIntervalMs: 1,
    flushTimeoutMs: 2000,
    ...extra,
  });

  describe(`${suite.name} adapter against a local ${suite.name} server`, () => {
    before(async () => {
      server = await suite.start(KEY);
    });
    after(() => server.close());
    beforeEach(() => {
      server.requests.length = 0;
      server.pendingPolls = 1;
    });

    it("passes the conformance kit, with every request well formed and authorised", async () => {
      await assertConformance(() => suite.create(base(), {}, { env }));
      assert.deepEqual(server.rejected, []);
      assert.ok(server.requests.length > 0);
    });

    it("refuses to start without a key, naming the variable", async () => {
      await assert.rejects(suite.create(base(), {}, { env: {} }), (e: unknown) => {
        assert.ok(e instanceof ConfigError, String(e));
        assert.match(e.message, new RegExp(suite.keyEnv));
        return true;
      });
    });

    it("turns a refused key into an error at create, naming the variable", async () => {
      await assert.rejects(
        suite.create(base({ apiKeyEnv: "SOME_OTHER_KEY" }), {}, { env: { SOME_OTHER_KEY: "wrong" } }),
        (e: unknown) => {
          assert.ok(e instanceof SystemError, String(e));
          assert.match(e.message, /refused the API key in SOME_OTHER_KEY \(HTTP 401\)/);
          return true;
        },
      );
    });

    it("retries a 429, waiting at least the Retry-After it was given, then succeeds", async () => {
      const waits: number[] = [];
      const sleep = async (ms: number) => {
        waits.push(ms);
      };
      const system = await suite.create(base(), {}, { env, sleep });
      await system.open("ep-429");
      const before = server.requests.filter((r) => suite.ingestPath.test(`${r.method} ${r.path}`)).length;
      server.fail({ status: 429, retryAfter: "3", match: suite.ingestPath });
      await system.ingest("ep-429", SAMPLE_BATCH);
      assert.ok(
        waits.some((w) => w >= 3000),
        `waited ${waits.join(", ")} ms`,
      );
      const after = server.requests.filter((r) => suite.ingestPath.test(`${r.method} ${r.path}`)).length;
      assert.ok(after - before >= 2, "the refused request was sent again");
      await system.close("ep-429");
    });

    it("gives up after 3 attempts of a 503 with an error naming the status", async () => {
      const system = await suite.create(base({ retries: 2 }), {}, { env, sleep: async () => {} });
      await system.open("ep-503");
      server.fail(...[1, 2, 3].map(() => ({ status: 503, match: suite.ingestPath })));
      await assert.rejects(system.ingest("ep-503", SAMPLE_BATCH), /HTTP 503 after 3 attempts/);
      await system.close("ep-503");
    });

    if (suite.asynchronous !== false) {
      it("gives up on a flush that never finishes with a clear timeout error", async () => {
        server.pendingPolls = Number.POSITIVE_INFINITY;
        const system = await suite.create(base({ flushTimeoutMs: 30 }), {}, { env });
        await system.open("ep-slow");
        await system.ingest("ep-slow", SAMPLE_BATCH);
        await assert.rejects(system.flush!("ep-slow"), /still not processed after .*raise flushTimeoutMs/);
        server.pendingPolls = 1;
        await system.close("ep-slow");
      });
    }

    it("deletes the remote object at close, and keeps it with keepRemote", async () => {
      for (const keepRemote of [false, true]) {
        const system = await suite.create(base(), { keepRemote }, { env });
        await system.open("ep-close");
        await system.ingest("ep-close", SAMPLE_BATCH);
        await system.flush?.("ep-close");
        assert.ok(suite.remaining(server) > 0, "the server holds the ingested data");
        await system.close("ep-close");
        assert.equal(suite.remaining(server) > 0, keepRemote, `keepRemote ${keepRemote}`);
      }
    });

    particular(() => server, env);
  });
}
