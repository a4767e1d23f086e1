/**
 * The scoring contract. A benchmark's `score.ts` exports a `BenchmarkScorer` (its definition carries it);
 * `run/score-run.ts` feeds it every stored probe record and folds what it
 * returns into summary.json and the paper-layout tables.
 */
import type { Episode, Probe } from "../core/model.ts";
import type { ProbeRecord, Setting } from "../core/record.ts";
import type { JudgeContext, VerdictRecord } from "./judge.ts";

export interface ScoreInput {
  /** What the run stored: answer (or why none), retrieved items, context, setting. */
  record: ProbeRecord;
  probe: Probe;
  episode: Episode;
}

export interface ScoreContext {
  /** Absent when no model is configured: judged metrics are then skipped, never guessed. */
  judge?: JudgeContext;
  /** Benchmark options (`--score-option key=value`), defaults filled in. */
  options: Record<string, string>;
  /** The data path the run read, for scorers that need a release file beside it. */
  data?: string;
}

/** What a scorer returns for one probe record. */
export interface ProbeOutcome {
  /** Per-probe metric values, keyed as in summary.json (`accuracy`, `qa_score`, `fama`, …). */
  metrics: Record<string, number>;
  verdicts: VerdictRecord[];
  /** Judge calls that gave no verdict — endpoint failure or unparsable reply (counted as the scorer's `failedVerdictRule` says). */
  judgeFailures: number;
  /** Metrics that could not be computed for this probe and why (e.g. `{"mem_recall": "no gold memory"}`). */
  skipped?: Record<string, string>;
}

export interface ProbeScore extends ProbeOutcome {
  system: string;
  setting: Setting;
  episodeId: string;
  probeId: string;
  labels: Record<string, string>;
  /** Metrics a person corrected, with the scorer's value they replaced. */
  overrides?: Record<string, { value: number; previous: number | undefined; comment: string; at?: string }>;
}

export interface PaperTable {
  id: string;
  title: string;
  /** Column keys in the paper's order. */
  columns: string[];
  rows: Array<{ label: string; cells: Record<string, number | null>; n?: Record<string, number> }>;
  note?: string;
  /**
   * A breakdown the paper prints the other way round: one row per group (e.g.
   * topic) and one column per system and metric. Column keys are
   * `${group} ${metric}`; reports pivot the table back to the paper's layout.
   */
  byGroup?: ByGroupLayout;
}

export interface ByGroupLayout {
  /** Header of the group column, e.g. "Topic". */
  label: string;
  groups: string[];
  metrics: string[];
}

export interface ScorerOption {
  /** Allowed values; empty for a free value such as a path. */
  values: string[];
  default: string;
  help: string;
  /**
   * `answer`: the option shapes what the answerer is given (Memora's released
   * harness quirks), so it takes effect in `membench run` and is fixed for the
   * run; re-scoring cannot change it. Absent: a scoring option.
   */
  stage?: "answer";
}

/** How a judge verdict that could not be used counts, unless a scorer says otherwise. */
export const WORST_OUTCOME = "scored as the worst outcome";

export interface BenchmarkScorer {
  bench: string;
  /** Whether any metric needs a judge (if so and none is configured, those metrics are skipped). */
  needsJudge: boolean;
  /**
   * Whether scoring with these options calls a judge at all (LoCoMo only with
   * `j=on`). Absent: it may. When false no judge is built, and runs say nothing about judges.
   */
  usesJudge?(options: Record<string, string>): boolean;
  options?: Record<string, ScorerOption>;
  /** How a verdict that could not be used counts under these options, in words for reports (default `WORST_OUTCOME`). */
  failedVerdictRule?(options: Record<string, string>): string;
  /** The label whose values stratify the bootstrap (the paper's category). */
  stratifyBy?: string;
  scoreProbe(input: ScoreInput, ctx: ScoreContext): Promise<ProbeOutcome>;
  /**
   * Headline metrics of one system × setting. Default: the mean of every
   * per-probe metric over the probes that have it.
   */
  aggregate?(scores: readonly ProbeScore[], ctx: ScoreContext): Record<string, number>;
  /** Metrics that need several settings of one system (SubtleMemory's waterfall), added to its default row. */
  crossSetting?(bySetting: Partial<Record<Setting, readonly ProbeScore[]>>): Record<string, number>;
  /** The paper's tables for one system × setting. */
  tables?(scores: readonly ProbeScore[], ctx: ScoreContext): PaperTable[];
}

/** Mean of each metric over the scores that carry it. */
export function meanMetrics(scores: readonly ProbeScore[]): Record<string, number> {
  // Run 500 times per row by the bootstrap: no array of entries per score.
  const sums = new Map<string, { s: number; n: number }>();
  for (const score of scores) {
    const metrics = score.metrics;
    for (const k in metrics) {
      const v = metrics[k]!;
      if (!Number.isFinite(v)) continue;
      let e = sums.get(k);
      if (!e) {
        e = { s: 0, n: 0 };
        sums.set(k, e);
      }
      e.s += v;
      e.n++;
    }
  }
  const out: Record<string, number> = {};
  for (const [k, e] of sums) out[k] = e.s / e.n;
  return out;
}

/** Whether `scorer` calls a judge under `options` (default: it may). */
export function callsJudge(scorer: BenchmarkScorer | undefined, options: Record<string, string>): boolean {
  return scorer?.usesJudge ? scorer.usesJudge(options) : true;
}
