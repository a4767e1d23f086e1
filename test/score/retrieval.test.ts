import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  firstSupportRank,
  ndcgAt,
  ndcgRealmemAt,
  rankUnits,
  recallAllAt,
  recallAnyAt,
  recallAt,
  retrievalMetrics,
  srsFromRank,
  staleAt,
} from "../../src/score/retrieval.ts";
import { percentile } from "../../src/score/stats.ts";

const u = (...ids: string[]) => ids.map((id) => [id]);
const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-4, `${a} != ${b}`);

describe("retrieval metrics", () => {
  it("ranks distinct units by first appearance", () => {
    const items = [
      { sessionIds: ["s2"], turnIds: ["s2#1"] },
      { sessionIds: ["s2"], turnIds: ["s2#0"] },
      { sessionIds: ["s1", "s3"], turnIds: ["s1#0"] },
      {},
    ];
    assert.deepEqual(rankUnits(items, "session"), [["s2"], ["s1"], ["s3"]]);
    assert.deepEqual(rankUnits(items, "turn"), [["s2#1"], ["s2#0"], ["s1#0"], []]);
  });

  it("recall, recall_any and recall_all", () => {
    const gold = new Set(["a", "c"]);
    const ranking = u("x", "a", "y", "c");
    assert.equal(recallAt(ranking, gold, 2), 0.5);
    assert.equal(recallAnyAt(ranking, gold, 2), 1);
    assert.equal(recallAllAt(ranking, gold, 2), 0);
    assert.equal(recallAllAt(ranking, gold, 4), 1);
    assert.equal(recallAnyAt(ranking, gold, 1), 0);
    assert.equal(recallAllAt(ranking, new Set(), 4), 0);
  });

  it("standard nDCG", () => {
    // one gold at rank 2: DCG = 1/log2(3), IDCG = 1
    close(ndcgAt(u("x", "a"), new Set(["a"]), 10), 1 / Math.log2(3));
    // two gold at ranks 1 and 3 of k=3: (1 + 1/2) / (1 + 1/log2 3)
    close(ndcgAt(u("a", "x", "b"), new Set(["a", "b"]), 3), 1.5 / (1 + 1 / Math.log2(3)));
  });

  it("RealMem's nDCG variant leaves ranks 1 and 2 undiscounted", () => {
    close(ndcgRealmemAt(u("x", "a"), new Set(["a"]), 10), 1);
    close(ndcgRealmemAt(u("x", "y", "a"), new Set(["a"]), 10), 1 / Math.log2(3));
    // gold at 1 and 3, |G| = 2: DCG = 1 + 1/log2(3); IDCG = 1 + 1 = 2
    close(ndcgRealmemAt(u("a", "x", "b"), new Set(["a", "b"]), 3), (1 + 1 / Math.log2(3)) / 2);
    assert.equal(ndcgRealmemAt(u("x"), new Set(), 3), 0);
  });

  it("SRS at ranks 1/2/3 = 1 / 0.6309 / 0.5, and 0 past K", () => {
    close(srsFromRank(1, 5), 1);
    close(srsFromRank(2, 5), 0.6309);
    close(srsFromRank(3, 5), 0.5);
    assert.equal(srsFromRank(4, 3), 0);
    assert.equal(srsFromRank(0, 5), 0);
    assert.equal(firstSupportRank(u("x", "y", "g"), new Set(["g"])), 3);
  });

  it("turn-unit positions credit every covered turn once", () => {
    const positions = [["t1", "t2", "t3"], ["t4"], ["t1"]];
    const gold = new Set(["t1", "t3", "t9"]);
    close(recallAt(positions, gold, 1), 2 / 3);
    assert.equal(recallAllAt(positions, gold, 3), 0);
    // only position 1 is relevant (t1 again at 3 is not new): DCG = 1, IDCG = 1 + 1/log2 3 + 1/2
    close(ndcgAt(positions, gold, 3), 1 / (1 + 1 / Math.log2(3) + 0.5));
  });

  it("stale@k counts sessions holding only invalidated facts", () => {
    assert.equal(staleAt(u("old", "new", "x", "both"), new Set(["old", "both"]), new Set(["new", "both"]), 4), 0.25);
    assert.equal(staleAt(u(), new Set(["old"]), new Set(), 4), 0);
  });

  it("keys every metric as summary.json names it", () => {
    const m = retrievalMetrics(u("a", "b"), new Set(["b"]), { ks: [10], supportKs: [3], stale: new Set(["a"]) });
    assert.deepEqual(Object.keys(m).sort(), [
      "ndcg@10",
      "ndcg_realmem@10",
      "recall@10",
      "recall_all@10",
      "recall_any@10",
      "seh_prov@3",
      "srs_prov@3",
      "stale@10",
    ]);
    assert.equal(m["stale@10"], 0.5);
    close(m["srs_prov@3"] ?? -1, 0.6309);
  });
});

describe("percentile", () => {
  it("interpolates between ranks", () => {
    assert.equal(percentile([1, 2, 3, 4, 5], 50), 3);
    assert.equal(percentile([10, 20], 95), 19.5);
    assert.ok(Number.isNaN(percentile([], 50)));
  });
});
