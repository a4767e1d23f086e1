/**
 * `zep`: Zep Cloud through `@getzep/zep-cloud`.
 *
 * One Zep user per namespace, one thread per session. Turns go in as thread
 * messages (at most 30 a call, Zep's limit) with `created_at` set to the turn's
 * or session's date, the speaker as `name`, and membench's session and turn ids
 * in `metadata`; Zep builds the user's temporal knowledge graph from them in the
 * background, and `flush` polls the thread until every message is `processed`.
 * `search` is a graph search over edges (facts): an edge's `valid_at` becomes the
 * item's `time` and `invalid_at`/`expired_at` go to `meta`; its `episodes` are the
 * provenance, each episode read once (`graph.episode.get`) to learn its thread,
 * hence its session, and from its metadata its turn. `close` deletes the user,
 * which deletes its threads and graph, unless `keepRemote`.
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
import { defaultImporter, type Importer, loadSdk, sdkVersion } from "./remote/sdk.ts";
import { checkedLimit, RemoteSpaces } from "./remote/spaces.ts";
import { isoTime, rankScore } from "./remote/text.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

export const ZEP_INSTALL = "npm install @getzep/zep-cloud@3";
/** Zep takes at most this many messages per add and returns at most this many facts per search. */
const MESSAGES_PER_CALL = 30;
const MAX_FACTS = 50;

export const ZepOptions = z.strictObject({
  ...remoteOptionShape("ZEP_API_KEY"),
  /** Graph search reranker (Zep's default is rrf; its own LoCoMo harness used cross_encoder). */
  reranker: z.enum(["rrf", "mmr", "node_distance", "episode_mentions", "cross_encoder"]).optional(),
  /** Longest message Zep accepts on the account's plan (2,500 free, 14,000 paid); a longer turn is an error, never cut. */
  maxMessageChars: z.number().int().positive().default(14_000),
});
export type ZepOptions = z.infer<typeof ZepOptions>;

interface ZepMessage {
  uuid?: string;
  processed?: boolean;
}
interface ZepEdge {
  uuid: string;
  fact: string;
  name?: string;
  score?: number;
  validAt?: string;
  invalidAt?: string;
  expiredAt?: string;
  episodes?: string[];
}
interface ZepEpisode {
  uuid: string;
  threadId?: string;
  metadata?: Record<string, unknown>;
}
type Opts = { maxRetries: number };

/** The part of ZepClient this adapter uses. */
interface ZepClientLike {
  project: { get(o?: Opts): Promise<{ project?: { name?: string; uuid?: string } }> };
  user: {
    add(r: { userId: string; metadata?: Record<string, unknown> }, o?: Opts): Promise<unknown>;
    delete(userId: string, o?: Opts): Promise<unknown>;
  };
  thread: {
    create(r: { threadId: string; userId: string }, o?: Opts): Promise<unknown>;
    addMessages(
      threadId: string,
      r: { messages: Record<string, unknown>[] },
      o?: Opts,
    ): Promise<{ messageUuids?: string[] }>;
    get(threadId: string, r: { lastn?: number }, o?: Opts): Promise<{ messages?: ZepMessage[] }>;
  };
  graph: {
    search(r: Record<string, unknown>, o?: Opts): Promise<{ edges?: ZepEdge[] }>;
    episode: { get(uuid: string, o?: Opts): Promise<ZepEpisode> };
  };
}
interface ZepModule {
  ZepClient: new (options: { apiKey: string; baseUrl?: string }) => ZepClientLike;
}

interface Thread {
  id: string;
  sessionId: string;
  /** Messages added since the last flush that Zep has not processed yet. */
  pending: Set<string>;
}
interface Space {
  userId: string;
  threads: Map<string, Thread>;
  /** Episode uuid → where it came from, read once. */
  episodes: Map<string, { sessionId: string; turnId?: string }>;
}

const NO_SDK_RETRY: Opts = { maxRetries: 0 };
const ROLES = new Set(["user", "assistant", "system"]);

export interface ZepDeps {
  importer?: Importer;
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number) => Promise<void>;
}

export class ZepSystem implements MemorySystem {
  readonly id = "zep";
  readonly caps: SystemCaps = hostedCaps();
  private readonly spaces: RemoteSpaces<Space>;

