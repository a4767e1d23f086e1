/**
 * summary.json: the one results schema every report extends
 * (documented in docs/results-schema.md).
 */

import type { ProbeRecord, Setting, UnitInfo } from "../core/record.ts";
import type { AccountingSnapshot } from "../llm/accounting.ts";
import { mean, percentile } from "../score/stats.ts";

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
  /** Per-call latency percentiles per stage, ms. */
  latency: Record<string, { p50: number; p95: number; p99: number; n: number }>;
  /** Answer-model usage of this row's probes (judging is in `judgeUsage` of the summary). */
  cost: { calls: number; cachedCalls: number; inputTokens: number; outputTokens: number; contextTokensMean: number };
}

export interface Summary {
  benchmark: string;
  /** The release variant (e.g. LongMemEval's s/m/oracle); null when the benchmark has none. */
  variant?: string | null;
  data: string;
  results: ResultRow[];
  /**
   * Model tokens, calls and cost per role of the run stage (answers, memory extraction,
   * query rewrites), summed over every process that worked on the run — killed, failed
   * and resumed attempts included — when a model ran.
   */
  usage?: AccountingSnapshot;
  /** The same for judge calls, summed over every scoring of the run. */
  judgeUsage?: AccountingSnapshot;
  /**
   * What is still failed: units (`--resume` redoes them), answer calls and judge
   * calls (`--resume` / `--retry-failed` asks them again). Absent in summaries
   * written before membench counted them.
   */
  failures?: RunFailures;
}

export interface RunFailures {
  /** Units not done (failed, or never finished). */
  units: number;
  /**
   * Of those, units a worker pool dead-lettered (`run --queue`: every attempt failed).
   * Absent when none was, and in summaries written before the pool existed.
   */
  deadLettered?: number;
  /** Probe records whose answer call failed. */
  answers: number;
  /** Judge verdicts that failed (endpoint failure or unparsable reply) in the latest scoring. */
  judgeCalls: number;
  /**
   * Probe records whose context is frozen but whose answer was not asked yet (the
   * run stopped, or went over --max-cost, first); `--resume` asks them. Absent when none.
   */
  answersPending?: number;
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

/** `<stage>_ms_p50/p95/p99` of a list of call durations, in the metrics and in the row's `latency`. */
function latency(
  row: Pick<ResultRow, "latency">,
  metrics: Record<string, number>,
  stage: string,
  ms: readonly number[],
): void {
  const entry = { p50: 0, p95: 0, p99: 0, n: ms.length };
  for (const p of [50, 95, 99] as const) {
    const v = round(percentile(ms, p));
    metrics[`${stage}_ms_p${p}`] = v;
    entry[`p${p}`] = v;
  }
  row.latency[stage] = entry;
}

/** What a summary keeps of a record: everything but its texts, which no figure reads. */
function light(r: ProbeRecord): ProbeRecord {
  return { ...r, retrieved: [], context: { text: "", tokens: r.context.tokens, used: r.context.used } };
}

/**
 * Builds summary.json from records handed over one at a time (`add`), keeping
 * only their ids, labels and figures: a run's texts are never all in memory.
 */
export class SummaryBuilder {
  readonly #rows = new Map<string, ProbeRecord[]>();
  #answers = 0;
  #pending = 0;

  add(record: ProbeRecord): void {
    const key = `${record.system}\u0000${record.setting}`;
    let row = this.#rows.get(key);
    if (!row) {
      row = [];
      this.#rows.set(key, row);
    }
    row.push(light(record));
    if (record.status === "done" && record.answerError !== undefined) this.#answers++;
    if (record.status === "done" && record.answerPending) this.#pending++;
  }

  build(
    meta: { benchmark: string; variant?: string; data: string },
    units: readonly UnitInfo[],
    systems: readonly string[],
    settings: readonly Setting[],
  ): Summary {
    const summary = rows(meta, this.#rows, units, systems, settings);
    const deadLettered = units.filter((u) => u.state !== "done" && u.deadLetter).length;
    summary.failures = {
      units: units.filter((u) => u.state !== "done").length,
      ...(deadLettered ? { deadLettered } : {}),
      answers: this.#answers,
      judgeCalls: 0,
      ...(this.#pending ? { answersPending: this.#pending } : {}),
    };
    return summary;
  }
}

export function summarise(
  meta: { benchmark: string; variant?: string; data: string },
  records: Iterable<ProbeRecord>,
  units: readonly UnitInfo[],
  systems: readonly string[],
  settings: readonly Setting[],
): Summary {
  const builder = new SummaryBuilder();
  for (const r of records) builder.add(r);
  return builder.build(meta, units, systems, settings);
}

function rows(
  meta: { benchmark: string; variant?: string; data: string },
  bySystemSetting: ReadonlyMap<string, readonly ProbeRecord[]>,
  units: readonly UnitInfo[],
  systems: readonly string[],
  settings: readonly Setting[],
): Summary {
  const results: ResultRow[] = [];
  for (const system of systems) {
    const ingest = units.filter((u) => u.system === system).flatMap((u) => u.ingestMs);
    for (const setting of settings) {
      const all = bySystemSetting.get(`${system}\u0000${setting}`) ?? [];
      const ran = all.filter((r) => r.status === "done");
      const { n, ...metrics } = aggregate(ran);
      const timing: Pick<ResultRow, "latency"> = { latency: {} };
      if (ran.length && setting !== "oracle") {
        latency(
          timing,
          metrics,
          "search",
          ran.map((r) => r.timings.searchMs),
        );
      }
      if (ingest.length) latency(timing, metrics, "ingest", ingest);
      const answered = ran.filter((r) => r.answer !== undefined);
      const cost = {
        calls: ran.filter((r) => r.usage).length,
        cachedCalls: ran.filter((r) => r.usage?.cached).length,
        inputTokens: ran.reduce((t, r) => t + (r.usage?.inputTokens ?? 0), 0),
        outputTokens: ran.reduce((t, r) => t + (r.usage?.outputTokens ?? 0), 0),
        contextTokensMean: metrics.context_tokens_mean ?? 0,
      };
      if (answered.length) {
        latency(
          timing,
          metrics,
          "answer",
          answered.map((r) => r.timings.answerMs ?? 0),
        );
      }
      // Counted whether or not any answer succeeded: a row where every call failed is the one that most needs it.
      const failedAnswers = ran.filter((r) => r.answerError !== undefined).length;
      if (failedAnswers) metrics.answer_failures = failedAnswers;
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
      skipReasons.judge = answered.length ? "the answers have not been scored yet" : "no answers to judge";
      results.push({ system, setting, n, metrics, byLabel, skipped, skipReasons, latency: timing.latency, cost });
    }
  }
  return { benchmark: meta.benchmark, variant: meta.variant ?? null, data: meta.data, results };
}
