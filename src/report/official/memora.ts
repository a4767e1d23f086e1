/**
 * Memora's evaluation files, in the shape the release's Track 2 harness
 * (`evals/agent_eval/memory_to_answer.py`) writes and its Table 3 aggregator
 * (`evals/model_eval/aggregate_results.py`) reads (github.com/geniesinc/Memora,
 * arXiv 2604.20006 §4.2): per system, period and persona,
 * `<period>/<persona>/eval_results/<run_id>/` holds
 * - `eval_results_<ts>.json`: `{metadata, results}`, one result per question
 *   (the response, every rubric criterion with its majority verdict and the
 *   verdict of each judge keyed by judge, FAMA, presence and forgetting
 *   tallies);
 * - `eval_report_<ts>.json`: `{metadata, overall_metrics, per_judge_overall,
 *   per_judge_by_task_type, by_task_type, detailed_results}`.
 *
 * The aggregator names a report by `metadata.memory_system` (ours: the system
 * and setting) and reads `by_task_type.<Task>.{fama, total_questions}`. FAMA is
 * the mean per-question FAMA ×100; presence, forgetting and overall accuracy
 * are pooled 0–1 ratios (criteria met / criteria judged), as the release's
 * reports are. Where the release writes 0.0 for a quantity with nothing behind
 * it (an empty task, an unscored question) we write null, which the
 * aggregator skips the same way.
 */

import { join } from "node:path";
import { loadDataset } from "../../benchmarks/index.ts";
import type { ReleasedReading } from "../../benchmarks/memora/judge-reply.ts";
import {
  type CriterionVerdict,
  criterionSatisfied,
  criterionVote,
  expectedAnswer,
  type FailedVerdicts,
  failedVerdictsOption,
} from "../../benchmarks/memora/score.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Criterion, Probe } from "../../core/model.ts";
import type { ProbeRecord } from "../../core/record.ts";
import { SCORING_FILE } from "../../run/score-run.ts";
import type { VerdictRecord } from "../../score/judge.ts";
import type { ProbeScore } from "../../score/types.ts";
import { answerModelName, probeKey, type RunData } from "../run-data.ts";
import { armFolder } from "./realmem.ts";

/** The release's three tasks, always present in `by_task_type`, in its order. */
const TASKS = ["Remembering", "Reasoning", "Recommending"] as const;

/** One judge's verdict on one criterion. */
export interface JudgeResult {
  is_correct: boolean;
  confidence: number | null;
  explanation: string;
  /**
   * How the run's rule counted the verdict: "error" = left out of the vote,
   * "unclear" = a vote for neither answer, else the answer it votes for.
   */
  llm_answer: "yes" | "no" | "unclear" | "error";
  /** Why membench could not use the verdict, when it could not (it may still vote, see `llm_answer`). */
  error?: string;
}

export interface EvaluationResult {
  /** The majority verdict, under the run's `failed_verdicts` option. */
  is_correct: boolean;
  confidence: number | null;
  explanation: string;
  llm_answer: "yes" | "no" | "tie" | "error";
  /** Keyed by judge name (`name#k` for the k-th extra sample of a judge run several times). */
  per_judge_results: Record<string, JudgeResult>;
  agreement_rate: number;
  num_judges: number;
  num_valid_judges: number;
  correct_votes: number;
}

/** A rubric criterion as the release spells it, with the verdict added. */
export interface CriterionResult {
  evaluation_question_id: string | null;
  evaluation_question: string;
  expected_answer: "yes" | "no";
  evaluation_type: "memory_presence" | "forgetting_absence";
  evaluation_result: EvaluationResult | null;
}

export interface JudgeTally {
  correct: number;
  total: number;
  accuracy: number | null;
}

export interface RetrievedMemory {
  memory: string;
  score: number;
  rank: number;
  session_ids: string[];
}

export interface QuestionResult {
  question_id: string;
  question: string;
  task_type: string;
  session_id: null;
  session_date: string | null;
  model_response: string | null;
  expected_answer: string;
  evaluation_questions: CriterionResult[];
  memories_retrieved: number;
  memories: RetrievedMemory[];
  total_eval_questions: number;
  per_judge_metrics: Record<string, JudgeTally>;
  fama: number | null;
  memory_presence_accuracy: number | null;
  memory_presence_correct: number;
  memory_presence_total: number;
  forgetting_absence_accuracy: number | null;
  forgetting_absence_correct: number;
  forgetting_absence_total: number;
  memory_evidence: string[];
  forgetting_evidence: string[];
  timestamp: string;
}

