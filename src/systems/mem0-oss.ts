/**
 * `mem0-oss`: mem0's open-source engine, in process (`mem0ai/oss` `Memory`),
 * calling the run's OpenAI-compatible endpoint for its extraction model and
 * embedder. This is the configuration RealMem evaluated (the `mem0` package with
 * a chat model and text-embedding-3-small), so its Mem0 rows can be re-run with
 * any model, local ones included.
 *
 * Each namespace gets its own `Memory` (an in-memory SQLite vector store, entity
 * store and history store; files under the run's cache folder with `persist`)
 * and one mem0 user. A session is one `add` (mem0's single-pass ADD-only
 * extraction) whose metadata carries the session and turn ids and the session
 * date; mem0 copies that metadata onto every memory it extracts, so each search
 * hit names its session. mem0's OSS `add` refuses a `timestamp` (a Platform-only
 * feature) and grounds relative dates on an "Observation Date" it sets to today,
 * and drops system messages, so with `sendDate` (default) the session date is
 * written at the head of the session's first message, where the extraction
 * prompt shows it with the conversation.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { ConfigError, SystemError } from "../core/errors.ts";
import type { ModelEndpoint, SystemContext, SystemDefinition, SystemInfo } from "./definition.ts";
import { checkBatch } from "./history.ts";
import { silenceMem0Telemetry } from "./mem0.ts";
import { resultLimit } from "./query.ts";
import { RemoteCaller } from "./remote/caller.ts";
import { hostedCaps } from "./remote/caps.ts";
import { PROVENANCE_KEYS, provenanceFromMetadata } from "./remote/provenance.ts";
import { defaultImporter, type Importer, loadSdk, sdkVersion } from "./remote/sdk.ts";
import { checkedLimit, RemoteSpaces } from "./remote/spaces.ts";
import { isoTime } from "./remote/text.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

export const MEM0_OSS_INSTALL = "npm install mem0ai@3";

export const Mem0OssOptions = z.strictObject({
  /** Chat model for mem0's extraction (default: the run's model). */
  model: z.string().min(1).optional(),
  /** Embedding model (default: the run's embedding model, else text-embedding-3-small as in RealMem). */
  embedModel: z.string().min(1).optional(),
  /** Embedding size; asked of the endpoint once when absent. */
  embeddingDims: z.number().int().positive().optional(),
  /** Write the session date at the head of the first message (mem0's OSS add has no date field). */
  sendDate: z.boolean().default(true),
  /** Keep the SQLite stores as files under the run's cache folder instead of in memory. */
  persist: z.boolean().default(false),
  /** mem0's semantic threshold before its boosts (its default 0.1). */
  threshold: z.number().min(0).max(1).default(0.1),
  /** Most memories one search may return. */
  maxResults: z.number().int().min(1).max(1000).default(200),
  /** mem0 calls in flight at once (each makes model and embedding calls). */
  concurrency: z.number().int().min(1).max(64).default(4),
  /** Retries of a transient endpoint failure on top of the OpenAI client's own. */
  retries: z.number().int().min(0).max(10).default(2),
});
export type Mem0OssOptions = z.infer<typeof Mem0OssOptions>;

interface OssMemoryItem {
  id: string;
  memory: string;
  score?: number;
  metadata?: Record<string, unknown>;
}

/** The part of `mem0ai/oss`'s Memory this adapter uses. */
interface OssMemory {
  add(
    messages: { role: string; content: string }[],
    config: { userId: string; metadata?: Record<string, unknown>; infer?: boolean },
  ): Promise<{ results: OssMemoryItem[] }>;
  search(
    query: string,
    config: { filters: { user_id: string }; topK: number; threshold: number },
  ): Promise<{ results: OssMemoryItem[] }>;
  getAll(config: { filters: { user_id: string }; topK: number }): Promise<{ results: OssMemoryItem[] }>;
  deleteAll(config: { userId: string }): Promise<unknown>;
}

