/**
 * `letta`: a Letta agent per namespace, through `@letta-ai/letta-client`.
 *
 * History goes into the agent's archival memory: each session is written as
 * passages of up to `turnsPerPassage` turns (MemConflict's harness used 8-message
 * batches), one `speaker: content` line per turn, with `created_at` set to the
 * session's date and the tags `membench` and `session:<id>`. Letta embeds a
 * passage while it is created, so there is no background work and no `flush`.
 * `search` is the agent's archival search (`top_k = k`), best first; a passage's
 * session and turns come from what was written (kept by passage id), its session
 * also from its tag. `answer` messages the agent with the question and returns
 * its assistant message: Letta answers natively, searching its own archive with
 * its tools. `close` deletes the agent, unless `keepRemote`.
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
import { defaultImporter, type Importer, loadSdk, sdkVersion } from "./remote/sdk.ts";
import { RemoteSpaces } from "./remote/spaces.ts";
import { isoTime, rankScore, turnLine } from "./remote/text.ts";
import type { IngestBatch, MemorySystem, ProbeView, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

export const LETTA_INSTALL = "npm install @letta-ai/letta-client@1";
const SESSION_TAG = "session:";

export const LettaOptions = z.strictObject({
  ...remoteOptionShape("LETTA_API_KEY"),
  /** Letta Cloud project the agents are made in (sent as X-Project-Id). */
  project: z.string().min(1).optional(),
  /** The agent's model handle (MemConflict's harness: openai/gpt-4o-mini). */
  model: z.string().min(1).default("openai/gpt-4o-mini"),
  /** The agent's embedding handle (MemConflict's harness: openai/text-embedding-3-small). */
  embedding: z.string().min(1).default("openai/text-embedding-3-small"),
  /** Turns per archival passage. */
  turnsPerPassage: z.number().int().min(1).max(100).default(8),
  /** Longest passage written; a session is split further to stay under it, a single longer turn is an error. */
  maxPassageChars: z.number().int().positive().default(8000),
});
export type LettaOptions = z.infer<typeof LettaOptions>;

interface SearchResult {
  id: string;
  content: string;
  timestamp?: string;
  tags?: string[];
}
interface LettaMessage {
  message_type?: string;
  content?: string | { type?: string; text?: string }[];
}

/** The part of the Letta client this adapter uses. */
interface LettaClient {
  agents: {
    list(query: { limit: number }): Promise<unknown>;
    create(body: Record<string, unknown>): Promise<{ id: string }>;
    delete(agentId: string): Promise<unknown>;
    passages: {
      create(agentId: string, body: { text: string; created_at?: string; tags?: string[] }): Promise<{ id?: string }[]>;
      search(
        agentId: string,
        query: { query: string; top_k: number },
      ): Promise<{ count?: number; results: SearchResult[] }>;
    };
    messages: {
      create(
        agentId: string,
        body: { messages: { role: "user"; content: string }[] },
      ): Promise<{ messages: LettaMessage[]; stop_reason?: { stop_reason?: string } }>;
    };
  };
}
interface LettaModule {
  Letta: new (options: { apiKey: string; baseURL?: string; maxRetries: number; projectID?: string }) => LettaClient;
}

interface Written {
  sessionId: string;
  turnIds: string[];
  time?: string;
}
interface Space {
  agentId: string;
  passages: Map<string, Written>;
}

export interface LettaDeps {
  importer?: Importer;
  env?: NodeJS.ProcessEnv;
  sleep?: (ms: number) => Promise<void>;
}

const PERSONA =
  "I am a helpful assistant with a long memory. My archival memory holds my past conversations with the user, each dated; I search it before answering questions about the past.";

function assistantText(messages: LettaMessage[]): string {
  const parts: string[] = [];
  for (const m of messages) {
    if (m.message_type !== "assistant_message") continue;
    if (typeof m.content === "string") parts.push(m.content);
    else if (Array.isArray(m.content)) for (const c of m.content) if (typeof c.text === "string") parts.push(c.text);
  }
  return parts.join("\n").trim();
}

export class LettaSystem implements MemorySystem {
  readonly id = "letta";
  readonly caps: SystemCaps = hostedCaps({ nativeAnswer: true });
  private readonly spaces: RemoteSpaces<Space>;

  constructor(
    private readonly client: LettaClient,
    private readonly caller: RemoteCaller,
    private readonly options: LettaOptions,
    private readonly keepRemote: boolean,
    private readonly describe: SystemInfo,
  ) {
    this.spaces = new RemoteSpaces(this.id, options.namePrefix);
  }

  async open(ns: string): Promise<void> {
    if (this.spaces.has(ns)) return;
    const name = this.spaces.nameFor(ns);
    const agent = await this.caller.call("open", () =>
      this.client.agents.create({
        name,
        model: this.options.model,
        embedding: this.options.embedding,
        memory_blocks: [
          { label: "human", value: "" },
          { label: "persona", value: PERSONA },
        ],
        tags: ["membench"],
      }),
    );
    if (typeof agent?.id !== "string") throw new SystemError("Letta made an agent without an id", this.id, "open");
    this.spaces.set(ns, { agentId: agent.id, passages: new Map() });
  }