export interface TaskMetrics {
  total_questions: number;
  total_eval_questions: number;
  correct_count: number;
  /** Per-question share of criteria met, for the questions with judged criteria. */
  accuracies: number[];
  memory_presence_total: number;
  memory_presence_correct: number;
  forgetting_absence_total: number;
  forgetting_absence_correct: number;
  accuracy: number | null;
  avg_question_accuracy: number | null;
  memory_presence_accuracy: number | null;
  forgetting_absence_accuracy: number | null;
  fama: number | null;
}

export interface OverallMetrics {
  total_questions: number;
  total_evaluation_questions: number;
  total_correct_evaluations: number;
  overall_accuracy: number | null;
  fama: number | null;
  memory_presence_total: number;
  memory_presence_correct: number;
  memory_presence_accuracy: number | null;
  forgetting_absence_total: number;
  forgetting_absence_correct: number;
  forgetting_absence_accuracy: number | null;
}

export interface EvalResultsFile {
  metadata: Record<string, unknown>;
  results: QuestionResult[];
}

export interface EvalReportFile {
  metadata: Record<string, unknown>;
  overall_metrics: OverallMetrics;
  per_judge_overall: Record<string, JudgeTally>;
  per_judge_by_task_type: Record<string, Record<string, JudgeTally>>;
  by_task_type: Record<string, TaskMetrics>;
  detailed_results: QuestionResult[];
}

export interface MemoraFile {
  path: string;
  content: EvalResultsFile | EvalReportFile;
}

export interface MemoraExport {
  files: MemoraFile[];
  warnings: string[];
}

const ratio = (num: number, den: number): number | null => (den > 0 ? num / den : null);
const tally = (correct: number, total: number): JudgeTally => ({ correct, total, accuracy: ratio(correct, total) });

/** Judge keys of one criterion's verdicts: the judge's name, `name#k` for its k-th extra sample. */
function judgeKeys(verdicts: readonly VerdictRecord[]): string[] {
  const seen = new Map<string, number>();
  return verdicts.map((v) => {
    const k = seen.get(v.judge) ?? 0;
    seen.set(v.judge, k + 1);
    return k === 0 ? v.judge : `${v.judge}#${k}`;
  });
}

type Verdict = VerdictRecord & { value?: CriterionVerdict };

/** One judge's result as the release writes it, with `vote` the run's rule gave the verdict. */
function judgeResult(v: Verdict, vote: ReleasedReading | undefined, expected: "yes" | "no"): JudgeResult {
  const cause = v.ok ? undefined : (v.failure ?? "no yes/no answer");
  if (vote === undefined || vote === "error") {
    return {
      is_correct: false,
      confidence: null,
      explanation: `Judge error: ${cause ?? "left out of the vote"}`,
      llm_answer: "error",
      error: cause ?? "left out of the vote",
    };
  }
  const explanation =
    v.ok && v.value
      ? v.value.reason
      : v.reply !== undefined
        ? `Not parsed (${cause}); read from the reply's wording: ${v.reply.slice(0, 200)}`
        : `Judge error: ${cause}; counted as a vote for neither answer`;
  return {
    is_correct: vote === expected,
    confidence: null,
    explanation,
    llm_answer: vote,
    ...(cause === undefined ? {} : { error: cause }),
  };
}

/**
 * A criterion's result from its verdicts. Each verdict votes as the scorer's
 * `criterionVote` says under the run's rule, and `is_correct` is the scorer's
 * `criterionSatisfied`, so the file's counts agree with the run's scores:
 * `is_correct` is `correct_votes > num_valid_judges / 2`, as released.
 */
