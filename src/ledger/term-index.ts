/**
 * An in-process BM25 index over texts (turns, memories, session transcripts).
 * FTS5's bm25() costs about 1.5 µs per matching row, which at 100k turns is most
 * of a query's time, and minisearch builds an object per match; scoring posting
 * lists held in typed arrays costs a few nanoseconds per posting. The FTS5
 * tables stay the store's full-text index for exact lookups (`Ledger.findTurns`);
 * ranking reads this.
 *
 * Tokens are the project tokeniser's (`lexicalTokens`). The IDF is the
 * non-negative ln(1 + (N − n + ½)/(n + ½)); a matching term scores
 * idf · (δ + tf·(k1 + 1) / (tf + k1·(1 − b + b·len/avglen))). Turns and memories
 * use classic BM25 (k1 1.2, b 0.75, δ 0, len in tokens); session transcripts use
 * the BM25+ of our `bm25-session` baseline (k1 1.2, b 0.7, δ 0.5, len in distinct
 * terms, minisearch's conventions), so the two rank alike.
 */
import { lexicalTokens } from "../text/tokenize.ts";
import { enlarged } from "../util/typed-arrays.ts";
import { selectiveTerms } from "./selective.ts";

export interface Bm25Scoring {
  k1: number;
  b: number;
  /** BM25+ lower bound for a matching term; 0 is classic BM25. */
  delta: number;
  /** A document's length: its token count, or its number of distinct terms. */
  length: "tokens" | "distinct";
}

export const CLASSIC_BM25: Bm25Scoring = { k1: 1.2, b: 0.75, delta: 0, length: "tokens" };

/** Growable parallel arrays of one term's postings: document slot and term frequency. */
class Postings {
  slots = new Int32Array(4);
  tfs = new Uint16Array(4);
  length = 0;

  push(slot: number, tf: number): void {
    if (this.length === this.slots.length) {
      this.slots = enlarged(this.slots, this.length * 2);
      this.tfs = enlarged(this.tfs, this.length * 2);
    }
    this.slots[this.length] = slot;
    this.tfs[this.length] = Math.min(tf, 0xffff);
    this.length++;
  }
}

export interface TermHit<K> {
  id: K;
  score: number;
}

/** Documents keyed by `K` (store rowids, session ids); ties rank the lower key first. */
export class TermIndex<K extends number | string = number> {
  private readonly postings = new Map<string, Postings>();
  /** Live documents per term (removed documents leave dead postings behind, skipped when scoring). */
  private readonly df = new Map<string, number>();
  /** Slot → key, length, and whether the slot is live. */
  private readonly ids: K[] = [];
  private lengths = new Uint16Array(1024);
  private live = new Uint8Array(1024);
  private slots = 0;
  private readonly slotOf = new Map<K, number>();
  private totalLength = 0;
  private documents = 0;
  /** Scratch accumulators, reused across queries. */
  private scores = new Float64Array(0);
  private ranked = new Float64Array(0);

  constructor(private readonly scoring: Bm25Scoring = CLASSIC_BM25) {}

  get size(): number {
    return this.documents;
  }

  /**
   * Indexes `text` under `id`, replacing what `id` held before. `previous`, the
   * replaced text's terms, lets the removal visit only their posting lists.
   */
  add(id: K, text: string, previous?: Iterable<string>): void {
    this.addTokens(id, lexicalTokens(text), previous);
  }

  /** As `add`, for a text already tokenised with `lexicalTokens`. */
  addTokens(id: K, tokens: readonly string[], previous?: Iterable<string>): void {
    this.remove(id, previous);
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    const slot = this.slots++;
    this.grow();
    this.ids[slot] = id;
    this.lengths[slot] = Math.min(this.scoring.length === "tokens" ? tokens.length : counts.size, 0xffff);
    this.live[slot] = 1;
    this.slotOf.set(id, slot);
    this.totalLength += this.lengths[slot]!;
    this.documents++;
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) {
        list = new Postings();
        this.postings.set(term, list);
      }
      list.push(slot, tf);
      this.df.set(term, (this.df.get(term) ?? 0) + 1);
    }
  }

  /**
   * Drops `id` from the index; its postings stay until scoring skips them.
   * `previous` must hold every term of the text `id` was indexed with; without it
   * every posting list is scanned, which is fine for a rare removal only.
   */
  remove(id: K, previous?: Iterable<string>): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.live[slot] = 0;
    this.totalLength -= this.lengths[slot]!;
    this.documents--;
    const lists: Iterable<[string, Postings | undefined]> = previous
      ? [...new Set(previous)].map((term) => [term, this.postings.get(term)])
      : this.postings;
    for (const [term, list] of lists) {
      if (!list) continue;
      for (let i = 0; i < list.length; i++) {
        if (list.slots[i] === slot) {
          const n = this.df.get(term)! - 1;
          // A term no document holds any more leaves the map, so `df` only counts present terms.
          if (n > 0) this.df.set(term, n);
          else this.df.delete(term);
          break;
        }
      }
    }
  }

  private grow(): void {
    if (this.slots <= this.lengths.length) return;
    const cap = this.lengths.length * 2;
    this.lengths = enlarged(this.lengths, cap);
    this.live = enlarged(this.live, cap);
  }

  /** How many live documents hold `term`. */
  frequency(term: string): number {
    return this.df.get(term) ?? 0;
  }

  /** The query terms worth scoring (see `selectiveTerms`). */
  selective(terms: readonly string[], minDocuments: number, maxShare: number): string[] {
    return selectiveTerms(terms, this.df, this.documents, minDocuments, maxShare);
  }

  /** The `limit` best documents for the terms, best first (ties: lower key first). */
  search(terms: readonly string[], limit: number): TermHit<K>[] {
    if (!this.documents || limit <= 0) return [];
    if (this.scores.length < this.slots) this.scores = new Float64Array(this.lengths.length);
    const { k1, b, delta } = this.scoring;
    const scores = this.scores;
    const touched: number[] = [];
    const avg = this.totalLength / this.documents || 1;
    for (const term of new Set(terms)) {
      const list = this.postings.get(term);
      const n = this.df.get(term) ?? 0;
      if (!list || !n) continue;
      const idf = Math.log(1 + (this.documents - n + 0.5) / (n + 0.5));
      const { slots, tfs, length } = list;
      for (let i = 0; i < length; i++) {
        const slot = slots[i]!;
        if (!this.live[slot]) continue;
        const tf = tfs[i]!;
        const s = idf * (delta + (tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * this.lengths[slot]!) / avg)));
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += s;
      }
    }
    // Common query terms touch thousands of documents: the limit-th best score from a
    // native sort of the scores, then only documents at or above it become hits.
    let threshold = Number.NEGATIVE_INFINITY;
    if (touched.length > limit) {
      if (this.ranked.length < touched.length) this.ranked = new Float64Array(this.scores.length);
      const ranked = this.ranked.subarray(0, touched.length);
      for (let i = 0; i < touched.length; i++) ranked[i] = scores[touched[i]!]!;
      ranked.sort();
      threshold = ranked[touched.length - limit]!;
    }
    const hits: TermHit<K>[] = [];
    for (const slot of touched) {
      if (scores[slot]! >= threshold) hits.push({ id: this.ids[slot]!, score: scores[slot]! });
      scores[slot] = 0;
    }
    hits.sort((x, y) => y.score - x.score || compareKeys(x.id, y.id));
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }
}

function compareKeys<K extends number | string>(a: K, b: K): number {
  return typeof a === "number" ? a - (b as number) : (a as string).localeCompare(b as string);
}
