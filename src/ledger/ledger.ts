/**
 * The ledger: a memory engine over one SQLite file. `add` keeps every raw turn,
 * extracts memories, resolves each against the same subject's same attribute and
 * writes it all in one transaction; `search` runs the hybrid pipeline of
 * search.ts. Namespaces isolate users or episodes inside one store.
 */
import type { Embedder } from "../embed/types.ts";
import { lexicalTokens } from "../text/tokenize.ts";
import { KeyedQueue } from "../util/keyed-queue.ts";
import { log } from "../util/log.ts";
import { LedgerConflictError, LedgerLimitError } from "./errors.ts";
import {
  EXPORT_PAGE,
  type ExportPart,
  exportedSession,
  exportParts,
  type ImportCounts,
  JsonWriter,
} from "./export-format.ts";
import { OfflineExtractor } from "./extract/offline.ts";
import type { Extractor } from "./extract/types.ts";
import { normaliseTime, stableId } from "./ids.ts";
import { emptyIndex, indexLink, indexMemory, indexTurnPlace, type NamespaceIndex } from "./namespace-index.ts";
import type { QueryRewriter } from "./query-rewrite.ts";
import { type RelationProposer, resolve, ruleProposer } from "./resolve.ts";
import { DEFAULT_RETRIEVAL, type RetrievalParams, type RetrievalWeights } from "./retrieval-params.ts";
import { searchLedger } from "./search.ts";
import { Slices } from "./slices.ts";
import { LedgerStore, memoryHead } from "./store.ts";
import type {
  Hit,
  LedgerExport,
  LedgerSessionInput,
  Link,
  Memory,
  MemoryDraft,
  SearchOptions,
  StoredTurn,
} from "./types.ts";
import { validAt } from "./validity.ts";
import { centroid, VectorIndex } from "./vector-index.ts";

export interface LedgerOptions {
  /** SQLite file; ":memory:" (the default) keeps the store in memory. */
  path?: string;
  /** Without one, search is lexical only. */
  embedder?: Embedder;
  /** Default: the offline rule-based extractor. */
  extractor?: Extractor;
  /** Default: the rule-based relation proposer. */
  proposer?: RelationProposer;
  /** Rewrites each query into extra searches (a model's; off when absent). */
  rewriter?: QueryRewriter;
  /** Overrides of DEFAULT_RETRIEVAL; `weights` may name only the weights it changes. */
  retrieval?: Partial<Omit<RetrievalParams, "weights">> & { weights?: Partial<RetrievalWeights> };
  /** Texts per embedder call (default 64). */
  embedBatch?: number;
  /**
   * When the extractor or relation proposer fails (a model endpoint down, a reply
   * that cannot be used): `throw` (default) writes nothing, so a run counts the
   * unit as failed; `keep-turns` (the service) stores the turns without
   * memories and says why in `AddResult.extractionError`.
   */
  onExtractionError?: "throw" | "keep-turns";
  /** Bounds on one write's work, each refused with a `LedgerLimitError`; none by default (`membench serve` sets them). */
  limits?: LedgerLimits;
}

export interface LedgerLimits {
  /** Characters of one turn's content (as JavaScript counts them); checked before any work. */
  turnChars?: number;
  /** Characters of turn content one session may hold (each write re-reads its session's transcript); checked before any work. */
  sessionChars?: number;
  /** New memories one write may give (resolving them grows with their square); checked as they are resolved, before anything is written. */
  memoriesPerWrite?: number;
}

export interface AddResult {
  turns: number;
  memories: Memory[];
  links: Link[];
  /** With `onExtractionError: "keep-turns"`: why this session's turns were stored without memories. */
  extractionError?: string;
}

interface Planned {
  created: Memory[];
  changed: Map<string, Memory>;
  links: Link[];
}

function transcript(turns: readonly StoredTurn[]): string {
  return turns.map((t) => `${t.speaker ?? t.role}: ${t.content}`).join("\n");
}

