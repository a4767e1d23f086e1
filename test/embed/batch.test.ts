import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { BatchingEmbedder, chunk } from "../../src/embed/batch.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import type { Embedder } from "../../src/embed/types.ts";

/** A real embedder that records its batches and how many ran at once; each batch takes `ms`. */
class SlowEmbedder implements Embedder {
  readonly id = "hashing:16";
  readonly dim = 16;
  readonly calls: string[][] = [];
  running = 0;
  peak = 0;
  private readonly inner = new HashingEmbedder(16);
  constructor(
    private readonly ms = 5,
    private readonly failOn?: string,
  ) {}
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls.push([...texts]);
    this.running++;
    this.peak = Math.max(this.peak, this.running);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.ms));
      if (this.failOn && texts.includes(this.failOn)) throw new Error(`cannot embed "${this.failOn}"`);
      return await this.inner.embed(texts);
    } finally {
      this.running--;
    }
  }
}

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

describe("chunk", () => {
  it("splits into slices of at most the size and refuses a bad size", () => {
    assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
    assert.throws(() => chunk([1], 0), RangeError);
  });
});

describe("BatchingEmbedder", () => {
  it("gathers the texts of callers of one turn into full batches, in arrival order", async () => {
    const inner = new SlowEmbedder();
    const batching = new BatchingEmbedder(inner, { batchSize: 4 });
    const [a, b, c] = await Promise.all([
      batching.embed(words("a", 3)),
      batching.embed(words("b", 3)),
      batching.embed(["c 0"]),
    ]);
    assert.deepEqual(inner.calls, [
      ["a 0", "a 1", "a 2", "b 0"],
      ["b 1", "b 2", "c 0"],
    ]);
    const direct = new HashingEmbedder(16);
    assert.deepEqual(a, await direct.embed(words("a", 3)));
    assert.deepEqual(b, await direct.embed(words("b", 3)));
    assert.deepEqual(c, await direct.embed(["c 0"]));
  });

  it("runs at most `concurrency` batches at once, and callers arriving meanwhile join the next ones", async () => {
    const inner = new SlowEmbedder(20);
    const batching = new BatchingEmbedder(inner, { batchSize: 2, concurrency: 2 });
    const first = batching.embed(words("x", 6));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const late = batching.embed(["late 0", "late 1"]);
    await Promise.all([first, late]);
    assert.equal(inner.peak, 2);
    assert.equal(inner.calls.length, 4);
    assert.ok(
      inner.calls.every((c) => c.length === 2),
      JSON.stringify(inner.calls),
    );
    assert.deepEqual(inner.calls.at(-1), ["late 0", "late 1"]);
  });

  it("sends a text repeated within one batch once, and gives each caller its own vector", async () => {
    const inner = new SlowEmbedder();
    const batching = new BatchingEmbedder(inner, { batchSize: 8 });
    const [a, b] = await Promise.all([batching.embed(["same", "other", "same"]), batching.embed(["same"])]);
    assert.deepEqual(inner.calls, [["same", "other"]]);
    assert.deepEqual([...a[2]!], [...a[0]!]);
    assert.deepEqual([...b[0]!], [...a[0]!]);
    a[0]!.fill(3);
    assert.notDeepEqual([...b[0]!], [...a[0]!]);
    assert.notDeepEqual([...a[2]!], [...a[0]!]);
  });

  it("fails only the callers with texts in a failed batch, and drops their texts still queued", async () => {
    const inner = new SlowEmbedder(5, "bad");
    const batching = new BatchingEmbedder(inner, { batchSize: 2 });
    const doomed = batching.embed(["bad", "x", "never sent", "nor this"]);
    const fine = batching.embed(["ok 1", "ok 2"]);
    await assert.rejects(doomed, /cannot embed "bad"/);
    assert.equal((await fine).length, 2);
    assert.deepEqual(inner.calls, [
      ["bad", "x"],
      ["ok 1", "ok 2"],
    ]);
  });

  it("answers an empty call at once and passes the inner id and dimension through", async () => {
    const inner = new SlowEmbedder();
    const batching = new BatchingEmbedder(inner);
    assert.deepEqual(await batching.embed([]), []);
    assert.equal(inner.calls.length, 0);
    assert.equal(batching.id, "hashing:16");
    assert.equal(batching.dim, 16);
    assert.throws(() => new BatchingEmbedder(inner, { concurrency: 0 }), RangeError);
  });
});
