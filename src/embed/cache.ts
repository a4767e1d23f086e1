/**
 * A persistent embedding cache in front of any Embedder. Vectors are keyed by the
 * embedder id and the SHA-256 of the text, so one SQLite file can be shared by every
 * system, run and process on a machine (WAL mode lets readers and a writer coexist)
 * while vectors of different models never mix. A bounded in-memory layer sits in
 * front of the file. Only texts found in neither layer reach the inner embedder, in
 * one call, each distinct text once; a text already on its way to the model for
 * another caller (of any cached embedder on the same file in this process) is
 * waited for, not sent again.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import Database from "better-sqlite3";
import { defaultCacheDir } from "../config/settings.ts";
import type { Embedder } from "./types.ts";

export const EMBEDDING_CACHE_FILE = "embeddings.sqlite";
/** The per-user cache folder every cache defaults to (it replaced `DEFAULT_EMBEDDING_CACHE_DIR`, `.membench/cache`). */
export { defaultCacheDir };

export interface EmbeddingCacheOptions {
  /** Folder of the cache file (default: the per-user cache folder, `defaultCacheDir()`). */
  cacheDir?: string;
  /** The cache file itself; overrides `cacheDir`. */
  file?: string;
  /** Vectors kept in memory, least recently used dropped first (default 20000). */
  memoryEntries?: number;
}

/** Counted once per distinct text in each `embed` call. */
export interface EmbeddingCacheStats {
  memoryHits: number;
  diskHits: number;
  /** Texts another call had already sent to the inner embedder: this call waited for that vector. */
  inFlightHits: number;
  /** Texts sent to the inner embedder. */
  misses: number;
  /** memoryHits + diskHits + inFlightHits. */
  readonly hits: number;
}

/** The cache file for a cache folder. */
export function embeddingCachePath(cacheDir = defaultCacheDir()): string {
  return resolve(cacheDir, EMBEDDING_CACHE_FILE);
}

