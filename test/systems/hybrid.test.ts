import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import type { Embedder } from "../../src/embed/types.ts";
import { fusionDepth, HybridSystem } from "../../src/systems/hybrid.ts";
import { reciprocalRankFusion } from "../../src/systems/rrf.ts";
import { batch, ingestAll, SMALL_HISTORY } from "./history-fixture.ts";

/** Fixed vectors per text, so the dense ranking is known exactly. */
function tableEmbedder(table: Record<string, number[]>): Embedder {
  return {
    id: "table",
    dim: 3,
    embed: async (texts) =>
      texts.map((t) => {
        const v = table[t];
        if (!v) throw new Error(`no vector for "${t}"`);
        return Float32Array.from(v);
      }),
  };
}

describe("reciprocalRankFusion", () => {
  it("sums 1 / (60 + rank) over the lists that hold a key", () => {
    const fused = reciprocalRankFusion([
      [
        { key: "a", score: 9 },
        { key: "b", score: 3 },
      ],
      [
        { key: "b", score: 0.9 },
        { key: "c", score: 0.1 },
      ],
    ]);
    const byKey = Object.fromEntries(fused.map((f) => [f.key, f.score]));
    assert.deepEqual(Object.keys(byKey).sort(), ["a", "b", "c"]);
    assert.equal(byKey.a, 1 / 61);
    assert.equal(byKey.b, 1 / 62 + 1 / 61);
    assert.equal(byKey.c, 1 / 62);
  });

  it("reads each list to max(5k, 50)", () => {
    assert.equal(fusionDepth(1), 50);
    assert.equal(fusionDepth(10), 50);
    assert.equal(fusionDepth(20), 100);
  });
});

describe("hybrid", () => {
  it("fuses the BM25 and dense rankings by RRF (hand-checked)", async () => {
    const A = "apple apple apple banana";
    const B = "banana cherry";
    const C = "cherry durian";
    const query = "apple banana";
    // BM25 ranks A (both words), then B (banana); C does not match.
    // Dense ranks C (cosine 1), B (0.6), A (0).
    const embedder = tableEmbedder({ [A]: [0, 0, 1], [B]: [0.6, 0.8, 0], [C]: [1, 0, 0], [query]: [1, 0, 0] });
    const system = new HybridSystem({ embedder });
    await ingestAll(system, "ep", [batch("s1", 0, [A, B, C])]);
    const hits = await system.search("ep", { text: query, k: 3 });
    assert.equal(system.id, "hybrid");
    assert.deepEqual(
      hits.map((h) => h.text),
      [A, B, C],
    );
    const expected = [1 / 61 + 1 / 63, 1 / 62 + 1 / 62, 1 / 61];
    hits.forEach((h, i) => {
      assert.ok(Math.abs(h.score - expected[i]!) < 1e-12, `${h.text}: ${h.score} vs ${expected[i]}`);
    });
    assert.deepEqual(
      hits.map((h) => h.turnIds![0]),
      ["s1-t1", "s1-t2", "s1-t3"],
    );
  });

  it("cuts the fused list to k", async () => {
    const system = new HybridSystem({ embedder: new HashingEmbedder(128) });
    await ingestAll(system, "ep", SMALL_HISTORY);
    const hits = await system.search("ep", { text: "cat sourdough", k: 2 });
    assert.equal(hits.length, 2);
    assert.ok(hits[0]!.score >= hits[1]!.score);
  });

  it("ranks whole sessions in the session unit", async () => {
    const system = new HybridSystem({ embedder: new HashingEmbedder(128), unit: "session" });
    await ingestAll(system, "ep", SMALL_HISTORY);
    const hits = await system.search("ep", { text: "Montevideo conference", k: 3 });
    assert.equal(system.id, "hybrid-session");
    assert.equal(hits[0]!.sessionIds![0], "s2");
    assert.equal(hits[0]!.kind, "session");
    assert.equal(hits.length, 3);
  });

  it("needs an embedder", () => {
    assert.throws(() => new HybridSystem({ unit: "session" }), ConfigError);
  });
});
