/**
 * A feature-hashing embedder: lowercased word unigrams and bigrams, each hashed to a
 * bucket with a hashed sign (the signed hashing trick, so collisions cancel out on
 * average instead of piling up), then L2-normalised. No model, no dependencies, the
 * same vector on every machine: for tests and for fast offline runs where lexical
 * overlap is a good enough notion of similarity.
 */
import { ConfigError } from "../core/errors.ts";
import { type Embedder, normalizeInPlace } from "./types.ts";

export const DEFAULT_HASHING_DIM = 256;
const MAX_HASHING_DIM = 1 << 16;
/** Bigrams carry word order but are rarer, so they count for less than single words. */
const BIGRAM_WEIGHT = 0.5;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/** Lowercased words of `text`, letters and digits only (an apostrophe suffix stays attached). */
export function hashingTokens(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().match(WORD) ?? [];
}

/** 32-bit FNV-1a over UTF-16 code units, then a murmur3 finaliser so low bits are well mixed. */
function hash32(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function assertHashingDim(dim: number, source?: string): void {
  if (!Number.isInteger(dim) || dim < 1 || dim > MAX_HASHING_DIM) {
    throw new ConfigError(
      `hashing dimension must be an integer from 1 to ${MAX_HASHING_DIM}, got ${dim}`,
      "embedder",
      source,
    );
  }
}

export class HashingEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;

  constructor(dim = DEFAULT_HASHING_DIM) {
    assertHashingDim(dim);
    this.dim = dim;
    this.id = `hashing:${dim}`;
  }

  /** The same vector synchronously, for callers that embed in a hot loop. */
  embedOne(text: string): Float32Array {
    const v = new Float32Array(this.dim);
    const words = hashingTokens(text);
    const add = (feature: string, weight: number) => {
      const bucket = hash32(feature, 0) % this.dim;
      const sign = hash32(feature, 0x9e3779b9) & 1 ? 1 : -1;
      v[bucket] = v[bucket]! + sign * weight;
    };
    for (let i = 0; i < words.length; i++) {
      add(words[i]!, 1);
      if (i > 0) add(`${words[i - 1]!} ${words[i]!}`, BIGRAM_WEIGHT);
    }
    return normalizeInPlace(v);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    return texts.map((t) => this.embedOne(t));
  }
}
