/**
 * The retrieval pipeline. Candidates come from six lists — BM25 over turns
 * and memories and BM25+ over whole-session transcripts (term-index.ts), vector
 * neighbours of turns and memories, and the centroid similarity of the sessions
 * those lists found — and are fused per session by weighted reciprocal-rank
 * fusion, with a recency prior and two rounds of pseudo-relevance feedback. Memories are reranked before they vote: subject
 * match, validity at the question time, condition match. Each result is one
 * session's bundle (its best memories and turns), so the top k covers k distinct
 * sessions; linked siblings (the superseded value beside its successor, both
 * sides of a contradiction, every condition of a preference) are pulled in right
 * after the bundle that links them. Bundles are built in bundle.ts. A question
 * that adds things up gets its tally first (tally.ts), and one about what is
 * left to do its open tasks (open-tasks.ts).
 */
import { lexicalTokens } from "../text/tokenize.ts";
import { bundle, nearDuplicate, wordsOf } from "./bundle.ts";
import { groupLinksOf, headsById, type NamespaceIndex } from "./namespace-index.ts";
import { openTasks } from "./open-tasks.ts";
import { aboutUser, queryTerms, queryWords } from "./query.ts";
import { DEFAULT_RETRIEVAL, type RetrievalParams } from "./retrieval-params.ts";
import type { LedgerStore, MemoryHead } from "./store.ts";
import { tally } from "./tally.ts";
import type { TermIndex } from "./term-index.ts";
import type { Hit } from "./types.ts";
import { USER } from "./types.ts";
import { validAt } from "./validity.ts";

export interface SearchInput {
  ns: string;
  text: string;
  k: number;
  /** Normalised ISO time of the question. */
  at?: string;
  queryVector?: Float32Array;
  /** A model's rewrites of the query (query-rewrite.ts), each searched as extra lists of the fusion. */
  rewrites?: ReadonlyArray<{ text: string; vector?: Float32Array }>;
  /** Only these sessions may be returned (a replay that fires probes inside the timeline). */
  only?: ReadonlySet<string>;
}

function rankMap<T>(keys: readonly T[]): Map<T, number> {
  const out = new Map<T, number>();
  for (const key of keys) if (!out.has(key)) out.set(key, out.size);
  return out;
}

function memoryFactor(
  m: MemoryHead,
  at: string | undefined,
  words: Set<string>,
  userQuery: boolean,
  p: RetrievalParams,
): number {
  let f = 1;
  if (!validAt(m, at)) f *= p.staleFactor;
  if (m.status === "contested") f *= p.contestedFactor;
  if (m.subject !== USER) {
    if (words.has(m.subject)) f *= 1.5;
    else if (userQuery) f *= p.otherSubjectFactor;
  }
  if (m.condition && lexicalTokens(m.condition).some((w) => words.has(w))) f *= 1.3;
  return f;
}

/** Sets smaller than these are searched with every query term; see `maxTermShare`. */
const SMALL_SESSION_SET = 1000;
const SMALL_TABLE = 5000;

/**
 * The ids of the `n` best scores, best first, in the order a stable sort by
 * descending score (then `tie`) gives. One native sort of the bare scores finds
 * the cut, so only the entries at or above it are sorted with the comparator.
 */
function best(scores: ReadonlyMap<string, number>, n: number, tie?: (a: string, b: string) => number): string[] {
  let entries = [...scores];
  if (entries.length > n) {
    const values = Float64Array.from(scores.values()).sort();
    const cut = values[values.length - n]!;
    entries = entries.filter((e) => e[1] >= cut);
  }
  entries.sort((a, b) => b[1] - a[1] || (tie ? tie(a[0], b[0]) : 0));
  return (entries.length > n ? entries.slice(0, n) : entries).map(([id]) => id);
}

/**
 * `order` with the i-th of `held` (best first, 0-based) placed at position
 * i + `slack` at the latest: the fusion may lift other sessions above a held
 * one, but at most `slack` of them.
 */
