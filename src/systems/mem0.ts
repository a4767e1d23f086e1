/**
 * `mem0`: mem0's hosted platform (v3 API) through the `mem0ai` client.
 *
 * One mem0 user per namespace. Each session (in chunks of `batchSize` messages)
 * is one `add` with the user id, the session's date as mem0's own `timestamp`
 * (Unix seconds; never the wall clock) and membench's provenance in `metadata`.
 * The platform processes adds in the background and answers with an event id;
 * `flush` polls `GET /v1/event/{id}/` until every event SUCCEEDED. `search` asks
 * with `filters: {user_id}` and `top_k = k`; each memory carries the metadata of
 * the add it came from, which is where its session and turn ids come from.
 * `close` deletes every memory of the user (`deleteAll`), unless `keepRemote`.
 */
import { z } from "zod";
import { SystemError } from "../core/errors.ts";
import type { SystemContext, SystemDefinition, SystemInfo } from "./definition.ts";
import { checkBatch } from "./history.ts";
import { resultLimit } from "./query.ts";
import { RemoteCaller } from "./remote/caller.ts";
import { hostedCaps } from "./remote/caps.ts";
import { readApiKey } from "./remote/key.ts";
import { remoteOptionShape } from "./remote/options.ts";
import { pollUntilDone } from "./remote/poll.ts";
import { PROVENANCE_KEYS, provenanceFromMetadata } from "./remote/provenance.ts";
import { defaultImporter, type Importer, loadSdk, sdkVersion } from "./remote/sdk.ts";
import { checkedLimit, RemoteSpaces } from "./remote/spaces.ts";
import { isoTime, unixSeconds } from "./remote/text.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

export const MEM0_INSTALL = "npm install mem0ai@3";
const DEFAULT_HOST = "https://api.mem0.ai";

export const Mem0Options = z.strictObject({
  ...remoteOptionShape("MEM0_API_KEY"),
  /** Messages per `add` call; a session is split into chunks of this many (MemConflict's harness used 8). */
  batchSize: z.number().int().min(1).max(200).default(50),
  /** mem0's own extraction (`infer`); false stores the messages as they are. */
  infer: z.boolean().default(true),
  /** Most memories one search may return (mem0's v3 docs benchmark with top 200). */
  maxResults: z.number().int().min(1).max(1000).default(200),
});
export type Mem0Options = z.infer<typeof Mem0Options>;

/** The part of `mem0ai`'s MemoryClient this adapter uses. */
interface Mem0Client {
  host: string;
  headers: Record<string, string>;
  ping(): Promise<void>;
  add(messages: { role: "user" | "assistant"; content: string }[], options: Record<string, unknown>): Promise<unknown>;
  search(query: string, options: Record<string, unknown>): Promise<{ results?: Mem0Memory[] } | Mem0Memory[]>;
  deleteAll(options: { userId: string }): Promise<unknown>;
  _fetchWithErrorHandling(url: string, options: Record<string, unknown>): Promise<unknown>;
}

interface Mem0Memory {
  id?: string;
  memory?: string;
  score?: number;
  metadata?: Record<string, unknown> | null;
  categories?: string[];
}

interface Mem0Module {
  MemoryClient: new (options: { apiKey: string; host?: string }) => Mem0Client;
}

/** What membench writes into each add's metadata, and reads back from each memory. */

interface Space {
  userId: string;
  /** Event ids of adds the platform has not finished yet. */
  pending: Set<string>;
}

export interface Mem0Deps {
  importer?: Importer;
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number) => Promise<void>;
}

function eventIdsOf(response: unknown): string[] {
  // v3 answers one queued event; older answers are a list of results, each maybe with its own event.
  const items = Array.isArray(response) ? response : [response];
  const ids: string[] = [];
  for (const item of items) {
    const id = (item as { eventId?: unknown } | null)?.eventId;
    if (typeof id === "string" && id !== "") ids.push(id);
  }
  return ids;
}

export class Mem0System implements MemorySystem {
  readonly id = "mem0";
  readonly caps: SystemCaps = hostedCaps();
  private readonly spaces: RemoteSpaces<Space>;

  constructor(
    private readonly client: Mem0Client,
    private readonly caller: RemoteCaller,
    private readonly options: Mem0Options,
    private readonly keepRemote: boolean,
    private readonly sdk: string | undefined,
    private readonly sleep?: (ms: number) => Promise<void>,
  ) {
    this.spaces = new RemoteSpaces(this.id, options.namePrefix);
  }

  async open(ns: string): Promise<void> {
    if (this.spaces.has(ns)) return;
    // mem0 makes a user on its first add; nothing to create yet.
    this.spaces.set(ns, { userId: this.spaces.nameFor(ns), pending: new Set() });
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    const space = this.spaces.get(ns, "ingest");
    checkBatch(batch, this.id);
    const size = this.options.batchSize;
    for (let i = 0; i < batch.turns.length; i += size) {
      const turns = batch.turns.slice(i, i + size);
      const messages = turns.map((t) => ({
        role: t.role === "assistant" ? ("assistant" as const) : ("user" as const),
        content: t.speaker ? `${t.speaker}: ${t.content}` : t.content,
      }));
      const time = isoTime(turns[0]?.time ?? batch.time);
      const timestamp = unixSeconds(turns[0]?.time ?? batch.time);
      const metadata: Record<string, unknown> = {
        [PROVENANCE_KEYS.session]: batch.sessionId,
        [PROVENANCE_KEYS.turns]: turns.map((t) => t.id),
        ...(time ? { [PROVENANCE_KEYS.time]: time } : {}),
      };
      const response = await this.caller.call("ingest", () =>
        this.client.add(messages, {
          userId: space.userId,
          metadata,
          infer: this.options.infer,
          ...(timestamp !== undefined ? { timestamp } : {}),
        }),
      );
      for (const id of eventIdsOf(response)) space.pending.add(id);
    }
  }