/** The rows of `ids` in that order, without their rowids; ids with no row are skipped. */
function inOrder<T extends { rowid: number }>(
  ids: readonly number[],
  rows: ReadonlyMap<number, T>,
): Array<Omit<T, "rowid">> {
  return ids.flatMap((id) => {
    const row = rows.get(id);
    if (!row) return [];
    const { rowid: _r, ...rest } = row;
    return [rest];
  });
}

export class Ledger {
  readonly store: LedgerStore;
  private readonly embedder?: Embedder;
  private readonly extractor: Extractor;
  private readonly proposer: RelationProposer;
  private readonly rewriter?: QueryRewriter;
  private readonly onExtractionError: "throw" | "keep-turns";
  private readonly params: RetrievalParams;
  private readonly batch: number;
  private readonly indexes = new Map<string, NamespaceIndex>();
  private readonly writes = new KeyedQueue();
  /** Namespaces being imported: hidden until the last part is in. */
  private readonly importing = new Set<string>();
  /** Bounds on one write's work (none by default). */
  readonly limits: Readonly<LedgerLimits>;

  constructor(options: LedgerOptions = {}) {
    this.store = new LedgerStore(options.path ?? ":memory:");
    this.embedder = options.embedder;
    this.extractor = options.extractor ?? new OfflineExtractor();
    this.proposer = options.proposer ?? ruleProposer;
    if (options.rewriter) this.rewriter = options.rewriter;
    this.onExtractionError = options.onExtractionError ?? "throw";
    this.params = {
      ...DEFAULT_RETRIEVAL,
      ...options.retrieval,
      weights: { ...DEFAULT_RETRIEVAL.weights, ...options.retrieval?.weights },
    };
    this.batch = options.embedBatch ?? 64;
    this.limits = options.limits ?? {};
    // An import cut short by the process stopping left part of a namespace that was empty before it.
    for (const ns of this.store.unfinishedImports()) {
      log.warn(`ledger: namespace "${ns}" was being imported when the process stopped; its partial import is dropped`);
      this.store.dropNamespace(ns);
      this.store.markImport(ns, false);
    }
  }

  close(): void {
    this.store.close();
  }

  /** Names of the store's namespaces, sorted. */
  namespaces(): string[] {
    return this.store.namespaceNames().filter((ns) => !this.importing.has(ns));
  }

  /** Whether the namespace exists (one being imported does not, until its last part is in). */
  has(ns: string): boolean {
    return this.store.namespaceId(ns, false) !== undefined && !this.importing.has(ns);
  }

  /** Creates the namespace if needed. */
  open(ns: string): void {
    this.store.namespaceId(ns, true);
  }

  /** Deletes a namespace and everything in it (forgetting retires; this erases). */
  drop(ns: string): void {
    this.store.dropNamespace(ns);
    this.indexes.delete(ns);
  }

