import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { headlineFor } from "../../src/report/headline.ts";
import { runHeadline } from "../../src/report/view/api.ts";
import type { Summary } from "../../src/run/summary.ts";

const row = (metrics: Record<string, number>, setting = "default"): Summary["results"][number] => ({
  system: "bm25",
  setting: setting as "default",
  n: 4,
  metrics,
  byLabel: {},
  skipped: [],
  skipReasons: {},
  latency: {},
  cost: { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, contextTokensMean: 0 },
});

/** The viewer's headline of one row, decided over the run's rows as the report decides it. */
const viewed = (benchmark: string, r: Summary["results"][number]) => runHeadline(r, headlineFor(benchmark, [r]));

describe("viewer: a run's headline number", () => {
  it("is the benchmark's headline, as in the report", () => {
    // RealMem: QA/3, not the raw 0–3 score.
    assert.deepEqual(viewed("realmem", row({ qa_score: 2, qa_score_norm: 2 / 3 })), {
      metric: "qa_score_norm",
      label: "QA score (QA/3)",
      kind: "scored",
      value: 2 / 3,
      max: 1,
    });
    // LoCoMo: F1 of categories 1–4, with the adversarial category kept apart.
    assert.equal(viewed("locomo", row({ f1_all: 0.05, f1: 0.07, f1_adversarial: 0, j: 1 }))?.metric, "f1");
    // MemoryAgentBench's overall is already ×100.
    assert.equal(viewed("memoryagentbench", row({ overall: 41.5, accuracy: 1 }))?.max, 100);
  });

  it("falls back to the report's retrieval metric, recall_all@10, never recall_any at another depth", () => {
    const unscored = row({ "recall_any@10": 0.9, "recall_all@10": 0.7, "recall_any@5": 0.6 });
    assert.deepEqual(viewed("locomo", unscored), {
      metric: "recall_all@10",
      label: "recall_all@10 (retrieval; no scored answers)",
      kind: "retrieval",
      value: 0.7,
      max: 1,
    });
  });

  it("decides on the default setting, or on every row of a run without one", () => {
    const oracleOnly = row({ accuracy: 0.5 }, "oracle");
    assert.equal(headlineFor("longmemeval", [oracleOnly])?.metric, "accuracy");
    // A scored oracle row beside an unscored default row: the default row decides.
    assert.equal(headlineFor("longmemeval", [oracleOnly, row({ "recall_all@10": 0.2 })])?.kind, "retrieval");
  });
});
