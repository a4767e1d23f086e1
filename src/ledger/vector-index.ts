/**
 * An in-process vector index over unit vectors: exact cosine for small sets; for
 * large ones a Hamming pass over 1-bit sketches (`SignSketch`) picks candidates
 * that are then rescored exactly. Vectors are persisted in sqlite-vec tables by the
 * store; this index is the fast path that search reads.
 */
import { enlarged } from "../util/typed-arrays.ts";

/** Below this many vectors every one is scored exactly (the default of `exactLimit`). */
const EXACT_LIMIT = 5_000;

/** Set bits of every 16-bit value: two lookups count a word, about twice as fast as bit tricks here. */
const POPCOUNT16 = (() => {
  const table = new Uint8Array(1 << 16);
  for (let i = 1; i < table.length; i++) table[i] = (i & 1) + table[i >>> 1]!;
  return table;
})();

/**
 * Sign bits of a randomly rotated vector (SimHash): the share of differing bits
 * estimates the angle between two vectors whatever their basis. The bits of the
 * raw coordinates do not: a sparse vector (the hashing embedder's) is zero in
 * most coordinates, and at 100k hashing vectors those bits kept 44% of the exact
 * top 200 against 8x candidates. The rotation is a random sign flip then a
 * Walsh–Hadamard transform, O(d log d) per vector, over the dimension padded to
 * a power of two; it is fixed (seeded), so stored and query bits agree.
 */
export class SignSketch {
  readonly size: number;
  private readonly flip: Float32Array;
  private readonly scratch: Float32Array;

  constructor(readonly dim: number) {
    let size = 128;
    while (size < dim) size *= 2;
    this.size = size;
    this.flip = new Float32Array(size);
    let state = 0x9e3779b9;
    for (let j = 0; j < size; j++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      this.flip[j] = state & 0x80000000 ? -1 : 1;
    }
    this.scratch = new Float32Array(size);
  }

  /** Writes the sketch of `v` (size / 32 words) into `out` from `offset`. */
  write(v: Float32Array, out: Uint32Array, offset: number): void {
    const x = this.scratch;
    const n = this.size;
    for (let j = 0; j < n; j++) x[j] = j < this.dim ? v[j]! * this.flip[j]! : 0;
    for (let h = 1; h < n; h *= 2) {
      for (let i = 0; i < n; i += h * 2) {
        for (let j = i; j < i + h; j++) {
          const a = x[j]!;
          const b = x[j + h]!;
          x[j] = a + b;
          x[j + h] = a - b;
        }
      }
    }
    out.fill(0, offset, offset + n / 32);
    for (let j = 0; j < n; j++) if (x[j]! > 0) out[offset + (j >>> 5)]! |= 1 << (j & 31);
  }
}

export interface VectorHit {
  id: number;
  score: number;
}

export class VectorIndex {
  private ids = new Int32Array(1024);
  private data: Float32Array;
  private bits: Uint32Array;
  private readonly words: number;
  private readonly sketch: SignSketch;
  private count = 0;
  private readonly position = new Map<number, number>();

  /** Hamming distances of the last scan, kept to spare a 100k-entry allocation per query. */
  private dist = new Uint16Array(0);

  /**
   * `exactLimit`: up to this many vectors, every one is scored exactly. An index
   * that is never scanned past it (infinite limit: session centroids, only ever
   * scored among given ids) keeps no sketches.
   */
  constructor(
    readonly dim: number,
    private readonly exactLimit = EXACT_LIMIT,
  ) {
    this.sketch = new SignSketch(dim);
    // At least 128 bits, so the Hamming pass can be unrolled by four words.
    this.words = Number.isFinite(exactLimit) ? this.sketch.size / 32 : 0;
    this.data = new Float32Array(1024 * dim);
    this.bits = new Uint32Array(1024 * this.words);
  }

  get size(): number {
    return this.count;
  }

  add(id: number, vector: Float32Array): void {
    if (vector.length !== this.dim) throw new RangeError(`vector of length ${vector.length}, index of ${this.dim}`);
    let at = this.position.get(id);
    if (at === undefined) {
      at = this.count++;
      this.grow();
      this.position.set(id, at);
    }
    this.ids[at] = id;
    this.data.set(vector, at * this.dim);
    if (this.words) this.sketch.write(vector, this.bits, at * this.words);
  }

  get(id: number): Float32Array | undefined {
    const at = this.position.get(id);
    return at === undefined ? undefined : this.data.subarray(at * this.dim, (at + 1) * this.dim);
  }

  /** The `k` of the given stored vectors most similar to `q`, best first. */
  searchAmong(q: Float32Array, ids: readonly number[], k: number): VectorHit[] {
    const out: VectorHit[] = [];
    const q64 = Float64Array.from(q);
    for (const id of ids) {
      const at = this.position.get(id);
      if (at !== undefined) out.push({ id, score: Math.fround(this.dot(at, q64)) });
    }
    out.sort((a, b) => b.score - a.score || this.position.get(a.id)! - this.position.get(b.id)!);
    return out.slice(0, k);
  }

