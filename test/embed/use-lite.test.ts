import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { cosine } from "../../src/embed/types.ts";
import { embedWithUseLite, loadUseLite, UseLiteEmbedder, useLiteTokenizer } from "../../src/embed/use-lite.ts";
import { fixture, sharedDataset } from "../support/shared-data.ts";

/**
 * RealMem text (the project's fixture when ../shared is absent): every fourth turn,
 * the 30 longest turns and 8 session transcripts. The package's own tokenizer is
 * quadratic, so all of the sample would take it half a minute.
 */
async function realmemTexts(): Promise<{ texts: string[]; source: string }> {
  const shared = sharedDataset("realmem");
  const data = await loadDataset("realmem", shared ?? fixture("realmem"));
  const sessions = data.episodes.flatMap((e) => e.sessions);
  const turns = [...new Set(sessions.flatMap((s) => s.turns.map((t) => t.content)))];
  const longest = [...turns].sort((a, b) => b.length - a.length).slice(0, 30);
  const texts = [
    ...turns.filter((_, i) => i % 4 === 0),
    ...longest,
    ...sessions.slice(0, 8).map((s) => s.turns.map((t) => `${t.speaker ?? t.role}: ${t.content}`).join("\n")),
  ];
  return { texts: [...new Set(texts)], source: shared ? "../shared RealMem sample" : "project fixture" };
}

/** Texts whose token counts differ widely: the package's padding shows in the last bits of the shorter ones. */
const MIXED = [
  "I moved to Porto last spring and I love the food there.",
  "Short one.",
  "A much longer sentence that keeps going with many more words than the first one did, to make the padding obvious in the batch.",
  "She moved to Braga last summer and she hates the rain there.",
  "ok",
];

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

  it("tokenizes exactly as the package does, on RealMem text and on odd input", async () => {
    const model = await loadUseLite();
    const fast = useLiteTokenizer(model);
    const { texts, source } = await realmemTexts();
    const odd = [
      "",
      " ",
      "  two  spaces ",
      "😀 emoji 🚀🚀 ok",
      "日本語のテキスト",
      "\u0000\u0001 control",
      "ﬁ ligature",
      "Ω≈ç√∫",
      "x".repeat(500),
    ];
    const mismatched = [...texts, ...odd].filter(
      (t) => JSON.stringify(fast(t)) !== JSON.stringify(model.tokenizer.encode(t)),
    );
    assert.deepEqual(mismatched, [], `${mismatched.length} of ${texts.length + odd.length} texts (${source}) differ`);
  });

  it("gives each text the vector it gets alone, whatever it is batched with", async () => {
    const model = await loadUseLite();
    // The package pads every text of a call to the longest: its vectors depend on the company.
    const padded = await model.embed(MIXED);
    const aloneByPackage = await Promise.all(MIXED.map(async (t) => (await model.embed([t]))[0]!));
    assert.ok(
      MIXED.some((_, i) => padded[i]!.some((x, j) => x !== aloneByPackage[i]![j])),
      "the package's batched vectors differ from its lone ones (what this guards against)",
    );
    const together = await embedWithUseLite(MIXED);
    const reversed = (await embedWithUseLite([...MIXED].reverse())).reverse();
    for (let i = 0; i < MIXED.length; i++) {
      const [alone] = await embedWithUseLite([MIXED[i]!]);
      assert.deepEqual([...together[i]!], [...alone!], `text ${i} in a batch`);
      assert.deepEqual([...reversed[i]!], [...alone!], `text ${i} in another order`);
      // And it is the package's own lone vector, made unit length.
      const norm = Math.hypot(...aloneByPackage[i]!);
      assert.ok(alone!.every((x, j) => Math.abs(x - aloneByPackage[i]![j]! / norm) < 1e-6));
    }
  });
});
