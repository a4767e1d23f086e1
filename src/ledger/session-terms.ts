/**
 * Term statistics of session transcripts, for lexical pseudo-relevance feedback:
 * the words that best characterise the first-pass top sessions (frequent in
 * them, rare in the namespace) become a second query. In project dialogues the
 * user's message is often chatty and cue-poor ("okay, what's next?") while the
 * sessions it continues share a vocabulary (the project's own nouns); feedback
 * carries the query from the one session it did match to the rest of the thread.
 */
import { lexicalTokens } from "../systems/tokenize.ts";
import { selectiveTerms } from "./selective.ts";

export class SessionTerms {
  private readonly tf = new Map<string, Map<string, number>>();
  private readonly length = new Map<string, number>();
  private readonly df = new Map<string, number>();

  get size(): number {
    return this.tf.size;
  }

  upsert(sessionId: string, text: string): void {
    const old = this.tf.get(sessionId);
    // A term no session holds any more leaves the map, so `df` only counts present terms.
    if (old) {
      for (const term of old.keys()) {
        const n = this.df.get(term)! - 1;
        if (n > 0) this.df.set(term, n);
        else this.df.delete(term);
      }
    }
    const counts = new Map<string, number>();
    const tokens = lexicalTokens(text);
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const term of counts.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    this.tf.set(sessionId, counts);
    this.length.set(sessionId, Math.max(1, tokens.length));
  }

  /**
   * The query terms worth scoring once there are `minSessions` sessions or more:
   * those found in at most `maxShare` of them (see `keepSelective`).
   */
  selective(terms: readonly string[], minSessions: number, maxShare: number): string[] {
    return selectiveTerms(terms, this.df, this.tf.size, minSessions, maxShare);
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
        const df = this.df.get(term) ?? 0;
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
