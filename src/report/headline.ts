/**
 * The one number per benchmark that scatter plots and the competency profile
 * put on a common 0–100 axis: the paper's headline when answers were scored,
 * else a retrieval metric (labelled as such), else nothing — never a guess.
 */
import { primaryMetric } from "../benchmarks/memoryagentbench/score.ts";
import type { ProbeRecord } from "../core/record.ts";
import type { ResultRow } from "../run/summary.ts";
import type { ProbeScore } from "../score/types.ts";

export interface Headline {
  /** The summary metric key (`accuracy`, `overall`, `recall_all@10`, …). */
  metric: string;
  /** How charts name it. */
  label: string;
  /** Multiplier from the summary value to percent. */
  toPercent: number;
  /** `scored`: judged or string-matched answers; `retrieval`: provenance metrics, no answers scored. */
  kind: "scored" | "retrieval";
}

interface ScoredHeadline {
  metric: string;
  label: string;
  toPercent: number;
}

/** The paper's own headline per benchmark. MemoryAgentBench's overall is already ×100. */
export const SCORED_HEADLINES: Readonly<Record<string, ScoredHeadline>> = {
  subtlememory: { metric: "accuracy", label: "accuracy", toPercent: 100 },
  longmemeval: { metric: "accuracy", label: "accuracy", toPercent: 100 },
  realmem: { metric: "qa_score_norm", label: "QA score (QA/3)", toPercent: 100 },
  memora: { metric: "fama", label: "FAMA", toPercent: 100 },
  memconflict: { metric: "aa", label: "answer accuracy (AA)", toPercent: 100 },
  memoryagentbench: { metric: "overall", label: "overall", toPercent: 1 },
  locomo: { metric: "f1", label: "token F1", toPercent: 100 },
};

/** Retrieval metrics tried in order when no answer was scored. */
export const RETRIEVAL_FALLBACKS = [
  "recall_all@10",
  "recall_any@10",
  "recall@10",
  "seh_prov@3",
  "recall_all@5",
  "recall_any@5",
  "recall@5",
];

/** The label whose values the category charts break a benchmark down by. */
export const CHART_LABEL: Readonly<Record<string, string>> = {
  subtlememory: "relation_type",
  longmemeval: "question_type",
  realmem: "category",
  memora: "task",
  memconflict: "conflict_type",
  memoryagentbench: "competency",
  locomo: "category",
};

const defined = (x: number | undefined): x is number => x !== undefined && Number.isFinite(x);

/**
 * The headline of a benchmark given its summary rows (the default setting's,
 * or all when the runs have no default setting); undefined when nothing fits.
 * This is the one definition the report, `membench compare` and the viewer use.
 */
export function headlineFor(benchmark: string, rows: readonly ResultRow[]): Headline | undefined {
  const scored = SCORED_HEADLINES[benchmark];
  const defaults = basis(rows);
  if (scored && defaults.some((r) => defined(r.metrics[scored.metric]))) return { ...scored, kind: "scored" };
  return retrievalHeadline(rows);
}

function basis(rows: readonly ResultRow[]): readonly ResultRow[] {
  const defaults = rows.filter((r) => r.setting === "default");
  return defaults.length ? defaults : rows;
}

/** The retrieval headline alone: what rows without scored answers are put on. */
export function retrievalHeadline(rows: readonly ResultRow[]): Headline | undefined {
  const keys = new Set(basis(rows).flatMap((r) => Object.keys(r.metrics)));
  const metric =
    RETRIEVAL_FALLBACKS.find((k) => keys.has(k)) ?? [...keys].sort().find((k) => /^(recall|ndcg|seh_prov)/.test(k));
  if (!metric) return undefined;
  return { metric, label: `${metric} (retrieval; no scored answers)`, toPercent: 100, kind: "retrieval" };
}

/** A row's headline in percent, or undefined. */
export function headlinePercent(row: ResultRow, headline: Headline): number | undefined {
  const v = row.metrics[headline.metric];
  return defined(v) ? v * headline.toPercent : undefined;
}

/**
 * The per-probe value behind a headline, on its 0–1 scale: the scored metric
 * (MemoryAgentBench: the sub-dataset's primary metric), or the record's
 * retrieval metric.
 */
export function probeMetricKey(benchmark: string, headline: Headline, labels: Record<string, string>): string {
  if (headline.kind === "retrieval") return headline.metric;
  if (benchmark === "memoryagentbench") return primaryMetric(labels.sub_dataset ?? "") ?? "accuracy";
  return headline.metric;
}

export function scoreValue(benchmark: string, headline: Headline, s: ProbeScore): number | undefined {
  const v = s.metrics[probeMetricKey(benchmark, headline, s.labels)];
  return defined(v) ? v : undefined;
}

export function recordValue(headline: Headline, r: ProbeRecord): number | undefined {
  const v = r.retrieval?.[headline.metric];
  return defined(v) ? v : undefined;
}
