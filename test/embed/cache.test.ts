import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { CachedEmbedder, textKey, withEmbeddingCache } from "../../src/embed/cache.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import type { Embedder } from "../../src/embed/types.ts";

/** A real embedder that records every batch it is asked for. */
class RecordingEmbedder implements Embedder {
  readonly calls: string[][] = [];
  private readonly inner: HashingEmbedder;
  constructor(
    dim = 32,
    readonly id = `hashing:${dim}`,
  ) {
    this.inner = new HashingEmbedder(dim);
  }
  get dim(): number {
    return this.inner.dim;
  }
  embed(texts: string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    return this.inner.embed(texts);
  }
}

const root = mkdtempSync(join(tmpdir(), "membench-embed-cache-"));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
const freshDir = () => join(root, `c${n++}`);

describe("CachedEmbedder", () => {
  it("sends only misses to the inner embedder, in one batch, in order", async () => {
    const inner = new RecordingEmbedder();
    const cached = withEmbeddingCache(inner, { cacheDir: freshDir() });
    await cached.embed(["b", "d"]);
    const out = await cached.embed(["a", "b", "c", "d", "e"]);
    assert.deepEqual(inner.calls, [
      ["b", "d"],
      ["a", "c", "e"],
    ]);
    const direct = await new HashingEmbedder(32).embed(["a", "b", "c", "d", "e"]);
    assert.deepEqual(
      out.map((v) => [...v]),
      direct.map((v) => [...v]),
    );
    assert.deepEqual({ ...cached.stats }, { memoryHits: 2, diskHits: 0, misses: 5, hits: 2 });
    cached.close();
  });

  it("embeds duplicate texts of one call once and returns a vector for each", async () => {
    const inner = new RecordingEmbedder();
    const cached = withEmbeddingCache(inner, { cacheDir: freshDir() });
    const out = await cached.embed(["same", "other", "same", "same"]);
    assert.deepEqual(inner.calls, [["same", "other"]]);
    assert.equal(out.length, 4);
    assert.deepEqual([...out[0]!], [...out[2]!]);
    assert.deepEqual([...out[0]!], [...out[3]!]);
    assert.equal(cached.stats.misses, 2);
    cached.close();
  });

  it("serves a second process-like instance from SQLite without calling the inner embedder", async () => {
    const dir = freshDir();
    const first = withEmbeddingCache(new RecordingEmbedder(), { cacheDir: dir });
    const written = await first.embed(["the user prefers tea", "the user lives in Porto"]);
    first.close();
    assert.ok(existsSync(join(dir, "embeddings.sqlite")));

    const inner = new RecordingEmbedder();
    const reopened = withEmbeddingCache(inner, { cacheDir: dir });
    const read = await reopened.embed(["the user lives in Porto", "the user prefers tea"]);
    assert.deepEqual(inner.calls, []);
    assert.deepEqual([...read[0]!], [...written[1]!]);
    assert.deepEqual([...read[1]!], [...written[0]!]);
    assert.deepEqual({ ...reopened.stats }, { memoryHits: 0, diskHits: 2, misses: 0, hits: 2 });
    await reopened.embed(["the user prefers tea"]);
    assert.equal(reopened.stats.memoryHits, 1);
    reopened.close();
  });

  it("stores Float32 blobs keyed by model id and text hash in a WAL database", async () => {
    const dir = freshDir();
    const cached = withEmbeddingCache(new RecordingEmbedder(8), { cacheDir: dir });
    const [v] = await cached.embed(["hello"]);
    cached.close();
    const db = new Database(join(dir, "embeddings.sqlite"), { readonly: true });
    const rows = db.prepare("SELECT model, text_sha256, dim, vector FROM embeddings").all() as {
      model: string;
      text_sha256: string;
      dim: number;
      vector: Buffer;
    }[];
    const mode = db.pragma("journal_mode", { simple: true });
    db.close();
    assert.equal(mode, "wal");
    assert.equal(rows.length, 1);
    assert.equal(rows[0]!.model, "hashing:8");
    assert.equal(rows[0]!.text_sha256, textKey("hello"));
    assert.equal(rows[0]!.dim, 8);
    assert.equal(rows[0]!.vector.byteLength, 32);
    assert.deepEqual([...new Float32Array(new Uint8Array(rows[0]!.vector).buffer)], [...v!]);
  });

  it("never shares vectors between embedders with different ids", async () => {
    const dir = freshDir();
    const a = withEmbeddingCache(new RecordingEmbedder(16, "model-a"), { cacheDir: dir });
    await a.embed(["shared text"]);
    const innerB = new RecordingEmbedder(16, "model-b");
    const b = withEmbeddingCache(innerB, { cacheDir: dir });
    await b.embed(["shared text"]);
    assert.deepEqual(innerB.calls, [["shared text"]]);
    assert.equal(b.stats.hits, 0);
    a.close();
    b.close();
  });

  it("hands out copies, so mutating a result cannot corrupt the cache", async () => {
    const cached = withEmbeddingCache(new RecordingEmbedder(), { cacheDir: freshDir() });
    const [first] = await cached.embed(["mutable"]);
    const original = [...first!];
    first!.fill(9);
    const [again] = await cached.embed(["mutable"]);
    assert.deepEqual([...again!], original);
    cached.close();
  });

  it("bounds the memory layer and falls back to the file", async () => {
    const inner = new RecordingEmbedder();
    const cached = new CachedEmbedder(inner, { cacheDir: freshDir(), memoryEntries: 2 });
    await cached.embed(["one", "two", "three"]);
    cached.resetStats();
    await cached.embed(["one", "three"]);
    assert.deepEqual({ ...cached.stats }, { memoryHits: 1, diskHits: 1, misses: 0, hits: 2 });
    assert.equal(inner.calls.length, 1);
    cached.close();
  });

  it("passes through id and dimension and uses the given file", async () => {
    const file = join(root, "explicit", "vectors.sqlite");
    const cached = withEmbeddingCache(new RecordingEmbedder(24), { file });
    assert.equal(cached.id, "hashing:24");
    assert.equal(cached.dim, 24);
    assert.equal(existsSync(file), false, "the file is created on first use, not on construction");
    await cached.embed(["x"]);
    assert.ok(existsSync(file));
    cached.close();
  });
});
