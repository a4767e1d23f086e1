import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DataError } from "../../src/core/errors.ts";
import { scoreAnswersFile } from "../../src/run/answers.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { fixture } from "../support/shared-data.ts";

const data = fixture("longmemeval");

function setup(lines: object[]) {
  const dir = mkdtempSync(join(tmpdir(), "mb-answers-"));
  const answers = join(dir, "answers.jsonl");
  writeFileSync(answers, lines.map((l) => JSON.stringify(l)).join("\n"));
  const judge = join(dir, "judge.jsonl");
  writeFileSync(
    judge,
    [
      { role: "judge", match: "Reply to grade: RIGHT", reply: { correct: true, reason: "matches" } },
      { role: "judge", reply: { correct: false, reason: "does not match" } },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n"),
  );
  return { dir, answers, judge };
}

describe("scoring an answers file produced elsewhere", () => {
  it("scores {question_id, hypothesis} lines without running any system", async () => {
    const { dir, answers, judge } = setup([
      { question_id: "e47b1c01", hypothesis: "RIGHT: it was blue" },
      { question_id: "9c3d7a22", hypothesis: "something else" },
    ]);
    const outcome = await scoreAnswersFile("longmemeval", data, answers, { judgeLlm: `scripted:${judge}`, out: dir });
    assert.equal(outcome.unanswered, 2);
    const row = outcome.summary.results[0] as ScoredRow;
    assert.equal(row.system, "answers");
    assert.equal(row.n, 2);
    assert.equal(row.metrics.accuracy, 0.5);
    assert.equal(row.promptSet, "membench");
    assert.equal(row.skipped.includes("judge"), false);
    assert.equal(outcome.scores.length, 2);
  });

  it("names the line and field of an unknown question id", async () => {
    const { dir, answers } = setup([
      { question_id: "e47b1c01", hypothesis: "x" },
      { question_id: "nope", hypothesis: "y" },
    ]);
    await assert.rejects(scoreAnswersFile("longmemeval", data, answers, { out: dir }), (e: unknown) => {
      assert.ok(e instanceof DataError);
      assert.equal(e.record, "line 2");
      assert.equal(e.field, "question_id");
      return true;
    });
  });

  it("without a judge, judged metrics are skipped, not scored", async () => {
    const { dir, answers } = setup([{ question_id: "e47b1c01", hypothesis: "RIGHT" }]);
    const outcome = await scoreAnswersFile("longmemeval", data, answers, { out: dir });
    const row = outcome.summary.results[0] as ScoredRow;
    assert.equal(row.metrics.accuracy, undefined);
    assert.ok(row.skipped.includes("judge"));
    assert.match(row.skipReasons.judge ?? "", /no judge configured/);
  });
});
