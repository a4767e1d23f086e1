/**
 * Model limits shared through Redis: two limiters with their own connections
 * stand for two worker processes (the pool test runs real workers); a private
 * redis-server on a free port (test/support/redis.ts).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createChatModel } from "../../src/llm/create.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { RedisCallLimiter } from "../../src/llm/shared-limits.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";
import { assertRate } from "../support/rate.ts";
import { findRedisServer, redisSkip, startRedis, type TestRedis } from "../support/redis.ts";

const lookup = findRedisServer();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("shared model limits over Redis", { skip: redisSkip(lookup, "the shared-limit tests") }, () => {
  let redis: TestRedis;
  let stub: OpenAIStub;
  before(async () => {
    redis = await startRedis(lookup);
    stub = await startOpenAIStub({ latencyMs: 40 });
  });
  after(async () => {
    await stub?.close();
    await redis?.close();
  });

  it("holds concurrency across limiters: never more calls in flight than the global limit", async () => {
    const key = `conc-${Date.now()}`;
    const a = new RedisCallLimiter({ url: redis.url, key, concurrency: 3 });
    const b = new RedisCallLimiter({ url: redis.url, key, concurrency: 3 });
    let inFlight = 0;
    let max = 0;
    const call = async () => {
      inFlight++;
      max = Math.max(max, inFlight);
      await sleep(30);
      inFlight--;
    };
    try {
      await Promise.all(Array.from({ length: 24 }, (_, i) => (i % 2 ? a : b).run(call)));
    } finally {
      a.close();
      b.close();
    }
    assert.equal(max, 3, "the two limiters together filled, and never passed, the 3 global slots");
  });

  it("spaces call starts at the stub to the global rate, whichever process starts them", async () => {
    stub.resetRecords();
    // Two limiters with their own connections, as in two worker processes.
    const key = `rate-${Date.now()}`;
    const limiters = [0, 1].map(() => new RedisCallLimiter({ url: redis.url, key, concurrency: 8, rps: 10 }));
    const model = new OpenAIChatModel({ model: "m", baseUrl: stub.url });
    try {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          limiters[i % 2]!.run(() => model.chat({ role: "answerer", messages: [{ role: "user", content: `q${i}` }] })),
        ),
      );
    } finally {
      for (const l of limiters) l.close();
    }
    const starts = stub.chatRequests.map((r) => r.time);
    assert.equal(starts.length, 12);
    // Each limiter alone allows 10/s, so without sharing the 12 starts would take ~0.55 s.
    assertRate(starts, 10);
  });

  it("wraps every stack built with sharedLimits, and stacks on one endpoint share the slots", async () => {
    stub.resetRecords();
    const models = [0, 1].map(() =>
      createChatModel({
        spec: { kind: "openai", model: "m" },
        baseUrl: stub.url,
        cache: false,
        concurrency: 2,
        rps: 10,
        sharedLimits: redis.url,
      }),
    );
    try {
      await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          models[i % 2]!.chat({ role: "answerer", messages: [{ role: "user", content: `q${i}` }] }),
        ),
      );
    } finally {
      for (const m of models) m.close();
    }
    assertRate(
      stub.chatRequests.map((r) => r.time),
      10,
    );
    assert.ok(stub.maxInFlight <= 2, `2 global slots, ${stub.maxInFlight} calls in flight`);
  });

  it("frees the slot of a holder that died, once its lease expires", async () => {
    const key = `lease-${Date.now()}`;
    const dead = new RedisCallLimiter({ url: redis.url, key, concurrency: 1, leaseMs: 300 });
    const alive = new RedisCallLimiter({ url: redis.url, key, concurrency: 1, leaseMs: 300 });
    let entered!: () => void;
    const inside = new Promise<void>((r) => {
      entered = r;
    });
    // Never finishes: the holder is gone without releasing, like a SIGKILLed worker.
    void dead.run(() => {
      entered();
      return new Promise(() => {});
    });
    await inside;
    dead.close();
    const t0 = performance.now();
    try {
      await alive.run(async () => {});
    } finally {
      alive.close();
    }
    const waited = performance.now() - t0;
    assert.ok(waited >= 150 && waited < 3000, `the slot came back after the lease (${Math.round(waited)} ms)`);
  });

  it("fails a call with a model error naming the Redis when it cannot be reached", async () => {
    const limiter = new RedisCallLimiter({ url: "redis://:secret@127.0.0.1:1", key: "x" });
    try {
      await assert.rejects(
        limiter.run(async () => "never"),
        (e: Error) =>
          e.name === "ModelError" &&
          /shared model limits at redis:\/\/127\.0\.0\.1:1 unavailable/.test(e.message) &&
          !e.message.includes("secret"),
      );
    } finally {
      limiter.close();
    }
  });
});