function judged(
  verdicts: readonly VerdictRecord[],
  expected: "yes" | "no",
  failed: FailedVerdicts,
  judges: number,
): EvaluationResult {
  const mine = verdicts as readonly Verdict[];
  const keys = judgeKeys(mine);
  const votes = mine.map((v) => criterionVote(v, failed));
  const perJudge: Record<string, JudgeResult> = {};
  mine.forEach((v, i) => {
    perJudge[keys[i]!] = judgeResult(v, votes[i], expected);
  });
  const valid = votes.filter((a) => a !== undefined && a !== "error");
  const yes = valid.filter((a) => a === "yes").length;
  const no = valid.filter((a) => a === "no").length;
  const correctVotes = valid.filter((a) => a === expected).length;
  const failedCount = mine.filter((v) => !v.ok).length;
  return {
    is_correct: criterionSatisfied(mine, expected, failed),
    confidence: null,
    explanation: valid.length
      ? `Majority vote: ${correctVotes}/${valid.length} judges agreed with expected answer` +
        (failedCount
          ? ` (${failedCount} failed verdict${failedCount === 1 ? "" : "s"}, failed_verdicts=${failed})`
          : "")
      : "All judges failed",
    llm_answer: !valid.length ? "error" : yes > no ? "yes" : no > yes ? "no" : "tie",
    per_judge_results: perJudge,
    agreement_rate: valid.length ? Math.max(yes, no) / valid.length : 0,
    num_judges: Math.max(judges, keys.length),
    num_valid_judges: valid.length,
    correct_votes: correctVotes,
  };
}

/** A criterion that counts as not met without a verdict: the answer call failed. */
function unjudged(reason: string, judges: number): EvaluationResult {
  return {
    is_correct: false,
    confidence: null,
    explanation: reason,
    llm_answer: "error",
    per_judge_results: {},
    agreement_rate: 0,
    num_judges: judges,
    num_valid_judges: 0,
    correct_votes: 0,
  };
}

function criterionResult(criterion: Criterion, result: EvaluationResult | null): CriterionResult {
  return {
    evaluation_question_id: typeof criterion.meta?.id === "string" ? criterion.meta.id : null,
    evaluation_question: criterion.text,
    expected_answer: expectedAnswer(criterion),
    evaluation_type: criterion.kind === "presence" ? "memory_presence" : "forgetting_absence",
    evaluation_result: result,
  };
}

interface QuestionContext {
  failed: FailedVerdicts;
  judges: number;
  at: string;
}

function questionResult(
  record: ProbeRecord,
  probe: Probe | undefined,
  score: ProbeScore | undefined,
  ctx: QuestionContext,
): QuestionResult {
  const criteria = probe?.gold.criteria ?? [];
  const fama = score?.metrics.fama;
  // Scored: the scorer gave the question its FAMA, every criterion then has an outcome.
  const scored = fama !== undefined && Number.isFinite(fama);
  const results = criteria.map((c, i) => {
    if (!scored) return criterionResult(c, null);
    const verdicts = (score?.verdicts ?? []).filter((v) => v.part === `criterion:${i}`);
    return criterionResult(
      c,
      verdicts.length
        ? judged(verdicts, expectedAnswer(c), ctx.failed, ctx.judges)
        : unjudged(
            record.answerError !== undefined ? `answer call failed: ${record.answerError}` : "not judged",
            ctx.judges,
          ),
    );
  });
  const count = (type: CriterionResult["evaluation_type"]) => {
    const mine = results.filter((r) => r.evaluation_type === type && r.evaluation_result);
    return { correct: mine.filter((r) => r.evaluation_result!.is_correct).length, total: mine.length };
  };
  const presence = count("memory_presence");
  const forgetting = count("forgetting_absence");
  const perJudge = new Map<string, { correct: number; total: number }>();
  for (const r of results) {
    for (const [judge, verdict] of Object.entries(r.evaluation_result?.per_judge_results ?? {})) {
      const t = perJudge.get(judge) ?? { correct: 0, total: 0 };
      t.total++;
      if (verdict.is_correct) t.correct++;
      perJudge.set(judge, t);
    }
  }
  const stale = probe?.meta?.staleMemories;
  return {
    question_id: record.probeId,
    question: record.question,
    task_type: record.labels.task ?? "",
    session_id: null,
    session_date: record.time ?? null,
    model_response: record.answer ?? null,
    expected_answer: "",
    evaluation_questions: results,
    memories_retrieved: record.retrieved.length,
    memories: record.retrieved.map((m) => ({
      memory: m.text,
      score: m.score,
      rank: m.rank,
      session_ids: m.sessionIds ?? [],
    })),
    total_eval_questions: presence.total + forgetting.total,
    per_judge_metrics: Object.fromEntries([...perJudge].map(([j, t]) => [j, tally(t.correct, t.total)])),
    fama: scored ? fama : null,
    memory_presence_accuracy: ratio(presence.correct, presence.total),
    memory_presence_correct: presence.correct,
    memory_presence_total: presence.total,
    forgetting_absence_accuracy: ratio(forgetting.correct, forgetting.total),
    forgetting_absence_correct: forgetting.correct,
    forgetting_absence_total: forgetting.total,
    memory_evidence: probe?.gold.evidenceMemories ?? [],
    forgetting_evidence: Array.isArray(stale) ? stale.filter((x): x is string => typeof x === "string") : [],
    timestamp: ctx.at,
  };
}

