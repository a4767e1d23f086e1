/**
 * 95% CIs for every cell of a paper-layout table. The cells are whatever the
 * benchmark's scorer computes (means, sums over durations, macro averages,
 * differences), so the CI comes from re-running the scorer's own `tables()` on
 * bootstrap resamples of the probes — stratified by the scorer's category label,
 * as the row-level CIs are — and taking the percentiles of each cell.
 */
import { rng } from "../score/bootstrap.ts";
import type { BenchmarkScorer, PaperTable, ProbeScore, ScoreContext } from "../score/types.ts";

export interface CellCIOptions {
  iterations?: number;
  seed?: number;
  /** A cell gets no CI when fewer resamples than this share produced a value for it. */
  minShare?: number;
}

/** CIs by table id, then row label, then column. */
export type TableCIs = Map<string, Map<string, Record<string, [number, number]>>>;

const SEP = "\u0000";

function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

function strata(scores: readonly ProbeScore[], label: string | undefined): ProbeScore[][] {
  const groups = new Map<string, ProbeScore[]>();
  for (const s of scores) {
    const key = label ? (s.labels[label] ?? "") : "";
    const group = groups.get(key) ?? [];
    group.push(s);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/** CIs per table, row and column of what `tables()` returns for one system × setting. */
export function tableCellCIs(
  scorer: BenchmarkScorer,
  scores: readonly ProbeScore[],
  ctx: ScoreContext,
  options: CellCIOptions = {},
): TableCIs {
  const out: TableCIs = new Map();
  if (!scorer.tables || scores.length < 2) return out;
  const iterations = options.iterations ?? 1000;
  const minShare = options.minShare ?? 0.95;
  const random = rng(options.seed ?? 1);
  const groups = strata(scores, scorer.stratifyBy);
  const samples = new Map<string, number[]>();
  for (let it = 0; it < iterations; it++) {
    const resample: ProbeScore[] = [];
    for (const group of groups) {
      for (let j = 0; j < group.length; j++) resample.push(group[Math.floor(random() * group.length)]!);
    }
    for (const table of scorer.tables(resample, ctx)) {
      for (const row of table.rows) {
        for (const [column, value] of Object.entries(row.cells)) {
          if (value === null || !Number.isFinite(value)) continue;
          const key = [table.id, row.label, column].join(SEP);
          const list = samples.get(key) ?? [];
          list.push(value);
          samples.set(key, list);
        }
      }
    }
  }
  for (const [key, values] of samples) {
    if (values.length < minShare * iterations) continue;
    const [id, label, column] = key.split(SEP) as [string, string, string];
    values.sort((a, b) => a - b);
    const table = out.get(id) ?? new Map<string, Record<string, [number, number]>>();
    const row = table.get(label) ?? {};
    row[column] = [quantile(values, 0.025), quantile(values, 0.975)];
    table.set(label, row);
    out.set(id, table);
  }
  return out;
}

/** The scorer's tables for one system × setting, with their cell CIs. */
export function tablesWithCIs(
  scorer: BenchmarkScorer,
  scores: readonly ProbeScore[],
  ctx: ScoreContext,
  options: CellCIOptions = {},
): Array<{ table: PaperTable; ci: Map<string, Record<string, [number, number]>> }> {
  if (!scorer.tables || !scores.length) return [];
  const cis = tableCellCIs(scorer, scores, ctx, options);
  return scorer.tables(scores, ctx).map((table) => ({ table, ci: cis.get(table.id) ?? new Map() }));
}
