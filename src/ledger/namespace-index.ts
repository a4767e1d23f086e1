/**
 * The in-process indexes of one namespace: what search reads instead of SQLite.
 * The store is the durable copy; these are built from it when a namespace is
 * first used and updated after each write commits (ledger.ts).
 */
import { isTask } from "./extract/attributes.ts";
import { SessionTerms } from "./session-terms.ts";
import { SessionVectors } from "./session-vectors.ts";
import { type MemoryHead, memoryHead, memorySearchText, type SessionRow } from "./store.ts";
import { talliedAttribute } from "./tallied.ts";
import { TermIndex } from "./term-index.ts";
import type { Link, Memory, StoredTurn } from "./types.ts";
import type { VectorIndex } from "./vector-index.ts";

/** The in-process indexes of one namespace. */
export interface NamespaceIndex {
  turns?: VectorIndex;
  memories?: VectorIndex;
  /** Centroid of each session's turn vectors. */
  centroids: SessionVectors;
  /**
   * BM25+ over whole-session transcripts, and their term statistics for lexical
   * feedback. Classic BM25 has no lower bound per matching term, which
   * over-penalises long sessions; BM25+ measured better here.
   */
  terms: SessionTerms;
  /** BM25 over turns and over memories. */
  turnTerms: TermIndex;
  memoryTerms: TermIndex;
  /** Memory rowid → what ranking reads of it; only the memories a result shows are read whole. */
  memoryHeads: Map<number, MemoryHead>;
  /** Memory id → rowid. */
  memoryRowid: Map<string, number>;
  /** Tallied attribute (`expense:coffee`, `log:steps`) → the rowids of its entries (tally.ts). */
  tallies: Map<string, Set<number>>;
  /** The rowids of task memories (`todo:` plans), open or closed (open-tasks.ts). */
  tasks: Set<number>;
  /** Memory id → the links touching it. */
  links: Map<string, Link[]>;
  /**
   * Memory id → every member of its occurrence group's chain (itself included;
   * one array shared by the members): memories of one group joined by
   * `complements` links. Memories in no chain have no entry.
   */
  groups: Map<string, string[]>;
  /** Turn rowid → session id. */
  turnSession: Map<number, string>;
  /** Turn rowid → position in its session. */
  turnPosition: Map<number, number>;
  /** The namespace's sessions in timeline order, and by id; dropped on every write. */
  sessionRows?: SessionRow[];
  sessionById?: Map<string, SessionRow>;
}

export function emptyIndex(): NamespaceIndex {
  return {
    centroids: new SessionVectors(),
    terms: new SessionTerms(),
    turnTerms: new TermIndex(),
    memoryTerms: new TermIndex(),
    memoryHeads: new Map(),
    memoryRowid: new Map(),
    tallies: new Map(),
    tasks: new Set(),
    links: new Map(),
    groups: new Map(),
    turnSession: new Map(),
    turnPosition: new Map(),
  };
}

/** A memory's entries in the namespace's in-process indexes: its terms and its ranking fields. */
export function indexMemory(index: NamespaceIndex, rowid: number, m: Memory): void {
  const task = m.kind === "plan" && isTask(m.attribute);
  // Tasks ("I need to …") are read by the open-tasks view only: as votes in the ranking they are
  // chat ("I need to check that"), and their turns are searchable anyway.
  if (!task) index.memoryTerms.add(rowid, memorySearchText(m));
  index.memoryHeads.set(rowid, memoryHead(m, rowid));
  index.memoryRowid.set(m.id, rowid);
  if (task) index.tasks.add(rowid);
  if (talliedAttribute(m)) {
    const entries = index.tallies.get(m.attribute);
    if (entries) entries.add(rowid);
    else index.tallies.set(m.attribute, new Set([rowid]));
  }
}

/** Where a turn sits: its session and position, for ranking and for reading the turns a bundle shows. */
export function indexTurnPlace(
  index: NamespaceIndex,
  rowid: number,
  t: Pick<StoredTurn, "sessionId" | "position">,
): void {
  index.turnSession.set(rowid, t.sessionId);
  index.turnPosition.set(rowid, t.position);
}

