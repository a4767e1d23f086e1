import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ProbeRecord, UnitInfo } from "../../src/core/record.ts";
import { summarise } from "../../src/run/summary.ts";

const unit: UnitInfo = { id: "bm25|e1", system: "bm25", episodeId: "e1", state: "done", attempts: 1, ingestMs: [1] };

function record(probeId: string, answer: Partial<Pick<ProbeRecord, "answer" | "answerError">>): ProbeRecord {
  return {
    unitId: unit.id,
    system: "bm25",
    episodeId: "e1",
    probeId,
    setting: "default",
    question: `question ${probeId}?`,
    labels: {},
    status: "done",
    retrieved: [],
    context: { text: "", tokens: 0, used: 0 },
    timings: { flushMs: 0, searchMs: 1, answerMs: 5 },
    ...answer,
  };
}

const summarize = (records: ProbeRecord[]) =>
  summarise({ benchmark: "realmem", data: "d" }, records, [unit], ["bm25"], ["default"]).results[0]!;

describe("summary answer failures", () => {
  it("counts failed answer calls when some answers failed", () => {
    const row = summarize([record("p1", { answer: "a" }), record("p2", { answerError: "HTTP 500" })]);
    assert.equal(row.metrics.answer_failures, 1);
    assert.equal(row.skipped.includes("answer"), false);
  });

  it("counts them when every answer failed, and says the judge has no answers", () => {
    const row = summarize([record("p1", { answerError: "HTTP 500" }), record("p2", { answerError: "timed out" })]);
    assert.equal(row.metrics.answer_failures, 2);
    assert.equal(row.skipReasons.judge, "no answers to judge");
  });

  it("has no answer_failures when nothing failed", () => {
    const row = summarize([record("p1", { answer: "a" })]);
    assert.equal(row.metrics.answer_failures, undefined);
  });
});
