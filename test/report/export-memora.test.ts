/**
 * The Memora export in the shape the release's harness writes and its Table 3
 * aggregator (`evals/model_eval/aggregate_results.py`) reads. A real run of
 * the project's fixture (5 weekly questions), bm25, a scripted answer and one
 * scripted judge that says "no" to three presence criteria (the meeting title,
 * the coffee goal, the spending amount) and to the deleted agenda item, "yes"
 * to everything else, so that pooled ratios differ from means of per-question
 * ratios:
 *
 * | question | task | presence met | forgetting met | FAMA |
 * | meeting notes | Remembering | 2/3 | 1/1 | 2/3 |
 * | coffee goal | Reasoning | 1/3 | – | 1/3 |
 * | food total | Reasoning | 1/1 | – | 1 |
 * | books general | Recommending | 1/1 | 0/1 | 1 − ½ = ½ |
 * | books authors | Recommending | 1/1 | 0/1 | ½ |
 *
 * Pooled MPA = 6/9; the mean of per-question MPA would be 0.8.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { after, before, describe, it } from "node:test";
import { criterionSatisfied, criterionVote } from "../../src/benchmarks/memora/score.ts";
import { exportOfficial } from "../../src/report/official/export.ts";
import type { EvalReportFile, EvalResultsFile } from "../../src/report/official/memora.ts";
import { loadRun, type RunData } from "../../src/report/run-data.ts";
import { startRun } from "../../src/run/runner.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";
import { tempDir } from "./sample-runs.ts";

const NOW = new Date("2026-02-03T04:05:06Z");
const BASE = "bm25/weekly/museum_curator/eval_results/membench_bm25";
const json = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;
const close = (actual: number | null | undefined, expected: number, what: string) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9, `${what}: ${actual}`);

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

/**
 * The fields aggregate_results.py takes from one report, read the way it reads
 * them: period, persona and run id from the path around `eval_results`, the
 * subject from `metadata.model_name` or `metadata.memory_system` (else
 * "<unknown>"), and per task the FAMA and `total_questions` (a cell counts only
 * with a FAMA and more than 0 questions).
 */
function aggregatorRow(path: string, report: EvalReportFile) {
  const parts = path.split(sep);
  const i = parts.indexOf("eval_results");
  const md = report.metadata as { model_name?: string; memory_system?: string };
  const cells: Record<string, number> = {};
  for (const task of ["Remembering", "Reasoning", "Recommending"]) {
    const stats = report.by_task_type[task] as { fama?: number | null; total_questions?: number } | undefined;
    if (stats?.fama !== undefined && stats.fama !== null && (stats.total_questions ?? 0) > 0) cells[task] = stats.fama;
  }
  return {
    subject: md.model_name || md.memory_system || "<unknown>",
    period: parts[i - 2],
    persona: parts[i - 1],
    runId: parts[i + 1],
    totalQuestions: report.overall_metrics.total_questions,
    cells,
  };
}