interface OssModule {
  Memory: new (config: Record<string, unknown>) => OssMemory;
}

interface Space {
  userId: string;
  memory: OssMemory;
}

/** How many memories readback lists at most from one namespace. */
const READBACK_LIMIT = 100_000;

export interface Mem0OssDeps {
  importer?: Importer;
}

function itemOf(m: OssMemoryItem, score: number, systemId: string, operation: string): Retrieved {
  const { sessionId: session, turnIds, time } = provenanceFromMetadata(m.metadata);
  if (session === undefined) {
    throw new SystemError(`mem0 returned memory ${m.id} without membench's session metadata`, systemId, operation);
  }
  return {
    text: m.memory,
    score,
    kind: "memory",
    sessionIds: [session],
    ...(turnIds.length ? { turnIds } : {}),
    ...(time !== undefined ? { time } : {}),
    meta: { memoryId: m.id },
  };
}

export class Mem0OssSystem implements MemorySystem {
  readonly id = "mem0-oss";
  readonly caps: SystemCaps = hostedCaps({ readback: true });
  private readonly spaces: RemoteSpaces<Space>;

  constructor(
    private readonly sdk: OssModule,
    private readonly config: (name: string) => Record<string, unknown>,
    private readonly caller: RemoteCaller,
    private readonly options: Mem0OssOptions,
    private readonly describe: SystemInfo,
  ) {
    this.spaces = new RemoteSpaces(this.id, "membench");
  }

  async open(ns: string): Promise<void> {
    if (this.spaces.has(ns)) return;
    const userId = this.spaces.nameFor(ns);
    this.spaces.set(ns, { userId, memory: new this.sdk.Memory(this.config(userId)) });
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    const space = this.spaces.get(ns, "ingest");
    checkBatch(batch, this.id);
    const turns = batch.turns.filter((t) => t.content.trim() !== "");
    if (turns.length === 0) return;
    const time = isoTime(turns[0]?.time ?? batch.time);
    const messages = turns.map((t) => ({
      role: t.role === "assistant" ? "assistant" : "user",
      content: t.speaker ? `${t.speaker}: ${t.content}` : t.content,
    }));
    if (this.options.sendDate && time) {
      // mem0's OSS add drops system messages and refuses `timestamp`; the first message is the one place left.
      messages[0]!.content = `[Date of this conversation: ${time.slice(0, 10)}] ${messages[0]!.content}`;
    }
    const metadata = {
      [PROVENANCE_KEYS.session]: batch.sessionId,
      [PROVENANCE_KEYS.turns]: turns.map((t) => t.id),
      ...(time ? { [PROVENANCE_KEYS.time]: time } : {}),
    };
    await this.caller.call("ingest", () => space.memory.add(messages, { userId: space.userId, metadata }));
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const space = this.spaces.get(ns, "search");
    const limit = checkedLimit(resultLimit(q, this.id), this.options.maxResults, this.id, "memories (maxResults)");
    if (limit === 0 || q.text.trim() === "") return [];
    const { results } = await this.caller.call("search", () =>
      space.memory.search(q.text, {
        filters: { user_id: space.userId },
        topK: limit,
        threshold: this.options.threshold,
      }),
    );
    return results
      .map((m, i) => ({ item: itemOf(m, Number.isFinite(m.score) ? (m.score as number) : 0, this.id, "search"), i }))
      .sort((a, b) => b.item.score - a.item.score || a.i - b.i)
      .slice(0, limit)
      .map(({ item }) => item);
  }

  async readback(ns: string, sessionIds: string[]): Promise<Retrieved[]> {
    const space = this.spaces.get(ns, "readback");
    if (sessionIds.length === 0) return [];
    const wanted = new Set(sessionIds);
    const { results } = await this.caller.call("readback", () =>
      space.memory.getAll({ filters: { user_id: space.userId }, topK: READBACK_LIMIT }),
    );
    if (results.length >= READBACK_LIMIT) {
      throw new SystemError(
        `mem0 holds ${READBACK_LIMIT} or more memories; readback would be cut`,
        this.id,
        "readback",
      );
    }
    return results.map((m) => itemOf(m, 1, this.id, "readback")).filter((item) => wanted.has(item.sessionIds![0]!));
  }

