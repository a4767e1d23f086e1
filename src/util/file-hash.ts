/**
 * SHA-256 of data files, for a run's snapshot and for checking, at every resume,
 * shard and worker, that the data did not change. A file's hash is remembered in
 * the cache folder by its absolute path, size and modification time, so each
 * file is read and hashed once while it stays as it is (a Memora quarterly run
 * spent 10–12.6 s of 17 hashing its data). A file rewritten with the same size
 * within the same modification-time tick would keep its old hash: the usual
 * trade of make and rsync.
 */
import { createHash } from "node:crypto";
import { createReadStream, mkdirSync } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import Database from "better-sqlite3";
import { log } from "./log.ts";

export const FILE_HASH_CACHE = "file-hashes.sqlite";

/** Files up to this size are read whole; larger ones are streamed. */
const READ_WHOLE = 64 * 1024 * 1024;
/** Files hashed at once. */
const AT_ONCE = 8;

export async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  if ((await stat(path)).size <= READ_WHOLE) return hash.update(await readFile(path)).digest("hex");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

interface Row {
  size: number;
  mtime_ms: number;
  sha256: string;
}

function openCache(cacheDir: string): Database.Database | undefined {
  try {
    mkdirSync(cacheDir, { recursive: true });
    const db = new Database(join(cacheDir, FILE_HASH_CACHE));
    db.pragma("journal_mode = WAL");
    db.pragma("busy_timeout = 5000");
    db.exec(
      "CREATE TABLE IF NOT EXISTS hashes (path TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime_ms REAL NOT NULL, sha256 TEXT NOT NULL)",
    );
    return db;
  } catch (error) {
    // A read-only or missing cache folder only costs the hashing.
    log.debug(`file hashes not cached in ${cacheDir}: ${(error as Error).message}`);
    return undefined;
  }
}

/**
 * The SHA-256 of each file, in order: from the cache when the file's size and
 * modification time are those it was hashed at, else read now and remembered.
 * Without `cacheDir`, every file is hashed.
 */
export async function hashFiles(paths: readonly string[], cacheDir?: string): Promise<string[]> {
  const db = cacheDir ? openCache(cacheDir) : undefined;
  try {
    const get = db?.prepare("SELECT size, mtime_ms, sha256 FROM hashes WHERE path = ?");
    const put = db?.prepare("INSERT OR REPLACE INTO hashes (path, size, mtime_ms, sha256) VALUES (?, ?, ?, ?)");
    const out: string[] = new Array(paths.length);
    let next = 0;
    const worker = async () => {
      while (next < paths.length) {
        const i = next++;
        const path = resolve(paths[i]!);
        const before = await stat(path);
        const known = get?.get(path) as Row | undefined;
        if (known && known.size === before.size && known.mtime_ms === before.mtimeMs) {
          out[i] = known.sha256;
          continue;
        }
        const sha = await sha256File(path);
        const after = await stat(path);
        // A file that changed while it was read is hashed again next time.
        if (after.size === before.size && after.mtimeMs === before.mtimeMs)
          put?.run(path, after.size, after.mtimeMs, sha);
        out[i] = sha;
      }
    };
    await Promise.all(Array.from({ length: Math.min(AT_ONCE, paths.length) }, worker));
    return out;
  } finally {
    db?.close();
  }
}
