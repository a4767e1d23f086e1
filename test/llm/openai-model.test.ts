import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { ModelError } from "../../src/core/errors.ts";
import { ModelCallError } from "../../src/llm/errors.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";

const KEY = "sk-test-SECRET-0123456789";

describe("OpenAIChatModel over HTTP", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ apiKey: KEY });
  });
  after(() => stub.close());
  // A client that times out before its request arrives leaves its failure queued.
  beforeEach(() => stub.clearFailures());

  it("sends the request fields, the key as bearer token, and reads text and usage", async () => {
    stub.resetRecords();
    stub.enqueueReply("Paris.");
    const model = new OpenAIChatModel({ model: "small-model", baseUrl: stub.url, apiKey: KEY });
    assert.equal(model.id, `openai:small-model@${stub.url}`);
    const result = await model.chat({
      role: "answerer",
      messages: [
        { role: "system", content: "Answer briefly." },
        { role: "user", content: "Where is the Louvre?" },
      ],
      temperature: 0,
      maxTokens: 16,
      seed: 7,
      sample: 2,
    });
    assert.equal(result.text, "Paris.");
    assert.equal(result.cached, false);
    assert.equal(result.model, "small-model");
    assert.deepEqual(result.usage, { inputTokens: 6, outputTokens: 1 });
    const req = stub.chatRequests[0]!;
    assert.equal(req.headers.authorization, `Bearer ${KEY}`);
    const body = req.body as Record<string, unknown>;
    assert.equal(body.model, "small-model");
    assert.equal(body.temperature, 0);
    assert.equal(body.max_tokens, 16);
    assert.equal(body.seed, 7);
    assert.equal("sample" in body, false, "the sample index is a cache concern, not an API field");
    assert.equal("response_format" in body, false);
    assert.deepEqual(body.messages, [
      { role: "system", content: "Answer briefly." },
      { role: "user", content: "Where is the Louvre?" },
    ]);
  });

  it("maps HTTP failures to ModelErrors with status, retryable and Retry-After", async () => {
    const model = new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY });
    const ask = () => model.chat({ role: "judge", messages: [{ role: "user", content: "q" }] });

    stub.enqueueFailure({ status: 429, retryAfter: 3 });
    const limited = await ask().catch((e: unknown) => e);
    assert.ok(limited instanceof ModelCallError);
    assert.ok(limited instanceof ModelError);
    assert.equal(limited.status, 429);
    assert.equal(limited.retryable, true);
    assert.equal(limited.retryAfterMs, 3000);
    assert.equal(limited.endpoint, stub.url);

    stub.enqueueFailure({ status: 503 });
    const down = (await ask().catch((e: unknown) => e)) as ModelError;
    assert.equal(down.status, 503);
    assert.equal(down.retryable, true);

    stub.enqueueFailure({ status: 400, message: "bad field" });
    const bad = (await ask().catch((e: unknown) => e)) as ModelError;
    assert.equal(bad.status, 400);
    assert.equal(bad.retryable, false);
    assert.match(bad.message, /bad field/);

    stub.enqueueFailure({ reset: true });
    const reset = (await ask().catch((e: unknown) => e)) as ModelError;
    assert.ok(reset instanceof ModelError);
    assert.equal(reset.retryable, true);
    assert.equal(reset.status, undefined);
  });

  it("turns a 200 whose body is cut short, or whose connection drops mid-body, into a retryable ModelError", async () => {
    const model = new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY });
    const ask = () => model.chat({ role: "answerer", messages: [{ role: "user", content: "q" }] });

    stub.enqueueFailure({ truncatedBody: true });
    const cut = (await ask().catch((e: unknown) => e)) as ModelError;
    assert.ok(cut instanceof ModelError, String(cut));
    assert.equal(cut.retryable, true);
    assert.equal(cut.endpoint, stub.url);
    assert.match(cut.message, /reply body .*not complete JSON/);

    stub.enqueueFailure({ resetMidBody: true });
    const dropped = (await ask().catch((e: unknown) => e)) as ModelError;
    assert.ok(dropped instanceof ModelError, String(dropped));
    assert.equal(dropped.retryable, true);
    assert.match(dropped.message, /connection (failed|dropped)/);
  });

  it("turns a held connection into a retryable timeout error", async () => {
    const model = new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY, timeoutMs: 200 });
    stub.enqueueFailure({ timeout: true });
    const started = performance.now();
    const error = (await model
      .chat({ role: "answerer", messages: [{ role: "user", content: "q" }] })
      .catch((e: unknown) => e)) as ModelError;
    assert.ok(error instanceof ModelError);
    assert.equal(error.retryable, true);
    assert.match(error.message, /timed out/);
    assert.ok(performance.now() - started < 2000);
  });

  it("times out a reply whose body stalls after the headers (the SDK's own timeout stops at the headers)", async () => {
    const model = new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY, timeoutMs: 200 });
    stub.enqueueFailure({ hangMidBody: true });
    const started = performance.now();
    const error = (await model
      .chat({ role: "answerer", messages: [{ role: "user", content: "q" }] })
      .catch((e: unknown) => e)) as ModelError;
    assert.ok(error instanceof ModelError, String(error));
    assert.equal(error.retryable, true);
    assert.match(error.message, /no complete reply within 200 ms/);
    assert.ok(performance.now() - started < 2000);
  });

  it("never puts the API key in an error, even when the server echoes it", async () => {
    const wrongKey = "sk-wrong-KEY-9876543210";
    const model = new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: wrongKey });
    const error = (await model
      .chat({ role: "answerer", messages: [{ role: "user", content: "q" }] })
      .catch((e: unknown) => e)) as ModelError;
    assert.equal(error.status, 401);
    assert.equal(error.retryable, false);

    stub.enqueueFailure({ status: 401, message: `Incorrect API key provided: ${wrongKey}` });
    const echoed = (await model
      .chat({ role: "answerer", messages: [{ role: "user", content: "q" }] })
      .catch((e: unknown) => e)) as ModelError;
    assert.match(echoed.message, /Incorrect API key provided: <redacted>/);
    for (const e of [error, echoed]) {
      assert.ok(!e.message.includes(wrongKey));
      assert.ok(!String(e.stack).includes(wrongKey));
      assert.ok(!JSON.stringify(e).includes(wrongKey));
    }
  });
});