/** FAMA of a set of questions: mean per-question FAMA ×100 over the questions that have one. */
function famaOf(qs: readonly QuestionResult[]): number | null {
  const v = qs.map((q) => q.fama).filter((x): x is number => x !== null);
  return v.length ? (100 * v.reduce((a, b) => a + b, 0)) / v.length : null;
}

function sums(qs: readonly QuestionResult[]) {
  const sum = (f: (q: QuestionResult) => number) => qs.reduce((a, q) => a + f(q), 0);
  const presenceTotal = sum((q) => q.memory_presence_total);
  const presenceCorrect = sum((q) => q.memory_presence_correct);
  const forgettingTotal = sum((q) => q.forgetting_absence_total);
  const forgettingCorrect = sum((q) => q.forgetting_absence_correct);
  return {
    evalTotal: sum((q) => q.total_eval_questions),
    correct: presenceCorrect + forgettingCorrect,
    presenceTotal,
    presenceCorrect,
    forgettingTotal,
    forgettingCorrect,
  };
}

function taskMetrics(qs: readonly QuestionResult[]): TaskMetrics {
  const s = sums(qs);
  const accuracies = qs
    .filter((q) => q.total_eval_questions > 0)
    .map((q) => (q.memory_presence_correct + q.forgetting_absence_correct) / q.total_eval_questions);
  return {
    total_questions: qs.length,
    total_eval_questions: s.evalTotal,
    correct_count: s.correct,
    accuracies,
    memory_presence_total: s.presenceTotal,
    memory_presence_correct: s.presenceCorrect,
    forgetting_absence_total: s.forgettingTotal,
    forgetting_absence_correct: s.forgettingCorrect,
    accuracy: ratio(s.correct, s.evalTotal),
    avg_question_accuracy: accuracies.length ? accuracies.reduce((a, b) => a + b, 0) / accuracies.length : null,
    memory_presence_accuracy: ratio(s.presenceCorrect, s.presenceTotal),
    forgetting_absence_accuracy: ratio(s.forgettingCorrect, s.forgettingTotal),
    fama: famaOf(qs),
  };
}

function overallMetrics(qs: readonly QuestionResult[]): OverallMetrics {
  const s = sums(qs);
  return {
    total_questions: qs.length,
    total_evaluation_questions: s.evalTotal,
    total_correct_evaluations: s.correct,
    overall_accuracy: ratio(s.correct, s.evalTotal),
    fama: famaOf(qs),
    memory_presence_total: s.presenceTotal,
    memory_presence_correct: s.presenceCorrect,
    memory_presence_accuracy: ratio(s.presenceCorrect, s.presenceTotal),
    forgetting_absence_total: s.forgettingTotal,
    forgetting_absence_correct: s.forgettingCorrect,
    forgetting_absence_accuracy: ratio(s.forgettingCorrect, s.forgettingTotal),
  };
}

/** Sum of the per-question tallies of one judge. */
function judgeTotal(qs: readonly QuestionResult[], judge: string): JudgeTally {
  let correct = 0;
  let total = 0;
  for (const q of qs) {
    correct += q.per_judge_metrics[judge]?.correct ?? 0;
    total += q.per_judge_metrics[judge]?.total ?? 0;
  }
  return tally(correct, total);
}

function report(results: readonly QuestionResult[], metadata: Record<string, unknown>): EvalReportFile {
  const tasks = [...TASKS, ...[...new Set(results.map((q) => q.task_type))].filter((t) => !TASKS.includes(t as never))];
  const inTask = (t: string) => results.filter((q) => q.task_type === t);
  const judges = [...new Set(results.flatMap((q) => Object.keys(q.per_judge_metrics)))].sort();
  return {
    metadata,
    overall_metrics: overallMetrics(results),
    per_judge_overall: Object.fromEntries(judges.map((j) => [j, judgeTotal(results, j)])),
    per_judge_by_task_type: Object.fromEntries(
      judges.map((j) => [j, Object.fromEntries(tasks.map((t) => [t, judgeTotal(inTask(t), j)]))]),
    ),
    by_task_type: Object.fromEntries(tasks.map((t) => [t, taskMetrics(inTask(t))])),
    detailed_results: [...results],
  };
}

