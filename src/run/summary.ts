/**
 * summary.json: the one results schema every report extends
 * (documented in docs/results-schema.md).
 */
import type { AccountingSnapshot } from "../llm/accounting.ts";
import { mean, percentile } from "../score/stats.ts";
import type { ProbeRecord, Setting, UnitInfo } from "./record.ts";

export interface ResultRow {
  system: string;
  setting: Setting;
  /** Probe records of this system and setting that ran (not skipped). */
  n: number;
  metrics: Record<string, number>;
  byLabel: Record<string, Record<string, { n: number } & Record<string, number>>>;
  /** Stages that did not run for this row. */
  skipped: string[];
  /** Why each skipped stage did not run. */
  skipReasons: Record<string, string>;
}

export interface Summary {
  benchmark: string;
  variant?: string;
  data: string;
  results: ResultRow[];
  /** Model tokens, calls and cost per role, when a model ran. */
  usage?: AccountingSnapshot;
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** Means of the retrieval metrics over records that have them, plus context and latency figures. */
function aggregate(records: readonly ProbeRecord[]): { n: number } & Record<string, number> {
  const sums = new Map<string, number[]>();
  for (const r of records) {
    for (const [key, value] of Object.entries(r.retrieval ?? {})) {
      const list = sums.get(key) ?? [];
      list.push(value);
      sums.set(key, list);
    }
  }
  const out: { n: number } & Record<string, number> = { n: records.length };
  for (const [key, values] of sums) out[key] = round(mean(values));
  if (sums.size) out.n_retrieval = records.filter((r) => r.retrieval).length;
  if (records.length) {
    out.context_tokens_mean = round(mean(records.map((r) => r.context.tokens)));
  }
  return out;
}

export function summarise(
  meta: { benchmark: string; variant?: string; data: string },
  records: readonly ProbeRecord[],
  units: readonly UnitInfo[],
  systems: readonly string[],
  settings: readonly Setting[],
): Summary {
  const results: ResultRow[] = [];
  for (const system of systems) {
    const ingest = units.filter((u) => u.system === system).flatMap((u) => u.ingestMs);
    for (const setting of settings) {
      const all = records.filter((r) => r.system === system && r.setting === setting);
      const ran = all.filter((r) => r.status === "done");
      const { n, ...metrics } = aggregate(ran);
      if (ran.length && setting !== "oracle") {
        metrics.search_ms_p95 = round(
          percentile(
            ran.map((r) => r.timings.searchMs),
            95,
          ),
        );
      }
      if (ingest.length) metrics.ingest_ms_p95 = round(percentile(ingest, 95));
      const answered = ran.filter((r) => r.answer !== undefined);
      if (answered.length) {
        metrics.answer_ms_p95 = round(
          percentile(
            answered.map((r) => r.timings.answerMs ?? 0),
            95,
          ),
        );
        const failed = ran.filter((r) => r.answerError !== undefined).length;
        if (failed) metrics.answer_failures = failed;
      }
      const byLabel: ResultRow["byLabel"] = {};
      for (const key of [...new Set(ran.flatMap((r) => Object.keys(r.labels)))].sort()) {
        const groups = new Map<string, ProbeRecord[]>();
        for (const r of ran) {
          const value = r.labels[key];
          if (value === undefined) continue;
          groups.set(value, [...(groups.get(value) ?? []), r]);
        }
        byLabel[key] = Object.fromEntries([...groups].map(([value, rs]) => [value, aggregate(rs)]));
      }
      const skipped: string[] = [];
      const skipReasons: Record<string, string> = {};
      if (all.length && !ran.length) {
        skipped.push(setting);
        skipReasons[setting] = all[0]?.skipReason ?? "did not run";
      }
      const noAnswer = ran.find((r) => r.answerSkipped);
      if (ran.length && ran.every((r) => r.answerSkipped)) {
        skipped.push("answer");
        skipReasons.answer = noAnswer?.answerSkipped ?? "";
      }
      skipped.push("judge");
      skipReasons.judge = answered.length
        ? "answer scoring is not implemented yet in this version"
        : "no answers to judge";
      results.push({ system, setting, n, metrics, byLabel, skipped, skipReasons });
    }
  }
  return { ...meta, results };
}