  /**
   * Texts are embedded whole, as the retrieval baselines embed them: a turn gets the
   * same vector (and cache entry) here as in `dense` and `hybrid`.
   */
  private async embed(texts: string[], slices = new Slices()): Promise<Float32Array[]> {
    if (!this.embedder || !texts.length) return [];
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += this.batch) {
      out.push(...(await this.embedder.embed(texts.slice(i, i + this.batch))));
      await slices.tick();
    }
    return out;
  }

  /** The namespace's in-process vector indexes, loaded from the store on first use. */
  private index(ns: string): NamespaceIndex {
    let idx = this.indexes.get(ns);
    if (idx) return idx;
    // Vectors of another model cannot be compared with this one's queries (nor share its index).
    const stored = this.store.embedderOf(ns);
    if (this.embedder && stored && stored !== this.embedder.id) {
      throw new LedgerConflictError(
        `namespace "${ns}" holds ${stored} vectors; this ledger embeds with ${this.embedder.id}: open it with ${stored}, or with no embedder for lexical search`,
      );
    }
    idx = emptyIndex();
    // One read of the namespace's turns serves the term counts, the transcripts and the centroids.
    const bySession = new Map<string, Array<StoredTurn & { rowid: number }>>();
    for (const t of this.store.allTurns(ns)) {
      idx.turnTerms.add(t.rowid, t.content);
      indexTurnPlace(idx, t.rowid, t);
      const list = bySession.get(t.sessionId);
      if (list) list.push(t);
      else bySession.set(t.sessionId, [t]);
    }
    for (const m of this.store.allMemories(ns)) indexMemory(idx, m.rowid, m);
    for (const l of this.store.allLinks(ns)) indexLink(idx, l);
    const sessions = this.store.sessions(ns);
    for (const s of sessions) this.indexSession(idx, s.id, bySession.get(s.id) ?? []);
    const dim = this.embedder?.dim;
    if (dim) {
      const turnVectors = this.store.vectors(ns, "turns");
      const memoryVectors = this.store.vectors(ns, "memories");
      if (turnVectors.length || memoryVectors.length) {
        idx.turns = new VectorIndex(dim);
        idx.memories = new VectorIndex(dim);
        for (const v of turnVectors) idx.turns.add(v.rowid, v.vector);
        for (const v of memoryVectors) idx.memories.add(v.rowid, v.vector);
        for (const s of sessions) this.refreshCentroid(idx, s.id, bySession.get(s.id) ?? []);
      }
    }
    this.indexes.set(ns, idx);
    return idx;
  }

  /** A written session's transcript and centroid, from one read of its turns. */
  private reindexSession(ns: string, idx: NamespaceIndex, sessionId: string): void {
    const turns = this.store.turnsOfSession(ns, sessionId);
    this.refreshCentroid(idx, sessionId, turns);
    this.indexSession(idx, sessionId, turns);
  }

  private indexSession(idx: NamespaceIndex, sessionId: string, turns: readonly StoredTurn[]): void {
    const text = transcript(turns);
    idx.terms.upsert(sessionId, text);
  }

  private refreshCentroid(idx: NamespaceIndex, sessionId: string, turns: ReadonlyArray<{ rowid: number }>): void {
    if (!idx.turns) return;
    const vectors = turns.map((t) => idx.turns!.get(t.rowid)).filter((v): v is Float32Array => v !== undefined);
    const c = centroid(vectors);
    if (c) idx.centroids.set(sessionId, c);
  }

  /** Stores a session's turns (all of it, or the next part), extracts and resolves memories. */
  add(ns: string, input: LedgerSessionInput): Promise<AddResult> {
    // One write per namespace at a time: a write yields while it works, and plans against what the last one wrote.
    return this.writes.run(ns, () => this.write(ns, input));
  }

  private async write(ns: string, input: LedgerSessionInput): Promise<AddResult> {
    const ids = new Set<string>();
    for (const t of input.turns) {
      // A repeated id would overwrite its own turn and leave memories of the text it lost.
      if (ids.has(t.id)) throw new Error(`session "${input.sessionId}": duplicate turn id "${t.id}"`);
      ids.add(t.id);
    }
    const known = this.has(ns) ? this.store.session(ns, input.sessionId) : undefined;
    const existingTurns = known ? this.store.turnsOfSession(ns, input.sessionId) : [];
    this.checkSize(input, existingTurns);
    this.open(ns);
    // Loaded first: a namespace of another embedder is refused before any model call or embedding.
    const idx = this.index(ns);
    const sessionTime = normaliseTime(input.time) ?? known?.time;
    const positions = new Map(existingTurns.map((t) => [t.id, t.position]));
    // A re-sent turn keeps its rowid: its stored vector is replaced and its old terms removed.
    const before = new Map(existingTurns.map((t) => [t.rowid, t.content]));
    let nextPosition = existingTurns.length;
    const turns: StoredTurn[] = input.turns.map((t) => {
      const position = positions.get(t.id) ?? nextPosition++;
      positions.set(t.id, position);
      return {
        ...t,
        sessionId: input.sessionId,
        position,
        sessionIndex: input.sessionIndex ?? known?.index ?? 0,
        ...(t.time !== undefined ? { time: normaliseTime(t.time) ?? t.time } : {}),
      };
    });
    const slices = new Slices();
    let planned: Planned;
    let extractionError: string | undefined;
    try {
      planned = await this.plan(ns, input, turns, sessionTime, slices);
    } catch (error) {
      if (this.onExtractionError !== "keep-turns" || error instanceof LedgerLimitError) throw error;
      // The raw turns are kept whatever the model did; re-sending them later extracts again.
      extractionError = (error as Error).message;
      log.warn(`ledger: session "${input.sessionId}" stored without memories: ${extractionError}`);
      planned = { created: [], changed: new Map(), links: [] };
    }
    const { created, changed, links } = planned;

    const turnVectors = await this.embed(
      turns.map((t) => t.content),
      slices,
    );
    const memoryVectors = await this.embed(
      created.map((m) => m.text),
      slices,
    );
    // The text is tokenised before the transaction, a slice at a time, so indexing after it only files tokens.
    const rowidOf = new Map(existingTurns.map((t) => [t.id, t.rowid]));
    const turnTokens: string[][] = [];
    const replacedTokens = new Map<number, string[]>();
    for (const t of turns) {
      turnTokens.push(lexicalTokens(t.content));
      const rowid = rowidOf.get(t.id);
      const old = rowid === undefined ? undefined : before.get(rowid);
      if (rowid !== undefined && old !== undefined && old !== t.content) replacedTokens.set(rowid, lexicalTokens(old));
      await slices.tick();
    }
    const lines = new Map<number, StoredTurn>(existingTurns.map((t) => [t.position, t]));
    for (const t of turns) lines.set(t.position, t);
    const transcriptTokens: string[] = [];
    for (const position of [...lines.keys()].sort((a, b) => a - b)) {
      const t = lines.get(position)!;
      for (const token of lexicalTokens(transcript([t]))) transcriptTokens.push(token);
      await slices.tick();
    }
    // The in-process indexes change only once the transaction has committed.
    const turnRows: Array<[number, StoredTurn]> = [];
    const memoryRows: Array<[number, Memory]> = [];
    const changedRows: Array<[number, Memory]> = [];
    this.store.transaction(() => {
      this.store.upsertSession(ns, input.sessionId, input.sessionIndex, sessionTime);
      if (this.embedder && (turnVectors.length || memoryVectors.length)) {
        this.store.vectorSpace(ns, this.embedder.id, this.embedder.dim || (turnVectors[0] ?? memoryVectors[0])!.length);
      }
      turns.forEach((t, i) => {
        const rowid = this.store.putTurn(ns, t);
        turnRows.push([rowid, t]);
        const v = turnVectors[i];
        if (v) {
          this.store.putVector(ns, "turns", rowid, v, before.has(rowid));
          idx.turns ??= new VectorIndex(v.length);
          idx.turns.add(rowid, v);
        }
      });
      created.forEach((m, i) => {
        const rowid = this.store.insertMemory(m);
        memoryRows.push([rowid, m]);
        const v = memoryVectors[i];
        if (v) {
          this.store.putVector(ns, "memories", rowid, v);
          idx.memories ??= new VectorIndex(v.length);
          idx.memories.add(rowid, v);
        }
      });
      for (const m of changed.values()) {
        const rowid = this.store.updateMemory(m);
        if (rowid !== undefined) changedRows.push([rowid, m]);
      }
      for (const l of links) this.store.addLink(ns, l);
    });
    const sessionRowids = new Map(existingTurns.map((t) => [t.position, t.rowid]));
    turnRows.forEach(([rowid, t], i) => {
      if (before.get(rowid) !== t.content) idx.turnTerms.addTokens(rowid, turnTokens[i]!, replacedTokens.get(rowid));
      indexTurnPlace(idx, rowid, t);
      sessionRowids.set(t.position, rowid);
    });
    for (const [rowid, m] of memoryRows) indexMemory(idx, rowid, m);
    for (const [rowid, m] of changedRows) idx.memoryHeads.set(rowid, memoryHead(m, rowid));
    for (const l of links) indexLink(idx, l);
    idx.terms.upsertTokens(input.sessionId, transcriptTokens);
    this.refreshCentroid(
      idx,
      input.sessionId,
      [...sessionRowids.entries()].sort((a, b) => a[0] - b[0]).map(([, rowid]) => ({ rowid })),
    );
    idx.sessionRows = undefined;
    idx.sessionById = undefined;
    return { turns: turns.length, memories: created, links, ...(extractionError ? { extractionError } : {}) };
  }

  /** Refuses a write with a turn or a session over the limits, before any work. */
  private checkSize(input: LedgerSessionInput, existing: readonly StoredTurn[]): void {
    const { turnChars, sessionChars } = this.limits;
    if (turnChars !== undefined) {
      const i = input.turns.findIndex((t) => t.content.length > turnChars);
      if (i >= 0) {
        throw new LedgerLimitError(
          `turns[${i}].content: ${input.turns[i]!.content.length} characters; the limit is ${turnChars} per turn`,
          `turns[${i}].content`,
          turnChars,
        );
      }
    }
    if (sessionChars === undefined) return;
    const resent = new Set(input.turns.map((t) => t.id));
    let total = 0;
    for (const t of existing) if (!resent.has(t.id)) total += t.content.length;
    for (const t of input.turns) total += t.content.length;
    if (total > sessionChars) {
      throw new LedgerLimitError(
        `turns: session "${input.sessionId}" would hold ${total} characters of turns; the limit is ${sessionChars} per session (start a new session)`,
        "turns",
        sessionChars,
      );
    }
  }

  /** The memories a session's turns give, resolved against the store and each other; nothing is written. */
  private async plan(
    ns: string,
    input: LedgerSessionInput,
    turns: readonly StoredTurn[],
    sessionTime: string | undefined,
    slices: Slices,
  ): Promise<Planned> {
    const drafts = await this.extractor.extract({ sessionId: input.sessionId, time: sessionTime, turns: input.turns });
    const turnTime = new Map(turns.map((t) => [t.id, t.time]));

    // Resolution runs on an in-memory view so drafts of this batch see each other before anything is written.
    const slots = new Map<string, Memory[]>();
    const changed = new Map<string, Memory>();
    const created: Memory[] = [];
    const links: Link[] = [];
    let seq = this.store.memoryCount(ns);
    const createdIds = new Set<string>();
    for (const draft of drafts) {
      const memory = this.toMemory(
        ns,
        input.sessionId,
        draft,
        turnTime.get(draft.turnIds[0] ?? "") ?? sessionTime,
        seq,
      );
      if (createdIds.has(memory.id) || this.store.memory(ns, memory.id)) continue;
      if (createdIds.size === this.limits.memoriesPerWrite) {
        throw new LedgerLimitError(
          `turns: the extractor read more than ${createdIds.size} new memories from this write of session "${input.sessionId}"; the limit is ${createdIds.size} per write (send its turns in smaller parts)`,
          "turns",
          createdIds.size,
        );
      }
      createdIds.add(memory.id);
      seq++;
      const key = `${memory.subject}\u0000${memory.attribute}`;
      const slot =
        slots.get(key) ?? this.store.slot(ns, memory.subject, memory.attribute).map(({ rowid: _r, ...m }) => m);
      const plan = await resolve(
        memory,
        slot.map((m) => changed.get(m.id) ?? m),
        this.proposer,
      );
      for (const u of plan.updated) changed.set(u.id, u);
      created.push(plan.incoming);
      links.push(...plan.links);
      slots.set(key, [...slot.map((m) => changed.get(m.id) ?? m), plan.incoming]);
      await slices.tick();
    }
    return { created, changed, links };
  }

  private toMemory(ns: string, sessionId: string, d: MemoryDraft, told: string | undefined, seq: number): Memory {
    const value = d.negated && !d.value.startsWith("not ") ? `not ${d.value}` : d.value;
    const validFrom = normaliseTime(d.validFrom) ?? told;
    const m: Memory = {
      id: stableId("m", ns, sessionId, d.turnIds.join(","), d.subject, d.attribute, value),
      ns,
      subject: d.subject,
      kind: d.kind,
      attribute: d.attribute,
      value,
      text: d.text,
      sessionId,
      turnIds: d.turnIds,
      status: "active",
      canonical: true,
      seq,
    };
    if (d.condition) m.condition = d.condition;
    if (validFrom) m.validFrom = validFrom;
    const validTo = normaliseTime(d.validTo);
    if (validTo) m.validTo = validTo;
    if (told) m.recordedAt = told;
    return m;
  }

  /** Ranked hits for a query; `at` ranks memories by what was valid then. */
  async search(ns: string, query: string, options: SearchOptions = {}): Promise<Hit[]> {
    if (!this.has(ns)) return [];
    const k = options.k ?? 10;
    const at = normaliseTime(options.at);
    const rewritten = this.rewriter && query.trim() ? await this.rewriter.rewrite(query, at) : [];
    // The query and its rewrites are embedded in one call.
    const vectors = this.embedder && query.trim() ? await this.embed([query, ...rewritten]) : [];
    const [queryVector] = vectors;
    const rewrites = rewritten.map((text, i) => ({ text, ...(vectors[i + 1] ? { vector: vectors[i + 1] } : {}) }));
    return searchLedger(
      this.store,
      this.index(ns),
      {
        ns,
        text: query,
        k,
        at,
        ...(queryVector ? { queryVector } : {}),
        ...(rewrites.length ? { rewrites } : {}),
      },
      this.params,
    );
  }

  /**
   * Exact-wording lookup over raw turns with an FTS5 query (quoted phrases,
   * prefix*, AND/OR/NOT, NEAR), best bm25 first. `search` ranks with the
   * in-process term index; this reads the store's FTS5 table.
   */
  findTurns(ns: string, match: string, limit = 20): StoredTurn[] {
    const ids = this.fullText(ns, "turns", match, limit);
    return inOrder(ids, this.store.turnsByRowid(ids));
  }

  /** As `findTurns`, over memories (their text, condition, attribute and subject). */
  findMemories(ns: string, match: string, limit = 20): Memory[] {
    const ids = this.fullText(ns, "memories", match, limit);
    return inOrder(ids, this.store.memoriesByRowid(ids));
  }

  private fullText(ns: string, table: "turns" | "memories", match: string, limit: number): number[] {
    try {
      return this.store.lexical(ns, table, match, limit).map((r) => r.rowid);
    } catch (e) {
      throw new Error(`invalid full-text query ${JSON.stringify(match)}: ${(e as Error).message}`);
    }
  }

  /** Synchronous search with a precomputed query vector (for latency measurements). */
  searchWithVector(
    ns: string,
    query: string,
    queryVector: Float32Array | undefined,
    options: SearchOptions & { only?: ReadonlySet<string> } = {},
  ): Hit[] {
    return searchLedger(
      this.store,
      this.index(ns),
      {
        ns,
        text: query,
        k: options.k ?? 10,
        at: normaliseTime(options.at),
        ...(queryVector ? { queryVector } : {}),
        ...(options.only ? { only: options.only } : {}),
      },
      this.params,
    );
  }

  /**
   * The memories of one subject and attribute that hold at `at` (default: now,
   * meaning the standing versions), canonical ones first.
   */
  current(ns: string, subject: string, attribute: string, at?: string): Memory[] {
    const when = normaliseTime(at);
    return this.store
      .versions(ns, subject, attribute)
      .map(({ rowid: _r, ...m }) => m)
      .filter((m) => validAt(m, when))
      .sort((a, b) => Number(b.canonical) - Number(a.canonical) || a.seq - b.seq);
  }

  get(ns: string, id: string): Memory | undefined {
    const m = this.store.memory(ns, id);
    if (!m) return undefined;
    const { rowid: _r, ...memory } = m;
    return memory;
  }

  /** Every version of the memory's subject and attribute (linked or not), oldest first, retired ones included. */
  history(ns: string, id: string): Memory[] {
    const m = this.get(ns, id);
    if (!m) return [];
    const seen = new Set<string>([m.id]);
    const queue = [m.id];
    while (queue.length) {
      const links = this.store.linksOf(ns, queue.splice(0));
      for (const l of links) {
        for (const next of [l.from, l.to]) {
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
    }
    const slot = this.store.allMemories(ns).filter((x) => x.subject === m.subject && x.attribute === m.attribute);
    for (const x of slot) seen.add(x.id);
    return this.store
      .memoriesByIds(ns, [...seen])
      .map(({ rowid: _r, ...x }) => x)
      .sort((a, b) => (a.validFrom ?? "").localeCompare(b.validFrom ?? "") || a.seq - b.seq);
  }

  /** Retires a memory: search no longer shows it; history still does. */
  forget(ns: string, id: string, at?: string): Memory | undefined {
    const m = this.get(ns, id);
    if (!m) return undefined;
    const retired: Memory = {
      ...m,
      status: "retired",
      retiredAt: normaliseTime(at) ?? new Date().toISOString(),
    };
    const rowid = this.store.transaction(() => this.store.updateMemory(retired));
    const idx = this.indexes.get(ns);
    if (idx && rowid !== undefined) idx.memoryHeads.set(rowid, memoryHead(retired, rowid));
    return retired;
  }

  links(ns: string, id: string): Link[] {
    return this.store.linksOf(ns, [id]);
  }

  export(ns: string): LedgerExport {
    return {
      format: "membench-ledger",
      version: 1,
      ns,
      sessions: this.store.sessions(ns).map(exportedSession),
      turns: this.store.allTurns(ns).map(({ rowid: _r, ...t }) => t),
      memories: this.store.allMemories(ns).map(({ rowid: _r, ...m }) => m),
      links: this.store.allLinks(ns),
    };
  }

  /**
   * The namespace's export as JSON text, the same as `JSON.stringify(export(ns))`,
   * read and handed to `write` a page at a time (the service streams it: a
   * namespace has no size limit, so neither has its export). Writes to the
   * namespace wait until it is done, so the export is one state of it.
   */
  exportTo(ns: string, write: (chunk: string) => void | Promise<void>): Promise<void> {
    return this.writes.run(ns, async () => {
      const out = new JsonWriter(write);
      const slices = new Slices();
      const head = JSON.stringify({ format: "membench-ledger", version: 1, ns });
      await out.text(`${head.slice(0, -1)},"sessions":[`);
      const sessions = this.store.sessions(ns);
      for (const s of sessions) await out.item(exportedSession(s));
      await out.text('],"turns":[');
      for (const s of sessions) {
        for (const { rowid: _r, ...t } of this.store.turnsOfSession(ns, s.id)) await out.item(t);
        await slices.tick();
      }
      await out.text('],"memories":[');
      for (let page = this.store.memoriesPage(ns, undefined, EXPORT_PAGE); page.length; ) {
        for (const { rowid: _r, ...m } of page) await out.item(m);
        const last = page.at(-1)!;
        page = this.store.memoriesPage(ns, last, EXPORT_PAGE);
        await slices.tick();
      }
      await out.text('],"links":[');
      for (let page = this.store.linksPage(ns, undefined, EXPORT_PAGE); page.length; ) {
        for (const l of page) await out.item(l);
        page = this.store.linksPage(ns, page.at(-1), EXPORT_PAGE);
        await slices.tick();
      }
      await out.text("]}");
      await out.flush();
    });
  }

  /** Loads an export into `ns` (which must be empty) exactly as it was: no re-extraction, vectors recomputed. */
  async import(ns: string, data: LedgerExport): Promise<void> {
    if (data?.format !== "membench-ledger" || data.version !== 1)
      throw new Error("not a membench-ledger export (version 1)");
    await this.importParts(ns, exportParts(data));
  }

  /**
   * Loads an export given in parts into `ns` (which must be empty), exactly as
   * it was: no re-extraction, vectors recomputed. Each part is written in a
   * transaction of its own, yielding between them, so an import of any size
   * holds nothing else up; the namespace is hidden until the last part is in,
   * and dropped if a part fails (or the process stops: the next open drops it).
   */
  importParts(ns: string, parts: AsyncIterable<ExportPart>): Promise<ImportCounts> {
    return this.writes.run(ns, async () => {
      if (this.has(ns) && this.store.sessions(ns).length)
        throw new LedgerConflictError(`namespace "${ns}" is not empty; import into an empty one`);
      this.importing.add(ns);
      this.store.markImport(ns, true);
      try {
        const counts = await this.loadParts(ns, parts);
        this.store.markImport(ns, false);
        return counts;
      } catch (error) {
        this.drop(ns);
        this.store.markImport(ns, false);
        throw error;
      } finally {
        this.importing.delete(ns);
      }
    });
  }

  private async loadParts(ns: string, parts: AsyncIterable<ExportPart>): Promise<ImportCounts> {
    this.open(ns);
    const idx = this.index(ns);
    const slices = new Slices();
    const counts: ImportCounts = { sessions: 0, turns: 0, memories: 0, links: 0 };
    // A link is indexed once both its memories are (a chain is joined by their groups).
    const pending: Link[] = [];
    for await (const part of parts) {
      if ("sessions" in part) {
        this.store.transaction(() => {
          for (const x of part.sessions) this.store.upsertSession(ns, x.id, x.index, x.time);
        });
        counts.sessions += part.sessions.length;
      } else if ("turns" in part) {
        const vectors = await this.embed(
          part.turns.map((t) => t.content),
          slices,
        );
        const tokens: string[][] = [];
        for (const t of part.turns) {
          tokens.push(lexicalTokens(t.content));
          await slices.tick();
        }
        const rows = this.store.transaction(() => {
          this.importVectorSpace(ns, vectors);
          return part.turns.map((t, i) => {
            const rowid = this.store.putTurn(ns, t);
            const v = vectors[i];
            if (v) {
              this.store.putVector(ns, "turns", rowid, v);
              idx.turns ??= new VectorIndex(v.length);
              idx.turns.add(rowid, v);
            }
            return rowid;
          });
        });
        rows.forEach((rowid, i) => {
          idx.turnTerms.addTokens(rowid, tokens[i]!);
          indexTurnPlace(idx, rowid, part.turns[i]!);
        });
        counts.turns += part.turns.length;
      } else if ("memories" in part) {
        const vectors = await this.embed(
          part.memories.map((m) => m.text),
          slices,
        );
        const rows = this.store.transaction(() => {
          this.importVectorSpace(ns, vectors);
          return part.memories.map((m, i) => {
            const rowid = this.store.insertMemory({ ...m, ns });
            const v = vectors[i];
            if (v) {
              this.store.putVector(ns, "memories", rowid, v);
              idx.memories ??= new VectorIndex(v.length);
              idx.memories.add(rowid, v);
            }
            return rowid;
          });
        });
        rows.forEach((rowid, i) => {
          indexMemory(idx, rowid, { ...part.memories[i]!, ns });
        });
        counts.memories += part.memories.length;
      } else {
        this.store.transaction(() => {
          for (const l of part.links) this.store.addLink(ns, l);
        });
        for (const l of part.links) {
          if (idx.memoryRowid.has(l.from) && idx.memoryRowid.has(l.to)) indexLink(idx, l);
          else pending.push(l);
        }
        counts.links += part.links.length;
      }
      await slices.tick();
    }
    for (const l of pending) indexLink(idx, l);
    for (const s of this.store.sessions(ns)) {
      this.reindexSession(ns, idx, s.id);
      await slices.tick();
    }
    idx.sessionRows = undefined;
    idx.sessionById = undefined;
    return counts;
  }

  /** Records the embedder of an imported namespace's vectors, once there are some. */
  private importVectorSpace(ns: string, vectors: readonly Float32Array[]): void {
    if (this.embedder && vectors.length) this.store.vectorSpace(ns, this.embedder.id, vectors[0]!.length);
  }

  /** Sessions' turns and memories, for readback. */
  sessionContents(ns: string, sessionIds: readonly string[]): { turns: StoredTurn[]; memories: Memory[] } {
    const wanted = new Set(sessionIds);
    return {
      turns: this.store
        .allTurns(ns)
        .filter((t) => wanted.has(t.sessionId))
        .map(({ rowid: _r, ...t }) => t),
      memories: this.store.memoriesOfSessions(ns, [...wanted]).map(({ rowid: _r, ...m }) => m),
    };
  }
}