/** The head of the memory with this id. */
function headOf(index: NamespaceIndex, id: string): MemoryHead | undefined {
  const rowid = index.memoryRowid.get(id);
  return rowid === undefined ? undefined : index.memoryHeads.get(rowid);
}

/**
 * A link in the namespace's in-process index, under both of its ends; a link
 * already held is ignored. Index both memories first: a `complements` link
 * within one occurrence group joins their chains.
 */
export function indexLink(index: NamespaceIndex, link: Link): void {
  for (const end of link.from === link.to ? [link.from] : [link.from, link.to]) {
    const list = index.links.get(end);
    if (!list) index.links.set(end, [link]);
    else if (!list.some((l) => l.from === link.from && l.to === link.to && l.relation === link.relation))
      list.push(link);
  }
  if (link.relation === "complements" && link.from !== link.to && sameGroup(index, link.from, link.to)) {
    joinChains(index, link.from, link.to);
  }
}

function sameGroup(index: NamespaceIndex, a: string, b: string): boolean {
  const ha = headOf(index, a);
  return ha !== undefined && ha.group === headOf(index, b)?.group;
}

/** Merges the chains of two memories, the smaller into the larger. */
function joinChains(index: NamespaceIndex, a: string, b: string): void {
  const ga = index.groups.get(a) ?? [a];
  const gb = index.groups.get(b) ?? [b];
  if (ga === gb) return;
  const [large, small] = ga.length >= gb.length ? [ga, gb] : [gb, ga];
  for (const id of small) {
    large.push(id);
    index.groups.set(id, large);
  }
  for (const id of large) if (!index.groups.has(id)) index.groups.set(id, large);
}

/** The members of a memory's occurrence chain, itself included. */
export function chainOf(index: NamespaceIndex, id: string): readonly string[] {
  return index.groups.get(id) ?? [id];
}

/** The distinct links touching any of the memories, in (from, to, relation) order. */
export function linksOf(index: NamespaceIndex, ids: readonly string[]): Link[] {
  const out = new Map<string, Link>();
  for (const id of ids)
    for (const l of index.links.get(id) ?? []) out.set(`${l.from}\u0000${l.to}\u0000${l.relation}`, l);
  return [...out.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, l]) => l);
}

/**
 * The links touching these memories as if every pair were linked: what a
 * reader of one memory's links needs, now that a group is stored as a chain
 * (resolve.ts). For each memory: a `complements` link with every other member
 * of its chain, and for a `complements` or `conditional` link from any member
 * of its chain to another group, one with every member of that group's chain;
 * each directed from the later memory (by seq) to the earlier, as written.
 * `supersedes` and `contradicts` links are the memory's own. Sorted as `linksOf`.
 */
export function groupLinksOf(index: NamespaceIndex, ids: readonly string[]): Link[] {
  const out = new Map<string, Link>();
  const seqOf = (id: string) => headOf(index, id)?.seq ?? -1;
  const pair = (a: string, b: string, relation: Link["relation"]) => {
    const [from, to] = seqOf(a) >= seqOf(b) ? [a, b] : [b, a];
    out.set(`${from}\u0000${to}\u0000${relation}`, { from, to, relation });
  };
  for (const id of ids) {
    const chain = chainOf(index, id);
    for (const member of chain) {
      if (member !== id) pair(id, member, "complements");
      for (const l of index.links.get(member) ?? []) {
        if (l.relation === "supersedes" || l.relation === "contradicts") {
          if (member === id) out.set(`${l.from}\u0000${l.to}\u0000${l.relation}`, l);
          continue;
        }
        const other = l.from === member ? l.to : l.from;
        const otherChain = chainOf(index, other);
        // A link inside the chain is the chain itself, paired above.
        if (otherChain === chain || other === member) continue;
        for (const y of otherChain) pair(id, y, l.relation);
      }
    }
  }
  return [...out.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([, l]) => l);
}

/** The heads of the memories with these ids, in write order. */
export function headsById(index: NamespaceIndex, ids: readonly string[]): MemoryHead[] {
  const out: MemoryHead[] = [];
  for (const id of new Set(ids)) {
    const rowid = index.memoryRowid.get(id);
    const head = rowid === undefined ? undefined : index.memoryHeads.get(rowid);
    if (head) out.push(head);
  }
  return out.sort((a, b) => a.seq - b.seq);
}
