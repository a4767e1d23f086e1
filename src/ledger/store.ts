/**
 * The ledger's SQLite file: better-sqlite3 (WAL for files), FTS5 for lexical
 * search, sqlite-vec for stored vectors. Rows in, rows out; ranking lives in
 * search.ts and write logic in ledger.ts.
 */
import { randomUUID } from "node:crypto";
import Database from "better-sqlite3";
import * as sqliteVec from "sqlite-vec";
import { LedgerConflictError } from "./errors.ts";
import { occurrenceGroup } from "./resolve.ts";
import { BASE_SCHEMA, FTS_TOKENIZER, namespaceTables, SCHEMA_VERSION, vectorTables } from "./schema.ts";
import type { Link, Memory, MemoryKind, MemoryStatus, Relation, StoredTurn } from "./types.ts";

type Row = Record<string, unknown>;

export interface SessionRow {
  id: string;
  index: number;
  seq: number;
  time?: string;
}

function str(v: unknown): string | undefined {
  return typeof v === "string" ? v : undefined;
}

function toMemory(r: Row): Memory & { rowid: number } {
  const m: Memory & { rowid: number } = {
    rowid: Number(r.rowid),
    id: String(r.id),
    ns: String(r.ns),
    subject: String(r.subject),
    kind: String(r.kind) as MemoryKind,
    attribute: String(r.attribute),
    value: String(r.value),
    text: String(r.text),
    sessionId: String(r.session_id),
    turnIds: JSON.parse(String(r.turn_ids)) as string[],
    status: String(r.status) as MemoryStatus,
    canonical: Number(r.canonical) === 1,
    seq: Number(r.seq),
  };
  const optional = {
    condition: str(r.condition),
    validFrom: str(r.valid_from),
    validTo: str(r.valid_to),
    recordedAt: str(r.recorded_at),
    retiredAt: str(r.retired_at),
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) (m as unknown as Row)[key] = value;
  return m;
}

/** What ranking reads of a memory; only the memories a result shows are read whole. */
export type MemoryHead = Pick<
  Memory,
  "id" | "subject" | "kind" | "sessionId" | "status" | "condition" | "validFrom" | "validTo" | "recordedAt" | "seq"
> & {
  rowid: number;
  /** Its occurrence group within the slot (resolve.ts), to walk a group's chain of links. */
  group: string;
};

/** A memory's head, as ranking reads it. */
export function memoryHead(m: Memory, rowid: number): MemoryHead {
  const h: MemoryHead = {
    rowid,
    id: m.id,
    subject: m.subject,
    kind: m.kind,
    sessionId: m.sessionId,
    status: m.status,
    seq: m.seq,
    group: occurrenceGroup(m),
  };
  if (m.condition !== undefined) h.condition = m.condition;
  if (m.validFrom !== undefined) h.validFrom = m.validFrom;
  if (m.validTo !== undefined) h.validTo = m.validTo;
  if (m.recordedAt !== undefined) h.recordedAt = m.recordedAt;
  return h;
}

function toTurn(r: Row): StoredTurn & { rowid: number } {
  const t: StoredTurn & { rowid: number } = {
    rowid: Number(r.rowid),
    id: String(r.turn_id),
    sessionId: String(r.session_id),
    role: String(r.role) as StoredTurn["role"],
    content: String(r.content),
    position: Number(r.position),
    sessionIndex: Number(r.idx ?? 0),
  };
  if (typeof r.speaker === "string") t.speaker = r.speaker;
  if (typeof r.time === "string") t.time = r.time;
  return t;
}

/** This process, told apart from an earlier one with the same pid (a restarted container's pid 1). */
const PROCESS = randomUUID();

