/**
 * Session centroids (the normalised mean of a session's turn vectors) in one
 * contiguous index, so ranking every session against a query is a typed-array
 * scan with a partial sort rather than a map walk and a full sort.
 */
import { VectorIndex } from "./vector-index.ts";

export class SessionVectors {
  private index?: VectorIndex;
  private readonly keyOf: string[] = [];
  private readonly numberOf = new Map<string, number>();

  get size(): number {
    return this.index?.size ?? 0;
  }

  set(sessionId: string, vector: Float32Array): void {
    this.index ??= new VectorIndex(vector.length);
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

  /**
   * The given sessions by similarity to `q`, best first, at most `depth`; ties
   * keep insertion order, as in `rank`. Over the same sessions the two agree.
   */
  rankAmong(q: Float32Array, sessionIds: Iterable<string>, depth: number): string[] {
    const index = this.index;
    if (!index) return [];
    const scored: Array<[number, number]> = [];
    for (const id of sessionIds) {
      const n = this.numberOf.get(id);
      // Rounded as `rank` stores its scores, so near-ties break the same way.
      if (n !== undefined) scored.push([n, Math.fround(index.similarity(n, q)!)]);
    }
    scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    return scored.slice(0, depth).map(([n]) => this.keyOf[n]!);
  }
}
