import assert from "node:assert/strict";
import { after, before, beforeEach, describe, it } from "node:test";
import { ConfigError, ModelError } from "../../src/core/errors.ts";
import { OpenAIEmbedder } from "../../src/embed/openai-embedder.ts";
import { type OpenAIStub, startOpenAIStub, stubEmbedding } from "../support/openai-stub.ts";

describe("OpenAIEmbedder against the local stub server", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ embeddingDim: 8, apiKey: "sk-test-secret" });
  });
  after(async () => {
    await stub.close();
  });
  beforeEach(() => stub.resetRecords());

  const make = (extra: Partial<ConstructorParameters<typeof OpenAIEmbedder>[0]> = {}) =>
    new OpenAIEmbedder({
      model: "embed-small",
      baseUrl: stub.url,
      apiKey: "sk-test-secret",
      retryBaseMs: 1,
      ...extra,
    });

  it("sends 300 inputs as 3 requests of at most 128 and keeps input order", async () => {
    const texts = Array.from({ length: 300 }, (_, i) => `memory ${i}`);
    const embedder = make();
    const vectors = await embedder.embed(texts);
    const requests = stub.embeddingRequests;
    assert.equal(requests.length, 3);
    const inputs = requests.map((r) => (r.body as { input: string[] }).input);
    assert.deepEqual(
      inputs.map((x) => x.length),
      [128, 128, 44],
    );
    assert.deepEqual(inputs.flat(), texts);
    assert.equal(vectors.length, 300);
    for (const i of [0, 127, 128, 255, 299]) {
      const expected = stubEmbedding(texts[i]!, 8);
      vectors[i]!.forEach((x, k) => {
        assert.ok(Math.abs(x - expected[k]!) < 1e-6, `vector ${i} component ${k}`);
      });
    }
  });

  it("asks for floats with the model name and sends the key only as a bearer token", async () => {
    await make().embed(["hello"]);
    const [request] = stub.embeddingRequests;
    const body = request!.body as Record<string, unknown>;
    assert.equal(body.model, "embed-small");
    assert.equal(body.encoding_format, "float");
    assert.equal(request!.headers.authorization, "Bearer sk-test-secret");
  });

  it("learns its dimension from the first reply and names model and endpoint in its id", async () => {
    const embedder = make({ baseUrl: `${stub.url}/` });
    assert.equal(embedder.dim, 0);
    await embedder.embed(["a"]);
    assert.equal(embedder.dim, 8);
    assert.equal(embedder.id, `openai:embed-small@${stub.url}`);
  });

  it("fails with a ModelError when the reply has another dimension than the one given", async () => {
    await assert.rejects(make({ dim: 16 }).embed(["a"]), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.match(error.message, /length 8, expected 16/);
      assert.equal(error.retryable, false);
      return true;
    });
  });

  it("retries 429 and 5xx, then succeeds", async () => {
    stub.enqueueFailure({ status: 429, retryAfter: 0 }, { status: 503 });
    const embedder = make();
    const [v] = await embedder.embed(["after retries"]);
    assert.equal(stub.embeddingRequests.length, 3);
    assert.equal(embedder.requestCount, 3);
    assert.equal(v!.length, 8);
  });

  it("waits as long as Retry-After says, up to the cap", async () => {
    stub.enqueueFailure({ status: 429, retryAfter: 5 });
    const started = performance.now();
    await make({ maxRetryDelayMs: 250 }).embed(["patient"]);
    const waited = performance.now() - started;
    assert.ok(waited >= 240 && waited < 2000, `waited ${waited} ms`);
    assert.equal(stub.embeddingRequests.length, 2);
  });

  it("gives up after maxRetries with a retryable ModelError carrying the status", async () => {
    stub.enqueueFailure({ status: 500 }, { status: 500 });
    await assert.rejects(make({ maxRetries: 1 }).embed(["x"]), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.equal(error.status, 500);
      assert.equal(error.retryable, true);
      assert.equal(error.endpoint, `${stub.url}/embeddings`);
      assert.match(error.message, /after 2 attempts/);
      return true;
    });
    assert.equal(stub.embeddingRequests.length, 2);
  });

  it("does not retry a 400, and never puts the key in the error", async () => {
    stub.enqueueFailure({ status: 400, message: "input too long" });
    await assert.rejects(make().embed(["x"]), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.equal(error.retryable, false);
      assert.equal(error.status, 400);
      return true;
    });
    assert.equal(stub.embeddingRequests.length, 1);
    await assert.rejects(make({ apiKey: "sk-wrong-key" }).embed(["x"]), (error: unknown) => {
      assert.ok(error instanceof ModelError);
      assert.equal(error.status, 401);
      assert.doesNotMatch(`${error.message} ${String(error.stack)}`, /sk-wrong-key|sk-test-secret/);
      return true;
    });
  });

  it("retries a dropped connection and a timeout", async () => {
    stub.enqueueFailure({ reset: true }, { timeout: true });
    const [v] = await make({ timeoutMs: 300 }).embed(["resilient"]);
    assert.equal(stub.embeddingRequests.length, 3);
    assert.equal(v!.length, 8);
  });

  it("sends nothing for an empty input list", async () => {
    assert.deepEqual(await make().embed([]), []);
    assert.equal(stub.embeddingRequests.length, 0);
  });
});

describe("OpenAIEmbedder configuration", () => {
  it("requires a key for the hosted API but not for a local server", () => {
    assert.throws(
      () => new OpenAIEmbedder({ model: "text-embedding-3-small" }),
      (error: unknown) => error instanceof ConfigError && error.setting === "apiKey",
    );
    const local = new OpenAIEmbedder({ model: "nomic-embed-text:latest", baseUrl: "http://localhost:11434/v1" });
    assert.equal(local.id, "openai:nomic-embed-text:latest@http://localhost:11434/v1");
  });
});
