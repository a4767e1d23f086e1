import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { BatchingEmbedder } from "../../src/embed/batch.ts";
import { CachedEmbedder } from "../../src/embed/cache.ts";
import {
  createEmbedder,
  DEFAULT_EMBED_WORKERS,
  describeEmbedder,
  parseEmbedderSpec,
  parseEmbedWorkers,
} from "../../src/embed/create.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import { OpenAIEmbedder } from "../../src/embed/openai-embedder.ts";
import { UseLiteEmbedder } from "../../src/embed/use-lite.ts";
import { WorkerPoolEmbedder } from "../../src/embed/worker-pool.ts";
import { startOpenAIStub } from "../support/openai-stub.ts";

const root = mkdtempSync(join(tmpdir(), "membench-embed-create-"));
after(() => rmSync(root, { recursive: true, force: true }));

describe("parseEmbedderSpec", () => {
  it("reads every spec form, defaulting to use-lite", () => {
    assert.deepEqual(parseEmbedderSpec(undefined), { kind: "use-lite" });
    assert.deepEqual(parseEmbedderSpec(" "), { kind: "use-lite" });
    assert.deepEqual(parseEmbedderSpec("use-lite"), { kind: "use-lite" });
    assert.deepEqual(parseEmbedderSpec("hashing"), { kind: "hashing", dim: 256 });
    assert.deepEqual(parseEmbedderSpec("hashing:1024"), { kind: "hashing", dim: 1024 });
    assert.deepEqual(parseEmbedderSpec("openai:text-embedding-3-small"), {
      kind: "openai",
      model: "text-embedding-3-small",
    });
    assert.deepEqual(parseEmbedderSpec("openai:nomic-embed-text:v1.5"), {
      kind: "openai",
      model: "nomic-embed-text:v1.5",
    });
    assert.deepEqual(parseEmbedderSpec("onnx:./models/minilm"), { kind: "onnx", dir: "./models/minilm" });
  });

  it("rejects unknown or incomplete specs with a ConfigError naming the setting and its source", () => {
    for (const bad of ["bert", "openai:", "onnx:", "hashing:abc", "hashing:-3", "use-lite:512"]) {
      assert.throws(
        () => parseEmbedderSpec(bad, "MEMBENCH_EMBEDDER"),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.setting === "embedder" &&
          error.source === "MEMBENCH_EMBEDDER" &&
          error.message.includes(bad),
        bad,
      );
    }
    assert.throws(() => parseEmbedderSpec("hashing:0"), ConfigError);
  });
});

