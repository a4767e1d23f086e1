import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { cosine } from "../../src/embed/types.ts";
import { UseLiteEmbedder } from "../../src/embed/use-lite.ts";

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("UseLiteEmbedder (real model from the package files)", () => {
  const embedder = new UseLiteEmbedder();

  it("ranks a paraphrase above an unrelated sentence", async () => {
    const [a, paraphrase, unrelated] = await embedder.embed([
      "How do I reset my password?",
      "What are the steps to change my login password?",
      "The ferry to the island leaves at seven in the morning.",
    ]);
    const close = cosine(a!, paraphrase!);
    const far = cosine(a!, unrelated!);
    assert.ok(close > far + 0.2, `paraphrase ${close} vs unrelated ${far}`);
  });

  it("returns 512-dimensional unit vectors", async () => {
    const vectors = await embedder.embed(["I adopted a kitten last week.", "Meeting moved to Friday."]);
    assert.equal(embedder.id, "use-lite");
    assert.equal(embedder.dim, 512);
    for (const v of vectors) {
      assert.equal(v.length, 512);
      assert.ok(Math.abs(norm(v) - 1) < 1e-4);
    }
  });

  it("keeps order across internal batches and around empty texts", async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `note number ${i}: buy ${i % 7} apples`);
    texts[3] = "";
    const batched = await embedder.embed(texts);
    assert.equal(batched.length, 70);
    assert.deepEqual([...batched[3]!], new Array(512).fill(0));
    const [alone66] = await embedder.embed([texts[66]!]);
    assert.ok(cosine(batched[66]!, alone66!) > 0.9999);
    assert.ok(cosine(batched[66]!, batched[67]!) < 0.9999);
  });

  it("serves concurrent callers from one loaded model", async () => {
    const [x, y] = await Promise.all([embedder.embed(["alpha beta"]), new UseLiteEmbedder().embed(["alpha beta"])]);
    assert.ok(cosine(x[0]!, y[0]!) > 0.9999);
    assert.deepEqual(await embedder.embed([]), []);
  });
});
