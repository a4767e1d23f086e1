/**
 * `supermemory`: supermemory's hosted API through the `supermemory` SDK.
 *
 * One container tag per namespace. Each ingested batch (a session) is one
 * document: its text is the session's date line followed by one
 * `speaker: content` line per turn, its `customId` names the namespace and the
 * session, and its `metadata` carries membench's session id, turn ids and the
 * session date (supermemory has no date field of its own, so the date reaches
 * its memory extraction through the text). supermemory extracts memories in the
 * background; `flush` polls each new document until its status is `done`.
 * `search` is supermemory's memory search in the container (`limit = k`,
 * `include.documents`), and a memory's source documents give its session and
 * turns. `close` deletes the container's documents, unless `keepRemote`.
 */
import { z } from "zod";
import { SystemError } from "../core/errors.ts";
import type { SystemContext, SystemDefinition, SystemInfo } from "./definition.ts";
import { checkBatch } from "./history.ts";
import { resultLimit } from "./query.ts";
import { RemoteCaller } from "./remote/caller.ts";
import { hostedCaps } from "./remote/caps.ts";
import { remoteName } from "./remote/ids.ts";
import { readApiKey } from "./remote/key.ts";
import { remoteOptionShape } from "./remote/options.ts";
import { pollUntilDone } from "./remote/poll.ts";
import { PROVENANCE_KEYS, provenanceFromMetadata } from "./remote/provenance.ts";
import { defaultImporter, type Importer, loadSdk, sdkVersion } from "./remote/sdk.ts";
import { checkedLimit, RemoteSpaces } from "./remote/spaces.ts";
import { isoTime, turnLine } from "./remote/text.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

export const SUPERMEMORY_INSTALL = "npm install supermemory@4";
/** supermemory's limit on container tags and custom ids. */
const MAX_ID = 100;
const DELETE_BATCH = 100;

export const SupermemoryOptions = z.strictObject({
  ...remoteOptionShape("SUPERMEMORY_API_KEY"),
  /** What search looks at: extracted memories (default), document chunks, or both. */
  searchMode: z.enum(["memories", "hybrid", "documents"]).default("memories"),
  /** supermemory's selection threshold (0 returns the most); its own default when absent. */
  threshold: z.number().min(0).max(1).optional(),
  /** Rerank results (adds latency). */
  rerank: z.boolean().default(false),
  /** Most results one search may return. */
  maxResults: z.number().int().min(1).max(1000).default(100),
});
export type SupermemoryOptions = z.infer<typeof SupermemoryOptions>;

interface SearchResult {
  id: string;
  memory?: string;
  chunk?: string;
  similarity?: number;
  metadata?: Record<string, unknown> | null;
  documents?: { id: string; metadata?: Record<string, unknown> | null }[];
}

/** The part of the Supermemory client this adapter uses. */
interface SupermemoryClient {
  settings: { get(): Promise<unknown> };
  documents: {
    add(body: Record<string, unknown>): Promise<{ id: string; status: string }>;
    get(id: string): Promise<{ id: string; status: string }>;
    deleteBulk(body: { ids: string[] }): Promise<{ deletedCount?: number; success?: boolean }>;
  };
  search: (body: Record<string, unknown>) => Promise<{ results: SearchResult[]; total?: number }>;
}
interface SupermemoryModule {
  Supermemory: new (options: { apiKey: string; baseURL?: string; maxRetries: number }) => SupermemoryClient;
}

interface Written {
  sessionId: string;
  turnIds: string[];
  time?: string;
}
interface Space {
  tag: string;
  /** Document id → what was written in it. */
  documents: Map<string, Written>;
  pending: Set<string>;
  parts: number;
}

export interface SupermemoryDeps {
  importer?: Importer;
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number) => Promise<void>;
}

/** A memory's provenance from its metadata, when it names the session membench wrote it from. */
function writtenIn(meta: Record<string, unknown> | null | undefined): Written | undefined {
  const { sessionId, ...rest } = provenanceFromMetadata(meta);
  return sessionId === undefined ? undefined : { sessionId, ...rest };
}

export class SupermemorySystem implements MemorySystem {
  readonly id = "supermemory";
  readonly caps: SystemCaps = hostedCaps();
  private readonly spaces: RemoteSpaces<Space>;

  constructor(
    private readonly client: SupermemoryClient,
    private readonly caller: RemoteCaller,
    private readonly options: SupermemoryOptions,
    private readonly keepRemote: boolean,
    private readonly describe: SystemInfo,
    private readonly sleep?: (ms: number) => Promise<void>,
  ) {
    this.spaces = new RemoteSpaces(this.id, options.namePrefix, MAX_ID);
  }

  async open(ns: string): Promise<void> {
    if (this.spaces.has(ns)) return;
    // A container exists once a document names it; nothing to create yet.
    this.spaces.set(ns, { tag: this.spaces.nameFor(ns), documents: new Map(), pending: new Set(), parts: 0 });
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    const space = this.spaces.get(ns, "ingest");
    checkBatch(batch, this.id);
    const turns = batch.turns.filter((t) => t.content.trim() !== "");
    if (turns.length === 0) return;
    const time = isoTime(batch.time ?? turns[0]?.time);
    const lines = turns.map(turnLine);
    if (time) lines.unshift(`Conversation date: ${time.slice(0, 10)}`);
    const written: Written = { sessionId: batch.sessionId, turnIds: turns.map((t) => t.id), ...(time ? { time } : {}) };
    space.parts++;
    const customId = remoteName(space.tag, `p${space.parts}`, batch.sessionId, MAX_ID);
    const response = await this.caller.call("ingest", () =>
      this.client.documents.add({
        content: lines.join("\n"),
        containerTag: space.tag,
        customId,
        metadata: {
          [PROVENANCE_KEYS.session]: batch.sessionId,
          [PROVENANCE_KEYS.turns]: written.turnIds,
          membench_session_index: batch.sessionIndex,
          ...(time ? { [PROVENANCE_KEYS.time]: time } : {}),
        },
      }),
    );
    if (typeof response?.id !== "string") {
      throw new SystemError("supermemory accepted the document but returned no id", this.id, "ingest");
    }
    space.documents.set(response.id, written);
    if (response.status !== "done") space.pending.add(response.id);
  }

