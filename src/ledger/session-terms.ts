/**
 * Session transcripts: BM25+ ranking over them, and their term statistics for
 * lexical pseudo-relevance feedback: the words that best characterise the
 * first-pass top sessions (frequent in them, rare in the namespace) become a
 * second query. In project dialogues the user's message is often chatty and
 * cue-poor ("okay, what's next?") while the sessions it continues share a
 * vocabulary (the project's own nouns); feedback carries the query from the one
 * session it did match to the rest of the thread.
 */
import { lexicalTokens } from "../text/tokenize.ts";
import { type TermHit, TermIndex } from "./term-index.ts";

/** The `bm25-session` baseline's BM25+, so the ledger's session list ranks as that baseline does. */
const SESSION_BM25 = { k1: 1.2, b: 0.7, delta: 0.5, length: "distinct" } as const;

export class SessionTerms {
  private readonly tf = new Map<string, Map<string, number>>();
  private readonly length = new Map<string, number>();
  private readonly index = new TermIndex<string>(SESSION_BM25);

  get size(): number {
    return this.tf.size;
  }

  upsert(sessionId: string, text: string): void {
    this.upsertTokens(sessionId, lexicalTokens(text));
  }

  /** As `upsert`, for a transcript already tokenised with `lexicalTokens` (a line at a time gives the same tokens). */
  upsertTokens(sessionId: string, tokens: readonly string[]): void {
    this.index.addTokens(sessionId, tokens, this.tf.get(sessionId)?.keys());
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    this.tf.set(sessionId, counts);
    this.length.set(sessionId, Math.max(1, tokens.length));
  }

  /** Sessions by BM25+ for the terms, best first (ties: lower id first), at most `limit`. */
  search(terms: readonly string[], limit: number): TermHit<string>[] {
    return this.index.search(terms, limit);
  }

  /**
   * The query terms worth scoring once there are `minSessions` sessions or more:
   * those found in at most `maxShare` of them (see `keepSelective`).
   */
  selective(terms: readonly string[], minSessions: number, maxShare: number): string[] {
    return this.index.selective(terms, minSessions, maxShare);
  }

  /**
   * The `n` terms with the highest summed (relative frequency × idf) over the
   * given sessions. Terms found in a single session only, or in most sessions,
   * carry no thread signal and are left out.
   */
  expansion(sessionIds: readonly string[], n: number, exclude: ReadonlySet<string> = new Set()): string[] {
    const total = this.tf.size;
    if (!total || n <= 0) return [];
    const weight = new Map<string, number>();
    for (const id of sessionIds) {
      const counts = this.tf.get(id);
      if (!counts) continue;
      const len = this.length.get(id)!;
      for (const [term, c] of counts) {
        const df = this.index.frequency(term);
        if (df < 2 || df > total / 2 || exclude.has(term) || term.length < 3) continue;
        weight.set(term, (weight.get(term) ?? 0) + (c / len) * Math.log(total / df));
      }
    }
    return [...weight.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, n)
      .map(([term]) => term);
  }
}
