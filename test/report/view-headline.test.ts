import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runHeadline } from "../../src/report/view/api.ts";
import type { Summary } from "../../src/run/summary.ts";

const row = (metrics: Record<string, number>): Summary["results"][number] => ({
  system: "bm25",
  setting: "default",
  n: 4,
  metrics,
  byLabel: {},
  skipped: [],
  skipReasons: {},
  latency: {},
  cost: { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, contextTokensMean: 0 },
});

describe("viewer: a run's headline number", () => {
  it("is the benchmark's headline, as in the report", () => {
    // RealMem: QA/3, not the raw 0–3 score.
    assert.deepEqual(runHeadline(row({ qa_score: 2, qa_score_norm: 2 / 3 }), 20, "realmem"), {
      metric: "qa_score_norm",
      value: 2 / 3,
      max: 1,
    });
    // LoCoMo: F1 of categories 1–4, with the adversarial category kept apart.
    assert.equal(runHeadline(row({ f1_all: 0.05, f1: 0.07, f1_adversarial: 0 }), 10, "locomo")?.metric, "f1");
    // MemoryAgentBench's overall is already ×100.
    assert.deepEqual(runHeadline(row({ overall: 41.5, accuracy: 1 }), 10, "memoryagentbench"), {
      metric: "overall",
      value: 41.5,
      max: 100,
    });
  });

  it("falls back to the verdict metric, then to retrieval at the answer depth", () => {
    assert.equal(runHeadline(row({ accuracy: 0.5 }), 10, "unknown")?.metric, "accuracy");
    assert.equal(runHeadline(row({ "recall_any@10": 0.7 }), 10, "realmem")?.metric, "recall_any@10");
  });
});
