/**
 * Retrieval metrics computed from provenance, with no LLM.
 *
 * A ranking is a list of positions, each the set of evidence units it covers.
 * - Session unit: the distinct sessions in order of first appearance, one per
 *   position. For a system that returns whole sessions this is its top k; for
 *   a turn-level system it is the first k distinct sessions it names, which is
 *   what RealMem's session setting ("top-5 distinct sessions") means.
 * - Turn unit (LoCoMo dialog ids, LongMemEval `has_answer` turns): one position
 *   per retrieved item, covering the turns it came from, so a system returning
 *   whole sessions is credited with every turn of the sessions it returned at
 *   that depth (and pays for it in context tokens, reported beside).
 * A position is relevant when it covers a gold unit not covered earlier, so no
 * gold unit is counted twice and nDCG stays within [0, 1].
 */

export type EvidenceUnit = "session" | "turn";

export interface ProvenanceItem {
  sessionIds?: string[];
  turnIds?: string[];
}

export type Ranking = ReadonlyArray<readonly string[]>;

/** Positions as described above. */
export function rankUnits(items: readonly ProvenanceItem[], unit: EvidenceUnit): string[][] {
  if (unit === "turn") return items.map((item) => [...new Set(item.turnIds ?? [])]);
  const seen = new Set<string>();
  const out: string[][] = [];
  for (const item of items) {
    for (const id of item.sessionIds ?? []) {
      if (!seen.has(id)) {
        seen.add(id);
        out.push([id]);
      }
    }
  }
  return out;
}

/** For each of the first k positions, whether it covers a gold unit not covered before. */
function relevance(ranking: Ranking, gold: ReadonlySet<string>, k: number): { rel: boolean[]; covered: number } {
  const seen = new Set<string>();
  const rel = ranking.slice(0, k).map((units) => {
    let fresh = false;
    for (const id of units) {
      if (gold.has(id) && !seen.has(id)) {
        seen.add(id);
        fresh = true;
      }
    }
    return fresh;
  });
  return { rel, covered: seen.size };
}

function hits(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return relevance(ranking, gold, k).covered;
}

/** Share of the gold units in the top k. */
export function recallAt(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return gold.size ? hits(ranking, gold, k) / gold.size : 0;
}

/** 1 when any gold unit is in the top k. */
export function recallAnyAt(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return hits(ranking, gold, k) > 0 ? 1 : 0;
}

/** 1 when every gold unit is in the top k. */
export function recallAllAt(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return gold.size > 0 && hits(ranking, gold, k) === gold.size ? 1 : 0;
}

type Discount = (position: number) => number;
/** Standard DCG: rel_i / log2(i + 1). */
const standardDiscount: Discount = (i) => 1 / Math.log2(i + 1);
/**
 * RealMem's released code: DCG = rel_1 + Σ_{i≥2} rel_i / log2(i), so positions
 * 1 and 2 are both undiscounted (`eval/compute_auto_metrics_for_realmem.py`).
 */
const realmemDiscount: Discount = (i) => (i === 1 ? 1 : 1 / Math.log2(i));

function ndcg(ranking: Ranking, gold: ReadonlySet<string>, k: number, discount: Discount): number {
  let dcg = 0;
  relevance(ranking, gold, k).rel.forEach((r, i) => {
    if (r) dcg += discount(i + 1);
  });
  let idcg = 0;
  for (let i = 1; i <= Math.min(k, gold.size); i++) idcg += discount(i);
  return idcg > 0 ? dcg / idcg : 0;
}

/** nDCG@k with binary relevance and the standard log2(i+1) discount. */
export function ndcgAt(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return ndcg(ranking, gold, k, standardDiscount);
}

/** nDCG@k as RealMem's evaluation code computes it (see `realmemDiscount`). */
export function ndcgRealmemAt(ranking: Ranking, gold: ReadonlySet<string>, k: number): number {
  return ndcg(ranking, gold, k, realmemDiscount);
}

/** 1-based rank of the first unit that is gold, or 0 when none is. */
export function firstSupportRank(ranking: Ranking, gold: ReadonlySet<string>): number {
  const i = ranking.findIndex((units) => units.some((id) => gold.has(id)));
  return i < 0 ? 0 : i + 1;
}

/** MemConflict's Support Evidence Hit@K from a first-support rank (0 = not found). */
export function sehFromRank(rank: number, k: number): number {
  return rank >= 1 && rank <= k ? 1 : 0;
}

/** MemConflict's Support Rank Score@K: 1/log2(r+1) when 1 ≤ r ≤ K, else 0 (arXiv 2605.20926 §3.6). */
export function srsFromRank(rank: number, k: number): number {
  return rank >= 1 && rank <= k ? 1 / Math.log2(rank + 1) : 0;
}

/**
 * Memora's stale@k: the share of the top k positions whose sources are only
 * sessions of invalidated facts (in `stale`, not in the current evidence).
 * Lower is better.
 */
export function staleAt(ranking: Ranking, stale: ReadonlySet<string>, current: ReadonlySet<string>, k: number): number {
  const top = ranking.slice(0, k);
  if (!top.length) return 0;
  const staleOnly = (units: readonly string[]) =>
    units.length > 0 && units.every((id) => stale.has(id) && !current.has(id));
  return top.filter(staleOnly).length / top.length;
}

export interface RetrievalMetricOptions {
  ks: readonly number[];
  /** k values for MemConflict's SEH/SRS by provenance; empty to skip. */
  supportKs?: readonly number[];
  /** Memora: sessions whose facts were later invalidated. */
  stale?: ReadonlySet<string>;
}

/** Every provenance metric of one probe, keyed as in summary.json. */
export function retrievalMetrics(
  ranking: Ranking,
  gold: ReadonlySet<string>,
  options: RetrievalMetricOptions,
): Record<string, number> {
  const m: Record<string, number> = {};
  for (const k of options.ks) {
    m[`recall@${k}`] = recallAt(ranking, gold, k);
    m[`recall_any@${k}`] = recallAnyAt(ranking, gold, k);
    m[`recall_all@${k}`] = recallAllAt(ranking, gold, k);
    m[`ndcg@${k}`] = ndcgAt(ranking, gold, k);
    m[`ndcg_realmem@${k}`] = ndcgRealmemAt(ranking, gold, k);
    if (options.stale?.size) m[`stale@${k}`] = staleAt(ranking, options.stale, gold, k);
  }
  if (options.supportKs?.length) {
    const rank = firstSupportRank(ranking, gold);
    for (const k of options.supportKs) {
      m[`seh_prov@${k}`] = sehFromRank(rank, k);
      m[`srs_prov@${k}`] = srsFromRank(rank, k);
    }
  }
  return m;
}
