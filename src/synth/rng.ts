/**
 * The seeded PRNG every generator draws from: sfc32 (a small, fast,
 * well-tested 128-bit-state generator) seeded from the SHA-256 of a label
 * path. `fork(label)` derives a stream from the path alone, never from the
 * parent's state, so adding a draw or a stage in one place never shifts the
 * draws of another: the same seed gives the same data, stage by stage.
 */
import { createHash } from "node:crypto";

function seedWords(path: string): [number, number, number, number] {
  const digest = createHash("sha256").update(path).digest();
  return [digest.readUInt32LE(0), digest.readUInt32LE(4), digest.readUInt32LE(8), digest.readUInt32LE(12)];
}

export class Rng {
  /** The label path this stream was derived from (`"7/profiles/3"`), for messages. */
  readonly path: string;
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number | string) {
    this.path = String(seed);
    [this.#a, this.#b, this.#c, this.#d] = seedWords(this.path);
    // Discard the first outputs: sfc32's state mixes poorly in its first few rounds.
    for (let i = 0; i < 12; i++) this.uint32();
  }

  /** An independent stream named `label` under this one (same path, same stream, whatever was drawn here). */
  fork(label: string | number): Rng {
    return new Rng(`${this.path}/${label}`);
  }

  /** The next 32-bit unsigned integer. */
  uint32(): number {
    const a = this.#a;
    const b = this.#b;
    const c = this.#c;
    const d = this.#d;
    const t = (((a + b) | 0) + d) | 0;
    this.#d = (d + 1) | 0;
    this.#a = b ^ (b >>> 9);
    this.#b = (c + (c << 3)) | 0;
    const r = (c << 21) | (c >>> 11);
    this.#c = (r + t) | 0;
    return t >>> 0;
  }

  /** A float in [0, 1). */
  float(): number {
    return this.uint32() / 4294967296;
  }

  /** An integer in [lo, hi], both ends included. */
  int(lo: number, hi: number): number {
    if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi < lo) {
      throw new RangeError(`Rng.int: expected integers lo <= hi, got ${lo}, ${hi}`);
    }
    return lo + Math.floor(this.float() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  bool(p = 0.5): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new RangeError(`Rng.pick: empty list (stream ${this.path})`);
    return items[Math.floor(this.float() * items.length)] as T;
  }

  /** A new array with the items in random order. */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.float() * (i + 1));
      [out[i], out[j]] = [out[j] as T, out[i] as T];
    }
    return out;
  }

  /** `k` distinct items (by position) in draw order; all of them, shuffled, when k ≥ length. */
  sample<T>(items: readonly T[], k: number): T[] {
    const pool = [...items];
    const n = Math.max(0, Math.min(k, pool.length));
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.float() * (pool.length - i));
      [pool[i], pool[j]] = [pool[j] as T, pool[i] as T];
    }
    return pool.slice(0, n);
  }

  /** One item, chosen with probability proportional to its weight (weights ≥ 0, not all 0). */
  weighted<T>(items: readonly T[], weights: readonly number[]): T {
    if (items.length !== weights.length || !items.length) {
      throw new RangeError(`Rng.weighted: ${items.length} items for ${weights.length} weights`);
    }
    const total = weights.reduce((s, w) => s + (w > 0 ? w : 0), 0);
    if (!(total > 0)) throw new RangeError(`Rng.weighted: no positive weight (stream ${this.path})`);
    let x = this.float() * total;
    for (let i = 0; i < items.length; i++) {
      const w = weights[i] as number;
      if (w <= 0) continue;
      x -= w;
      if (x < 0) return items[i] as T;
    }
    // Rounding can leave x at 0 after the last positive weight.
    for (let i = items.length - 1; i >= 0; i--) if ((weights[i] as number) > 0) return items[i] as T;
    throw new RangeError("unreachable");
  }

  /** A key of `priors` (`{"Bachelor": 0.5, "Master": 0.3}`), chosen by its weight. */
  weightedKey(priors: Readonly<Record<string, number>>): string {
    const keys = Object.keys(priors);
    return this.weighted(
      keys,
      keys.map((k) => priors[k] as number),
    );
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let out = "";
    while (out.length < n) out += this.uint32().toString(16).padStart(8, "0");
    return out.slice(0, n);
  }

  /** A UUID-shaped id (8-4-4-4-12 hex digits), deterministic for the stream. */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
}
