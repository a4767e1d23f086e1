/**
 * Memora's evaluation files (spec/memora.md §9): per system, period and
 * persona, `<period>/<persona>/eval_results/<run_id>/eval_results_<ts>.json`
 * (one record per question: the response, every rubric criterion with its
 * majority verdict and per-judge answers, FAMA, presence and forgetting
 * tallies) and `eval_report_<ts>.json` (overall and per-task metrics), the
 * files the reference `aggregate_results.py` reads. Per-question FAMA, MPA and
 * FAA are 0–1; the report's are ×100, as the paper prints them.
 */
import { loadDataset } from "../../benchmarks/index.ts";
import { criterionSatisfied, expectedAnswer, type FailedVerdicts } from "../../benchmarks/memora/score.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Criterion, Probe } from "../../core/model.ts";
import type { ProbeRecord } from "../../run/record.ts";
import type { VerdictRecord } from "../../score/judge.ts";
import type { ProbeScore } from "../../score/types.ts";
import { probeKey, type RunData } from "../run-data.ts";
import { armFolder } from "./realmem.ts";

export interface JudgeResult {
  judge: string;
  answer: "yes" | "no" | null;
  confidence: number | null;
  explanation: string;
  valid: boolean;
}

/** A rubric criterion as the release spells it, with the verdict added. */
export interface CriterionResult {
  evaluation_question_id: string | null;
  evaluation_question: string;
  evaluation_type: "memory_presence" | "forgetting_absence";
  expected_answer: "yes" | "no";
  evaluation_result: {
    is_correct: boolean;
    confidence: number | null;
    explanation: string;
    llm_answer: "yes" | "no" | "unclear";
    per_judge_results: JudgeResult[];
    agreement_rate: number;
    num_valid_judges: number;
    correct_votes: number;
  } | null;
}

