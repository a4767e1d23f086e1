/**
 * Exports to the files the papers' own evaluators read, from real runs of the
 * fixtures (see sample-runs.ts).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { exportOfficial } from "../../src/report/official/export.ts";
import type { QuestionResult } from "../../src/report/official/memora.ts";
import type { GenerationEntry } from "../../src/report/official/realmem.ts";
import type { Leaderboard } from "../../src/report/official/subtlememory.ts";
import { memoraRun, realmemOfflineRun, subtleMemoryRun, tempDir } from "./sample-runs.ts";

const NOW = new Date("2026-02-03T04:05:06Z");
const json = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

describe("official exports", () => {
  const out = tempDir();
  let subtle: string;
  let realmem: string;
  let memora: string;

  before(async () => {
    subtle = await subtleMemoryRun(out);
    realmem = await realmemOfflineRun(out);
    memora = await memoraRun(out);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("writes SubtleMemory leaderboard rows in the project page's shape", async () => {
    const [path] = await exportOfficial(subtle, "subtlememory", join(out, "lb", "leaderboard.json"), NOW);
    const board = json<Leaderboard>(path!);
    assert.equal(board.generatedAt, NOW.toISOString());
    assert.deepEqual(Object.keys(board.metricLabels), [
      "all",
      "complementary",
      "multiEvidence",
      "anyOne",
      "nuanced",
      "temporal",
      "contextual",
      "contradictory",
    ]);
    assert.equal(board.rows.length, 6);
    const row = board.rows.find((r) => r.method === "bm25" && r.setting === "default_api")!;
    assert.equal(row.id, "main-table--scripted--bm25--default-api");
    assert.equal(row.table, "main_table");
    assert.equal(row.model, "scripted");
    assert.deepEqual(row.metricValues, {
      all: 75,
      complementary: 100,
      multiEvidence: 100,
      anyOne: 100,
      nuanced: 100,
      temporal: 100,
      contextual: 100,
      contradictory: 0,
    });
    assert.equal(row.n.all, 8);
    const perfect = board.rows.find((r) => r.method === "none" && r.setting === "perfect_retrieval")!;
    assert.equal(perfect.table, "perfect_retrieval_scripted");
    assert.equal(perfect.metricValues.all, 0);
    assert.equal(board.rows.find((r) => r.method === "none" && r.setting === "oracle_context")?.metricValues.all, 75);
  });

  it("refuses a leaderboard without scored answers, and a run of another benchmark", async () => {
    await assert.rejects(exportOfficial(realmem, "subtlememory", join(out, "x.json")), ConfigError);
    await assert.rejects(exportOfficial(subtle, "memora", join(out, "m")), /needs a memora run/);
    await assert.rejects(
      exportOfficial(subtle, "csv", join(out, "m")),
      /expected one of realmem, subtlememory, memora/,
    );
  });

  it("writes RealMem generation results per system and user, keyed by query id", async () => {
    const dir = join(out, "realmem-export");
    await exportOfficial(realmem, "realmem", dir, NOW);
    assert.deepEqual(files(dir), [
      "bm25-session/Mira_Sato/generation_results.json",
      "none/Mira_Sato/generation_results.json",
    ]);
    const results = json<Record<string, GenerationEntry>>(join(dir, "bm25-session/Mira_Sato/generation_results.json"));
    assert.deepEqual(Object.keys(results).sort(), ["Q-0001", "Q-0002", "Q-0003", "Q-0004"]);
    const q = results["Q-0002"]!;
    assert.equal(q.id, "Q-0002");
    assert.match(q.question, /^The runs went well this week/);
    assert.equal(q.generated_answer, "", "offline: no answer, an empty string as in the reference files");
    assert.ok(q.evidence_used.length > 0);
    // A session-level system returns whole sessions: only chunk items, ranked by score.
    assert.ok(q.ranked_items.length > 0);
    assert.ok(q.ranked_items.every((i) => i.res_type === "chunk"));
    assert.ok(
      q.ranked_items.every((i) => i.content.startsWith("Speaker ")),
      "session text as the harness adds it",
    );
    const scores = q.ranked_items.map((i) => i.score);
    assert.deepEqual(
      scores,
      [...scores].sort((a, b) => b - a),
    );
    const none = json<Record<string, GenerationEntry>>(join(dir, "none/Mira_Sato/generation_results.json"));
    assert.deepEqual(none["Q-0001"]!.ranked_items, []);
  });

  it("writes Memora eval results and report per period and persona, with per-criterion verdicts", async () => {
    const dir = join(out, "memora-export");
    await exportOfficial(memora, "memora", dir, NOW);
    const base = "bm25/weekly/museum_curator/eval_results/membench_bm25";
    assert.deepEqual(files(dir), [
      `${base}/eval_report_20260203_040506.json`,
      `${base}/eval_results_20260203_040506.json`,
    ]);
    const results = json<QuestionResult[]>(join(dir, base, "eval_results_20260203_040506.json"));
    assert.equal(results.length, 5);
    // The judge says yes to every criterion: presence met, forgetting broken.
    const notes = results.find((r) => r.question_id === "content_meeting_notes_5_meeting_notes_1")!;
    assert.equal(notes.task_type, "Remembering");
    assert.equal(notes.model_response, "Here is everything I remember about it.");
    assert.equal(notes.evaluation_questions.length, 4);
    assert.deepEqual(
      [
        notes.memory_presence_correct,
        notes.memory_presence_total,
        notes.forgetting_absence_correct,
        notes.forgetting_absence_total,
      ],
      [3, 3, 0, 1],
    );
    assert.equal(notes.memory_presence_accuracy, 1);
    assert.equal(notes.forgetting_absence_accuracy, 0);
    assert.equal(notes.fama, 0.75, "1 − λ(1 − FAA) with λ = 1/4");
    const forget = notes.evaluation_questions[3]!;
    assert.equal(forget.evaluation_question_id, "content_meeting_notes_5_meeting_notes_1_eval_forgetting_0");
    assert.equal(forget.evaluation_type, "forgetting_absence");
    assert.equal(forget.expected_answer, "no");
    assert.equal(forget.evaluation_result?.is_correct, false);
    assert.equal(forget.evaluation_result?.llm_answer, "yes");
    assert.equal(forget.evaluation_result?.correct_votes, 0);
    assert.equal(forget.evaluation_result?.num_valid_judges, 1);
    const report = json<{
      overall_metrics: { fama: number; num_questions: number };
      by_task_type: Record<string, { fama: number }>;
    }>(join(dir, base, "eval_report_20260203_040506.json"));
    assert.equal(report.overall_metrics.num_questions, 5);
    assert.equal(report.overall_metrics.fama, 75);
    assert.equal(report.by_task_type.Recommending?.fama, 50);
  });
});