describe("Memora export", () => {
  const out = tempDir();
  let run: string;
  let dir: string;
  let results: EvalResultsFile;
  let report: EvalReportFile;
  let judge: string;

  before(async () => {
    const script = join(out, "memora.jsonl");
    const no = (match: string) => ({ role: "judge", match, reply: { answer: "no", reason: "not there" } });
    const rules = [
      { role: "answerer", reply: "Here is everything I remember about it." },
      no("meeting title"),
      no("coffee budget goal"),
      no("actual spending amount"),
      no("Rotate the Japanese woodblock"),
      { role: "judge", reply: { answer: "yes", reason: "it is mentioned" } },
    ];
    writeFileSync(script, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const outcome = await startRun({
      benchmark: "memora",
      data: fixture("memora"),
      systems: ["bm25"],
      out,
      id: "memora-export",
      llm: `scripted:${script}`,
      progress: false,
    });
    run = outcome.dir;
    judge = loadRun(run).scoring!.judges[0]!;
    dir = join(out, "memora-export-files");
    await exportOfficial(run, "memora", dir, NOW);
    results = json<EvalResultsFile>(join(dir, BASE, "eval_results_20260203_040506.json"));
    report = json<EvalReportFile>(join(dir, BASE, "eval_report_20260203_040506.json"));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("writes the release's layout: <period>/<persona>/eval_results/<run_id>/ with both files", () => {
    assert.deepEqual(files(dir), [
      `${BASE}/eval_report_20260203_040506.json`,
      `${BASE}/eval_results_20260203_040506.json`,
    ]);
  });

  it("is read by the aggregator as one subject per system with every Table 3 cell", () => {
    const row = aggregatorRow(join(dir, BASE, "eval_report_20260203_040506.json"), report);
    assert.equal(row.subject, "bm25");
    assert.deepEqual([row.period, row.persona, row.runId], ["weekly", "museum_curator", "membench_bm25"]);
    assert.equal(row.totalQuestions, 5);
    assert.deepEqual(Object.keys(row.cells), ["Remembering", "Reasoning", "Recommending"]);
    close(row.cells.Remembering, 200 / 3, "Remembering FAMA");
    close(row.cells.Reasoning, 200 / 3, "Reasoning FAMA: (1/3 + 1) / 2 × 100");
    close(row.cells.Recommending, 50, "Recommending FAMA");
  });

  it("writes eval_results as {metadata, results}, the metadata naming the system", () => {
    assert.deepEqual(Object.keys(results), ["metadata", "results"]);
    assert.equal(results.metadata.memory_system, "bm25");
    assert.equal(results.metadata.user_id, "museum_curator_weekly");
    assert.equal(results.metadata.total_questions, 5);
    assert.equal(results.metadata.model, "scripted");
    assert.deepEqual(results.metadata.judge_models, { [judge]: judge });
    assert.equal(results.results.length, 5);
  });

  it("pins every per-question field, with per-judge verdicts keyed by judge", () => {
    const notes = results.results.find((r) => r.question_id === "content_meeting_notes_5_meeting_notes_1")!;
    assert.deepEqual(Object.keys(notes), [
      "question_id",
      "question",
      "task_type",
      "session_id",
      "session_date",
      "model_response",
      "expected_answer",
      "evaluation_questions",
      "memories_retrieved",
      "memories",
      "total_eval_questions",
      "per_judge_metrics",
      "fama",
      "memory_presence_accuracy",
      "memory_presence_correct",
      "memory_presence_total",
      "forgetting_absence_accuracy",
      "forgetting_absence_correct",
      "forgetting_absence_total",
      "memory_evidence",
      "forgetting_evidence",
      "timestamp",
    ]);
    assert.equal(notes.task_type, "Remembering");
    assert.equal(notes.model_response, "Here is everything I remember about it.");
    assert.equal(notes.total_eval_questions, 4);
    assert.equal(notes.memories_retrieved, notes.memories.length);
    assert.deepEqual(
      [
        notes.memory_presence_correct,
        notes.memory_presence_total,
        notes.forgetting_absence_correct,
        notes.forgetting_absence_total,
      ],
      [2, 3, 1, 1],
    );
    close(notes.memory_presence_accuracy, 2 / 3, "MPA");
    assert.equal(notes.forgetting_absence_accuracy, 1);
    close(notes.fama, 2 / 3, "FAMA = MPA − λ(1 − FAA) with FAA 1");
    assert.deepEqual(notes.per_judge_metrics, { [judge]: { correct: 3, total: 4, accuracy: 0.75 } });

    const title = notes.evaluation_questions[0]!;
    assert.deepEqual(Object.keys(title), [
      "evaluation_question_id",
      "evaluation_question",
      "expected_answer",
      "evaluation_type",
      "evaluation_result",
    ]);
    assert.equal(title.evaluation_type, "memory_presence");
    const r = title.evaluation_result!;
    assert.deepEqual(Object.keys(r), [
      "is_correct",
      "confidence",
      "explanation",
      "llm_answer",
      "per_judge_results",
      "agreement_rate",
      "num_judges",
      "num_valid_judges",
      "correct_votes",
    ]);
    assert.equal(r.is_correct, false);
    assert.equal(r.llm_answer, "no");
    assert.deepEqual(r.per_judge_results, {
      [judge]: { is_correct: false, confidence: null, explanation: "not there", llm_answer: "no" },
    });
    assert.deepEqual([r.agreement_rate, r.num_judges, r.num_valid_judges, r.correct_votes], [1, 1, 1, 0]);

    const forget = notes.evaluation_questions[3]!;
    assert.equal(forget.evaluation_question_id, "content_meeting_notes_5_meeting_notes_1_eval_forgetting_0");
    assert.equal(forget.evaluation_type, "forgetting_absence");
    assert.equal(forget.expected_answer, "no");
    assert.equal(forget.evaluation_result?.is_correct, true);

    const coffee = results.results.find((q) => q.question_id === "goal_food_expenses_coffee_5_0")!;
    assert.equal(coffee.forgetting_absence_accuracy, null, "no forgetting criteria: no FAA, as released");
    assert.equal(coffee.forgetting_absence_total, 0);
  });

  it("reports pooled 0–1 accuracies and FAMA ×100, with the release's overall fields", () => {
    const o = report.overall_metrics;
    assert.deepEqual(Object.keys(o), [
      "total_questions",
      "total_evaluation_questions",
      "total_correct_evaluations",
      "overall_accuracy",
      "fama",
      "memory_presence_total",
      "memory_presence_correct",
      "memory_presence_accuracy",
      "forgetting_absence_total",
      "forgetting_absence_correct",
      "forgetting_absence_accuracy",
    ]);
    assert.equal(o.total_questions, 5);
    assert.equal(o.total_evaluation_questions, 12);
    assert.equal(o.total_correct_evaluations, 7);
    close(o.overall_accuracy, 7 / 12, "overall accuracy");
    close(o.memory_presence_accuracy, 6 / 9, "pooled MPA (a mean of per-question MPA would be 0.8)");
    close(o.forgetting_absence_accuracy, 1 / 3, "pooled FAA");
    close(o.fama, 60, "mean per-question FAMA × 100");
    assert.deepEqual(report.per_judge_overall, { [judge]: { correct: 7, total: 12, accuracy: 7 / 12 } });
    assert.deepEqual(report.per_judge_by_task_type[judge]?.Recommending, { correct: 2, total: 4, accuracy: 0.5 });
    assert.equal(report.detailed_results.length, 5);
  });

  it("writes every task bucket with total_questions, pooled ratios and per-question accuracies", () => {
    assert.deepEqual(Object.keys(report.by_task_type), ["Remembering", "Reasoning", "Recommending"]);
    const reasoning = report.by_task_type.Reasoning!;
    assert.deepEqual(Object.keys(reasoning), [
      "total_questions",
      "total_eval_questions",
      "correct_count",
      "accuracies",
      "memory_presence_total",
      "memory_presence_correct",
      "forgetting_absence_total",
      "forgetting_absence_correct",
      "accuracy",
      "avg_question_accuracy",
      "memory_presence_accuracy",
      "forgetting_absence_accuracy",
      "fama",
    ]);
    assert.equal(reasoning.total_questions, 2);
    assert.equal(reasoning.total_eval_questions, 4);
    assert.equal(reasoning.correct_count, 2);
    assert.equal(reasoning.accuracies.length, 2);
    close(reasoning.accuracy, 0.5, "pooled accuracy");
    close(reasoning.avg_question_accuracy, 2 / 3, "mean of 1/3 and 1");
    close(reasoning.memory_presence_accuracy, 0.5, "pooled MPA 2/4");
    assert.equal(reasoning.forgetting_absence_accuracy, null);
  });

  const release = sharedDataset("memora");
  it("gives the aggregator every cell of a real release persona, weekly and monthly", {
    skip: skipUnless(release),
  }, async () => {
    const script = join(out, "yes.jsonl");
    const rules = [
      { role: "answerer", reply: "Here is everything I remember about it." },
      { role: "judge", reply: { answer: "yes", reason: "it is mentioned" } },
    ];
    writeFileSync(script, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const shared = await startRun({
      benchmark: "memora",
      data: release!,
      systems: ["bm25"],
      out,
      id: "memora-release",
      llm: `scripted:${script}`,
      progress: false,
    });
    const target = join(out, "memora-release-files");
    await exportOfficial(shared.dir, "memora", target, NOW);
    const reports = files(target).filter((f) => /eval_report_/.test(f));
    assert.deepEqual(reports, [
      "bm25/monthly/software_engineer/eval_results/membench_bm25/eval_report_20260203_040506.json",
      "bm25/weekly/software_engineer/eval_results/membench_bm25/eval_report_20260203_040506.json",
    ]);
    for (const path of reports) {
      const rep = json<EvalReportFile>(join(target, path));
      const row = aggregatorRow(join(target, path), rep);
      assert.equal(row.subject, "bm25");
      assert.equal(row.totalQuestions, 15);
      assert.deepEqual(Object.keys(row.cells), ["Remembering", "Reasoning", "Recommending"]);
      // A judge saying yes to everything meets every presence criterion; Reasoning has no forgetting ones.
      assert.equal(row.cells.Reasoning, 100);
      assert.equal(rep.overall_metrics.memory_presence_accuracy, 1);
      for (const task of ["Remembering", "Recommending"]) {
        const famas = rep.detailed_results.filter((q) => q.task_type === task).map((q) => q.fama!);
        close(row.cells[task], (100 * famas.reduce((a, b) => a + b, 0)) / famas.length, `${path} ${task}`);
      }
    }
  });

  it("writes an unscored run with null results and null FAMA, which the aggregator skips", async () => {
    const offline = await startRun({
      benchmark: "memora",
      data: fixture("memora"),
      systems: ["bm25"],
      out,
      id: "memora-offline",
      progress: false,
    });
    const target = join(out, "memora-offline-files");
    await exportOfficial(offline.dir, "memora", target, NOW);
    const rep = json<EvalReportFile>(join(target, BASE, "eval_report_20260203_040506.json"));
    assert.equal(rep.overall_metrics.total_questions, 5);
    assert.equal(rep.overall_metrics.fama, null);
    assert.equal(rep.overall_metrics.memory_presence_accuracy, null);
    assert.ok(rep.detailed_results.every((q) => q.model_response === null && q.total_eval_questions === 0));
    assert.ok(rep.detailed_results.every((q) => q.evaluation_questions.every((c) => c.evaluation_result === null)));
    assert.deepEqual(aggregatorRow(join(target, BASE, "eval_report_20260203_040506.json"), rep).cells, {});
  });
});

/**
 * An export of a run scored with `failed_verdicts=code`: three scripted judges
 * reply with JSON verdicts (y, n), with prose membench cannot parse but the
 * released parser reads (Y "Yes, it is there." → yes; N "It is not mentioned."
 * → no; U "Perhaps." → unclear, a vote for neither), or not at all (X: no
 * script rule, so the call fails and the judge is left out). Votes per
 * criterion under the released rule, by hand:
 *
 * | criterion (expected) | a b c | votes | met | under worst |
 * | meeting title (yes) | y Y n | yes yes no | 2/3 met | 1/3 not met |
 * | agenda items (yes) | y U X | yes unclear | 1/2 not met | not met |
 * | key decisions (yes) | y y X | yes yes | met | met |
 * | deleted agenda (no) | N N y | no no yes | met | not met |
 * | coffee goal (yes) | X X X | none | not met | not met |
 * | spending amount (yes) | n Y Y | no yes yes | met | not met |
 * | under budget (yes) | y y y | | met | met |
 * | food total (yes) | U U y | unclear unclear yes | not met | not met |
 * | Le Guin, both book questions (yes) | y y y | | met | met |
 * | Jules Verne, both book questions (no) | n N X | no no | met | not met |
 *
 * Per question: notes MP 2/3, FA 1/1 → FAMA 2/3; coffee MP 2/3; food 0;
 * each book question MP 1/1, FA 1/1 → 1. Pooled MPA 6/9, FAA 3/3, overall 9/12;
 * under `worst` the same replies give MPA 4/9 and FAA 0/3.
 */
type Verdict = Parameters<typeof criterionVote>[0];

describe("Memora export of a run scored with failed_verdicts=code", () => {
  const out = tempDir();
  const JUDGES = ["judge-a", "judge-b", "judge-c"];
  const VOTES: Array<[string, string]> = [
    ["meeting title", "yYn"],
    ["agenda items: Confirm loan", "yUX"],
    ["key decisions information", "yyX"],
    ["deleted agenda items: Rotate", "NNy"],
    ["coffee budget goal of \\$25", "XXX"],
    ["actual spending amount", "nYY"],
    ["UNDER BUDGET", "yyy"],
    ["total food spending amount", "UUy"],
    ["preference for Ursula", "yyy"],
    ["preference for Jules Verne", "nNX"],
  ];
  const REPLIES: Record<string, unknown> = {
    y: { answer: "yes", reason: "it is there" },
    n: { answer: "no", reason: "not there" },
    Y: "Yes, it is there.",
    N: "It is not mentioned.",
    U: "Perhaps.",
  };
  const script = join(out, "code.jsonl");
  let run: RunData;
  let results: EvalResultsFile;
  let report: EvalReportFile;

  before(async () => {
    const rules: object[] = [{ role: "answerer", reply: "Here is everything I remember about it." }];
    for (const [match, votes] of VOTES) {
      JUDGES.forEach((model, i) => {
        const v = votes[i]!;
        if (v !== "X") rules.push({ role: "judge", model, match, reply: REPLIES[v] });
      });
    }
    writeFileSync(script, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const outcome = await startRun({
      benchmark: "memora",
      data: fixture("memora"),
      systems: ["bm25"],
      out,
      id: "memora-code",
      llm: `scripted:${script}`,
      scoring: { judges: JUDGES, options: { failed_verdicts: "code" } },
      progress: false,
    });
    run = loadRun(outcome.dir);
    const dir = join(out, "memora-code-files");
    await exportOfficial(outcome.dir, "memora", dir, NOW);
    results = json<EvalResultsFile>(join(dir, BASE, "eval_results_20260203_040506.json"));
    report = json<EvalReportFile>(join(dir, BASE, "eval_report_20260203_040506.json"));
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("names the rule in the metadata", () => {
    assert.equal(run.scoring?.options.failed_verdicts, "code");
    assert.equal(results.metadata.failed_verdicts, "code");
  });

  it("writes each criterion's votes as the scorer counts them under the released rule", () => {
    assert.equal(run.scores.length, 5);
    let criteria = 0;
    for (const score of run.scores) {
      const q = results.results.find((r) => r.question_id === score.probeId)!;
      q.evaluation_questions.forEach((c, i) => {
        const verdicts = score.verdicts.filter((v) => v.part === `criterion:${i}`) as Verdict[];
        const votes = verdicts.map((v) => criterionVote(v, "code"));
        const r = c.evaluation_result!;
        const what = `${score.probeId} criterion ${i}`;
        assert.equal(verdicts.length, 3, what);
        assert.equal(r.is_correct, criterionSatisfied(verdicts, c.expected_answer, "code"), what);
        assert.equal(r.num_valid_judges, votes.filter((v) => v !== undefined).length, what);
        assert.equal(r.correct_votes, votes.filter((v) => v === c.expected_answer).length, what);
        assert.equal(r.is_correct, r.correct_votes > r.num_valid_judges / 2, `${what}: the release's own test`);
        assert.deepEqual(
          JUDGES.map((j) => r.per_judge_results[j]?.llm_answer),
          votes.map((v) => v ?? "error"),
          what,
        );
        criteria++;
      });
    }
    assert.equal(criteria, 12);
  });

  it("reads prose replies the released way, keeps unclear votes and leaves failed calls out", () => {
    const notes = results.results.find((r) => r.question_id === "content_meeting_notes_5_meeting_notes_1")!;
    const [title, agenda, , deleted] = notes.evaluation_questions.map((c) => c.evaluation_result!);
    assert.deepEqual(
      JUDGES.map((j) => title!.per_judge_results[j]!.llm_answer),
      ["yes", "yes", "no"],
    );
    assert.equal(title!.is_correct, true, "the prose yes counts: 2 of 3 (worst would say 1 of 3)");
    assert.match(title!.per_judge_results["judge-b"]!.explanation, /read from the reply's wording: Yes, it is there/);
    assert.ok(title!.per_judge_results["judge-b"]!.error, "membench still names why it could not parse the reply");
    assert.deepEqual(
      JUDGES.map((j) => agenda!.per_judge_results[j]!.llm_answer),
      ["yes", "unclear", "error"],
    );
    assert.deepEqual([agenda!.is_correct, agenda!.num_valid_judges, agenda!.correct_votes], [false, 2, 1]);
    assert.equal(agenda!.agreement_rate, 0.5);
    assert.deepEqual([deleted!.is_correct, deleted!.llm_answer, deleted!.correct_votes], [true, "no", 2]);
    const coffee = results.results.find((r) => r.question_id === "goal_food_expenses_coffee_5_0")!;
    const goal = coffee.evaluation_questions[0]!.evaluation_result!;
    assert.deepEqual([goal.is_correct, goal.llm_answer, goal.num_valid_judges], [false, "error", 0]);
    assert.equal(goal.explanation, "All judges failed");
  });

  it("gives per-question tallies and FAMA that agree with the run's scores", () => {
    for (const score of run.scores) {
      const q = results.results.find((r) => r.question_id === score.probeId)!;
      close(q.fama, score.metrics.fama!, `${score.probeId} FAMA`);
      close(q.memory_presence_accuracy, score.metrics.mpa!, `${score.probeId} MPA`);
      if (score.metrics.faa === undefined) assert.equal(q.forgetting_absence_accuracy, null);
      else close(q.forgetting_absence_accuracy, score.metrics.faa, `${score.probeId} FAA`);
    }
    const fama = Object.fromEntries(results.results.map((q) => [q.question_id, q.fama]));
    close(fama.content_meeting_notes_5_meeting_notes_1, 2 / 3, "notes");
    close(fama.goal_food_expenses_coffee_5_0, 2 / 3, "coffee");
    close(fama.activity_food_total_5, 0, "food total");
    close(fama.pref_books_general_5, 1, "books general");
    close(fama.pref_books_authors_5, 1, "books authors");
  });

  it("pools the ratios over the criteria the scorer counted as met", () => {
    const o = report.overall_metrics;
    assert.deepEqual(
      [o.memory_presence_correct, o.memory_presence_total, o.forgetting_absence_correct, o.forgetting_absence_total],
      [6, 9, 3, 3],
    );
    close(o.memory_presence_accuracy, 6 / 9, "pooled MPA (4/9 under worst)");
    close(o.forgetting_absence_accuracy, 1, "pooled FAA (0 under worst)");
    close(o.overall_accuracy, 9 / 12, "overall accuracy");
    close(o.fama, (100 * (2 / 3 + 2 / 3 + 0 + 1 + 1)) / 5, "mean FAMA × 100");
    close(report.by_task_type.Reasoning!.memory_presence_accuracy, 2 / 4, "Reasoning pooled MPA");
    close(report.by_task_type.Reasoning!.fama, (100 * (2 / 3)) / 2, "Reasoning FAMA");
  });

  // Last: it re-scores the run.
  for (const [rule, presence, forgetting] of [
    ["worst", 4, 0],
    ["drop", 6, 2],
  ] as const) {
    it(`applies failed_verdicts=${rule} the scorer's way when the run is re-scored with it`, async () => {
      await scoreRun(run.dir, { judges: JUDGES, judgeLlm: `scripted:${script}`, options: { failed_verdicts: rule } });
      const rescored = loadRun(run.dir);
      const dir = join(out, `memora-${rule}-files`);
      await exportOfficial(run.dir, "memora", dir, NOW);
      const mine = json<EvalReportFile>(join(dir, BASE, "eval_report_20260203_040506.json"));
      assert.equal(mine.metadata.failed_verdicts, rule);
      for (const score of rescored.scores) {
        const q = mine.detailed_results.find((r) => r.question_id === score.probeId)!;
        q.evaluation_questions.forEach((c, i) => {
          const verdicts = score.verdicts.filter((v) => v.part === `criterion:${i}`) as Verdict[];
          const votes = verdicts.map((v) => criterionVote(v, rule));
          const r = c.evaluation_result!;
          assert.equal(r.is_correct, criterionSatisfied(verdicts, c.expected_answer, rule));
          assert.equal(r.num_valid_judges, votes.filter((v) => v !== undefined).length);
          assert.equal(r.is_correct, r.correct_votes > r.num_valid_judges / 2, "the release's own test");
        });
      }
      const o = mine.overall_metrics;
      assert.deepEqual([o.memory_presence_correct, o.forgetting_absence_correct], [presence, forgetting]);
      const title = mine.detailed_results[0]!.evaluation_questions[0]!.evaluation_result!;
      // judge-b's prose reply failed membench's parse: a vote for neither under worst, left out under drop.
      assert.equal(title.per_judge_results["judge-b"]!.llm_answer, rule === "worst" ? "unclear" : "error");
      assert.ok(title.per_judge_results["judge-b"]!.error);
    });
  }
});
