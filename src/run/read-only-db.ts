/**
 * Opens a run's SQLite file for reading without writing anything in the run's
 * folder, so reports work on archived runs, CI artifacts and other users' runs.
 *
 * A WAL-mode database normally gets `-wal` and `-shm` files created beside it,
 * even by a read-only connection: that fails in a read-only folder and leaves
 * new files in a writable one. So, by what lies beside the database:
 * - no `-shm`: no process has the store open. Without WAL content the file is
 *   the whole database, read into memory with its header switched from WAL to
 *   rollback mode (only the copy in memory sees that). With WAL content (a run
 *   killed, then archived), or past 1 GiB, the file and its WAL are copied to a
 *   private temporary folder and opened there, where SQLite applies the WAL.
 * - a `-shm`: a run may be writing right now. The file is opened in place,
 *   read-only, so SQLite reads the writer's committed units through the shared
 *   index; it may update that index, never the database nor its WAL. If that
 *   fails (a read-only folder, an unreadable `-shm`), the copy as above.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import Database from "better-sqlite3";
import { DataError } from "../core/errors.ts";

export interface ReadOnlyDb {
  db: Database.Database;
  /** Closes the connection and removes a temporary copy, if one was made. */
  close(): void;
}

const HEADER = Buffer.from("SQLite format 3\0", "latin1");
/** Bytes 18 and 19 of the header: the file format's write and read versions (1 rollback, 2 WAL). */
const FORMAT_VERSIONS = 18;

/** Past this a store is copied to a temporary folder rather than read into memory. */
const MAX_IN_MEMORY = 1024 ** 3;

const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);

/** Fails now, not at the first query, when the file cannot be read as a database. */
function checked(db: Database.Database): Database.Database {
  db.prepare("SELECT count(*) FROM sqlite_master").get();
  return db;
}

function inMemory(path: string): ReadOnlyDb {
  const bytes = readFileSync(path);
  if (bytes.length && !bytes.subarray(0, HEADER.length).equals(HEADER)) {
    throw new DataError("not a SQLite database", { file: path });
  }
  if (bytes.length > FORMAT_VERSIONS + 1) bytes.fill(1, FORMAT_VERSIONS, FORMAT_VERSIONS + 2);
  const db = checked(new Database(bytes, { readonly: true }));
  return { db, close: () => db.close() };
}

function copied(path: string): ReadOnlyDb {
  const dir = mkdtempSync(join(tmpdir(), "membench-store-"));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const copy = join(dir, basename(path));
    copyFileSync(path, copy);
    if (existsSync(`${path}-wal`)) copyFileSync(`${path}-wal`, `${copy}-wal`);
    const db = checked(new Database(copy, { readonly: true, fileMustExist: true }));
    return {
      db,
      close: () => {
        db.close();
        remove();
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

function inPlace(path: string): ReadOnlyDb | undefined {
  let db: Database.Database | undefined;
  try {
    db = checked(new Database(path, { readonly: true, fileMustExist: true }));
    const open = db;
    return { db: open, close: () => open.close() };
  } catch {
    db?.close();
    return undefined;
  }
}

export function openReadOnlyDb(path: string): ReadOnlyDb {
  if (!existsSync(path)) throw new DataError("no such file", { file: path });
  if (!statSync(path).isFile()) throw new DataError("not a file", { file: path });
  try {
    if (existsSync(`${path}-shm`)) return inPlace(path) ?? copied(path);
    return size(`${path}-wal`) > 0 || size(path) > MAX_IN_MEMORY ? copied(path) : inMemory(path);
  } catch (error) {
    const code = (error as { code?: string }).code ?? "";
    if (code === "SQLITE_NOTADB" || code.startsWith("SQLITE_CORRUPT")) {
      throw new DataError(`not a readable SQLite database (${(error as Error).message})`, { file: path });
    }
    throw error;
  }
}