  async flush(ns: string): Promise<void> {
    const space = this.spaces.get(ns, "flush");
    if (space.pending.size === 0) return;
    await pollUntilDone(
      `supermemory processing of ${space.pending.size} document(s) in ${space.tag}`,
      async () => {
        for (const id of [...space.pending]) {
          const doc = await this.caller.call("flush", () => this.client.documents.get(id));
          if (doc.status === "done") space.pending.delete(id);
          else if (doc.status === "failed") return { failed: `document ${id} failed` };
        }
        return space.pending.size === 0
          ? { done: true }
          : { done: false, pending: `${space.pending.size} document(s) queued or being processed` };
      },
      {
        systemId: this.id,
        intervalMs: this.options.pollIntervalMs,
        timeoutMs: this.options.flushTimeoutMs,
        ...(this.sleep ? { sleep: this.sleep } : {}),
      },
    );
  }

  private provenance(space: Space, result: SearchResult): Written {
    for (const doc of result.documents ?? []) {
      const known = space.documents.get(doc.id) ?? writtenIn(doc.metadata);
      if (known) return known;
    }
    const own = writtenIn(result.metadata);
    if (own) return own;
    throw new SystemError(
      `supermemory returned ${result.id} without a source document membench wrote`,
      this.id,
      "search",
    );
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const space = this.spaces.get(ns, "search");
    const limit = checkedLimit(resultLimit(q, this.id), this.options.maxResults, this.id, "results (maxResults)");
    if (limit === 0 || q.text.trim() === "") return [];
    const response = await this.caller.call("search", () =>
      this.client.search({
        q: q.text,
        containerTag: space.tag,
        limit,
        searchMode: this.options.searchMode,
        include: { documents: true },
        rerank: this.options.rerank,
        ...(this.options.threshold !== undefined ? { threshold: this.options.threshold } : {}),
      }),
    );
    if (!Array.isArray(response?.results)) {
      throw new SystemError("supermemory's search answered without results", this.id, "search");
    }
    const items = response.results.map((r, i) => {
      const text = r.memory ?? r.chunk;
      if (typeof text !== "string") throw new SystemError(`supermemory result ${r.id} has no text`, this.id, "search");
      const from = this.provenance(space, r);
      const item: Retrieved = {
        text,
        score: typeof r.similarity === "number" && Number.isFinite(r.similarity) ? r.similarity : 0,
        kind: r.memory !== undefined ? "memory" : "chunk",
        sessionIds: [from.sessionId],
        ...(from.turnIds.length ? { turnIds: from.turnIds } : {}),
        ...(from.time ? { time: from.time } : {}),
        meta: { resultId: r.id },
      };
      return { item, i };
    });
    return items
      .sort((a, b) => b.item.score - a.item.score || a.i - b.i)
      .slice(0, limit)
      .map(({ item }) => item);
  }

  async close(ns: string): Promise<void> {
    const space = this.spaces.drop(ns);
    if (!space || this.keepRemote) return;
    const ids = [...space.documents.keys()];
    for (let i = 0; i < ids.length; i += DELETE_BATCH) {
      const chunk = ids.slice(i, i + DELETE_BATCH);
      const result = await this.caller.call("close", () => this.client.documents.deleteBulk({ ids: chunk }));
      if (result?.success === false) {
        throw new SystemError(`supermemory did not delete the documents of ${space.tag}`, this.id, "close");
      }
    }
  }

  info(): SystemInfo {
    return this.caller.info(this.describe);
  }
}

export async function createSupermemorySystem(
  options: SupermemoryOptions,
  context: Pick<SystemContext, "keepRemote">,
  deps: SupermemoryDeps = {},
): Promise<SupermemorySystem> {
  const apiKey = readApiKey("supermemory", options.apiKeyEnv, deps.env);
  const sdk = await loadSdk<SupermemoryModule>(
    "supermemory",
    "supermemory",
    SUPERMEMORY_INSTALL,
    deps.importer ?? defaultImporter,
  );
  const endpoint = options.baseUrl ?? "https://api.supermemory.ai";
  const client = new sdk.Supermemory({ apiKey, baseURL: endpoint, maxRetries: 0 });
  const caller = new RemoteCaller({
    systemId: "supermemory",
    concurrency: options.concurrency,
    retries: options.retries,
    keyEnv: options.apiKeyEnv,
    endpoint,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  // Checks the key before any document is sent.
  await caller.call("create", () => client.settings.get());
  const version = await sdkVersion("supermemory");
  return new SupermemorySystem(
    client,
    caller,
    options,
    context.keepRemote === true,
    {
      name: "supermemory",
      endpoint,
      sdk: "supermemory",
      ...(version ? { sdkVersion: version } : {}),
      apiKeyEnv: options.apiKeyEnv,
      searchMode: options.searchMode,
    },
    deps.sleep,
  );
}

export const supermemoryDefinition: SystemDefinition<SupermemoryOptions> = {
  id: "supermemory",
  summary: "supermemory's hosted API (a container tag per namespace, memory search); needs SUPERMEMORY_API_KEY",
  options: SupermemoryOptions,
  create: (options, context) => createSupermemorySystem(options, context),
  needsEmbedder: () => false,
};
