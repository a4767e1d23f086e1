import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createLimiter, LimitedChatModel } from "../../src/llm/limits.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";

describe("limits against the stub", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ latencyMs: 50 });
  });
  after(() => stub.close());

  it("keeps at most `concurrency` calls in flight", async () => {
    stub.resetRecords();
    const model = new LimitedChatModel(
      new OpenAIChatModel({ model: "m", baseUrl: stub.url }),
      createLimiter({ concurrency: 3 }),
    );
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        model.chat({ role: "answerer", messages: [{ role: "user", content: `question ${i}` }] }),
      ),
    );
    assert.equal(results.length, 20);
    assert.deepEqual(
      results.map((r) => r.text),
      Array.from({ length: 20 }, (_, i) => `stub reply to: question ${i}`),
    );
    assert.equal(stub.chatRequests.length, 20);
    assert.ok(stub.maxInFlight <= 3, `maxInFlight ${stub.maxInFlight}`);
    assert.ok(stub.maxInFlight > 1, "calls should overlap up to the limit");
  });

  it("spaces call starts to the requests-per-second limit", async () => {
    stub.resetRecords();
    stub.setLatency(0);
    const model = new LimitedChatModel(
      new OpenAIChatModel({ model: "m", baseUrl: stub.url }),
      createLimiter({ concurrency: 10, rps: 20 }),
    );
    await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        model.chat({ role: "judge", messages: [{ role: "user", content: `q${i}` }] }),
      ),
    );
    stub.setLatency(50);
    const times = stub.chatRequests.map((r) => r.time);
    assert.equal(times.length, 5);
    const span = times[4]! - times[0]!;
    // 20 per second is one start per 50 ms: five starts span at least four intervals.
    assert.ok(span >= 180, `five calls spanned only ${span.toFixed(0)} ms`);
  });
});
