/**
 * Session centroids (the normalised mean of a session's turn vectors) in one
 * contiguous index, so ranking every session against a query is a typed-array
 * scan with a partial sort rather than a map walk and a full sort.
 */
import { VectorIndex } from "./vector-index.ts";

const CENTROID_EXACT_LIMIT = 1_000;

export class SessionVectors {
  private index?: VectorIndex;
  private readonly keyOf: string[] = [];
  private readonly numberOf = new Map<string, number>();

  get size(): number {
    return this.index?.size ?? 0;
  }

  set(sessionId: string, vector: Float32Array): void {
    // Every query ranks all centroids; past 1k sessions the sign-bit prefilter pays for itself.
    this.index ??= new VectorIndex(vector.length, CENTROID_EXACT_LIMIT);
    let n = this.numberOf.get(sessionId);
    if (n === undefined) {
      n = this.keyOf.length;
      this.keyOf.push(sessionId);
      this.numberOf.set(sessionId, n);
    }
    this.index.add(n, vector);
  }

  get(sessionId: string): Float32Array | undefined {
    const n = this.numberOf.get(sessionId);
    return n === undefined ? undefined : this.index?.get(n);
  }

  /** Session ids by similarity to `q`, best first, at most `depth`, only those `visible` accepts. */
  rank(q: Float32Array, depth: number, visible?: (sessionId: string) => boolean): string[] {
    if (!this.index) return [];
    // With a filter the best `depth` may all be hidden: rank everything, then filter.
    const hits = this.index.search(q, visible ? this.index.size : depth);
    const out: string[] = [];
    for (const h of hits) {
      const id = this.keyOf[h.id]!;
      if (visible && !visible(id)) continue;
      out.push(id);
      if (out.length >= depth) break;
    }
    return out;
  }
}
