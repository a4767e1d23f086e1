/**
 * Content-addressed cache of model replies in one SQLite file. The key covers everything
 * that determines a reply (endpoint, model, role, messages, sampling settings, schema,
 * sample index) and never the API key. Only successful replies are stored.
 */
import { createHash } from "node:crypto";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { canonicalJson } from "../util/canonical-json.ts";
import type { ChatModel, ChatRequest, ChatResult, TokenUsage } from "./types.ts";
import { DelegatingChatModel } from "./wrap.ts";

// Shared with the system spec labels; still exported here, where it first lived.
export { canonicalJson };

export const CACHE_FILE = "llm.sqlite";

/**
 * Canonical texts of the objects a key was made of, by identity: the JSON schema
 * of a structured reply is one object shared by every call that asks for it (and
 * never changed), so its text is made once; the rest of a request is new each call.
 */
const canonicalTexts = new WeakMap<object, string>();

export function cacheKey(model: Pick<ChatModel, "baseUrl" | "model">, req: ChatRequest): string {
  const content = {
    baseUrl: model.baseUrl,
    model: model.model,
    role: req.role,
    messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
    temperature: req.temperature,
    maxTokens: req.maxTokens,
    responseFormat: req.responseFormat,
    seed: req.seed,
    sample: req.sample,
  };
  return createHash("sha256").update(canonicalJson(content, canonicalTexts)).digest("hex");
}

export interface CachedReply {
  text: string;
  usage: TokenUsage;
  model: string;
}

export class ChatCache {
  readonly path: string;
  readonly #db: Database.Database;
  readonly #get: Database.Statement<
    [string],
    { text: string; model: string; input_tokens: number; output_tokens: number }
  >;
  readonly #put: Database.Statement<[string, string, string, number, number, string]>;
  readonly #delete: Database.Statement<[string]>;

  constructor(path: string) {
    this.path = path;
    this.#db = new Database(path);
    this.#db.pragma("journal_mode = WAL");
    // Shards and parallel runs may share one cache file.
    this.#db.pragma("busy_timeout = 5000");
    this.#db.exec(`CREATE TABLE IF NOT EXISTS chat_cache (
      key TEXT PRIMARY KEY,
      model TEXT NOT NULL,
      text TEXT NOT NULL,
      input_tokens INTEGER NOT NULL,
      output_tokens INTEGER NOT NULL,
      created_at TEXT NOT NULL
    )`);
    this.#get = this.#db.prepare("SELECT text, model, input_tokens, output_tokens FROM chat_cache WHERE key = ?");
    this.#put = this.#db.prepare(
      "INSERT OR REPLACE INTO chat_cache (key, model, text, input_tokens, output_tokens, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    );
    this.#delete = this.#db.prepare("DELETE FROM chat_cache WHERE key = ?");
  }

  get(key: string): CachedReply | undefined {
    const row = this.#get.get(key);
    if (!row) return undefined;
    return {
      text: row.text,
      model: row.model,
      usage: { inputTokens: row.input_tokens, outputTokens: row.output_tokens },
    };
  }

  put(key: string, reply: CachedReply): void {
    this.#put.run(
      key,
      reply.model,
      reply.text,
      reply.usage.inputTokens,
      reply.usage.outputTokens,
      new Date().toISOString(),
    );
  }

  delete(key: string): void {
    this.#delete.run(key);
  }

  get size(): number {
    return (this.#db.prepare("SELECT count(*) AS n FROM chat_cache").get() as { n: number }).n;
  }

  close(): void {
    if (this.#db.open) this.#db.close();
  }
}

/** Opens (creating the folder) `<cacheDir>/llm.sqlite`. */
export function openChatCache(cacheDir: string): ChatCache {
  mkdirSync(cacheDir, { recursive: true });
  return new ChatCache(join(cacheDir, CACHE_FILE));
}

export class CachedChatModel extends DelegatingChatModel {
  // Identical calls already in flight share one request instead of racing to fill the cache.
  readonly #pending = new Map<string, Promise<ChatResult>>();

  constructor(
    inner: ChatModel,
    readonly cache: ChatCache,
  ) {
    super(inner);
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const started = performance.now();
    const key = cacheKey(this.inner, req);
    const hit = this.cache.get(key);
    if (hit) return { ...hit, latencyMs: performance.now() - started, cached: true };
    const pending = this.#pending.get(key);
    if (pending) {
      const shared = await pending;
      return { ...shared, latencyMs: performance.now() - started, cached: true };
    }
    const call = this.inner.chat(req).then((result) => {
      this.cache.put(key, { text: result.text, usage: result.usage, model: result.model });
      return result;
    });
    this.#pending.set(key, call);
    try {
      return await call;
    } finally {
      this.#pending.delete(key);
    }
  }

  /** Drops the stored reply to `req`, so the next identical call asks the endpoint again. */
  override forget(req: ChatRequest): void {
    this.cache.delete(cacheKey(this.inner, req));
    super.forget(req);
  }
}
