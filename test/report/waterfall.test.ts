import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { headlineFor, headlinePercent } from "../../src/report/headline.ts";
import { type Outcome, waterfallOf } from "../../src/report/waterfall.ts";
import type { ResultRow } from "../../src/run/summary.ts";

const o = (probeId: string, setting: Outcome["setting"], value: number, type = "t"): Outcome => ({
  episodeId: "e",
  probeId,
  setting,
  value,
  labels: { relation_type: type },
});

describe("waterfallOf", () => {
  it("chains right/wrong outcomes over the probes present in all three settings", () => {
    const outcomes = [
      // p1 survives every stage; p2 is lost at preservation; p3 at retrieval; p4 fails under oracle.
      ...["p1", "p2", "p3", "p4"].flatMap((p) => [o(p, "oracle", p === "p4" ? 0 : 1)]),
      o("p1", "perfect", 1),
      o("p2", "perfect", 0),
      o("p3", "perfect", 1),
      o("p4", "perfect", 1),
      o("p1", "default", 1),
      o("p2", "default", 1),
      o("p3", "default", 0),
      o("p4", "default", 1),
      // p5 has no perfect outcome: left out of the chain, not counted as a failure.
      o("p5", "oracle", 1),
      o("p5", "default", 0),
    ];
    const w = waterfallOf(outcomes, "relation_type")!;
    assert.equal(w.chained, true);
    assert.equal(w.n, 4);
    assert.deepEqual({ sO: w.overall.sO, sP: w.overall.sP, sD: w.overall.sD }, { sO: 3, sP: 2, sD: 1 });
    assert.equal(w.overall.pPreserve, 2 / 3);
    assert.equal(w.overall.pRetrieve, 1 / 2);
    assert.deepEqual(Object.keys(w.byGroup), ["t"]);
    const [lo, hi] = w.ci.p_preserve!;
    assert.ok(lo <= 2 / 3 && 2 / 3 <= hi);
  });

  it("does not chain graded scores: it reports the mean per setting", () => {
    const w = waterfallOf([o("p1", "oracle", 0.5), o("p1", "perfect", 0.25), o("p1", "default", 1)])!;
    assert.equal(w.chained, false);
    assert.deepEqual(w.means, { oracle: 0.5, perfect: 0.25, default: 1 });
    assert.deepEqual(w.ci, {});
  });

  it("needs all three settings", () => {
    assert.equal(waterfallOf([o("p1", "oracle", 1), o("p1", "default", 1)]), undefined);
  });
});

const row = (metrics: Record<string, number>, setting: ResultRow["setting"] = "default") =>
  ({
    system: "s",
    setting,
    n: 1,
    metrics,
    byLabel: {},
    skipped: [],
    skipReasons: {},
    latency: {},
    cost: {},
  }) as unknown as ResultRow;

describe("headlineFor", () => {
  it("takes the paper's headline when answers were scored", () => {
    const h = headlineFor("memoryagentbench", [row({ overall: 41.5, "recall_all@10": 0.5 })])!;
    assert.equal(h.kind, "scored");
    assert.equal(headlinePercent(row({ overall: 41.5 }), h), 41.5, "MemoryAgentBench's overall is already ×100");
    assert.equal(headlineFor("realmem", [row({ qa_score_norm: 0.4 })])?.metric, "qa_score_norm");
  });

  it("falls back to a retrieval metric, labelled as such, and never invents one", () => {
    const h = headlineFor("realmem", [row({ "recall_any@10": 0.7, "recall_all@10": 0.6 })])!;
    assert.equal(h.kind, "retrieval");
    assert.equal(h.metric, "recall_all@10");
    assert.match(h.label, /retrieval; no scored answers/);
    assert.equal(headlineFor("realmem", [row({ context_tokens_mean: 10 })]), undefined);
    // The default setting decides when the runs have it; a scored oracle row does not make an unscored default scored.
    assert.equal(
      headlineFor("realmem", [row({ qa_score_norm: 0.4 }, "oracle"), row({ "recall_all@10": 0.6 })])?.kind,
      "retrieval",
    );
  });
});