export function holdRanks(order: readonly string[], held: readonly string[], slack: number): string[] {
  if (!held.length) return [...order];
  const out: string[] = [];
  const placed = new Set<string>();
  const total = new Set([...order, ...held]).size;
  let i = 0;
  let h = 0;
  while (out.length < total) {
    while (h < held.length && placed.has(held[h]!)) h++;
    while (i < order.length && placed.has(order[i]!)) i++;
    const due = h < held.length && (h + slack <= out.length || i === order.length);
    const id = due ? held[h]! : order[i++]!;
    placed.add(id);
    out.push(id);
  }
  return out;
}

/**
 * The session BM25+ list's clear matches, best first: among its first
 * `lexicalHold` sessions, those scoring at least `lexicalHoldShare` of the
 * first one's score whose best turn also puts them among the turn BM25
 * list's first `lexicalHoldTurnRank` sessions (when that is set).
 */
export function clearMatches(
  sessionHits: ReadonlyArray<{ id: string; score: number }>,
  turnListRanks: ReadonlyMap<string, number>,
  p: Pick<RetrievalParams, "lexicalHold" | "lexicalHoldShare" | "lexicalHoldTurnRank">,
): string[] {
  const lead = sessionHits[0]?.score ?? 0;
  return sessionHits
    .slice(0, p.lexicalHold)
    .filter((h) => h.score >= p.lexicalHoldShare * lead)
    .filter(
      (h) => !p.lexicalHoldTurnRank || (turnListRanks.get(h.id) ?? Number.POSITIVE_INFINITY) < p.lexicalHoldTurnRank,
    )
    .map((h) => h.id);
}

