import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import Database from "better-sqlite3";
import { CachedEmbedder, textKey, withEmbeddingCache } from "../../src/embed/cache.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import type { Embedder } from "../../src/embed/types.ts";

/**
 * A real embedder that records every batch it is asked for. With `hold()`, batches
 * wait until `release()`, as a model busy for a while would: callers overlap.
 */
class RecordingEmbedder implements Embedder {
  readonly calls: string[][] = [];
  private readonly inner: HashingEmbedder;
  private gate: Promise<void> | undefined;
  private open: (() => void) | undefined;
  failNext: Error | undefined;
  constructor(
    dim = 32,
    readonly id = `hashing:${dim}`,
  ) {
    this.inner = new HashingEmbedder(dim);
  }
  get dim(): number {
    return this.inner.dim;
  }
  hold(): void {
    this.gate = new Promise((resolve) => {
      this.open = resolve;
    });
  }
  release(): void {
    this.open?.();
    this.gate = undefined;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    await this.gate;
    const error = this.failNext;
    this.failNext = undefined;
    if (error) throw error;
    return this.inner.embed(texts);
  }
}

/** Lets pending callbacks run, so callers started together reach the inner embedder. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

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
    assert.deepEqual({ ...cached.stats }, { memoryHits: 2, diskHits: 0, inFlightHits: 0, misses: 5, hits: 2 });
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
    assert.deepEqual({ ...reopened.stats }, { memoryHits: 0, diskHits: 2, inFlightHits: 0, misses: 0, hits: 2 });
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
    assert.deepEqual({ ...cached.stats }, { memoryHits: 1, diskHits: 1, inFlightHits: 0, misses: 0, hits: 2 });
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

  it("shares a text already on its way to the model: concurrent callers embed each text once", async () => {
    const inner = new RecordingEmbedder();
    const cached = withEmbeddingCache(inner, { cacheDir: freshDir() });
    inner.hold();
    const first = cached.embed(["turn one", "turn two", "turn three"]);
    await settle();
    // A second system ingesting the same session while the first batch is still running.
    const second = cached.embed(["turn three", "turn two", "turn one", "query"]);
    await settle();
    inner.release();
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual(inner.calls, [["turn one", "turn two", "turn three"], ["query"]]);
    assert.deepEqual([...b[0]!], [...a[2]!]);
    assert.deepEqual([...b[2]!], [...a[0]!]);
    assert.deepEqual({ ...cached.stats }, { memoryHits: 0, diskHits: 0, inFlightHits: 3, misses: 4, hits: 3 });
    b[0]!.fill(7);
    const [again] = await cached.embed(["turn three"]);
    assert.deepEqual([...again!], [...a[2]!], "waiters get copies too");
    cached.close();
  });

  it("shares in-flight texts between cached embedders on the same file, not across models or files", async () => {
    const dir = freshDir();
    const innerA = new RecordingEmbedder(16, "model-a");
    const innerB = new RecordingEmbedder(16, "model-a");
    const innerC = new RecordingEmbedder(16, "model-c");
    const innerD = new RecordingEmbedder(16, "model-a");
    const a = withEmbeddingCache(innerA, { cacheDir: dir });
    const b = withEmbeddingCache(innerB, { cacheDir: dir });
    const c = withEmbeddingCache(innerC, { cacheDir: dir });
    const d = withEmbeddingCache(innerD, { cacheDir: freshDir() });
    innerA.hold();
    const pending = a.embed(["the user moved to Porto"]);
    await settle();
    await Promise.all([
      b.embed(["the user moved to Porto"]),
      c.embed(["the user moved to Porto"]),
      d.embed(["the user moved to Porto"]),
      settle().then(() => innerA.release()),
    ]);
    await pending;
    assert.deepEqual(innerB.calls, [], "same file, same model: waits for a's vector");
    assert.deepEqual(innerC.calls, [["the user moved to Porto"]], "another model never shares");
    assert.deepEqual(innerD.calls, [["the user moved to Porto"]], "another file is another cache");
    for (const x of [a, b, c, d]) x.close();
  });

  it("fails every waiter of a failed batch, and a later call embeds the text again", async () => {
    const inner = new RecordingEmbedder();
    const cached = withEmbeddingCache(inner, { cacheDir: freshDir() });
    inner.hold();
    inner.failNext = new Error("model crashed");
    const first = cached.embed(["fragile"]);
    await settle();
    const second = cached.embed(["fragile", "sturdy"]);
    await settle();
    inner.release();
    await assert.rejects(first, /model crashed/);
    await assert.rejects(second, /model crashed/);
    const [v] = await cached.embed(["fragile"]);
    assert.equal(v!.length, 32);
    assert.deepEqual(inner.calls, [["fragile"], ["sturdy"], ["fragile"]]);
    cached.close();
  });
});