/** The run's rule for failed verdicts, read by the scorer's own function; a rule it does not know is refused. */
function failedVerdicts(run: RunData): FailedVerdicts {
  try {
    return failedVerdictsOption(run.scoring?.options ?? {});
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      `run ${run.config.id} was scored under a rule the exporter cannot apply (${error.message})`,
      "failed_verdicts",
      join(run.dir, SCORING_FILE),
    );
  }
}

export async function memoraFiles(run: RunData, now = new Date()): Promise<MemoraExport> {
  if (run.config.benchmark !== "memora") {
    throw new ConfigError(`run ${run.config.id} is ${run.config.benchmark}, not memora`, "format", "--format");
  }
  const dataset = await loadDataset("memora", run.config.data);
  const episodes = new Map(dataset.episodes.map((e) => [e.id, e]));
  const scores = new Map(run.scores.map((s) => [`${s.system}\u0000${s.setting}\u0000${probeKey(s)}`, s]));
  const warnings: string[] = [];
  const judges = run.scoring?.judges ?? [];
  const ctx: QuestionContext = { failed: failedVerdicts(run), judges: judges.length, at: now.toISOString() };
  const stamp = ctx.at.replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "_");
  const model = answerModelName(run.config);
  const groups = new Map<string, { meta: Record<string, unknown>; results: QuestionResult[] }>();
  for (const record of run.records) {
    if (record.status !== "done") continue;
    const episode = episodes.get(record.episodeId);
    const period = episode?.labels.duration ?? record.labels.duration ?? "unknown";
    const persona = episode?.labels.persona ?? record.labels.persona ?? record.episodeId;
    const arm = armFolder(record.system, record.setting);
    const runId = `membench_${arm}`;
    const dir = `${arm}/${period}/${persona}/eval_results/${runId}`;
    const group = groups.get(dir) ?? {
      meta: {
        // What the aggregator names the row by (Track 2); the setting keeps our arms apart.
        memory_system: arm,
        user_id: `${persona}_${period}`,
        model,
        use_multi_judge: judges.length > 1,
        judge_models: judges.length ? Object.fromEntries(judges.map((j) => [j, j])) : null,
        generated_by: "membench",
        membench_run: run.config.id,
        system: record.system,
        setting: record.setting,
        period,
        persona,
        failed_verdicts: ctx.failed,
      },
      results: [],
    };
    const probe = episode?.probes.find((p) => p.id === record.probeId);
    const score = scores.get(`${record.system}\u0000${record.setting}\u0000${probeKey(record)}`);
    group.results.push(questionResult(record, probe, score, ctx));
    groups.set(dir, group);
  }
  const files = [...groups].flatMap(([dir, g]): MemoraFile[] => {
    const s = sums(g.results);
    const answered = g.results.filter((q) => q.model_response !== null).length;
    const results: EvalResultsFile = {
      metadata: {
        ...g.meta,
        total_questions: g.results.length,
        generation_timestamp: ctx.at,
        statistics: {
          total_questions: g.results.length,
          answered,
          failed: g.results.length - answered,
          no_memories_found: g.results.filter((q) => q.memories_retrieved === 0).length,
          with_memories_found: g.results.filter((q) => q.memories_retrieved > 0).length,
          total_evaluations: s.evalTotal,
          passed_evaluations: s.correct,
          questions_with_evaluations: g.results.filter((q) => q.total_eval_questions > 0).length,
          memory_presence_total: s.presenceTotal,
          memory_presence_passed: s.presenceCorrect,
          forgetting_absence_total: s.forgettingTotal,
          forgetting_absence_passed: s.forgettingCorrect,
        },
      },
      results: g.results,
    };
    return [
      { path: `${dir}/eval_results_${stamp}.json`, content: results },
      {
        path: `${dir}/eval_report_${stamp}.json`,
        content: report(g.results, { evaluation_timestamp: ctx.at, ...g.meta }),
      },
    ];
  });
  return { files, warnings };
}
