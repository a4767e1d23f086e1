import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { ModelError } from "../../src/core/errors.ts";
import { ModelCallError, parseRetryAfter, retryAfterFromHeaders } from "../../src/llm/errors.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { RetryingChatModel, retryDelay, withRetry } from "../../src/llm/retry.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";

const ask = { role: "answerer" as const, messages: [{ role: "user" as const, content: "hello" }] };

describe("parseRetryAfter", () => {
  it("reads delta seconds and HTTP dates", () => {
    assert.equal(parseRetryAfter("2"), 2000);
    assert.equal(parseRetryAfter("0.25"), 250);
    const now = Date.parse("2024-05-01T10:00:00Z");
    assert.equal(parseRetryAfter("Wed, 01 May 2024 10:00:04 GMT", now), 4000);
    assert.equal(parseRetryAfter("Wed, 01 May 2024 09:59:00 GMT", now), 0);
    assert.equal(parseRetryAfter("soon"), undefined);
    assert.equal(parseRetryAfter(null), undefined);
  });
});

describe("retryDelay", () => {
  it("uses full jitter under an exponentially growing ceiling", () => {
    const opts = { baseDelayMs: 100, maxDelayMs: 1000 };
    assert.equal(retryDelay(0, new Error("x"), { ...opts, random: () => 1 }), 100);
    assert.equal(retryDelay(2, new Error("x"), { ...opts, random: () => 1 }), 400);
    assert.equal(retryDelay(6, new Error("x"), { ...opts, random: () => 1 }), 1000);
    assert.equal(retryDelay(3, new Error("x"), { ...opts, random: () => 0.5 }), 400);
    assert.equal(retryDelay(3, new Error("x"), { ...opts, random: () => 0 }), 0);
  });

  it("waits at least the Retry-After the server asked for", () => {
    const error = new ModelCallError("slow down", { endpoint: "e", status: 429, retryable: true, retryAfterMs: 2500 });
    assert.equal(retryDelay(0, error, { baseDelayMs: 10, random: () => 1 }), 2500);
  });
});

describe("withRetry", () => {
  it("does not retry non-retryable or foreign errors", async () => {
    let calls = 0;
    const fatal = new ModelError("bad request", { endpoint: "e", status: 400, retryable: false });
    await assert.rejects(
      withRetry(async () => {
        calls++;
        throw fatal;
      }),
      fatal,
    );
    assert.equal(calls, 1);
    await assert.rejects(
      withRetry(async () => {
        calls++;
        throw new TypeError("bug");
      }),
      TypeError,
    );
    assert.equal(calls, 2);
  });

  it("gives up on a Retry-After longer than allowed", async () => {
    let calls = 0;
    const error = new ModelCallError("later", { endpoint: "e", status: 429, retryable: true, retryAfterMs: 60_000 });
    await assert.rejects(
      withRetry(
        async () => {
          calls++;
          throw error;
        },
        { maxRetryAfterMs: 1000 },
      ),
      error,
    );
    assert.equal(calls, 1);
  });
});

describe("RetryingChatModel against the stub", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub();
  });
  after(() => stub.close());
  // A client that times out before its request arrives leaves its failure queued.
  beforeEach(() => stub.clearFailures());

  const build = (extra: { timeoutMs?: number; maxRetries?: number } = {}) =>
    new RetryingChatModel(new OpenAIChatModel({ model: "m", baseUrl: stub.url, timeoutMs: extra.timeoutMs }), {
      baseDelayMs: 5,
      maxRetries: extra.maxRetries ?? 3,
    });

  it("retries a 429 after the Retry-After delay", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ status: 429, retryAfter: 0.3 });
    const retries: number[] = [];
    const model = new RetryingChatModel(new OpenAIChatModel({ model: "m", baseUrl: stub.url }), {
      baseDelayMs: 1,
      onRetry: (info) => retries.push(info.delayMs),
    });
    const result = await model.chat(ask);
    assert.equal(result.text, "stub reply to: hello");
    const [first, second] = stub.chatRequests;
    assert.equal(stub.chatRequests.length, 2);
    assert.equal(retries.length, 1);
    assert.ok(retries[0]! >= 300);
    const gap = second!.time - first!.time;
    assert.ok(gap >= 290, `second attempt came ${gap.toFixed(0)} ms after the first, Retry-After asked for 300`);
  });

  it("retries 500s until success", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ status: 500 }, { status: 502 });
    const result = await build().chat(ask);
    assert.equal(result.text, "stub reply to: hello");
    assert.equal(stub.chatRequests.length, 3);
  });

  it("retries after a timeout", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ timeout: true });
    const result = await build({ timeoutMs: 250 }).chat(ask);
    assert.equal(result.text, "stub reply to: hello");
    assert.equal(stub.chatRequests.length, 2);
  });

  it("retries after a connection reset", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ reset: true });
    const result = await build().chat(ask);
    assert.equal(result.text, "stub reply to: hello");
    assert.equal(stub.chatRequests.length, 2);
  });

  it("retries a 200 whose body is cut short, like a reset at the same point", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ truncatedBody: true }, { resetMidBody: true });
    const result = await build().chat(ask);
    assert.equal(result.text, "stub reply to: hello");
    assert.equal(stub.chatRequests.length, 3);
  });

  it("stops after maxRetries and throws the last error", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ status: 500 }, { status: 500 }, { status: 503 });
    const error = (await build({ maxRetries: 2 })
      .chat(ask)
      .catch((e: unknown) => e)) as ModelError;
    assert.ok(error instanceof ModelError);
    assert.equal(error.status, 503);
    assert.equal(stub.chatRequests.length, 3);
  });

  it("does not retry a 400", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ status: 400 });
    await assert.rejects(build().chat(ask), (e: unknown) => e instanceof ModelError && e.status === 400);
    assert.equal(stub.chatRequests.length, 1);
  });
});

describe("retryAfterFromHeaders", () => {
  it("prefers retry-after-ms and falls back to Retry-After", () => {
    assert.equal(retryAfterFromHeaders(new Headers({ "retry-after-ms": "150", "retry-after": "9" })), 150);
    assert.equal(retryAfterFromHeaders(new Headers({ "retry-after": "9" })), 9000);
    assert.equal(retryAfterFromHeaders(new Headers({ "retry-after-ms": "soon", "retry-after": "1" })), 1000);
    assert.equal(retryAfterFromHeaders(new Headers()), undefined);
    assert.equal(retryAfterFromHeaders(undefined), undefined);
  });
});
