/**
 * An in-process BM25 index over short texts (turns, memories), keyed by their
 * store rowids. FTS5's bm25() costs about 1.5 µs per matching row, which at 100k
 * turns is most of a query's time; scoring posting lists held in typed arrays
 * costs a few nanoseconds per posting. The FTS5 tables stay the store's
 * full-text index for exact lookups (`Ledger.findTurns`); ranking reads this.
 *
 * Tokens are the project tokeniser's (`lexicalTokens`), as for session BM25+.
 * Scoring is classic BM25 (k1 = 1.2, b = 0.75) with the non-negative IDF
 * ln(1 + (N − n + ½)/(n + ½)).
 */
import { lexicalTokens } from "../systems/tokenize.ts";
import { enlarged } from "../util/typed-arrays.ts";
import { selectiveTerms } from "./selective.ts";

const K1 = 1.2;
const B = 0.75;

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

export interface TermHit {
  id: number;
  score: number;
}

export class TermIndex {
  private readonly postings = new Map<string, Postings>();
  /** Live documents per term (removed documents leave dead postings behind, skipped when scoring). */
  private readonly df = new Map<string, number>();
  /** Slot → rowid, token count, and whether the slot is live. */
  private ids = new Int32Array(1024);
  private lengths = new Uint16Array(1024);
  private live = new Uint8Array(1024);
  private slots = 0;
  private readonly slotOf = new Map<number, number>();
  private totalLength = 0;
  private documents = 0;
  /** Scratch accumulators, reused across queries. */
  private scores = new Float64Array(0);

  get size(): number {
    return this.documents;
  }

  /** Indexes `text` under `id`, replacing what `id` held before. */
  add(id: number, text: string): void {
    this.remove(id);
    const tokens = lexicalTokens(text);
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    const slot = this.slots++;
    this.grow();
    this.ids[slot] = id;
    this.lengths[slot] = Math.min(tokens.length, 0xffff);
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

  /** Drops `id` from the index; its postings stay until scoring skips them. */
  remove(id: number): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    this.slotOf.delete(id);
    this.live[slot] = 0;
    this.totalLength -= this.lengths[slot]!;
    this.documents--;
    for (const [term, list] of this.postings) {
      // Only a replaced turn comes here (rare); a scan of the lists it may be in is fine.
      for (let i = 0; i < list.length; i++) {
        if (list.slots[i] === slot) {
          this.df.set(term, this.df.get(term)! - 1);
          break;
        }
      }
    }
  }

  private grow(): void {
    if (this.slots <= this.ids.length) return;
    const cap = this.ids.length * 2;
    this.ids = enlarged(this.ids, cap);
    this.lengths = enlarged(this.lengths, cap);
    this.live = enlarged(this.live, cap);
  }

  /** The query terms worth scoring (see `selectiveTerms`). */
  selective(terms: readonly string[], minDocuments: number, maxShare: number): string[] {
    return selectiveTerms(terms, this.df, this.documents, minDocuments, maxShare);
  }

  /** The `limit` best documents for the terms, best first (ties: lower rowid first). */
  search(terms: readonly string[], limit: number): TermHit[] {
    if (!this.documents || limit <= 0) return [];
    if (this.scores.length < this.slots) this.scores = new Float64Array(this.ids.length);
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
        const s = (idf * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * this.lengths[slot]!) / avg));
        if (scores[slot] === 0) touched.push(slot);
        scores[slot]! += s;
      }
    }
    const hits: TermHit[] = touched.map((slot) => ({ id: this.ids[slot]!, score: scores[slot]! }));
    for (const slot of touched) scores[slot] = 0;
    hits.sort((a, b) => b.score - a.score || a.id - b.id);
    return hits.length > limit ? hits.slice(0, limit) : hits;
  }
}