  constructor(
    private readonly client: ZepClientLike,
    private readonly caller: RemoteCaller,
    private readonly options: ZepOptions,
    private readonly keepRemote: boolean,
    private readonly describe: SystemInfo,
    private readonly sleep?: (ms: number) => Promise<void>,
  ) {
    this.spaces = new RemoteSpaces(this.id, options.namePrefix);
  }

  async open(ns: string): Promise<void> {
    if (this.spaces.has(ns)) return;
    const userId = this.spaces.nameFor(ns);
    await this.caller.call("open", () =>
      this.client.user.add({ userId, metadata: { created_by: "membench", namespace: ns } }, NO_SDK_RETRY),
    );
    this.spaces.set(ns, { userId, threads: new Map(), episodes: new Map() });
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    const space = this.spaces.get(ns, "ingest");
    checkBatch(batch, this.id);
    for (const turn of batch.turns) {
      if (turn.content.length > this.options.maxMessageChars) {
        throw new SystemError(
          `turn ${turn.id} has ${turn.content.length} characters, more than the ${this.options.maxMessageChars} Zep accepts (maxMessageChars); it is not cut`,
          this.id,
          "ingest",
        );
      }
    }
    let thread = space.threads.get(batch.sessionId);
    if (!thread) {
      const id = `${space.userId}-s${space.threads.size + 1}`;
      await this.caller.call("ingest", () =>
        this.client.thread.create({ threadId: id, userId: space.userId }, NO_SDK_RETRY),
      );
      thread = { id, sessionId: batch.sessionId, pending: new Set() };
      space.threads.set(batch.sessionId, thread);
    }
    const turns = batch.turns.filter((t) => t.content.trim() !== "");
    for (let i = 0; i < turns.length; i += MESSAGES_PER_CALL) {
      const chunk = turns.slice(i, i + MESSAGES_PER_CALL);
      const messages = chunk.map((t) => {
        const createdAt = isoTime(t.time ?? batch.time);
        return {
          role: ROLES.has(t.role) ? t.role : "user",
          content: t.content,
          ...(t.speaker ? { name: t.speaker } : {}),
          ...(createdAt ? { createdAt } : {}),
          metadata: { membench_session: batch.sessionId, membench_turn: t.id },
        };
      });
      const current = thread;
      const response = await this.caller.call("ingest", () =>
        this.client.thread.addMessages(current.id, { messages }, NO_SDK_RETRY),
      );
      const uuids = response?.messageUuids ?? [];
      if (uuids.length !== chunk.length) {
        throw new SystemError(
          `Zep stored ${uuids.length} of ${chunk.length} messages in thread ${current.id}`,
          this.id,
          "ingest",
        );
      }
      for (const uuid of uuids) current.pending.add(uuid);
    }
  }

  async flush(ns: string): Promise<void> {
    const space = this.spaces.get(ns, "flush");
    const threads = [...space.threads.values()].filter((t) => t.pending.size > 0);
    if (threads.length === 0) return;
    await pollUntilDone(
      `Zep graph processing of the messages of ${space.userId}`,
      async () => {
        let waiting = 0;
        for (const thread of threads) {
          if (thread.pending.size === 0) continue;
          const { messages = [] } = await this.caller.call("flush", () =>
            this.client.thread.get(thread.id, { lastn: thread.pending.size }, NO_SDK_RETRY),
          );
          for (const m of messages) if (m.uuid && m.processed === true) thread.pending.delete(m.uuid);
          waiting += thread.pending.size;
        }
        return waiting === 0 ? { done: true } : { done: false, pending: `${waiting} message(s) not processed` };
      },
      {
        systemId: this.id,
        intervalMs: this.options.pollIntervalMs,
        timeoutMs: this.options.flushTimeoutMs,
        ...(this.sleep ? { sleep: this.sleep } : {}),
      },
    );
  }

