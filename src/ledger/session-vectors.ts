/**
 * Session centroids (the normalised mean of a session's turn vectors) in one
 * contiguous index. Search ranks only the sessions its other lists found, so
 * this is scored exactly and never scanned whole.
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
    // Never scanned whole, so no sketches (see VectorIndex).
    this.index ??= new VectorIndex(vector.length, Number.POSITIVE_INFINITY);
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

  /** The given sessions by similarity to `q`, best first, at most `depth`; sessions without a centroid are left out. */
  rankAmong(q: Float32Array, sessionIds: Iterable<string>, depth: number): string[] {
    if (!this.index) return [];
    const numbers: number[] = [];
    for (const id of sessionIds) {
      const n = this.numberOf.get(id);
      if (n !== undefined) numbers.push(n);
    }
    return this.index.searchAmong(q, numbers, depth).map((h) => this.keyOf[h.id]!);
  }
}
