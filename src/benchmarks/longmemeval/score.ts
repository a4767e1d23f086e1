/**
 * LongMemEval scoring (arXiv 2410.10813; the reference scripts
 * xiaowu0162/LongMemEval@9e0b455:src/evaluation/evaluate_qa.py and
 * `print_qa_metrics.py`): one yes/no
 * judge call per question with a prompt chosen by question type —
 * temporal-reasoning forgives off-by-one counts, knowledge-update accepts the
 * updated answer even beside the old one, single-session-preference is judged
 * against the gold rubric, and abstention (`_abs`) questions are correct when
 * the reply says the information is not there. Abstention questions also
 * count in their own question type, as in the reference metrics script.
 *
 * Headline numbers are the reference script's: overall accuracy (micro),
 * task-averaged accuracy (mean of the per-type accuracies) and abstention
 * accuracy.
 */
import { judgeAll, majority, verdictScores } from "../../score/judge.ts";
import {
  type BenchmarkScorer,
  meanMetrics,
  type PaperTable,
  type ProbeOutcome,
  type ProbeScore,
  type ScoreContext,
  type ScoreInput,
} from "../../score/types.ts";
import { QaVerdict } from "../../score/verdicts.ts";
import { isAbstention, QUESTION_TYPES } from "./labels.ts";

const BENCH = "longmemeval";

const TEMPLATES: Record<string, string> = {
  "single-session-user": "judge-default",
  "single-session-assistant": "judge-default",
  "multi-session": "judge-default",
  "temporal-reasoning": "judge-temporal",
  "knowledge-update": "judge-knowledge-update",
  "single-session-preference": "judge-preference",
};
export const ABSTENTION_TEMPLATE = "judge-abstention";

/** The judge template for a question: abstention first, then by type (an unknown type gets the generic one). */
export function templateFor(questionType: string, abstention: boolean): string {
  if (abstention) return ABSTENTION_TEMPLATE;
  return TEMPLATES[questionType] ?? "judge-default";
}

/** Question types in the order the reference metrics script prints them. */
export const TYPE_COLUMNS: readonly string[] = [
  "single-session-user",
  "single-session-preference",
  "single-session-assistant",
  "multi-session",
  "temporal-reasoning",
  "knowledge-update",
];
export const TABLE_COLUMNS: readonly string[] = [...TYPE_COLUMNS, "task-averaged", "overall", "abstention"];
export const TABLE_ID = "longmemeval-qa";

function abstentionOf(input: ScoreInput): boolean {
  return isAbstention(input.probe.id) || input.probe.labels.abstention === "yes";
}

function skipAll(reason: string, abstention: boolean): ProbeOutcome {
  const skipped: Record<string, string> = { accuracy: reason };
  if (abstention) skipped.abstention_accuracy = reason;
  return { metrics: {}, verdicts: [], judgeFailures: 0, skipped };
}

/** Abstention questions carry their score twice, so the abstention mean and its CI come out of the same values. */
function withAbstention(value: number, abstention: boolean): Record<string, number> {
  return abstention ? { accuracy: value, abstention_accuracy: value } : { accuracy: value };
}

async function scoreProbe(input: ScoreInput, ctx: ScoreContext): Promise<ProbeOutcome> {
  const { record, probe } = input;
  const abstention = abstentionOf(input);
  if (record.status === "skipped")
    return skipAll(`setting skipped: ${record.skipReason ?? "no reason given"}`, abstention);
  if (record.answerSkipped !== undefined) return skipAll(`no answer: ${record.answerSkipped}`, abstention);
  if (record.answerError !== undefined) {
    return {
      metrics: withAbstention(0, abstention),
      verdicts: [],
      judgeFailures: 0,
      skipped: { answer: `answer call failed, scored as wrong: ${record.answerError}` },
    };
  }
  if (record.answer === undefined) return skipAll("no answer stored", abstention);
  if (!ctx.judge?.judges.length) return skipAll("no judge configured", abstention);
  const questionType = probe.labels.question_type ?? "";
  const verdicts = await judgeAll(
    {
      bench: BENCH,
      template: templateFor(questionType, abstention),
      vars: {
        question: probe.question,
        answer: probe.gold.answers[0] ?? "",
        response: record.answer,
        question_type: questionType,
        question_date: probe.time ?? "",
      },
      schema: QaVerdict,
    },
    ctx.judge,
  );
  const value = majority(
    verdictScores(verdicts, (v) => (v.correct ? 1 : 0), 0),
    0,
  );
  return { metrics: withAbstention(value, abstention), verdicts, judgeFailures: verdicts.filter((v) => !v.ok).length };
}

function accuracyOf(scores: readonly ProbeScore[]): { value: number; n: number } | undefined {
  const values = scores
    .map((s) => s.metrics.accuracy)
    .filter((v): v is number => v !== undefined && Number.isFinite(v));
  return values.length ? { value: values.reduce((a, b) => a + b, 0) / values.length, n: values.length } : undefined;
}

/** Mean of the per-type accuracies over the types that have scored questions. */
export function taskAveragedAccuracy(scores: readonly ProbeScore[]): number | undefined {
  const types = [...new Set(scores.map((s) => s.labels.question_type ?? ""))];
  const perType = types
    .map((t) => accuracyOf(scores.filter((s) => (s.labels.question_type ?? "") === t)))
    .filter((a) => a !== undefined);
  return perType.length ? perType.reduce((sum, a) => sum + a.value, 0) / perType.length : undefined;
}

function aggregate(scores: readonly ProbeScore[]): Record<string, number> {
  const out = meanMetrics(scores);
  const taskAveraged = taskAveragedAccuracy(scores);
  if (taskAveraged !== undefined) out.task_averaged_accuracy = taskAveraged;
  return out;
}

function tables(scores: readonly ProbeScore[]): PaperTable[] {
  const first = scores[0];
  const label = !first ? "ours" : first.setting === "default" ? first.system : `${first.system} (${first.setting})`;
  const cells: Record<string, number | null> = {};
  const n: Record<string, number> = {};
  const put = (key: string, value: number | undefined, count: number) => {
    cells[key] = value === undefined ? null : 100 * value;
    n[key] = count;
  };
  for (const type of TYPE_COLUMNS) {
    const a = accuracyOf(scores.filter((s) => s.labels.question_type === type));
    put(type, a?.value, a?.n ?? 0);
  }
  const overall = accuracyOf(scores);
  put("task-averaged", taskAveragedAccuracy(scores), overall?.n ?? 0);
  put("overall", overall?.value, overall?.n ?? 0);
  const abstain = scores
    .map((s) => s.metrics.abstention_accuracy)
    .filter((v): v is number => v !== undefined && Number.isFinite(v));
  put("abstention", abstain.length ? abstain.reduce((a, b) => a + b, 0) / abstain.length : undefined, abstain.length);
  return [
    {
      id: TABLE_ID,
      title: "LongMemEval question answering: accuracy (%) by question type",
      columns: [...TABLE_COLUMNS],
      rows: [{ label, cells, n }],
      note:
        "Abstention questions count in their own type as well as in the abstention column. Task-averaged = mean " +
        `of the per-type accuracies over the types present (the release has ${QUESTION_TYPES.length}).`,
    },
  ];
}

export const longmemevalScorer: BenchmarkScorer = {
  bench: BENCH,
  needsJudge: true,
  stratifyBy: "question_type",
  scoreProbe,
  aggregate,
  tables,
};