  /** The session's turns in passages of at most `turnsPerPassage` turns and `maxPassageChars` characters. */
  private passagesOf(batch: IngestBatch): { text: string; turnIds: string[] }[] {
    const out: { text: string; turnIds: string[] }[] = [];
    let lines: string[] = [];
    let ids: string[] = [];
    const push = () => {
      if (lines.length) out.push({ text: lines.join("\n"), turnIds: ids });
      lines = [];
      ids = [];
    };
    for (const turn of batch.turns) {
      if (turn.content.trim() === "") continue;
      const line = turnLine(turn);
      if (line.length > this.options.maxPassageChars) {
        throw new SystemError(
          `turn ${turn.id} is ${line.length} characters, more than maxPassageChars (${this.options.maxPassageChars}); it is not cut`,
          this.id,
          "ingest",
        );
      }
      const size = lines.reduce((n, l) => n + l.length + 1, 0) + line.length;
      if (lines.length >= this.options.turnsPerPassage || size > this.options.maxPassageChars) push();
      lines.push(line);
      ids.push(turn.id);
    }
    push();
    return out;
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    const space = this.spaces.get(ns, "ingest");
    checkBatch(batch, this.id);
    const time = isoTime(batch.time ?? batch.turns[0]?.time);
    for (const passage of this.passagesOf(batch)) {
      const created = await this.caller.call("ingest", () =>
        this.client.agents.passages.create(space.agentId, {
          text: passage.text,
          ...(time ? { created_at: time } : {}),
          tags: ["membench", `${SESSION_TAG}${batch.sessionId}`],
        }),
      );
      const ids = (Array.isArray(created) ? created : []).map((p) => p.id).filter((id): id is string => !!id);
      if (ids.length === 0) throw new SystemError("Letta stored the passage but returned no id", this.id, "ingest");
      for (const id of ids) {
        space.passages.set(id, { sessionId: batch.sessionId, turnIds: passage.turnIds, ...(time ? { time } : {}) });
      }
    }
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const space = this.spaces.get(ns, "search");
    const limit = resultLimit(q, this.id);
    if (!Number.isFinite(limit)) {
      throw new SystemError("k must be finite: Letta's archival search returns top_k passages", this.id, "search");
    }
    if (limit === 0 || q.text.trim() === "") return [];
    const { results } = await this.caller.call("search", () =>
      this.client.agents.passages.search(space.agentId, { query: q.text, top_k: limit }),
    );
    if (!Array.isArray(results))
      throw new SystemError("Letta's archival search answered without results", this.id, "search");
    return results.slice(0, limit).map((r, i): Retrieved => {
      const written = space.passages.get(r.id);
      const tagged = r.tags?.find((t) => t.startsWith(SESSION_TAG))?.slice(SESSION_TAG.length);
      const sessionId = written?.sessionId ?? tagged;
      if (sessionId === undefined) {
        throw new SystemError(`Letta returned passage ${r.id}, which membench did not write`, this.id, "search");
      }
      return {
        text: r.content,
        score: rankScore(i),
        kind: "chunk",
        sessionIds: [sessionId],
        ...(written?.turnIds.length ? { turnIds: written.turnIds } : {}),
        ...(written?.time ? { time: written.time } : {}),
        meta: { passageId: r.id, ...(r.timestamp ? { lettaTimestamp: r.timestamp } : {}) },
      };
    });
  }

  async answer(ns: string, probe: ProbeView): Promise<string> {
    const space = this.spaces.get(ns, "answer");
    const response = await this.caller.call("answer", () =>
      this.client.agents.messages.create(space.agentId, { messages: [{ role: "user", content: probe.question }] }),
    );
    const stop = response?.stop_reason?.stop_reason;
    if (stop !== undefined && stop !== "end_turn") {
      throw new SystemError(`the Letta agent stopped with ${stop} on probe ${probe.id}`, this.id, "answer");
    }
    const text = assistantText(response?.messages ?? []);
    if (text === "")
      throw new SystemError(`the Letta agent gave no assistant message for probe ${probe.id}`, this.id, "answer");
    return text;
  }

  async close(ns: string): Promise<void> {
    const space = this.spaces.drop(ns);
    if (!space || this.keepRemote) return;
    await this.caller.call("close", () => this.client.agents.delete(space.agentId));
  }

  info(): SystemInfo {
    return this.caller.info(this.describe);
  }
}

export async function createLettaSystem(
  options: LettaOptions,
  context: Pick<SystemContext, "keepRemote">,
  deps: LettaDeps = {},
): Promise<LettaSystem> {
  const apiKey = readApiKey("letta", options.apiKeyEnv, deps.env);
  const sdk = await loadSdk<LettaModule>(
    "letta",
    "@letta-ai/letta-client",
    LETTA_INSTALL,
    deps.importer ?? defaultImporter,
  );
  const endpoint = options.baseUrl ?? "https://api.letta.com";
  // The SDK's own retries are off: one policy (ours) for every adapter.
  const client = new sdk.Letta({
    apiKey,
    baseURL: endpoint,
    maxRetries: 0,
    ...(options.project ? { projectID: options.project } : {}),
  });
  const caller = new RemoteCaller({
    systemId: "letta",
    concurrency: options.concurrency,
    retries: options.retries,
    keyEnv: options.apiKeyEnv,
    endpoint,
    ...(deps.sleep ? { sleep: deps.sleep } : {}),
  });
  // Checks the key (and the project, when one is named) before any agent is made.
  await caller.call("create", () => client.agents.list({ limit: 1 }));
  const version = await sdkVersion("@letta-ai/letta-client");
  return new LettaSystem(client, caller, options, context.keepRemote === true, {
    name: "Letta",
    endpoint,
    sdk: "@letta-ai/letta-client",
    ...(version ? { sdkVersion: version } : {}),
    apiKeyEnv: options.apiKeyEnv,
    model: options.model,
    embedding: options.embedding,
    ...(options.project ? { project: options.project } : {}),
  });
}

export const lettaDefinition: SystemDefinition<LettaOptions> = {
  id: "letta",
  summary: "a Letta agent per namespace (archival passages, archival search, native answers); needs LETTA_API_KEY",
  options: LettaOptions,
  create: (options, context) => createLettaSystem(options, context),
  needsEmbedder: () => false,
};