export function searchLedger(
  store: LedgerStore,
  index: NamespaceIndex,
  input: SearchInput,
  params: RetrievalParams = DEFAULT_RETRIEVAL,
): Hit[] {
  const { ns, k, at } = input;
  const p = params;
  const w = p.weights;
  if (k <= 0) return [];
  if (!index.sessionRows || !index.sessionById) {
    index.sessionRows = store.sessions(ns);
    index.sessionById = new Map(index.sessionRows.map((s) => [s.id, s]));
  }
  const sessions = input.only ? index.sessionRows.filter((s) => input.only!.has(s.id)) : index.sessionRows;
  if (!sessions.length) return [];
  const sessionById = input.only ? new Map(sessions.map((s) => [s.id, s])) : index.sessionById;
  const terms = queryTerms(input.text);
  const lexical = (ti: TermIndex, t: string[] = terms) =>
    ti.search(ti.selective(t, SMALL_TABLE, p.maxTermShare), p.depth).map((h) => h.id);
  const words = queryWords(input.text);
  const userQuery = aboutUser(input.text);
  const qv = input.queryVector;

  // Candidate lists.
  const turnLex = lexical(index.turnTerms);
  const turnVec =
    qv && index.turns && (w.turnVector > 0 || w.turnVectorVote > 0)
      ? index.turns.search(qv, p.depth).map((h) => h.id)
      : [];
  const memLex = lexical(index.memoryTerms);
  const memVec = qv && index.memories && w.memoryVector > 0 ? index.memories.search(qv, p.depth).map((h) => h.id) : [];
  // Without `only`, every indexed session is visible.
  const visible = input.only
    ? (id: string | undefined): id is string => id !== undefined && sessionById.has(id)
    : (id: string | undefined): id is string => id !== undefined;
  // With `only`, the best `depth` may all be hidden: rank every match, then filter.
  const sessionHits = (text: string) =>
    index.terms
      .search(
        index.terms.selective(lexicalTokens(text), SMALL_SESSION_SET, p.maxTermShare),
        input.only ? Number.POSITIVE_INFINITY : p.depth,
      )
      .filter((h) => visible(h.id))
      .slice(0, p.depth);
  const sessionRanking = (text: string) => sessionHits(text).map((h) => h.id);
  const sessLexHits = sessionHits(input.text);
  const sessLex = sessLexHits.map((h) => h.id);
  // Each rewrite finds turns and sessions of its own; they vote beside the query's lists.
  const rewrites = (input.rewrites ?? []).map((r) => ({
    sessions: w.rewriteLexical > 0 ? sessionRanking(r.text) : [],
    turnLex: w.rewriteLexical > 0 ? lexical(index.turnTerms, queryTerms(r.text)) : [],
    turnVec:
      r.vector && index.turns && w.rewriteVector > 0 ? index.turns.search(r.vector, p.depth).map((h) => h.id) : [],
  }));

  // Only the session of each candidate turn is needed to rank; whole turns are read for the bundles shown.
  const turnSession = new Map<number, string>();
  for (const id of [...turnLex, ...turnVec, ...rewrites.flatMap((r) => [...r.turnLex, ...r.turnVec])]) {
    const sessionId = index.turnSession.get(id);
    if (sessionId !== undefined) turnSession.set(id, sessionId);
  }
  const memories = index.memoryHeads;

  // Turn scores: RRF of the two turn lists.
  const turnScore = new Map<number, number>();
  const addTurns = (list: number[], weight: number) => {
    list.forEach((id, i) => {
      turnScore.set(id, (turnScore.get(id) ?? 0) + weight / (p.rrfK + i + 1));
    });
  };
  addTurns(turnLex, w.turnLexical);
  addTurns(turnVec, w.turnVector);
  // A rewrite's turns are candidates for the bundles too, so a session it found shows why.
  for (const r of rewrites) {
    addTurns(r.turnLex, w.turnLexical);
    addTurns(r.turnVec, w.turnVector);
  }

  // Memory scores: RRF of the two memory lists, reranked.
  const memScore = new Map<number, number>();
  const addMem = (list: number[], weight: number) =>
    list.forEach((id, i) => {
      const m = memories.get(id);
      if (!m || !visible(m.sessionId) || m.status === "retired" || (at && m.recordedAt && m.recordedAt > at)) return;
      memScore.set(id, (memScore.get(id) ?? 0) + weight / (p.rrfK + i + 1));
    });
  addMem(memLex, w.memoryLexical);
  addMem(memVec, w.memoryVector);
  for (const [id, s] of memScore) memScore.set(id, s * memoryFactor(memories.get(id)!, at, words, userQuery, p));
  const memOrder = [...memScore.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id);

  // Session-level lists.
  const sessionOf = (rowids: number[], sessionIds: (rowid: number) => string | undefined) =>
    rowids.map(sessionIds).filter(visible);
  const turnLexSessionRanks = rankMap(sessionOf(turnLex, (id) => turnSession.get(id)));
  const lists: Array<[Map<string, number>, number]> = [
    [rankMap(sessLex), w.sessionLexical],
    [turnLexSessionRanks, w.turnLexical],
    [rankMap(sessionOf(turnVec, (id) => turnSession.get(id))), w.turnVectorVote],
    [rankMap(sessionOf(memOrder, (id) => memories.get(id)?.sessionId)), w.memoryLexical + w.memoryVector],
    ...rewrites.flatMap(
      (r): Array<[Map<string, number>, number]> => [
        [rankMap(r.sessions), w.rewriteLexical],
        [rankMap(sessionOf(r.turnVec, (id) => turnSession.get(id))), w.rewriteVector],
      ],
    ),
  ];
  if (qv && index.centroids.size && w.sessionVector > 0) {
    // Only the sessions another list found are ranked by centroid. On the four samples
    // this matched ranking every session exactly; at 100k turns a full ranking cost ~1.5 ms.
    const found = new Set<string>();
    for (const [ranks] of lists) for (const id of ranks.keys()) found.add(id);
    lists.push([rankMap(index.centroids.rankAmong(qv, found, p.depth)), w.sessionVector]);
  }
  const fused = new Map<string, number>();
  for (const [ranks, weight] of lists) {
    for (const [id, r] of ranks) fused.set(id, (fused.get(id) ?? 0) + weight / (p.rrfK + r + 1));
  }
  if (w.recency > 0 && fused.size) {
    // Rows come in timeline order, so the newest is last.
    for (let r = 0; r < sessions.length; r++) {
      const id = sessions[sessions.length - 1 - r]!.id;
      if (fused.has(id)) fused.set(id, fused.get(id)! + w.recency / (p.rrfK + r + 1));
    }
  }
  if (w.feedback > 0 && qv && index.turns) {
    // Rocchio feedback on turns: the query moves towards the best-matching turn of
    // each first-pass session (its centroid if none matched), and sessions are
    // ranked by their turns nearest the moved query. Moving towards whole-session
    // centroids drifted to the small talk around a fact; turns find the other facts
    // worded like the ones matched.
    const first = best(fused, p.feedbackDepth);
    const bestTurn = new Map<string, number>();
    for (const [rowid, sessionId] of turnSession) {
      const current = bestTurn.get(sessionId);
      if (current === undefined || turnScore.get(rowid)! > turnScore.get(current)!) bestTurn.set(sessionId, rowid);
    }
    const moved = Float32Array.from(qv);
    for (const id of first) {
      const turn = bestTurn.get(id);
      const v = turn !== undefined ? index.turns.get(turn) : index.centroids.get(id);
      if (v) for (let i = 0; i < moved.length; i++) moved[i]! += v[i]! / first.length;
    }
    // Only the candidate turns are re-ranked: on the samples this matched a full
    // second pass over every turn vector, which at 100k costs a Hamming scan.
    const ranked = index.turns
      .searchAmong(moved, [...turnSession.keys()], p.depth)
      .map((h) => turnSession.get(h.id))
      .filter(visible);
    [...new Set(ranked)].forEach((id, r) => {
      fused.set(id, (fused.get(id) ?? 0) + w.feedback / (p.rrfK + r + 1));
    });
  }
  if (w.lexicalFeedback > 0 && index.terms.size) {
    const expansion = index.terms.expansion(
      best(fused, p.feedbackDepth),
      p.feedbackTerms,
      new Set(lexicalTokens(input.text)),
    );
    if (expansion.length) {
      sessionRanking(`${input.text} ${expansion.join(" ")}`).forEach((id, r) => {
        fused.set(id, (fused.get(id) ?? 0) + w.lexicalFeedback / (p.rrfK + r + 1));
      });
    }
  }
  // A session that only matched through values replaced by then yields to its successors.
  const matched = new Map<string, boolean>();
  for (const id of memScore.keys()) {
    const m = memories.get(id)!;
    const stale = m.status === "superseded" && !validAt(m, at);
    matched.set(m.sessionId, (matched.get(m.sessionId) ?? true) && stale);
  }
  for (const [id, allStale] of matched) {
    if (allStale && fused.has(id)) fused.set(id, fused.get(id)! * p.staleSessionFactor);
  }
  // Equal scores: the later session first.
  const later = (a: string, b: string) => (sessionById.get(b)?.index ?? 0) - (sessionById.get(a)?.index ?? 0);
  // The session BM25+ list's clear matches are held near their own ranks, unless the query
  // was rewritten: a rewrite is searched because the message's own words may be the wrong
  // ones, and holding their matches overruled it (a perfect rewrite lost 0.033 RealMem NDCG).
  const held = input.rewrites?.length ? [] : clearMatches(sessLexHits, turnLexSessionRanks, p);
  // Placing 2k sessions reads about that many of the order; the rest is sorted only if needed.
  let order = holdRanks(best(fused, k * 4, later), held, p.lexicalSlack);

  // Per-session bundles.
  const memsBySession = new Map<string, MemoryHead[]>();
  for (const id of memOrder) {
    const m = memories.get(id)!;
    const list = memsBySession.get(m.sessionId);
    if (list) list.push(m);
    else memsBySession.set(m.sessionId, [m]);
  }

  // Linked siblings follow the bundle that links them.
  const topMemories = (id: string) => (memsBySession.get(id) ?? []).slice(0, p.memoriesPerHit);
  const placed: string[] = [];
  const seen = new Set<string>();
  // The memories a sibling session is shown for: the other side of the link that pulled it.
  const linkedIn = new Map<string, MemoryHead[]>();
  const siblingSessions = (sessionId: string): string[] => {
    const mems = topMemories(sessionId);
    if (!mems.length) return [];
    const own = new Set(mems.map((m) => m.id));
    // Every member of a linked group, not only the chain neighbour stored.
    const other = groupLinksOf(
      index,
      mems.map((m) => m.id),
    )
      // A restatement is pulled in only when asked; another occurrence of an event never is (a tally lists them).
      .filter(
        (l) => l.relation !== "complements" || (p.pullComplements && headsById(index, [l.from])[0]?.kind !== "event"),
      )
      .flatMap((l) => [l.from, l.to])
      .filter((id) => !own.has(id));
    const out = new Set<string>();
    for (const m of headsById(index, other)) {
      if (m.status === "retired" || m.sessionId === sessionId) continue;
      out.add(m.sessionId);
      const list = linkedIn.get(m.sessionId);
      if (!list) linkedIn.set(m.sessionId, [m]);
      else if (!list.includes(m)) list.push(m);
    }
    return [...out];
  };
  // The memories linked in from another bundle (why a sibling is here), then the session's best.
  const shownHeads = (id: string): MemoryHead[] => {
    const linked = linkedIn.get(id) ?? [];
    return [...linked, ...topMemories(id).filter((m) => !linked.includes(m))].slice(0, p.memoriesPerHit);
  };
  for (let i = 0; placed.length < k * 2; i++) {
    if (i === order.length) {
      if (order.length === fused.size) break;
      order = holdRanks(best(fused, fused.size, later), held, p.lexicalSlack);
    }
    const id = order[i]!;
    if (seen.has(id)) continue;
    seen.add(id);
    placed.push(id);
    for (const sib of siblingSessions(id)) {
      if (!seen.has(sib) && sessionById.has(sib)) {
        seen.add(sib);
        placed.push(sib);
      }
    }
  }

  // Each placed session's matched turns, best first (equal scores: the earlier turn).
  const wanted = new Set(placed);
  const matchedTurns = new Map<string, number[]>();
  for (const [rowid, sessionId] of turnSession) {
    if (!turnScore.has(rowid) || !wanted.has(sessionId)) continue;
    const list = matchedTurns.get(sessionId);
    if (list) list.push(rowid);
    else matchedTurns.set(sessionId, [rowid]);
  }
  for (const list of matchedTurns.values()) list.sort((a, b) => turnScore.get(b)! - turnScore.get(a)! || a - b);

  // Whole memory rows only for the memories the bundles show.
  const shownMemories = store.memoriesByRowid(placed.flatMap((id) => shownHeads(id).map((m) => m.rowid)));

  // An aggregation question's tally, or a to-do question's open tasks, comes first: no session bundle holds them all.
  const counted =
    tally(store, index, { question: input.text, ...(at ? { at } : {}), visible, userOnly: userQuery }) ??
    openTasks(store, index, { question: input.text, ...(at ? { at } : {}), visible });
  const room = counted ? k - 1 : k;
  const hits: Hit[] = [];
  const shown: Set<string>[] = [];
  let last = Number.POSITIVE_INFINITY;
  for (const id of placed) {
    if (hits.length >= room) break;
    const hit = bundle(
      store,
      ns,
      sessionById.get(id)!,
      (matchedTurns.get(id) ?? []).slice(0, p.turnsPerHit).map((rowid) => index.turnPosition.get(rowid)!),
      shownHeads(id).map((m) => shownMemories.get(m.rowid)!),
      index,
      p,
    );
    if (!hit) continue;
    const words = wordsOf(hit.text);
    if (shown.some((other) => nearDuplicate(other, words, 0.9))) continue;
    shown.push(words);
    // Scores stay non-increasing even where a sibling was pulled up.
    const score = Math.min(last, fused.get(id) ?? 0);
    last = score;
    hits.push({ ...hit, score });
  }
  if (counted) hits.unshift({ ...counted, score: hits[0]?.score ?? 0 });
  return hits;
}
