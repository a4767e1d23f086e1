/**
 * What one result shows: a session's bundle (its best memories and the turns
 * that matched, with their neighbours), and the near-duplicate check that keeps
 * repeated bundles out of the top k.
 */
import { lexicalTokens } from "../text/tokenize.ts";
import { linksOf, type NamespaceIndex } from "./namespace-index.ts";
import type { RetrievalParams } from "./retrieval-params.ts";
import type { LedgerStore, SessionRow } from "./store.ts";
import type { Hit, Memory } from "./types.ts";

export type BundleParams = Pick<RetrievalParams, "memoriesPerHit" | "turnsPerHit" | "turnWindow">;

/**
 * Word sets of texts seen by recent searches, by line: the same turns come back
 * query after query, and tokenising a bundle's long turns was the largest cost of
 * the near-duplicate check. Keyed by the line itself, so a rewritten turn simply
 * misses; the oldest entries go first past the limit.
 */
const lineWords = new Map<string, readonly string[]>();
const LINE_WORDS_LIMIT = 20_000;

/** The distinct words of `text` (as `lexicalTokens` gives them; no word spans a line break). */
export function wordsOf(text: string): Set<string> {
  const out = new Set<string>();
  for (const line of text.split("\n")) {
    let words = lineWords.get(line);
    if (!words) {
      words = [...new Set(lexicalTokens(line))];
      if (lineWords.size >= LINE_WORDS_LIMIT) lineWords.delete(lineWords.keys().next().value!);
      lineWords.set(line, words);
    }
    for (const w of words) out.add(w);
  }
  return out;
}

/** Whether two word sets overlap by more than `threshold` (Jaccard). */
export function nearDuplicate(ta: ReadonlySet<string>, tb: ReadonlySet<string>, threshold: number): boolean {
  const [small, large] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  // Jaccard is at most |small| / |large|: sets of unlike sizes need no counting.
  if (!small.size || small.size / large.size <= threshold) return false;
  let inter = 0;
  for (const t of small) if (large.has(t)) inter++;
  return inter / (small.size + large.size - inter) > threshold;
}

export function bundle(
  store: LedgerStore,
  ns: string,
  session: SessionRow,
  matched: number[],
  memories: Array<Memory & { rowid: number }>,
  index: NamespaceIndex,
  p: BundleParams,
): Hit | undefined {
  const mems = memories.slice(0, p.memoriesPerHit);
  // A sibling session reached only through a link: show its opening turns.
  const positions = matched.length || mems.length ? matched : Array.from({ length: p.turnsPerHit }, (_, i) => i);
  // The matched turns and their neighbours, read in one go: in a dialogue the fact
  // is often in the reply to (or the prompt of) the turn that matched.
  const near = new Set<number>();
  for (const at of positions) for (let d = -p.turnWindow; d <= p.turnWindow; d++) near.add(at + d);
  const chosen = near.size ? store.turnsAt(ns, session.id, [...near]) : [];
  if (!chosen.length && !mems.length) return undefined;
  const links = linksOf(
    index,
    mems.map((m) => m.id),
  );
  const lines = [
    // Memories read off one sentence share its text: one line shows them all (renderBody flags each).
    ...new Set(mems.map((m) => `[memory] ${m.text}`)),
    ...chosen.map((t) => `${t.speaker ?? t.role}: ${t.content}`),
  ];
  const turnIds = [...new Set([...chosen.map((t) => t.id), ...mems.flatMap((m) => m.turnIds)])];
  return {
    kind: mems.length && !chosen.length ? "memory" : "session",
    text: lines.join("\n"),
    score: 0,
    ...(session.time ? { time: session.time } : {}),
    sessionIds: [session.id],
    turnIds,
    memories: mems.map(({ rowid: _r, ...m }) => m),
    links,
  };
}