export interface QuestionResult {
  question_id: string;
  question: string;
  task_type: string;
  session_date: string | null;
  model_response: string;
  evaluation_questions: CriterionResult[];
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

export interface MemoraFile {
  path: string;
  content: unknown;
}

const answerOf = (v: VerdictRecord): "yes" | "no" | null => {
  const a = (v.value as { answer?: unknown } | undefined)?.answer;
  return a === "yes" || a === "no" ? a : null;
};

function criterionResult(
  criterion: Criterion,
  verdicts: readonly VerdictRecord[],
  failed: FailedVerdicts,
): CriterionResult {
  const expected = expectedAnswer(criterion);
  const head = {
    evaluation_question_id: typeof criterion.meta?.id === "string" ? criterion.meta.id : null,
    evaluation_question: criterion.text,
    evaluation_type: criterion.kind === "presence" ? ("memory_presence" as const) : ("forgetting_absence" as const),
    expected_answer: expected,
  };
  if (!verdicts.length) return { ...head, evaluation_result: null };
  const answers = verdicts.map(answerOf);
  const valid = answers.filter((a): a is "yes" | "no" => a !== null);
  const yes = valid.filter((a) => a === "yes").length;
  const no = valid.length - yes;
  const llm = !valid.length || yes === no ? "unclear" : yes > no ? "yes" : "no";
  return {
    ...head,
    evaluation_result: {
      is_correct: criterionSatisfied(
        verdicts as Array<VerdictRecord & { value?: { answer: "yes" | "no"; reason: string } }>,
        expected,
        failed,
      ),
      confidence: null,
      explanation: verdicts
        .map(
          (v) =>
            `${v.judge}: ${v.ok ? ((v.value as { reason?: string })?.reason ?? "") : `failed (${v.failure ?? ""})`}`,
        )
        .join(" | "),
      llm_answer: llm,
      per_judge_results: verdicts.map((v, i) => ({
        judge: v.judge,
        answer: answers[i] ?? null,
        confidence: null,
        explanation: v.ok ? ((v.value as { reason?: string })?.reason ?? "") : (v.failure ?? ""),
        valid: answers[i] !== null,
      })),
      agreement_rate: valid.length ? Math.max(yes, no) / valid.length : 0,
      num_valid_judges: valid.length,
      correct_votes: valid.filter((a) => a === expected).length,
    },
  };
}

function tally(results: readonly CriterionResult[], type: CriterionResult["evaluation_type"]) {
  const mine = results.filter((r) => r.evaluation_type === type && r.evaluation_result);
  const correct = mine.filter((r) => r.evaluation_result!.is_correct).length;
  return { correct, total: results.filter((r) => r.evaluation_type === type).length };
}

function questionResult(
  record: ProbeRecord,
  probe: Probe | undefined,
  score: ProbeScore | undefined,
  failed: FailedVerdicts,
  at: string,
): QuestionResult {
  const criteria = probe?.gold.criteria ?? [];
  const results = criteria.map((c, i) =>
    criterionResult(
      c,
      (score?.verdicts ?? []).filter((v) => v.part === `criterion:${i}`),
      failed,
    ),
  );
  const presence = tally(results, "memory_presence");
  const forgetting = tally(results, "forgetting_absence");
  const metric = (key: string) => {
    const v = score?.metrics[key];
    return v === undefined || !Number.isFinite(v) ? null : v;
  };
  const stale = probe?.meta?.staleMemories;
  return {
    question_id: record.probeId,
    question: record.question,
    task_type: record.labels.task ?? "",
    session_date: record.time ?? null,
    model_response: record.answer ?? "",
    evaluation_questions: results,
    fama: metric("fama"),
    memory_presence_accuracy: metric("mpa"),
    memory_presence_correct: presence.correct,
    memory_presence_total: presence.total,
    forgetting_absence_accuracy: metric("faa"),
    forgetting_absence_correct: forgetting.correct,
    forgetting_absence_total: forgetting.total,
    memory_evidence: probe?.gold.evidenceMemories ?? [],
    forgetting_evidence: Array.isArray(stale) ? stale.filter((x): x is string => typeof x === "string") : [],
    timestamp: at,
  };
}

const meanOf = (xs: ReadonlyArray<number | null>) => {
  const v = xs.filter((x): x is number => x !== null);
  return v.length ? (100 * v.reduce((a, b) => a + b, 0)) / v.length : null;
};

function report(results: readonly QuestionResult[], meta: Record<string, unknown>) {
  const metrics = (qs: readonly QuestionResult[]) => ({
    fama: meanOf(qs.map((q) => q.fama)),
    memory_presence_accuracy: meanOf(qs.map((q) => q.memory_presence_accuracy)),
    forgetting_absence_accuracy: meanOf(qs.map((q) => q.forgetting_absence_accuracy)),
    num_questions: qs.length,
  });
  const tasks = [...new Set(results.map((q) => q.task_type))].sort();
  return {
    metadata: meta,
    overall_metrics: metrics(results),
    by_task_type: Object.fromEntries(tasks.map((t) => [t, metrics(results.filter((q) => q.task_type === t))])),
    detailed_results: results,
  };
}

export async function memoraFiles(run: RunData, now = new Date()): Promise<MemoraFile[]> {
  if (run.config.benchmark !== "memora") {
    throw new ConfigError(`run ${run.config.id} is ${run.config.benchmark}, not memora`, "format", "--format");
  }
  const dataset = await loadDataset("memora", run.config.data);
  const episodes = new Map(dataset.episodes.map((e) => [e.id, e]));
  const scores = new Map(run.scores.map((s) => [`${s.system}\u0000${s.setting}\u0000${probeKey(s)}`, s]));
  const failed: FailedVerdicts = run.scoring?.options.failed_verdicts === "drop" ? "drop" : "worst";
  const at = now.toISOString();
  const stamp = at.replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "_");
  const groups = new Map<string, { meta: Record<string, unknown>; results: QuestionResult[] }>();
  for (const record of run.records) {
    if (record.status !== "done") continue;
    const episode = episodes.get(record.episodeId);
    const period = episode?.labels.duration ?? record.labels.duration ?? "unknown";
    const persona = episode?.labels.persona ?? record.labels.persona ?? record.episodeId;
    const runId = `membench_${armFolder(record.system, record.setting)}`;
    const dir = `${armFolder(record.system, record.setting)}/${period}/${persona}/eval_results/${runId}`;
    const group = groups.get(dir) ?? {
      meta: {
        run_id: runId,
        system: record.system,
        setting: record.setting,
        period,
        persona,
        generated_by: "membench",
        membench_run: run.config.id,
        judges: run.scoring?.judges ?? [],
        timestamp: at,
      },
      results: [],
    };
    const probe = episode?.probes.find((p) => p.id === record.probeId);
    const score = scores.get(`${record.system}\u0000${record.setting}\u0000${probeKey(record)}`);
    group.results.push(questionResult(record, probe, score, failed, at));
    groups.set(dir, group);
  }
  return [...groups].flatMap(([dir, g]) => [
    { path: `${dir}/eval_results_${stamp}.json`, content: g.results },
    { path: `${dir}/eval_report_${stamp}.json`, content: report(g.results, g.meta) },
  ]);
}