  private async provenance(space: Space, uuids: string[]): Promise<{ sessionIds: string[]; turnIds: string[] }> {
    const threadToSession = new Map([...space.threads.values()].map((t) => [t.id, t.sessionId]));
    const sessionIds = new Set<string>();
    const turnIds = new Set<string>();
    for (const uuid of uuids) {
      let known = space.episodes.get(uuid);
      if (!known) {
        const episode = await this.caller.call("search", () => this.client.graph.episode.get(uuid, NO_SDK_RETRY));
        const meta = episode.metadata ?? {};
        const sessionId =
          (episode.threadId ? threadToSession.get(episode.threadId) : undefined) ??
          (typeof meta.membench_session === "string" ? meta.membench_session : undefined);
        if (sessionId === undefined) {
          throw new SystemError(
            `episode ${uuid} of ${space.userId}'s graph comes from no thread membench made (thread ${episode.threadId ?? "none"})`,
            this.id,
            "search",
          );
        }
        known = { sessionId, ...(typeof meta.membench_turn === "string" ? { turnId: meta.membench_turn } : {}) };
        space.episodes.set(uuid, known);
      }
      sessionIds.add(known.sessionId);
      if (known.turnId) turnIds.add(known.turnId);
    }
    return { sessionIds: [...sessionIds], turnIds: [...turnIds] };
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const space = this.spaces.get(ns, "search");
    const limit = checkedLimit(resultLimit(q, this.id), MAX_FACTS, this.id, "facts");
    if (limit === 0 || q.text.trim() === "") return [];
    const { edges = [] } = await this.caller.call("search", () =>
      this.client.graph.search(
        {
          userId: space.userId,
          query: q.text,
          limit,
          scope: "edges",
          ...(this.options.reranker ? { reranker: this.options.reranker } : {}),
        },
        NO_SDK_RETRY,
      ),
    );
    const items: Retrieved[] = [];
    for (const [i, edge] of edges.slice(0, limit).entries()) {
      const { sessionIds, turnIds } = await this.provenance(space, edge.episodes ?? []);
      items.push({
        text: edge.fact,
        // Zep's own score is a reranker output (an RRF rank, or a cross-encoder logit); its order is what counts.
        score: rankScore(i),
        kind: "memory",
        ...(sessionIds.length ? { sessionIds } : {}),
        ...(turnIds.length ? { turnIds } : {}),
        ...(edge.validAt ? { time: edge.validAt } : {}),
        meta: {
          edgeUuid: edge.uuid,
          ...(edge.name ? { relation: edge.name } : {}),
          ...(edge.validAt ? { validAt: edge.validAt } : {}),
          ...(edge.invalidAt ? { invalidAt: edge.invalidAt } : {}),
          ...(edge.expiredAt ? { expiredAt: edge.expiredAt } : {}),
          ...(typeof edge.score === "number" ? { zepScore: edge.score } : {}),
        },
      });
    }
    return items;
  }

  async close(ns: string): Promise<void> {
    const space = this.spaces.drop(ns);
    if (!space || this.keepRemote) return;
    await this.caller.call("close", () => this.client.user.delete(space.userId, NO_SDK_RETRY));
  }

  info(): SystemInfo {
    return this.caller.info(this.describe);
  }
}

export async function createZepSystem(
  options: ZepOptions,
  context: Pick<SystemContext, "keepRemote">,
  deps: ZepDeps = {},
): Promise<ZepSystem> {
  const apiKey = readApiKey("zep", options.apiKeyEnv, deps.env);
  const sdk = await loadSdk<ZepModule>("zep", "@getzep/zep-cloud", ZEP_INSTALL, deps.importer ?? defaultImporter);
  const endpoint = options.baseUrl ?? "https://api.getzep.com/api/v2";
  const client = new sdk.ZepClient({ apiKey, ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}) });
  const caller = new RemoteCaller({
    systemId: "zep",
    concurrency: options.concurrency,
    retries: options.retries,
    keyEnv: options.apiKeyEnv,
    endpoint,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  // Checks the key and the project it belongs to before any data moves.
  const { project } = await caller.call("create", () => client.project.get(NO_SDK_RETRY));
  if (!project?.uuid) {
    throw new SystemError(`${endpoint} names no project for this key`, "zep", "create");
  }
  const version = await sdkVersion("@getzep/zep-cloud");
  return new ZepSystem(
    client,
    caller,
    options,
    context.keepRemote === true,
    {
      name: "Zep Cloud",
      endpoint,
      project: project.name ?? project.uuid,
      sdk: "@getzep/zep-cloud",
      ...(version ? { sdkVersion: version } : {}),
      apiKeyEnv: options.apiKeyEnv,
      reranker: options.reranker ?? "rrf (Zep's default)",
    },
    deps.sleep,
  );
}

export const zepDefinition: SystemDefinition<ZepOptions> = {
  id: "zep",
  summary: "Zep Cloud (threads and its temporal knowledge graph) through @getzep/zep-cloud; needs ZEP_API_KEY",
  options: ZepOptions,
  create: (options, context) => createZepSystem(options, context),
  needsEmbedder: () => false,
};