  async flush(ns: string): Promise<void> {
    const space = this.spaces.get(ns, "flush");
    if (space.pending.size === 0) return;
    await pollUntilDone(
      `mem0 processing of ${space.pending.size} add(s) for ${space.userId}`,
      async () => {
        for (const id of [...space.pending]) {
          const event = (await this.caller.call("flush", () =>
            this.client._fetchWithErrorHandling(`${this.client.host}/v1/event/${encodeURIComponent(id)}/`, {
              method: "GET",
              headers: this.client.headers,
            }),
          )) as { status?: unknown; results?: unknown };
          const status = String(event?.status ?? "").toUpperCase();
          if (status === "SUCCEEDED") space.pending.delete(id);
          else if (status === "FAILED")
            return { failed: `event ${id} FAILED: ${JSON.stringify(event.results ?? null)}` };
          else if (!["PENDING", "RUNNING"].includes(status)) {
            return { failed: `event ${id} has an unknown status ${JSON.stringify(event?.status)}` };
          }
        }
        return space.pending.size === 0
          ? { done: true }
          : { done: false, pending: `${space.pending.size} event(s) PENDING or RUNNING` };
      },
      {
        systemId: this.id,
        intervalMs: this.options.pollIntervalMs,
        timeoutMs: this.options.flushTimeoutMs,
        ...(this.sleep ? { sleep: this.sleep } : {}),
      },
    );
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const space = this.spaces.get(ns, "search");
    const limit = checkedLimit(resultLimit(q, this.id), this.options.maxResults, this.id, "memories (maxResults)");
    if (limit === 0 || q.text.trim() === "") return [];
    const response = await this.caller.call("search", () =>
      this.client.search(q.text, { filters: { user_id: space.userId }, topK: limit }),
    );
    const memories = Array.isArray(response) ? response : response?.results;
    if (!Array.isArray(memories)) {
      throw new SystemError(
        `mem0 search answered without a results list: ${JSON.stringify(response).slice(0, 200)}`,
        this.id,
        "search",
      );
    }
    const items = memories.map((m, i): Retrieved => {
      const p = provenanceFromMetadata(m.metadata);
      if (typeof m.memory !== "string" || p.sessionId === undefined) {
        throw new SystemError(
          `mem0 returned memory ${m.id ?? `#${i}`} without its text or membench's metadata ` +
            `(${PROVENANCE_KEYS.session}); the platform did not keep what was added`,
          this.id,
          "search",
        );
      }
      return {
        text: m.memory,
        score: typeof m.score === "number" && Number.isFinite(m.score) ? m.score : 0,
        kind: "memory",
        sessionIds: [p.sessionId],
        ...(p.turnIds.length ? { turnIds: p.turnIds } : {}),
        ...(p.time ? { time: p.time } : {}),
        meta: { memoryId: m.id, ...(m.categories ? { categories: m.categories } : {}) },
      };
    });
    // Ranked means best first with scores that never rise; the platform's order is kept for ties.
    return items
      .map((item, i) => ({ item, i }))
      .sort((a, b) => b.item.score - a.item.score || a.i - b.i)
      .slice(0, limit)
      .map(({ item }) => item);
  }

  async close(ns: string): Promise<void> {
    const space = this.spaces.drop(ns);
    if (!space || this.keepRemote) return;
    await this.caller.call("close", () => this.client.deleteAll({ userId: space.userId }));
  }

  info(): SystemInfo {
    return this.caller.info({
      name: "mem0 platform",
      endpoint: this.client.host,
      sdk: "mem0ai",
      ...(this.sdk ? { sdkVersion: this.sdk } : {}),
      apiKeyEnv: this.options.apiKeyEnv,
      userNames: `${this.options.namePrefix}-${this.spaces.tag}-<namespace>`,
    });
  }
}

/** mem0 posts usage telemetry to a third party unless told not to; a benchmark run sends nothing of the kind. */
export function silenceMem0Telemetry(env: NodeJS.ProcessEnv = process.env): void {
  env.MEM0_TELEMETRY = "false";
}

export async function createMem0System(
  options: Mem0Options,
  context: Pick<SystemContext, "keepRemote">,
  deps: Mem0Deps = {},
): Promise<Mem0System> {
  const apiKey = readApiKey("mem0", options.apiKeyEnv, deps.env);
  silenceMem0Telemetry();
  const sdk = await loadSdk<Mem0Module>("mem0", "mem0ai", MEM0_INSTALL, deps.importer ?? defaultImporter);
  const host = (options.baseUrl ?? DEFAULT_HOST).replace(/\/+$/, "");
  const client = new sdk.MemoryClient({ apiKey, host });
  const caller = new RemoteCaller({
    systemId: "mem0",
    concurrency: options.concurrency,
    retries: options.retries,
    keyEnv: options.apiKeyEnv,
    endpoint: host,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  // The client checks its key in the background and only logs a failure; check it here so a bad key stops the run.
  await caller.call("create", () => client.ping());
  return new Mem0System(client, caller, options, context.keepRemote === true, await sdkVersion("mem0ai"), deps.sleep);
}

export const mem0Definition: SystemDefinition<Mem0Options> = {
  id: "mem0",
  summary: "mem0's hosted platform (v3 API) through the mem0ai client; needs MEM0_API_KEY",
  options: Mem0Options,
  create: (options, context) => createMem0System(options, context),
  needsEmbedder: () => false,
};
