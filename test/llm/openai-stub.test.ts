import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import OpenAI from "openai";
import { type OpenAIStub, startOpenAIStub, stubEmbedding } from "../support/openai-stub.ts";

describe("openai stub", () => {
  let stub: OpenAIStub;
  let client: OpenAI;
  before(async () => {
    stub = await startOpenAIStub({
      embeddingDim: 6,
      reply: (body) => `model ${body.model} got ${body.messages?.length}`,
    });
    client = new OpenAI({ baseURL: stub.url, apiKey: "k", maxRetries: 0 });
  });
  after(() => stub.close());

  it("serves deterministic unit-length embeddings in float and base64 form", async () => {
    const viaSdk = await client.embeddings.create({ model: "e", input: ["alpha", "beta", "alpha"] });
    const [a, b, a2] = viaSdk.data.map((d) => d.embedding);
    assert.equal(a!.length, 6);
    assert.deepEqual(a, a2);
    assert.notDeepEqual(a, b);
    assert.ok(Math.abs(Math.hypot(...a!) - 1) < 1e-6);
    assert.ok(a!.every((v, i) => Math.abs(v - stubEmbedding("alpha", 6)[i]!) < 1e-6));
    assert.equal((stub.embeddingRequests.at(-1)!.body as { encoding_format: string }).encoding_format, "base64");

    const floats = await client.embeddings.create({
      model: "e",
      input: "gamma",
      encoding_format: "float",
      dimensions: 3,
    });
    assert.deepEqual(floats.data[0]!.embedding, stubEmbedding("gamma", 3));
  });

  it("answers chat from the reply queue first, then the reply function", async () => {
    stub.enqueueReply({ queued: true });
    const ask = () => client.chat.completions.create({ model: "m1", messages: [{ role: "user", content: "x" }] });
    assert.equal((await ask()).choices[0]!.message.content, '{"queued":true}');
    assert.equal((await ask()).choices[0]!.message.content, "model m1 got 1");
  });

  it("lists models and records every request", async () => {
    stub.resetRecords();
    const list = await client.models.list();
    assert.deepEqual(
      list.data.map((m) => m.id),
      ["stub-model"],
    );
    assert.equal(stub.requests.length, 1);
    assert.equal(stub.requests[0]!.method, "GET");
    assert.equal(stub.requests[0]!.path, "/v1/models");
    assert.equal(stub.requests[0]!.headers.authorization, "Bearer k");
  });

  it("applies injected failures to embeddings too", async () => {
    stub.enqueueFailure({ status: 429, retryAfter: 1 }, { malformedJson: true });
    await assert.rejects(client.embeddings.create({ model: "e", input: "x" }), (e: unknown) => {
      return e instanceof OpenAI.RateLimitError && e.headers.get("retry-after") === "1";
    });
    await assert.rejects(client.embeddings.create({ model: "e", input: "x" }));
    const ok = await client.embeddings.create({ model: "e", input: "x" });
    assert.equal(ok.data.length, 1);
  });
});
