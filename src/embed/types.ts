/**
 * The embedder contract shared by retrieval systems and the ledger. Vectors come back
 * unit-length so a dot product is a cosine; a text with no content at all (the empty
 * string) maps to the zero vector, which has cosine 0 with everything.
 */

export interface Embedder {
  /**
   * Model id, stored beside every vector so vectors of different models are never
   * compared or shared: "use-lite", "hashing:256", "openai:MODEL@BASE_URL", "onnx:DIR".
   */
  readonly id: string;
  /** Vector length; 0 while unknown (an endpoint whose dimension is learnt from its first reply). */
  readonly dim: number;
  /** One vector per text, in input order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) {
    throw new RangeError(`cosine of vectors of different lengths (${a.length} and ${b.length})`);
  }
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  }
  if (na === 0 || nb === 0) return 0;
  return dot / Math.sqrt(na * nb);
}

/** Scales `v` to unit length in place and returns it; the zero vector stays zero. */
export function normalizeInPlace(v: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i]! * v[i]!;
  if (sum === 0) return v;
  const inv = 1 / Math.sqrt(sum);
  for (let i = 0; i < v.length; i++) v[i] = v[i]! * inv;
  return v;
}

/** A unit-length Float32Array copy of any numeric vector. */
export function toUnitVector(values: ArrayLike<number>): Float32Array {
  return normalizeInPlace(Float32Array.from(values));
}
