/**
 * Data-file hashes are remembered in the cache folder by path, size and mtime:
 * a file that stays as it is is read once, one that changes is hashed again.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import { FILE_HASH_CACHE, hashFiles } from "../../src/util/file-hash.ts";

const sha = (text: string) => createHash("sha256").update(text).digest("hex");

function files(): { dir: string; a: string; b: string } {
  const dir = mkdtempSync(join(tmpdir(), "mb-hash-"));
  const a = join(dir, "a.json");
  const b = join(dir, "b.json");
  writeFileSync(a, '{"a": 1}');
  writeFileSync(b, '{"b": 2}');
  return { dir, a, b };
}

/** Replaces a remembered hash, leaving size and mtime: a read of the cache returns it, a fresh hash would not. */
function tamper(cacheDir: string, path: string, value: string): void {
  const db = new Database(join(cacheDir, FILE_HASH_CACHE));
  db.prepare("UPDATE hashes SET sha256 = ? WHERE path = ?").run(value, path);
  db.close();
}

describe("data-file hashes, cached by path, size and mtime", () => {
  it("hashes each file, and a second time reads the cache instead of the file", async () => {
    const { a, b } = files();
    const cache = mkdtempSync(join(tmpdir(), "mb-hash-cache-"));
    assert.deepEqual(await hashFiles([a, b], cache), [sha('{"a": 1}'), sha('{"b": 2}')]);
    tamper(cache, a, "remembered");
    assert.deepEqual(await hashFiles([a, b], cache), ["remembered", sha('{"b": 2}')]);
  });

  it("hashes a file again once its size or mtime changed", async () => {
    const { a } = files();
    const cache = mkdtempSync(join(tmpdir(), "mb-hash-cache-"));
    await hashFiles([a], cache);
    tamper(cache, a, "stale");
    writeFileSync(a, '{"a": 22}');
    assert.deepEqual(await hashFiles([a], cache), [sha('{"a": 22}')], "new size");
    tamper(cache, a, "stale");
    writeFileSync(a, '{"a": 33}');
    utimesSync(a, new Date(), new Date(Date.now() + 5_000));
    assert.deepEqual(await hashFiles([a], cache), [sha('{"a": 33}')], "same size, new mtime");
  });

  it("hashes without a cache, or with a cache folder it cannot create", async () => {
    const { a, b } = files();
    assert.deepEqual(await hashFiles([a, b]), [sha('{"a": 1}'), sha('{"b": 2}')]);
    assert.deepEqual(await hashFiles([a], join(a, "under-a-file")), [sha('{"a": 1}')]);
  });
});