/** Whether the process that marked an import is gone: not this one, and no process with its pid runs. */
function importerGone(marker: string): boolean {
  let pid: unknown;
  let process_: unknown;
  try {
    ({ pid, process: process_ } = JSON.parse(marker) as { pid: unknown; process: unknown });
  } catch {
    return true;
  }
  if (process_ === PROCESS) return false;
  if (typeof pid !== "number" || pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

function toLink(r: Row): Link {
  return { from: String(r.from_id), to: String(r.to_id), relation: String(r.relation) as Relation };
}

/** Memory fields as SQL parameters. */
function memoryParams(m: Memory): Row {
  return {
    id: m.id,
    ns: m.ns,
    subject: m.subject,
    kind: m.kind,
    attribute: m.attribute,
    value: m.value,
    condition: m.condition ?? null,
    text: m.text,
    valid_from: m.validFrom ?? null,
    valid_to: m.validTo ?? null,
    recorded_at: m.recordedAt ?? null,
    retired_at: m.retiredAt ?? null,
    session_id: m.sessionId,
    turn_ids: JSON.stringify(m.turnIds),
    status: m.status,
    canonical: m.canonical ? 1 : 0,
    seq: m.seq,
  };
}

/** The searchable fields of a memory: its text with any condition, its attribute as words, its subject. */
function memoryFields(m: Memory): { text: string; attribute: string; subject: string } {
  return {
    text: m.condition ? `${m.text} (${m.condition})` : m.text,
    attribute: m.attribute.replace(/[:_]/g, " "),
    subject: m.subject,
  };
}

/** A memory's searchable fields as one text, for the in-process term index. */
export function memorySearchText(m: Memory): string {
  const f = memoryFields(m);
  return `${f.text} ${f.attribute} ${f.subject}`;
}

export class LedgerStore {
  readonly db: Database.Database;
  private readonly ids = new Map<string, number>();
  private readonly statements = new Map<string, Database.Statement>();
  /** Rows per namespace and table, kept beside the writes so queries need no COUNT. */
  private readonly counts = new Map<string, { turns: number; memories: number }>();

  constructor(readonly path = ":memory:") {
    this.db = new Database(path);
    if (path !== ":memory:" && path !== "") this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = NORMAL");
    sqliteVec.load(this.db);
    this.db.exec(BASE_SCHEMA);
    this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)").run(String(SCHEMA_VERSION));
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }

  /** A prepared statement, compiled once per SQL text. */
  private sql(text: string): Database.Statement {
    let st = this.statements.get(text);
    if (!st) {
      st = this.db.prepare(text);
      this.statements.set(text, st);
    }
    return st;
  }

  transaction<T>(fn: () => T): T {
    return this.db.transaction(fn)();
  }

  /** The namespace's numeric id; creates it (and its search tables) when asked. */
  namespaceId(ns: string, create: boolean): number | undefined {
    const known = this.ids.get(ns);
    if (known !== undefined) return known;
    const row = this.sql("SELECT id FROM namespaces WHERE name = ?").get(ns) as Row | undefined;
    let id = row ? Number(row.id) : undefined;
    if (id === undefined && create) {
      id = Number(this.sql("INSERT INTO namespaces (name) VALUES (?)").run(ns).lastInsertRowid);
      const t = namespaceTables(id);
      this.db.exec(`
        CREATE VIRTUAL TABLE IF NOT EXISTS ${t.turns} USING fts5(content, tokenize='${FTS_TOKENIZER}');
        CREATE VIRTUAL TABLE IF NOT EXISTS ${t.memories} USING fts5(text, attribute, subject, tokenize='${FTS_TOKENIZER}');`);
    }
    if (id !== undefined) this.ids.set(ns, id);
    return id;
  }

  namespaceNames(): string[] {
    return (this.sql("SELECT name FROM namespaces ORDER BY name").all() as Row[]).map((r) => String(r.name));
  }

  /** Removes a namespace and everything in it. */
  dropNamespace(ns: string): void {
    const id = this.namespaceId(ns, false);
    if (id === undefined) return;
    const t = namespaceTables(id);
    const v = vectorTables(id);
    this.transaction(() => {
      for (const table of [`${t.turns}_vocab`, `${t.memories}_vocab`, t.turns, t.memories, v.turns, v.memories]) {
        this.db.exec(`DROP TABLE IF EXISTS ${table}`);
      }
      for (const table of ["sessions", "turns", "memories", "links"]) {
        this.sql(`DELETE FROM ${table} WHERE ns = ?`).run(ns);
      }
      this.sql("DELETE FROM namespaces WHERE id = ?").run(id);
    });
    this.ids.delete(ns);
    this.counts.delete(ns);
    // Statements naming the dropped tables must not outlive them.
    this.statements.clear();
  }

  /** Records the embedder of a namespace's vectors and creates its vector tables; a different one is an error. */
  vectorSpace(ns: string, embedder: string, dim: number): void {
    const id = this.namespaceId(ns, true)!;
    const row = this.sql("SELECT dim, embedder FROM namespaces WHERE id = ?").get(id) as Row;
    if (row.embedder === null || row.embedder === undefined) {
      this.sql("UPDATE namespaces SET dim = ?, embedder = ? WHERE id = ?").run(dim, embedder, id);
      const v = vectorTables(id);
      this.db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS ${v.turns} USING vec0(embedding float[${dim}]);
        CREATE VIRTUAL TABLE IF NOT EXISTS ${v.memories} USING vec0(embedding float[${dim}]);`);
    } else if (row.embedder !== embedder || Number(row.dim) !== dim) {
      throw new LedgerConflictError(
        `namespace "${ns}" holds ${String(row.embedder)} vectors; cannot mix in ${embedder}`,
      );
    }
  }

  /** The embedder a namespace's vectors were made with, if any were stored. */
  embedderOf(ns: string): string | undefined {
    const id = this.namespaceId(ns, false);
    if (id === undefined) return undefined;
    const row = this.sql("SELECT embedder FROM namespaces WHERE id = ?").get(id) as Row | undefined;
    return row?.embedder ? String(row.embedder) : undefined;
  }

  /** Stores the vector of a turn or memory; `replace` when the row may hold one already (a re-sent turn). */
  putVector(ns: string, table: "turns" | "memories", rowid: number, vector: Float32Array, replace = false): void {
    const name = vectorTables(this.namespaceId(ns, true)!)[table];
    // Only a re-sent turn has a vector to replace: a delete before every insert cost vec0
    // a chunk lookup for each new vector (a fifth of ingest).
    if (replace) this.sql(`DELETE FROM ${name} WHERE rowid = ?`).run(BigInt(rowid));
    this.sql(`INSERT INTO ${name} (rowid, embedding) VALUES (?, ?)`).run(
      BigInt(rowid),
      Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength),
    );
  }

  /** Every stored vector of a namespace's table, to warm the in-process index. */
  vectors(ns: string, table: "turns" | "memories"): Array<{ rowid: number; vector: Float32Array }> {
    // No embedder recorded: no vector tables were made.
    if (!this.embedderOf(ns)) return [];
    const id = this.namespaceId(ns, false)!;
    const rows = this.sql(`SELECT rowid, embedding FROM ${vectorTables(id)[table]}`).all() as Row[];
    return rows.map((r) => {
      const b = r.embedding as Buffer;
      return {
        rowid: Number(r.rowid),
        vector: new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)),
      };
    });
  }

  session(ns: string, id: string): SessionRow | undefined {
    const r = this.sql("SELECT id, idx, seq, time FROM sessions WHERE ns = ? AND id = ?").get(ns, id) as
      | Row
      | undefined;
    return r
      ? { id: String(r.id), index: Number(r.idx), seq: Number(r.seq), ...(r.time ? { time: String(r.time) } : {}) }
      : undefined;
  }

  sessions(ns: string): SessionRow[] {
    const rows = this.sql("SELECT id, idx, seq, time FROM sessions WHERE ns = ? ORDER BY idx, seq").all(ns) as Row[];
    return rows.map((r) => ({
      id: String(r.id),
      index: Number(r.idx),
      seq: Number(r.seq),
      ...(r.time ? { time: String(r.time) } : {}),
    }));
  }

  upsertSession(ns: string, id: string, index: number | undefined, time: string | undefined): SessionRow {
    const known = this.session(ns, id);
    if (known) {
      if (time && !known.time) {
        this.sql("UPDATE sessions SET time = ? WHERE ns = ? AND id = ?").run(time, ns, id);
        known.time = time;
      }
      return known;
    }
    const seq = Number((this.sql("SELECT COUNT(*) n FROM sessions WHERE ns = ?").get(ns) as Row).n);
    const row: SessionRow = { id, index: index ?? seq, seq, ...(time ? { time } : {}) };
    this.sql("INSERT INTO sessions (ns, id, idx, seq, time) VALUES (?, ?, ?, ?, ?)").run(
      ns,
      id,
      row.index,
      seq,
      time ?? null,
    );
    return row;
  }

  /** Inserts or replaces a turn (same session and turn id); returns its rowid. */
  putTurn(ns: string, turn: StoredTurn): number {
    const t = namespaceTables(this.namespaceId(ns, true)!);
    const old = this.sql("SELECT rowid FROM turns WHERE ns = ? AND session_id = ? AND turn_id = ?").get(
      ns,
      turn.sessionId,
      turn.id,
    ) as Row | undefined;
    let rowid: number;
    if (old) {
      rowid = Number(old.rowid);
      this.sql("UPDATE turns SET role = ?, speaker = ?, content = ?, time = ? WHERE rowid = ?").run(
        turn.role,
        turn.speaker ?? null,
        turn.content,
        turn.time ?? null,
        rowid,
      );
      this.sql(`DELETE FROM ${t.turns} WHERE rowid = ?`).run(rowid);
    } else {
      rowid = Number(
        this.sql(
          "INSERT INTO turns (ns, session_id, turn_id, position, role, speaker, content, time) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        ).run(
          ns,
          turn.sessionId,
          turn.id,
          turn.position,
          turn.role,
          turn.speaker ?? null,
          turn.content,
          turn.time ?? null,
        ).lastInsertRowid,
      );
      const c = this.counts.get(ns);
      if (c) c.turns++;
    }
    this.sql(`INSERT INTO ${t.turns} (rowid, content) VALUES (?, ?)`).run(rowid, turn.content);
    return rowid;
  }

  turnsOfSession(ns: string, sessionId: string): Array<StoredTurn & { rowid: number }> {
    const rows = this.sql(
      "SELECT t.*, s.idx FROM turns t JOIN sessions s ON s.ns = t.ns AND s.id = t.session_id WHERE t.ns = ? AND t.session_id = ? ORDER BY t.position",
    ).all(ns, sessionId) as Row[];
    return rows.map(toTurn);
  }

  /** The turns of a session at these positions, in order. */
  turnsAt(ns: string, sessionId: string, positions: readonly number[]): Array<StoredTurn & { rowid: number }> {
    const rows = this.sql(
      "SELECT t.*, s.idx FROM turns t JOIN sessions s ON s.ns = t.ns AND s.id = t.session_id WHERE t.ns = ? AND t.session_id = ? AND t.position IN (SELECT value FROM json_each(?)) ORDER BY t.position",
    ).all(ns, sessionId, JSON.stringify(positions)) as Row[];
    return rows.map(toTurn);
  }

  turnsByRowid(rowids: readonly number[]): Map<number, StoredTurn & { rowid: number }> {
    const out = new Map<number, StoredTurn & { rowid: number }>();
    if (!rowids.length) return out;
    const rows = this.sql(
      `SELECT t.*, s.idx FROM turns t JOIN sessions s ON s.ns = t.ns AND s.id = t.session_id WHERE t.rowid IN (SELECT value FROM json_each(?))`,
    ).all(JSON.stringify(rowids)) as Row[];
    for (const r of rows) out.set(Number(r.rowid), toTurn(r));
    return out;
  }

  allTurns(ns: string): Array<StoredTurn & { rowid: number }> {
    const rows = this.sql(
      "SELECT t.*, s.idx FROM turns t JOIN sessions s ON s.ns = t.ns AND s.id = t.session_id WHERE t.ns = ? ORDER BY s.idx, s.seq, t.position",
    ).all(ns) as Row[];
    return rows.map(toTurn);
  }

  insertMemory(m: Memory): number {
    const t = namespaceTables(this.namespaceId(m.ns, true)!);
    const rowid = Number(
      this.sql(
        `INSERT INTO memories (id, ns, subject, kind, attribute, value, condition, text, valid_from, valid_to, recorded_at, retired_at, session_id, turn_ids, status, canonical, seq)
           VALUES (@id, @ns, @subject, @kind, @attribute, @value, @condition, @text, @valid_from, @valid_to, @recorded_at, @retired_at, @session_id, @turn_ids, @status, @canonical, @seq)`,
      ).run(memoryParams(m)).lastInsertRowid,
    );
    const c = this.counts.get(m.ns);
    if (c) c.memories++;
    const fields = memoryFields(m);
    this.sql(`INSERT INTO ${t.memories} (rowid, text, attribute, subject) VALUES (?, ?, ?, ?)`).run(
      rowid,
      fields.text,
      fields.attribute,
      fields.subject,
    );
    return rowid;
  }

  /** Writes a memory's status and timeline; its rowid, or undefined if no such memory is stored. */
  updateMemory(m: Memory): number | undefined {
    const row = this.sql(
      `UPDATE memories SET status = @status, canonical = @canonical, valid_from = @valid_from, valid_to = @valid_to,
         retired_at = @retired_at WHERE id = @id AND ns = @ns RETURNING rowid`,
    ).get(memoryParams(m)) as Row | undefined;
    return row ? Number(row.rowid) : undefined;
  }

  memory(ns: string, id: string): (Memory & { rowid: number }) | undefined {
    const r = this.sql("SELECT * FROM memories WHERE ns = ? AND id = ?").get(ns, id) as Row | undefined;
    return r ? toMemory(r) : undefined;
  }

  memoriesByRowid(rowids: readonly number[]): Map<number, Memory & { rowid: number }> {
    const out = new Map<number, Memory & { rowid: number }>();
    if (!rowids.length) return out;
    const rows = this.sql("SELECT * FROM memories WHERE rowid IN (SELECT value FROM json_each(?))").all(
      JSON.stringify(rowids),
    ) as Row[];
    for (const r of rows) out.set(Number(r.rowid), toMemory(r));
    return out;
  }

  memoriesByIds(ns: string, ids: readonly string[]): Array<Memory & { rowid: number }> {
    if (!ids.length) return [];
    const rows = this.sql(
      "SELECT * FROM memories WHERE ns = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY seq",
    ).all(ns, JSON.stringify(ids)) as Row[];
    return rows.map(toMemory);
  }

  /** One subject's standing memories of one attribute (active or contested), oldest first. */
  slot(ns: string, subject: string, attribute: string): Array<Memory & { rowid: number }> {
    const rows = this.sql(
      "SELECT * FROM memories WHERE ns = ? AND subject = ? AND attribute = ? AND status IN ('active', 'contested') ORDER BY seq",
    ).all(ns, subject, attribute) as Row[];
    return rows.map(toMemory);
  }

  /** Every version of one subject's attribute that is not retired, oldest first. */
  versions(ns: string, subject: string, attribute: string): Array<Memory & { rowid: number }> {
    const rows = this.sql(
      "SELECT * FROM memories WHERE ns = ? AND subject = ? AND attribute = ? AND status != 'retired' ORDER BY seq",
    ).all(ns, subject, attribute) as Row[];
    return rows.map(toMemory);
  }

  memoriesOfSessions(ns: string, sessionIds: readonly string[]): Array<Memory & { rowid: number }> {
    const rows = this.sql(
      "SELECT * FROM memories WHERE ns = ? AND session_id IN (SELECT value FROM json_each(?)) ORDER BY seq",
    ).all(ns, JSON.stringify(sessionIds)) as Row[];
    return rows.map(toMemory);
  }

  allMemories(ns: string): Array<Memory & { rowid: number }> {
    return (this.sql("SELECT * FROM memories WHERE ns = ? ORDER BY seq, rowid").all(ns) as Row[]).map(toMemory);
  }

  /** The next `limit` memories after `after` in `allMemories` order, for reading a namespace in pages. */
  memoriesPage(
    ns: string,
    after: { seq: number; rowid: number } | undefined,
    limit: number,
  ): Array<Memory & { rowid: number }> {
    const { seq, rowid } = after ?? { seq: Number.MIN_SAFE_INTEGER, rowid: 0 };
    const rows = this.sql(
      "SELECT * FROM memories WHERE ns = @ns AND (seq > @seq OR (seq = @seq AND rowid > @rowid)) ORDER BY seq, rowid LIMIT @limit",
    ).all({ ns, seq, rowid, limit }) as Row[];
    return rows.map(toMemory);
  }

  memoryCount(ns: string): number {
    return this.rowCount(ns, "memories");
  }

  addLink(ns: string, link: Link): void {
    this.sql("INSERT OR IGNORE INTO links (ns, from_id, to_id, relation) VALUES (?, ?, ?, ?)").run(
      ns,
      link.from,
      link.to,
      link.relation,
    );
  }

  linksOf(ns: string, ids: readonly string[]): Link[] {
    if (!ids.length) return [];
    // Two indexed lookups; an OR across both columns would scan the table.
    const rows = this.sql(
      `SELECT from_id, to_id, relation FROM links WHERE ns = @ns AND from_id IN (SELECT value FROM json_each(@ids))
       UNION SELECT from_id, to_id, relation FROM links INDEXED BY links_to WHERE ns = @ns AND to_id IN (SELECT value FROM json_each(@ids))`,
    ).all({ ns, ids: JSON.stringify(ids) }) as Row[];
    return rows.map(toLink);
  }

  allLinks(ns: string): Link[] {
    const rows = this.sql(
      "SELECT from_id, to_id, relation FROM links WHERE ns = ? ORDER BY from_id, to_id, relation",
    ).all(ns) as Row[];
    return rows.map(toLink);
  }

  /** The next `limit` links after `after` in `allLinks` order, for reading a namespace in pages. */
  linksPage(ns: string, after: Link | undefined, limit: number): Link[] {
    const rows = (
      after
        ? this.sql(
            "SELECT from_id, to_id, relation FROM links WHERE ns = @ns AND (from_id, to_id, relation) > (@from, @to, @relation) ORDER BY from_id, to_id, relation LIMIT @limit",
          ).all({ ns, from: after.from, to: after.to, relation: after.relation, limit })
        : this.sql(
            "SELECT from_id, to_id, relation FROM links WHERE ns = @ns ORDER BY from_id, to_id, relation LIMIT @limit",
          ).all({ ns, limit })
    ) as Row[];
    return rows.map(toLink);
  }

  /** Namespaces whose import was cut short: the process importing them is gone. */
  unfinishedImports(): string[] {
    const rows = this.sql("SELECT key, value FROM meta WHERE key LIKE 'importing:%'").all() as Row[];
    return rows.filter((r) => importerGone(String(r.value))).map((r) => String(r.key).slice("importing:".length));
  }

  /** Marks a namespace as being imported by this process (or no longer). */
  markImport(ns: string, importing: boolean): void {
    if (importing) {
      this.sql("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(
        `importing:${ns}`,
        JSON.stringify({ pid: process.pid, process: PROCESS }),
      );
    } else this.sql("DELETE FROM meta WHERE key = ?").run(`importing:${ns}`);
  }

  rowCount(ns: string, table: "turns" | "memories"): number {
    let c = this.counts.get(ns);
    if (!c) {
      const n = (sql: string) => Number((this.sql(sql).get(ns) as Row).n);
      c = {
        turns: n("SELECT COUNT(*) n FROM turns WHERE ns = ?"),
        memories: n("SELECT COUNT(*) n FROM memories WHERE ns = ?"),
      };
      this.counts.set(ns, c);
    }
    return c[table];
  }

  /** FTS5 bm25 ranking of one namespace's table: rowids best first. */
  lexical(
    ns: string,
    table: "turns" | "memories",
    match: string,
    limit: number,
  ): Array<{ rowid: number; score: number }> {
    const id = this.namespaceId(ns, false);
    if (id === undefined || !match) return [];
    const name = namespaceTables(id)[table];
    const rows = this.sql(`SELECT rowid, bm25(${name}) AS s FROM ${name} WHERE ${name} MATCH ? ORDER BY s LIMIT ?`).all(
      match,
      limit,
    ) as Row[];
    return rows.map((r) => ({ rowid: Number(r.rowid), score: -Number(r.s) }));
  }

  bytes(): number {
    const r = this.sql("SELECT page_count * page_size AS b FROM pragma_page_count(), pragma_page_size()").get() as Row;
    return Number(r.b);
  }
}