export function textKey(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** One connection per file per process, shared by every cached embedder on it. */
const connections = new Map<string, { db: Database.Database; users: number }>();

function acquire(file: string): Database.Database {
  const open = connections.get(file);
  if (open) {
    open.users++;
    return open.db;
  }
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("busy_timeout = 10000");
  db.pragma("synchronous = NORMAL");
  db.exec(`CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    text_sha256 TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (model, text_sha256)
  ) WITHOUT ROWID`);
  connections.set(file, { db, users: 1 });
  return db;
}

/**
 * Vectors being computed, by file, model and text hash, for every cached embedder in
 * the process: two systems ingesting the same turns at once embed each turn once.
 */
const inFlight = new Map<string, Promise<Float32Array>>();

function release(file: string): void {
  const open = connections.get(file);
  if (!open) return;
  open.users--;
  if (open.users > 0) return;
  connections.delete(file);
  open.db.close();
}

/** The vector's Float32 bytes in platform order (little-endian on every machine Node supports in practice). */
function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

/** Copies, because a Buffer read from SQLite need not start on a 4-byte boundary. */
function fromBlob(blob: Buffer): Float32Array {
  const v = new Float32Array(blob.byteLength / 4);
  new Uint8Array(v.buffer).set(blob);
  return v;
}

interface Row {
  dim: number;
  vector: Buffer;
}

export class CachedEmbedder implements Embedder {
  readonly inner: Embedder;
  readonly file: string;
  private readonly memoryEntries: number;
  private readonly memory = new Map<string, Float32Array>();
  private db: Database.Database | undefined;
  private readStmt: Database.Statement<[string, string], Row> | undefined;
  private writeStmt: Database.Statement<[string, string, number, Buffer, string]> | undefined;
  private counts = { memoryHits: 0, diskHits: 0, inFlightHits: 0, misses: 0 };

  constructor(inner: Embedder, options: EmbeddingCacheOptions = {}) {
    this.inner = inner;
    this.file = options.file ? resolve(options.file) : embeddingCachePath(options.cacheDir);
    this.memoryEntries = options.memoryEntries ?? 20_000;
  }

  get id(): string {
    return this.inner.id;
  }

  get dim(): number {
    return this.inner.dim;
  }

  get stats(): EmbeddingCacheStats {
    const c = this.counts;
    return { ...c, hits: c.memoryHits + c.diskHits + c.inFlightHits };
  }

  resetStats(): void {
    this.counts = { memoryHits: 0, diskHits: 0, inFlightHits: 0, misses: 0 };
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const keys = texts.map(textKey);
    const found = new Map<string, Float32Array | Promise<Float32Array>>();
    const missing = new Map<string, string>();
    for (let i = 0; i < texts.length; i++) {
      const key = keys[i]!;
      if (found.has(key) || missing.has(key)) continue;
      const hit = this.fromMemory(key) ?? this.fromInFlight(key) ?? this.fromDisk(key);
      if (hit) found.set(key, hit);
      else missing.set(key, texts[i]!);
    }
    if (missing.size > 0) {
      const missKeys = [...missing.keys()];
      this.counts.misses += missKeys.length;
      const job = this.embedMisses(missKeys, [...missing.values()]);
      missKeys.forEach((key, i) => {
        const slot = this.slot(key);
        const vector = job.then((vectors) => vectors[i]!);
        // Waiters see the failure when they await it; nobody waiting is not an unhandled rejection.
        vector.catch(() => undefined);
        inFlight.set(slot, vector);
        found.set(key, vector);
        void job.then(
          () => this.settle(slot, vector),
          () => this.settle(slot, vector),
        );
      });
    }
    const vectors = await Promise.all(keys.map((key) => found.get(key)!));
    // Copies, so a caller that scales its vector in place cannot corrupt the cache.
    return vectors.map((v) => v.slice());
  }

  /** Stops the inner embedder's worker threads, if it has any, and releases the shared SQLite connection when its last user closes. */
  close(): void {
    (this.inner as { close?: () => void }).close?.();
    if (!this.db) return;
    this.db = undefined;
    this.readStmt = undefined;
    this.writeStmt = undefined;
    release(this.file);
  }

  private open(): Database.Database {
    if (!this.db) {
      this.db = acquire(this.file);
      this.readStmt = this.db.prepare<[string, string], Row>(
        "SELECT dim, vector FROM embeddings WHERE model = ? AND text_sha256 = ?",
      );
      this.writeStmt = this.db.prepare<[string, string, number, Buffer, string]>(
        "INSERT OR REPLACE INTO embeddings (model, text_sha256, dim, vector, created_at) VALUES (?, ?, ?, ?, ?)",
      );
    }
    return this.db;
  }

  /** The model's vectors for missed texts, stored in both layers before anyone sees them. */
  private async embedMisses(keys: string[], texts: string[]): Promise<Float32Array[]> {
    const vectors = await this.inner.embed(texts);
    if (vectors.length !== keys.length) {
      throw new Error(`embedder ${this.inner.id} returned ${vectors.length} vectors for ${keys.length} texts`);
    }
    this.store(keys, vectors);
    return vectors;
  }

  /** Where a text's pending vector is filed: shared by every cached embedder on the file with the same model. */
  private slot(key: string): string {
    return `${this.file}\u0000${this.inner.id}\u0000${key}`;
  }

  private fromInFlight(key: string): Promise<Float32Array> | undefined {
    const pending = inFlight.get(this.slot(key));
    if (pending) this.counts.inFlightHits++;
    return pending;
  }

  private settle(slot: string, vector: Promise<Float32Array>): void {
    if (inFlight.get(slot) === vector) inFlight.delete(slot);
  }

  private fromMemory(key: string): Float32Array | undefined {
    const v = this.memory.get(key);
    if (!v) return undefined;
    this.memory.delete(key);
    this.memory.set(key, v);
    this.counts.memoryHits++;
    return v;
  }

  private fromDisk(key: string): Float32Array | undefined {
    this.open();
    const row = this.readStmt!.get(this.inner.id, key);
    // A row of the wrong size (a truncated write, or a model whose output size changed
    // under the same id) is treated as absent and overwritten.
    if (!row || row.vector.byteLength !== row.dim * 4 || (this.inner.dim > 0 && row.dim !== this.inner.dim)) {
      return undefined;
    }
    const v = fromBlob(row.vector);
    this.remember(key, v);
    this.counts.diskHits++;
    return v;
  }

  private store(keys: string[], vectors: Float32Array[]): void {
    const db = this.open();
    const now = new Date().toISOString();
    db.transaction(() => {
      keys.forEach((key, i) => {
        const v = vectors[i]!;
        this.writeStmt!.run(this.inner.id, key, v.length, toBlob(v), now);
      });
    })();
    keys.forEach((key, i) => {
      this.remember(key, vectors[i]!.slice());
    });
  }

  private remember(key: string, v: Float32Array): void {
    if (this.memoryEntries <= 0) return;
    this.memory.set(key, v);
    if (this.memory.size > this.memoryEntries) {
      const oldest = this.memory.keys().next().value;
      if (oldest !== undefined) this.memory.delete(oldest);
    }
  }
}

/** `inner` behind a persistent cache; see CachedEmbedder. */
export function withEmbeddingCache(inner: Embedder, options: EmbeddingCacheOptions = {}): CachedEmbedder {
  return new CachedEmbedder(inner, options);
}
