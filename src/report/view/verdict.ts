/**
 * What "correct" means in the viewer: each benchmark's scorer writes its own
 * per-probe headline metric, and the viewer judges a probe by the first one of
 * these it carries. A person's override sets that metric (and the metrics the
 * scorer derives from it, so the tables stay consistent).
 */
import { primaryMetric } from "../../benchmarks/memoryagentbench/score.ts";
import type { ProbeRecord } from "../../core/record.ts";
import type { ProbeScore } from "../../score/types.ts";

export interface VerdictMetric {
  metric: string;
  /** Worst and best value of the scale. */
  min: number;
  max: number;
  /** A probe counts as correct from this value on. */
  pass: number;
}

/**
 * In order of preference. Binary judge metrics first; graded ones pass at full
 * marks; token F1 has no natural verdict, so half counts as a pass.
 */
export const VERDICT_METRICS: readonly VerdictMetric[] = [
  { metric: "accuracy", min: 0, max: 1, pass: 1 },
  { metric: "aa", min: 0, max: 1, pass: 1 },
  { metric: "j", min: 0, max: 1, pass: 1 },
  { metric: "qa_score", min: 0, max: 3, pass: 3 },
  { metric: "fama", min: 0, max: 1, pass: 1 },
  { metric: "subem", min: 0, max: 1, pass: 1 },
  { metric: "sum_f1", min: 0, max: 1, pass: 0.5 },
  { metric: "f1_all", min: 0, max: 1, pass: 0.5 },
  { metric: "f1", min: 0, max: 1, pass: 0.5 },
];

/** Scales of the other MemoryAgentBench primary metrics (exact match; recommendation recall). */
const MAB_PRIMARY: readonly VerdictMetric[] = [
  { metric: "em", min: 0, max: 1, pass: 1 },
  { metric: "recall@5", min: 0, max: 1, pass: 0.5 },
];

/**
 * The verdict metric a probe's scores carry, if any: MemoryAgentBench's
 * primary metric of the probe's sub-dataset first, then the list above.
 */
export function verdictMetricOf(
  metrics: Readonly<Record<string, number>> | undefined,
  labels?: Readonly<Record<string, string>>,
): VerdictMetric | undefined {
  if (!metrics) return undefined;
  const primary = labels?.sub_dataset ? primaryMetric(labels.sub_dataset) : undefined;
  const scale = primary && [...VERDICT_METRICS, ...MAB_PRIMARY].find((v) => v.metric === primary);
  if (scale && Number.isFinite(metrics[scale.metric])) return scale;
  return VERDICT_METRICS.find((v) => Number.isFinite(metrics[v.metric]));
}

/**
 * Metrics a scorer computes from the verdict metric alone, recomputed for an
 * overridden value (RealMem's QA family, LongMemEval's abstention copy,
 * MemConflict's EUG and failure split).
 */
export function companionValues(
  metric: string,
  value: number,
  metrics: Readonly<Record<string, number>>,
): Record<string, number> {
  const out: Record<string, number> = {};
  if (metric === "qa_score") {
    out.qa_score_norm = value / 3;
    out.qa_hallucination = value === 0 ? 1 : 0;
    out.qa_perfect = value === 3 ? 1 : 0;
  }
  if (metric === "accuracy" && metrics.abstention_accuracy !== undefined) out.abstention_accuracy = value;
  const hit = metrics["seh@3"];
  if (metric === "aa" && hit !== undefined) {
    out.eug = hit - value;
    if (metrics.rf !== undefined) out.rf = value === 0 && hit === 0 ? 1 : 0;
    if (metrics.uf !== undefined) out.uf = value === 0 && hit > 0 ? 1 : 0;
  }
  return out;
}

/** The retrieval k that matters for the answer: the largest metric k within the context given to the answerer. */
export function retrievalK(
  record: Pick<ProbeRecord, "retrieval">,
  answerDepth: number | undefined,
): number | undefined {
  const ks = Object.keys(record.retrieval ?? {})
    .map((key) => /^recall_any@(\d+)$/.exec(key)?.[1])
    .filter((k): k is string => k !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  if (!ks.length) return undefined;
  const within = ks.filter((k) => answerDepth === undefined || k <= answerDepth);
  return within.length ? within[within.length - 1] : ks[0];
}

/** true when gold evidence was in the top k, false when not, undefined when the probe has no evidence labels. */
export function retrievalHit(record: ProbeRecord, answerDepth: number | undefined): boolean | undefined {
  const k = retrievalK(record, answerDepth);
  if (k === undefined) return undefined;
  return (record.retrieval?.[`recall_any@${k}`] ?? 0) > 0;
}

export type Outcome = "correct" | "incorrect" | "unscored";

export type FailureStage = "no-answer" | "judge-failure" | "retrieval" | "utilisation" | "answer";

export const FAILURE_STAGES: Readonly<Record<FailureStage, string>> = {
  "no-answer": "no answer",
  "judge-failure": "judge failure",
  retrieval: "retrieval miss",
  utilisation: "evidence retrieved, answer wrong",
  answer: "wrong, no evidence labels",
};

export function outcomeOf(score: ProbeScore | undefined): {
  outcome: Outcome;
  verdict?: VerdictMetric;
  value?: number;
} {
  const verdict = verdictMetricOf(score?.metrics, score?.labels);
  if (!score || !verdict) return { outcome: "unscored" };
  const value = score.metrics[verdict.metric]!;
  return { outcome: value >= verdict.pass ? "correct" : "incorrect", verdict, value };
}

/**
 * Where a probe went wrong, first cause first: no answer, an unusable judge
 * verdict, then (for a wrong answer) whether retrieval missed the evidence or
 * the answerer did not use it. Correct probes with usable verdicts have none.
 */
export function failureStage(
  record: ProbeRecord,
  score: ProbeScore | undefined,
  hit: boolean | undefined,
): FailureStage | undefined {
  if (record.status !== "done") return undefined;
  if (record.answerSkipped !== undefined || record.answerError !== undefined) return "no-answer";
  if (score && score.judgeFailures > 0) return "judge-failure";
  if (outcomeOf(score).outcome !== "incorrect") return undefined;
  if (hit === false) return "retrieval";
  if (hit === true) return "utilisation";
  return "answer";
}
