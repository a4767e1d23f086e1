/**
 * The run store: one SQLite file per run directory. A unit's probe records are
 * written in the same transaction that marks it done, so a crash leaves either
 * a finished unit or none of it — never half a unit counted.
 */
import Database from "better-sqlite3";
import type { ProbeRecord, UnitInfo } from "../core/record.ts";
import { type AccountingSnapshot, type CallUsage, sumUsage } from "../llm/accounting.ts";
import type { ModelRole } from "../llm/types.ts";
import { openReadOnlyDb } from "./read-only-db.ts";
import { type DecodeOptions, TEXTS_TABLE, TextTable } from "./store-texts.ts";

export const STORE_FILE = "run.sqlite";

/** Which stage spent model calls: `run` (answers, memory extraction, query rewrites) or `score` (judges). */
export type UsageStage = "run" | "score";

/** Model usage of a unit's calls in one stage, per role, summed over every process that worked on it. */
const USAGE_TABLE = `
  CREATE TABLE IF NOT EXISTS usage (
    unit TEXT NOT NULL, stage TEXT NOT NULL, role TEXT NOT NULL,
    calls INTEGER NOT NULL DEFAULT 0, cached_calls INTEGER NOT NULL DEFAULT 0, errors INTEGER NOT NULL DEFAULT 0,
    input_tokens INTEGER NOT NULL DEFAULT 0, output_tokens INTEGER NOT NULL DEFAULT 0,
    cached_input_tokens INTEGER NOT NULL DEFAULT 0, cached_output_tokens INTEGER NOT NULL DEFAULT 0,
    latency_ms REAL NOT NULL DEFAULT 0, cost_usd REAL NOT NULL DEFAULT 0, unpriced TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (unit, stage, role)
  )`;

/**
 * Units a worker pool gave up on (`run --queue`): every attempt failed, and the
 * job is kept in the queue's failed list. The unit's own row says `failed` with
 * the last error; this row says it was dead-lettered, as which job, after how many attempts.
 */
const DEAD_LETTER_TABLE = `
  CREATE TABLE IF NOT EXISTS dead_letters (
    unit TEXT PRIMARY KEY, job TEXT NOT NULL, attempts INTEGER NOT NULL, error TEXT NOT NULL, at TEXT NOT NULL
  )`;

export interface UsageRow {
  role: ModelRole;
  calls: number;
  cached_calls: number;
  errors: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cached_output_tokens: number;
  latency_ms: number;
  cost_usd: number;
  unpriced: string;
}

/** A manual correction of a scored metric (e.g. a judge verdict a person disagrees with). */
export interface Override {
  unitId: string;
  probeId: string;
  setting: string;
  metric: string;
  value: number;
  comment: string;
  at?: string;
}

export interface RunStoreOptions {
  /**
   * Read only: nothing in the run's folder is created or written (see
   * read-only-db.ts), so a read-only folder works. What readers use.
   */
  readOnly?: boolean;
}

/**
 * Creates the tables `schema` declares. Read-only, the tables an older run
 * lacks are made as empty temporary tables, so its readers see no rows there.
 */