  private grow(): void {
    if (this.count <= this.ids.length) return;
    const cap = this.ids.length * 2;
    this.ids = enlarged(this.ids, cap);
    this.data = enlarged(this.data, cap * this.dim);
    this.bits = enlarged(this.bits, cap * this.words);
  }

  /** `q` as doubles: reading a Float64Array in the dot product spares a conversion per element (about 20%). */
  private dot(at: number, q: Float64Array): number {
    const d = this.data;
    const o = at * this.dim;
    const n = this.dim;
    // Four accumulators: independent additions the CPU can overlap (about 2x here).
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let j = 0;
    for (; j + 3 < n; j += 4) {
      s0 += d[o + j]! * q[j]!;
      s1 += d[o + j + 1]! * q[j + 1]!;
      s2 += d[o + j + 2]! * q[j + 2]!;
      s3 += d[o + j + 3]! * q[j + 3]!;
    }
    for (; j < n; j++) s0 += d[o + j]! * q[j]!;
    return s0 + s1 + s2 + s3;
  }

  /** The `k` most similar vectors, best first. */
  search(q: Float32Array, k: number): VectorHit[] {
    const n = this.count;
    if (n === 0 || k <= 0) return [];
    const candidates = n <= this.exactLimit ? undefined : this.hammingCandidates(q, Math.max(k * 8, 400));
    const m = candidates ? candidates.length : n;
    const scores = new Float32Array(m);
    const q64 = Float64Array.from(q);
    for (let i = 0; i < m; i++) scores[i] = this.dot(candidates ? candidates[i]! : i, q64);
    // The k-th best score from a native sort of a copy, then only the few above it are ordered.
    const sorted = Float32Array.from(scores).sort();
    const threshold = sorted[Math.max(0, m - k)]!;
    const order: number[] = [];
    for (let i = 0; i < m; i++) if (scores[i]! >= threshold) order.push(i);
    order.sort((a, b) => scores[b]! - scores[a]! || a - b);
    const out: VectorHit[] = [];
    for (let r = 0; r < Math.min(k, m); r++) {
      const i = order[r]!;
      out.push({ id: this.ids[candidates ? candidates[i]! : i]!, score: scores[i]! });
    }
    return out;
  }

  /** The `want` vectors nearest to `q` in Hamming distance between sketches (ties broken by insertion order). */
  private hammingCandidates(q: Float32Array, want: number): Int32Array {
    const w = this.words;
    const qb = new Uint32Array(w);
    this.sketch.write(q, qb, 0);
    const n = this.count;
    if (this.dist.length < n) this.dist = new Uint16Array(this.ids.length);
    const dist = this.dist;
    const bitCount = this.sketch.size;
    const histogram = new Uint32Array(bitCount + 1);
    const bits = this.bits;
    const pop = POPCOUNT16;
    for (let i = 0, o = 0; i < n; i++) {
      let h = 0;
      for (let x = 0; x < w; x += 4, o += 4) {
        const v0 = bits[o]! ^ qb[x]!;
        const v1 = bits[o + 1]! ^ qb[x + 1]!;
        const v2 = bits[o + 2]! ^ qb[x + 2]!;
        const v3 = bits[o + 3]! ^ qb[x + 3]!;
        h +=
          pop[v0 & 0xffff]! +
          pop[v0 >>> 16]! +
          pop[v1 & 0xffff]! +
          pop[v1 >>> 16]! +
          pop[v2 & 0xffff]! +
          pop[v2 >>> 16]! +
          pop[v3 & 0xffff]! +
          pop[v3 >>> 16]!;
      }
      dist[i] = h;
      histogram[h]!++;
    }
    // Everything closer than the threshold distance, then as many at it as fit.
    let threshold = 0;
    let below = 0;
    for (; threshold < bitCount && below + histogram[threshold]! < want; threshold++) below += histogram[threshold]!;
    let atThreshold = Math.min(want, n) - below;
    const out = new Int32Array(Math.min(want, n));
    let m = 0;
    for (let i = 0; i < n; i++) {
      const d = dist[i]!;
      if (d < threshold || (d === threshold && atThreshold-- > 0)) out[m++] = i;
    }
    return out;
  }
}

/** Normalised mean of vectors (a session's centroid); undefined for none. */
export function centroid(vectors: readonly Float32Array[]): Float32Array | undefined {
  if (!vectors.length) return undefined;
  const out = new Float32Array(vectors[0]!.length);
  for (const v of vectors) for (let j = 0; j < v.length; j++) out[j]! += v[j]!;
  let norm = 0;
  for (let j = 0; j < out.length; j++) norm += out[j]! * out[j]!;
  const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
  for (let j = 0; j < out.length; j++) out[j]! *= scale;
  return out;
}