  async close(ns: string): Promise<void> {
    const space = this.spaces.drop(ns);
    if (!space) return;
    // The stores die with the instance; deleting first also empties the files of a persisted namespace.
    await this.caller.call("close", () => space.memory.deleteAll({ userId: space.userId }));
  }

  info(): SystemInfo {
    return this.caller.info(this.describe);
  }
}

export async function createMem0OssSystem(
  options: Mem0OssOptions,
  context: Pick<SystemContext, "endpoint" | "modelStatus" | "cacheDir">,
  deps: Mem0OssDeps = {},
): Promise<Mem0OssSystem> {
  const endpoint: ModelEndpoint = context.endpoint ?? {};
  const model = options.model ?? endpoint.model;
  if (!endpoint.baseUrl || !model) {
    throw new ConfigError(
      `mem0-oss calls a chat model and an embedder through an OpenAI-compatible endpoint, and none is configured (${context.modelStatus.detail}); set the run's model (base URL and model name)`,
      "system",
      "mem0-oss",
    );
  }
  silenceMem0Telemetry();
  // mem0 keeps an id file under ~/.mem0 (or MEM0_DIR); keep it inside the run's cache instead of the user's home.
  if (process.env.MEM0_DIR === undefined) process.env.MEM0_DIR = join(context.cacheDir, "mem0-home");
  const sdk = await loadSdk<OssModule>("mem0-oss", "mem0ai/oss", MEM0_OSS_INSTALL, deps.importer ?? defaultImporter);
  const apiKey = endpoint.apiKey ?? "not-needed";
  const embedModel = options.embedModel ?? endpoint.embedModel ?? "text-embedding-3-small";
  const embedBaseUrl = endpoint.embedBaseUrl ?? endpoint.baseUrl;
  const storeDir = join(context.cacheDir, "mem0-oss");
  const config = (userId: string): Record<string, unknown> => {
    let dir: string | undefined;
    if (options.persist) {
      dir = join(storeDir, userId);
      mkdirSync(dir, { recursive: true });
    }
    const file = (name: string) => (dir ? join(dir, name) : ":memory:");
    return {
      version: "v1.1",
      embedder: {
        provider: "openai",
        config: {
          apiKey,
          baseURL: embedBaseUrl,
          model: embedModel,
          ...(options.embeddingDims ? { embeddingDims: options.embeddingDims } : {}),
        },
      },
      vectorStore: {
        provider: "memory",
        config: {
          collectionName: "membench",
          dbPath: file("vector_store.db"),
          ...(options.embeddingDims ? { dimension: options.embeddingDims } : {}),
        },
      },
      llm: { provider: "openai", config: { apiKey, baseURL: endpoint.baseUrl, model } },
      historyStore: { provider: "sqlite", config: { historyDbPath: file("history.db") } },
    };
  };
  const caller = new RemoteCaller({
    systemId: "mem0-oss",
    concurrency: options.concurrency,
    retries: options.retries,
    endpoint: endpoint.baseUrl,
  });
  const version = await sdkVersion("mem0ai");
  return new Mem0OssSystem(sdk, config, caller, options, {
    name: "mem0 open source (mem0ai/oss)",
    ...(version ? { version, sdkVersion: version } : {}),
    sdk: "mem0ai",
    model,
    embedModel,
    endpoint: endpoint.baseUrl,
    sendDate: options.sendDate,
  });
}

export const mem0OssDefinition: SystemDefinition<Mem0OssOptions> = {
  id: "mem0-oss",
  summary: "mem0's open-source engine in process (mem0ai/oss), on the run's OpenAI-compatible model and embedder",
  options: Mem0OssOptions,
  create: (options, context) => createMem0OssSystem(options, context),
  needsEmbedder: () => false,
};