function ensureSchema(db: Database.Database, readOnly: boolean, schema: string): void {
  if (!readOnly) {
    db.exec(schema);
    return;
  }
  const scratch = new Database(":memory:");
  let wanted: Array<{ name: string; sql: string }>;
  try {
    scratch.exec(schema);
    wanted = scratch.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table'").all() as typeof wanted;
  } finally {
    scratch.close();
  }
  const have = new Set(db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'table'").pluck().all());
  for (const t of wanted) {
    if (!have.has(t.name)) db.exec(t.sql.replace(/^CREATE TABLE/i, "CREATE TEMP TABLE"));
  }
}

/** Adds a row's counts and costs to its unit, stage and role; `unpriced` is the joined list the caller computed. */
const ADD_USAGE = `INSERT INTO usage (unit, stage, role, calls, cached_calls, errors, input_tokens, output_tokens,
    cached_input_tokens, cached_output_tokens, latency_ms, cost_usd, unpriced)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT (unit, stage, role) DO UPDATE SET
    calls = calls + excluded.calls, cached_calls = cached_calls + excluded.cached_calls,
    errors = errors + excluded.errors, input_tokens = input_tokens + excluded.input_tokens,
    output_tokens = output_tokens + excluded.output_tokens,
    cached_input_tokens = cached_input_tokens + excluded.cached_input_tokens,
    cached_output_tokens = cached_output_tokens + excluded.cached_output_tokens,
    latency_ms = latency_ms + excluded.latency_ms, cost_usd = cost_usd + excluded.cost_usd,
    unpriced = excluded.unpriced`;

/** A unit's row with its dead letter, if the worker pool gave up on it. */
const UNIT_SELECT = `SELECT u.*, d.job AS dead_job, d.attempts AS dead_attempts, d.at AS dead_at
  FROM units u LEFT JOIN dead_letters d ON d.unit = u.id`;

interface UnitRow {
  id: string;
  system: string;
  episode: string;
  state: UnitInfo["state"];
  attempts: number;
  error: string | null;
  ingest_ms: string;
  dead_job: string | null;
  dead_attempts: number | null;
  dead_at: string | null;
  started_at: string | null;
  finished_at: string | null;
}

function unitInfo(r: UnitRow): UnitInfo {
  return {
    id: r.id,
    system: r.system,
    episodeId: r.episode,
    state: r.state,
    attempts: r.attempts,
    error: r.error ?? undefined,
    ingestMs: JSON.parse(r.ingest_ms) as number[],
    ...(r.dead_job !== null
      ? { deadLetter: { job: r.dead_job, attempts: r.dead_attempts ?? 0, at: r.dead_at ?? "" } }
      : {}),
    ...(r.started_at ? { startedAt: r.started_at } : {}),
    ...(r.finished_at ? { finishedAt: r.finished_at } : {}),
  };
}

export class RunStore {
  private readonly db: Database.Database;
  private readonly release: () => void;
  private readonly texts: TextTable;
  private readonly statements = new Map<string, Database.Statement>();

  constructor(
    readonly path: string,
    options: RunStoreOptions = {},
  ) {
    const readOnly = options.readOnly ?? false;
    if (readOnly) {
      const opened = openReadOnlyDb(path);
      this.db = opened.db;
      this.release = opened.close;
    } else {
      this.db = new Database(path);
      this.release = () => this.db.close();
      this.db.pragma("journal_mode = WAL");
      this.db.pragma("synchronous = NORMAL");
    }
    ensureSchema(
      this.db,
      readOnly,
      `
      CREATE TABLE IF NOT EXISTS units (
        id TEXT PRIMARY KEY, system TEXT NOT NULL, episode TEXT NOT NULL,
        state TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 0, error TEXT,
        ingest_ms TEXT NOT NULL DEFAULT '[]', started_at TEXT, finished_at TEXT
      );
      CREATE TABLE IF NOT EXISTS probes (
        unit TEXT NOT NULL, probe TEXT NOT NULL, setting TEXT NOT NULL, record TEXT NOT NULL,
        PRIMARY KEY (unit, probe, setting)
      );
      CREATE TABLE IF NOT EXISTS scores (
        unit TEXT NOT NULL, probe TEXT NOT NULL, setting TEXT NOT NULL, record TEXT NOT NULL,
        PRIMARY KEY (unit, probe, setting)
      );
      CREATE TABLE IF NOT EXISTS overrides (
        unit TEXT NOT NULL, probe TEXT NOT NULL, setting TEXT NOT NULL, metric TEXT NOT NULL,
        value REAL NOT NULL, comment TEXT NOT NULL DEFAULT '', at TEXT NOT NULL,
        PRIMARY KEY (unit, probe, setting, metric)
      );
      ${USAGE_TABLE};
      ${TEXTS_TABLE};
      ${DEAD_LETTER_TABLE};
    `,
    );
    this.texts = new TextTable(this.db);
  }

  /** A statement prepared once per store: the ones run for every probe or call. */
  private statement(sql: string): Database.Statement {
    let s = this.statements.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.statements.set(sql, s);
    }
    return s;
  }

  /** Runs `fn` in a transaction; if it rolls back, text ids remembered during it are forgotten. */
  private write<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn)();
    } catch (error) {
      this.texts.forget();
      throw error;
    }
  }

  /** A store opened for reading only (see RunStoreOptions.readOnly). */
  static readOnly(path: string): RunStore {
    return new RunStore(path, { readOnly: true });
  }

  /** Adds units that are not there yet; existing ones keep their state. */
  plan(units: ReadonlyArray<{ id: string; system: string; episodeId: string }>): void {
    const insert = this.db.prepare(
      "INSERT OR IGNORE INTO units (id, system, episode, state) VALUES (?, ?, ?, 'pending')",
    );
    this.db.transaction(() => {
      for (const u of units) insert.run(u.id, u.system, u.episodeId);
    })();
  }

  units(): UnitInfo[] {
    return (this.db.prepare(`${UNIT_SELECT} ORDER BY u.rowid`).all() as UnitRow[]).map(unitInfo);
  }

  /** One unit, or undefined when the run has not planned it. */
  unit(id: string): UnitInfo | undefined {
    const row = this.db.prepare(`${UNIT_SELECT} WHERE u.id = ?`).get(id) as UnitRow | undefined;
    return row ? unitInfo(row) : undefined;
  }

  start(id: string): void {
    this.db
      .prepare("UPDATE units SET state = 'running', attempts = attempts + 1, started_at = ?, error = NULL WHERE id = ?")
      .run(new Date().toISOString(), id);
  }

  /** Stores a finished unit and all its records atomically, replacing any from an earlier attempt. */
  finish(id: string, records: readonly ProbeRecord[], ingestMs: readonly number[]): void {
    const del = this.db.prepare("DELETE FROM probes WHERE unit = ?");
    const insert = this.db.prepare("INSERT INTO probes (unit, probe, setting, record) VALUES (?, ?, ?, ?)");
    const done = this.db.prepare(
      "UPDATE units SET state = 'done', ingest_ms = ?, finished_at = ?, error = NULL WHERE id = ?",
    );
    this.write(() => {
      del.run(id);
      for (const r of records) insert.run(id, r.probeId, r.setting, this.texts.encode(r));
      done.run(JSON.stringify(ingestMs), new Date().toISOString(), id);
      this.clearDeadLetter(id);
    });
  }

  /**
   * Writes a unit as another store holds it (`membench merge`): its state,
   * attempts, error, ingest times and timestamps, and its records, replacing
   * what this store had of it. The unit must be planned.
   */
  importUnit(unit: UnitInfo, records: readonly ProbeRecord[]): void {
    const insert = this.db.prepare("INSERT INTO probes (unit, probe, setting, record) VALUES (?, ?, ?, ?)");
    this.write(() => {
      this.db.prepare("DELETE FROM probes WHERE unit = ?").run(unit.id);
      for (const r of records) insert.run(unit.id, r.probeId, r.setting, this.texts.encode(r));
      const changed = this.db
        .prepare(
          "UPDATE units SET state = ?, attempts = ?, error = ?, ingest_ms = ?, started_at = ?, finished_at = ? WHERE id = ?",
        )
        .run(
          unit.state,
          unit.attempts,
          unit.error ?? null,
          JSON.stringify(unit.ingestMs),
          unit.startedAt ?? null,
          unit.finishedAt ?? null,
          unit.id,
        ).changes;
      if (changed !== 1) throw new Error(`unit ${unit.id} is not planned in ${this.path}`);
      // A unit the pool gave up on stays listed as such (`membench merge`), with its job and attempts.
      this.db.prepare("DELETE FROM dead_letters WHERE unit = ?").run(unit.id);
      if (unit.deadLetter && unit.state !== "done") {
        this.db
          .prepare("INSERT INTO dead_letters (unit, job, attempts, error, at) VALUES (?, ?, ?, ?, ?)")
          .run(unit.id, unit.deadLetter.job, unit.deadLetter.attempts, unit.error ?? "", unit.deadLetter.at);
      }
    });
  }

  /** Replaces one stored probe record (an answer asked again), leaving its unit's other records as they are. */
  updateRecord(record: ProbeRecord): void {
    const update = this.statement("UPDATE probes SET record = ? WHERE unit = ? AND probe = ? AND setting = ?");
    const changed = this.write(
      () => update.run(this.texts.encode(record), record.unitId, record.probeId, record.setting).changes,
    );
    if (changed !== 1) {
      throw new Error(`no stored record ${record.unitId}/${record.probeId}/${record.setting} to update`);
    }
  }

  /** Puts finished units back in the queue (their records stay until the replay replaces them). */
  requeue(ids: readonly string[]): void {
    const again = this.db.prepare("UPDATE units SET state = 'pending' WHERE id = ?");
    this.db.transaction(() => {
      for (const id of ids) again.run(id);
    })();
  }

  /**
   * Adds one model call to its unit's usage. Written as each call ends, so calls
   * of an attempt that later fails, or of a process that is killed, still count.
   */
  addUsage(unit: string, stage: UsageStage, call: CallUsage): void {
    const key = [unit, stage, call.role] as const;
    this.db.transaction(() => {
      const row = this.statement("SELECT unpriced FROM usage WHERE unit = ? AND stage = ? AND role = ?").get(...key) as
        | { unpriced: string }
        | undefined;
      const unpriced = new Set(JSON.parse(row?.unpriced ?? "[]") as string[]);
      if (call.ok && !call.cached && call.costUsd === null) unpriced.add(call.model);
      const made = call.ok && !call.cached;
      this.statement(ADD_USAGE).run(
        ...key,
        call.ok ? 1 : 0,
        call.ok && call.cached ? 1 : 0,
        call.ok ? 0 : 1,
        made ? call.inputTokens : 0,
        made ? call.outputTokens : 0,
        call.ok && call.cached ? call.inputTokens : 0,
        call.ok && call.cached ? call.outputTokens : 0,
        call.latencyMs,
        call.costUsd ?? 0,
        JSON.stringify([...unpriced].sort()),
      );
    })();
  }

  /** The usage table as stored: one row per unit, stage and role. */
  usageRows(): Array<{ unit: string; stage: UsageStage } & UsageRow> {
    return this.db.prepare("SELECT * FROM usage ORDER BY rowid").all() as Array<
      { unit: string; stage: UsageStage } & UsageRow
    >;
  }

  /** Adds usage rows of another store (`membench merge`): counts and costs summed, unpriced models joined. */
  addUsageRows(rows: ReadonlyArray<{ unit: string; stage: UsageStage } & UsageRow>): void {
    const get = this.db.prepare("SELECT unpriced FROM usage WHERE unit = ? AND stage = ? AND role = ?").pluck();
    const upsert = this.db.prepare(ADD_USAGE);
    this.db.transaction(() => {
      for (const r of rows) {
        const had = JSON.parse((get.get(r.unit, r.stage, r.role) as string | undefined) ?? "[]") as string[];
        const unpriced = [...new Set([...had, ...(JSON.parse(r.unpriced) as string[])])].sort();
        upsert.run(
          r.unit,
          r.stage,
          r.role,
          r.calls,
          r.cached_calls,
          r.errors,
          r.input_tokens,
          r.output_tokens,
          r.cached_input_tokens,
          r.cached_output_tokens,
          r.latency_ms,
          r.cost_usd,
          JSON.stringify(unpriced),
        );
      }
    })();
  }

  /** Usage of one stage summed over every unit and process; undefined when none was recorded (or the run predates it: the table reads as empty). */
  usage(stage: UsageStage): AccountingSnapshot | undefined {
    const rows = this.db.prepare("SELECT * FROM usage WHERE stage = ?").all(stage) as UsageRow[];
    if (!rows.length) return undefined;
    return sumUsage(
      rows.map((r) => {
        const unpricedModels = JSON.parse(r.unpriced) as string[];
        return {
          role: r.role,
          usage: {
            calls: r.calls,
            cachedCalls: r.cached_calls,
            errors: r.errors,
            inputTokens: r.input_tokens,
            outputTokens: r.output_tokens,
            cachedInputTokens: r.cached_input_tokens,
            cachedOutputTokens: r.cached_output_tokens,
            latencyMs: r.latency_ms,
            costUsd: unpricedModels.length ? null : r.cost_usd,
            costKnown: unpricedModels.length === 0,
            unpricedModels,
          },
        };
      }),
    );
  }

  /** True while no unit has started and nothing is stored: the run did no work yet. */
  untouched(): boolean {
    const count = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    return (
      count("SELECT COUNT(*) AS n FROM units WHERE state != 'pending' OR attempts > 0") === 0 &&
      count("SELECT COUNT(*) AS n FROM probes") === 0 &&
      count("SELECT COUNT(*) AS n FROM scores") === 0 &&
      count("SELECT COUNT(*) AS n FROM overrides") === 0
    );
  }

  fail(id: string, error: string): void {
    this.db.prepare("UPDATE units SET state = 'failed', error = ? WHERE id = ?").run(error, id);
  }

  /** A unit the worker pool gave up on: failed with its last error, and listed as dead-lettered. */
  deadLetter(id: string, dead: { job: string; attempts: number; error: string }): void {
    this.db.transaction(() => {
      this.fail(id, dead.error);
      this.db
        .prepare("INSERT OR REPLACE INTO dead_letters (unit, job, attempts, error, at) VALUES (?, ?, ?, ?, ?)")
        .run(id, dead.job, dead.attempts, dead.error, new Date().toISOString());
    })();
  }

  /** The unit is being tried again (or finished): no longer dead-lettered. */
  clearDeadLetter(id: string): void {
    this.db.prepare("DELETE FROM dead_letters WHERE unit = ?").run(id);
  }

  /** Every stored record, in unit then probe order. */
  records(options: DecodeOptions = {}): ProbeRecord[] {
    const out: ProbeRecord[] = [];
    this.eachRecord((r) => out.push(r), options);
    return out;
  }

  /**
   * Every stored record, in unit then probe order, handed over one unit at a
   * time: a reader that keeps what it needs of each holds one unit's texts at most.
   */
  eachRecord(fn: (record: ProbeRecord) => void, options: DecodeOptions = {}): void {
    const units = this.db.prepare("SELECT id FROM units ORDER BY rowid").pluck().all() as string[];
    for (const unit of units) for (const r of this.unitRecords(unit, options)) fn(r);
  }

  /** The stored records of one unit, in probe order. */
  unitRecords(unit: string, options: DecodeOptions = {}): ProbeRecord[] {
    const cache = new Map<number, string>();
    return (
      this.statement("SELECT record FROM probes WHERE unit = ? ORDER BY rowid").pluck().all(unit) as string[]
    ).map((json) => this.texts.decode(json, options, cache));
  }

  /** One stored record, or undefined. */
  record(unitId: string, probeId: string, setting: string): ProbeRecord | undefined {
    const json = this.statement("SELECT record FROM probes WHERE unit = ? AND probe = ? AND setting = ?")
      .pluck()
      .get(unitId, probeId, setting) as string | undefined;
    return json === undefined ? undefined : this.texts.decode(json);
  }

  /** Replaces every stored score (a re-score is all or nothing). */
  replaceScores(scores: ReadonlyArray<{ unitId: string; probeId: string; setting: string; record: unknown }>): void {
    const insert = this.db.prepare("INSERT INTO scores (unit, probe, setting, record) VALUES (?, ?, ?, ?)");
    this.db.transaction(() => {
      this.db.prepare("DELETE FROM scores").run();
      for (const s of scores) insert.run(s.unitId, s.probeId, s.setting, JSON.stringify(s.record));
    })();
  }

  /** Stores one probe's score as it is judged inside a run; the scoring that ends the run replaces them all. */
  putScore(s: { unitId: string; probeId: string; setting: string; record: unknown }): void {
    this.statement("INSERT OR REPLACE INTO scores (unit, probe, setting, record) VALUES (?, ?, ?, ?)").run(
      s.unitId,
      s.probeId,
      s.setting,
      JSON.stringify(s.record),
    );
  }

  scores<T>(): T[] {
    const rows = this.db.prepare("SELECT record FROM scores ORDER BY rowid").all() as Array<{ record: string }>;
    return rows.map((r) => JSON.parse(r.record) as T);
  }

  /** A person's verdict on one metric of one probe, with a comment; replaces any earlier one. */
  setOverride(o: Override): void {
    this.db
      .prepare(
        "INSERT OR REPLACE INTO overrides (unit, probe, setting, metric, value, comment, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      )
      .run(o.unitId, o.probeId, o.setting, o.metric, o.value, o.comment, o.at ?? new Date().toISOString());
  }

  clearOverride(o: Pick<Override, "unitId" | "probeId" | "setting" | "metric">): void {
    this.db
      .prepare("DELETE FROM overrides WHERE unit = ? AND probe = ? AND setting = ? AND metric = ?")
      .run(o.unitId, o.probeId, o.setting, o.metric);
  }

  overrides(): Override[] {
    const rows = this.db.prepare("SELECT * FROM overrides ORDER BY at").all() as Array<{
      unit: string;
      probe: string;
      setting: string;
      metric: string;
      value: number;
      comment: string;
      at: string;
    }>;
    return rows.map((r) => ({
      unitId: r.unit,
      probeId: r.probe,
      setting: r.setting,
      metric: r.metric,
      value: r.value,
      comment: r.comment,
      at: r.at,
    }));
  }

  close(): void {
    if (this.db.open) this.release();
  }
}
