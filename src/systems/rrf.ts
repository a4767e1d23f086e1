/**
 * Reciprocal-rank fusion (Cormack, Clarke & Büttcher, 2009): a unit's fused score is
 * the sum over the lists that contain it of 1 / (c + rank), rank counted from 1.
 * Only ranks matter, so a BM25 score and a cosine never need a common scale.
 */
import type { Scored } from "./units.ts";

export const RRF_K = 60;

/** Fused scores of every key in `lists` (each best first), in no particular order. */
export function reciprocalRankFusion(lists: readonly (readonly Scored[])[], c = RRF_K): Scored[] {
  const fused = new Map<string, number>();
  for (const list of lists) {
    list.forEach((hit, i) => {
      fused.set(hit.key, (fused.get(hit.key) ?? 0) + 1 / (c + i + 1));
    });
  }
  return [...fused].map(([key, score]) => ({ key, score }));
}
