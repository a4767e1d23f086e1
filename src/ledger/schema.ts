/**
 * The ledger's SQLite schema. Base tables carry an `ns` column; the search
 * indexes (FTS5 and sqlite-vec) are created per namespace, so BM25 statistics and
 * vector neighbours never mix namespaces and dropping one is a few DROP TABLEs.
 */

export const SCHEMA_VERSION = 1;

export const BASE_SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS namespaces (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, dim INTEGER, embedder TEXT);
CREATE TABLE IF NOT EXISTS sessions (
  ns TEXT NOT NULL, id TEXT NOT NULL, idx REAL NOT NULL, seq INTEGER NOT NULL, time TEXT,
  PRIMARY KEY (ns, id));
CREATE TABLE IF NOT EXISTS turns (
  rowid INTEGER PRIMARY KEY, ns TEXT NOT NULL, session_id TEXT NOT NULL, turn_id TEXT NOT NULL,
  position INTEGER NOT NULL, role TEXT NOT NULL, speaker TEXT, content TEXT NOT NULL, time TEXT,
  UNIQUE (ns, session_id, turn_id));
CREATE TABLE IF NOT EXISTS memories (
  rowid INTEGER PRIMARY KEY, id TEXT NOT NULL, ns TEXT NOT NULL, subject TEXT NOT NULL, kind TEXT NOT NULL,
  attribute TEXT NOT NULL, value TEXT NOT NULL, condition TEXT, text TEXT NOT NULL,
  valid_from TEXT, valid_to TEXT, recorded_at TEXT, retired_at TEXT,
  session_id TEXT NOT NULL, turn_ids TEXT NOT NULL, status TEXT NOT NULL, canonical INTEGER NOT NULL, seq INTEGER NOT NULL,
  UNIQUE (ns, id));
-- With status in the key, a slot's standing memories are found without visiting
-- every superseded version of the attribute (what made ingest slow on long histories).
DROP INDEX IF EXISTS memories_slot;
CREATE INDEX IF NOT EXISTS memories_slot_status ON memories (ns, subject, attribute, status);
CREATE INDEX IF NOT EXISTS memories_session ON memories (ns, session_id);
CREATE TABLE IF NOT EXISTS links (
  ns TEXT NOT NULL, from_id TEXT NOT NULL, to_id TEXT NOT NULL, relation TEXT NOT NULL,
  PRIMARY KEY (ns, from_id, to_id, relation));
CREATE INDEX IF NOT EXISTS links_to ON links (ns, to_id);
`;

/** Per-namespace search tables, by the namespace's numeric id. */
export function namespaceTables(n: number): { turns: string; memories: string } {
  return { turns: `fts_turns_${n}`, memories: `fts_memories_${n}` };
}

export function vectorTables(n: number): { turns: string; memories: string } {
  return { turns: `vec_turns_${n}`, memories: `vec_memories_${n}` };
}

export const FTS_TOKENIZER = "unicode61 remove_diacritics 2";
