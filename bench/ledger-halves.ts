/**
 * A case's probe records summarised per half (bench/ledger-splits.ts), and the
 * no-regression guard: on every half of every case the ledger must score at
 * least the best baseline it contains (BM25 over turns, BM25 over whole
 * sessions) less 0.01 on the case's headline measure. The ledger keeps every
 * raw turn of every session, so losing to a BM25 over those same sessions is a
 * defect of its fusion, not a limit of offline retrieval.
 */
import type { Episode } from "../src/core/model.ts";
import type { ProbeRecord } from "../src/core/record.ts";
import { type ResultRow, summarise } from "../src/run/summary.ts";
import { rankUnits, retrievalMetrics } from "../src/score/retrieval.ts";
import { HALVES, type Half, probeKey, type SplitRule, splitProbes } from "./ledger-splits.ts";

export type Read = (row: ResultRow) => number | undefined;

/** One headline measure and the baselines the ledger may not fall below on it. */
export interface Guard {
  label: string;
  read: Read;
  /** Systems whose score on this measure the ledger must reach, less the margin. */
  against: readonly string[];
}

/** How far below the best baseline the ledger may score before the guard fails. */
export const GUARD_MARGIN = 0.01;

export type HalfRows = Map<Half | "all", ResultRow[]>;

/**
 * Session-level recall of each record beside its own metrics (`session:recall_all@5`):
 * on LoCoMo, whose evidence is turns, a system returning whole sessions is
 * credited with every turn of them, so it is compared on the sessions it names.
 */
export function withSessionMetrics(
  records: readonly ProbeRecord[],
  episodes: readonly Episode[],
  ks: readonly number[],
): ProbeRecord[] {
  const gold = new Map<string, Set<string>>();
  for (const e of episodes) {
    for (const p of e.probes) gold.set(probeKey(e.id, p.id), new Set(p.gold.evidenceSessionIds));
  }
  return records.map((r) => {
    const sessions = gold.get(probeKey(r.episodeId, r.probeId));
    if (!r.retrieval || !sessions?.size) return r;
    const metrics = retrievalMetrics(rankUnits(r.retrieved, "session"), sessions, { ks });
    const extra = Object.fromEntries(Object.entries(metrics).map(([key, value]) => [`session:${key}`, value]));
    return { ...r, retrieval: { ...r.retrieval, ...extra } };
  });
}

/** Result rows of each half and of the whole sample, one per system, in the order given. */
export function summariseHalves(
  run: { benchmark: string; data: string },
  rule: SplitRule,
  episodes: readonly Episode[],
  records: readonly ProbeRecord[],
  systems: readonly string[],
): HalfRows {
  const halves = splitProbes(rule, episodes);
  const rows: HalfRows = new Map();
  const rowsOf = (subset: readonly ProbeRecord[]) => summarise(run, subset, [], systems, ["default"]).results;
  rows.set("all", rowsOf(records));
  for (const half of HALVES) {
    const subset = records.filter((r) => halves.get(probeKey(r.episodeId, r.probeId)) === half);
    if (subset.length) rows.set(half, rowsOf(subset));
  }
  return rows;
}

/** The number of probes of each half (by the first system's rows). */
export function halfSizes(rows: HalfRows): Partial<Record<Half | "all", number>> {
  return Object.fromEntries([...rows].map(([half, list]) => [half, list[0]?.n ?? 0]));
}

/**
 * A FAILURE line for every half and headline measure on which the ledger
 * scores under the best of its baselines less `GUARD_MARGIN`; empty when it
 * holds everywhere. A measure a row lacks is not compared.
 */
export function guardFailures(caseName: string, rows: HalfRows, guards: readonly Guard[]): string[] {
  const out: string[] = [];
  for (const half of HALVES) {
    const list = rows.get(half);
    const ledger = list?.find((r) => r.system === "ledger");
    if (!list || !ledger) continue;
    for (const g of guards) {
      const own = g.read(ledger);
      const baselines = g.against
        .map((system) => [system, list.find((r) => r.system === system)] as const)
        .map(([system, row]) => [system, row ? g.read(row) : undefined] as const)
        .filter((x): x is readonly [string, number] => x[1] !== undefined && Number.isFinite(x[1]));
      if (own === undefined || !baselines.length) continue;
      const [bestSystem, bestScore] = baselines.reduce((a, b) => (b[1] > a[1] ? b : a));
      if (own < bestScore - GUARD_MARGIN) {
        out.push(
          `FAILURE: ${caseName}, ${half} half: ledger ${g.label} ${own.toFixed(3)} < ${bestSystem} ${bestScore.toFixed(3)} − ${GUARD_MARGIN}`,
        );
      }
    }
  }
  return out;
}
