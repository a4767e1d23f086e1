/**
 * The JSON report: the run's summary.json schema (docs/results-schema.md),
 * each result row extended with `ci` (scored and retrieval metrics), `cost`
 * (with the USD estimate at the run's price), `latency` and `promptSet` — one
 * schema, whether read from the run directory or from here — plus `reported`,
 * the benchmark's published rows with their sources, keyed like our tables so
 * a leaderboard can be built from the file alone.
 */
import { scorerFor } from "../benchmarks/index.ts";
import type { Setting } from "../core/record.ts";
import type { ScoredRow } from "../run/score-run.ts";
import type { ResultRow, Summary } from "../run/summary.ts";
import { bootstrapMeanCI } from "../score/bootstrap.ts";
import { allReported, type ReportedTable } from "./reported.ts";
import type { RunData } from "./run-data.ts";

export interface ReportRow extends Omit<ScoredRow, "cost" | "promptSet"> {
  ci: Record<string, [number, number]>;
  cost: ResultRow["cost"] & { costUsd: number | null };
  promptSet: string | null;
}

/** A reported table as the JSON report writes it: every row with its source. */
export interface JsonReportedTable extends Omit<ReportedTable, "rows"> {
  rows: Array<Omit<ReportedTable["rows"][number], "ownSource">>;
}

export interface ReportSummary extends Omit<Summary, "results"> {
  results: ReportRow[];
  /** The papers' published rows for this benchmark (empty when it has none). */
  reported: JsonReportedTable[];
}

function jsonReported(benchmark: string): JsonReportedTable[] {
  return allReported(benchmark).map((t) => ({ ...t, rows: t.rows.map(({ ownSource: _, ...row }) => row) }));
}

/** 95% CIs of the per-probe retrieval metrics of one system × setting. */
function retrievalCIs(run: RunData, system: string, setting: Setting): Record<string, [number, number]> {
  const stratify = scorerFor(run.config.benchmark)?.stratifyBy;
  const records = run.records.filter((r) => r.system === system && r.setting === setting && r.retrieval);
  const keys = new Set(records.flatMap((r) => Object.keys(r.retrieval ?? {})));
  const out: Record<string, [number, number]> = {};
  for (const key of keys) {
    const have = records.filter((r) => Number.isFinite(r.retrieval?.[key]));
    if (have.length < 2) continue;
    out[key] = bootstrapMeanCI(
      have.map((r) => r.retrieval![key]!),
      stratify ? have.map((r) => r.labels[stratify] ?? "") : undefined,
    );
  }
  return out;
}

function costUsd(run: RunData, system: string, setting: Setting): number | null {
  const price = run.config.price;
  if (!price) return null;
  let usd = 0;
  for (const r of run.records) {
    if (r.system !== system || r.setting !== setting || !r.usage || r.usage.cached) continue;
    usd += (r.usage.inputTokens * price.inputPerMTok + r.usage.outputTokens * price.outputPerMTok) / 1e6;
  }
  return usd;
}

export function reportSummary(run: RunData): ReportSummary {
  const results = run.summary.results.map((row): ReportRow => {
    const base: ResultRow["cost"] = row.cost ?? {
      calls: 0,
      cachedCalls: 0,
      inputTokens: 0,
      outputTokens: 0,
      contextTokensMean: row.metrics.context_tokens_mean ?? 0,
    };
    return {
      ...row,
      ci: { ...retrievalCIs(run, row.system, row.setting), ...(row.ci ?? {}) },
      cost: { ...base, costUsd: costUsd(run, row.system, row.setting) },
      latency: row.latency ?? {},
      promptSet: row.promptSet ?? null,
    };
  });
  return { ...run.summary, results, reported: jsonReported(run.config.benchmark) };
}

/** One run: its summary; several: an array of summaries in the order given. */
export function reportJson(runs: readonly RunData[]): string {
  const summaries = runs.map(reportSummary);
  return `${JSON.stringify(summaries.length === 1 ? summaries[0] : summaries, null, 2)}\n`;
}