describe("createEmbedder", () => {
  it("builds use-lite behind the cache by default, without loading the model yet", async () => {
    const e = await createEmbedder(undefined, { cacheDir: join(root, "a") });
    assert.ok(e instanceof CachedEmbedder);
    assert.ok(e.inner instanceof BatchingEmbedder);
    assert.equal(e.inner.concurrency, Math.max(1, DEFAULT_EMBED_WORKERS));
    assert.equal(e.id, "use-lite");
    assert.equal(e.dim, 512);
    assert.equal(existsSync(join(root, "a")), false);
  });

  it("runs use-lite on the main thread with workers: 0, else on that many threads started on demand", async () => {
    const main = await createEmbedder("use-lite", { cache: false, workers: 0 });
    assert.ok(main instanceof BatchingEmbedder && main.inner instanceof UseLiteEmbedder);
    const threads = await createEmbedder("use-lite", { cache: false, workers: 3 });
    assert.ok(threads instanceof BatchingEmbedder && threads.inner instanceof WorkerPoolEmbedder);
    assert.equal(threads.concurrency, 3);
    assert.equal(threads.inner.size, 3);
    assert.equal(threads.inner.started, 0);
    await assert.rejects(createEmbedder("use-lite", { workers: -1 }), ConfigError);
    assert.equal(parseEmbedWorkers(" 2 "), 2);
    for (const bad of ["", "two", "1.5", "-1", "65"]) {
      assert.throws(
        () => parseEmbedWorkers(bad, "MEMBENCH_EMBED_WORKERS"),
        /embed-workers \(from MEMBENCH_EMBED_WORKERS\)/,
      );
    }
  });

  it("leaves hashing uncached unless asked", async () => {
    const plain = await createEmbedder("hashing:64");
    assert.ok(plain instanceof HashingEmbedder);
    assert.equal(plain.id, "hashing:64");
    const cached = await createEmbedder("hashing", { cache: true, cacheDir: join(root, "b") });
    assert.ok(cached instanceof CachedEmbedder);
    await cached.embed(["x"]);
    assert.ok(existsSync(join(root, "b", "embeddings.sqlite")));
    cached.close();
  });

  it("wires openai specs to the given endpoint and key", async () => {
    const stub = await startOpenAIStub({ embeddingDim: 4, apiKey: "k-123" });
    try {
      const e = await createEmbedder("openai:stub-embed", {
        baseUrl: stub.url,
        apiKey: "k-123",
        cacheDir: join(root, "c"),
      });
      assert.ok(e instanceof CachedEmbedder && e.inner instanceof OpenAIEmbedder);
      assert.equal(e.id, `openai:stub-embed@${stub.url}`);
      await e.embed(["one", "two"]);
      await e.embed(["two", "one"]);
      assert.equal(stub.embeddingRequests.length, 1);
      assert.equal(e.dim, 4);
      e.close();
    } finally {
      await stub.close();
    }
  });

  it("fails early for an onnx folder when transformers.js is missing", async () => {
    await assert.rejects(
      createEmbedder("onnx:./no-such-model", { source: "--embedder" }),
      (error: unknown) => error instanceof ConfigError && error.setting === "embedder",
    );
  });
});

describe("describeEmbedder", () => {
  it("reports the offline default as ready with its id and dimension", async () => {
    const d = await describeEmbedder("use-lite", { cacheDir: join(root, "d") });
    assert.equal(d.kind, "use-lite");
    assert.equal(d.id, "use-lite");
    assert.equal(d.dim, 512);
    assert.equal(d.offline, true);
    assert.equal(d.ready, true, d.detail);
    assert.equal(d.cacheFile, join(root, "d", "embeddings.sqlite"));
    assert.match(d.detail, /model-embeddings-en/);
  });

  it("reports hashing without a cache file", async () => {
    const d = await describeEmbedder("hashing:128");
    assert.deepEqual(
      { id: d.id, dim: d.dim, ready: d.ready, cacheFile: d.cacheFile },
      { id: "hashing:128", dim: 128, ready: true, cacheFile: undefined },
    );
  });

  it("says when the hosted API has no key, and redacts a key that is set", async () => {
    const missing = await describeEmbedder("openai:text-embedding-3-small");
    assert.equal(missing.ready, false);
    assert.match(missing.detail, /MEMBENCH_API_KEY/);
    const set = await describeEmbedder("openai:text-embedding-3-small", { apiKey: "sk-very-secret" });
    assert.equal(set.ready, true);
    assert.equal(set.offline, false);
    assert.equal(set.id, "openai:text-embedding-3-small@https://api.openai.com/v1");
    assert.doesNotMatch(JSON.stringify(set), /sk-very-secret/);
  });

  it("reports a missing onnx runtime and an invalid spec instead of throwing", async () => {
    const onnx = await describeEmbedder("onnx:./models/x");
    assert.equal(onnx.ready, false);
    assert.equal(onnx.id, "onnx:models/x");
    assert.match(onnx.detail, /npm install @huggingface\/transformers|does not exist/);
    const bad = await describeEmbedder("word2vec");
    assert.equal(bad.kind, "invalid");
    assert.equal(bad.ready, false);
    assert.match(bad.detail, /unknown embedder "word2vec"/);
  });
});
