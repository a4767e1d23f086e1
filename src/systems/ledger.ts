/**
 * `ledger`: the MemorySystem adapter over our memory engine (src/ledger). One
 * in-memory SQLite store per system instance (set `path` for a file); each
 * namespace lives inside it, isolated, and is erased on close. Without an
 * embedder search is lexical only. With an extraction model, memories are
 * written by the LLM extractor and relations proposed by it (the interval logic
 * stays deterministic); without one, by the offline rules. With a query model,
 * each query is also rewritten into extra searches.
 */
import { z } from "zod";
import { ConfigError, SystemError } from "../core/errors.ts";
import type { Embedder } from "../embed/types.ts";
import { buildContext, memoriesById, renderBody } from "../ledger/context.ts";
import { LlmExtractor, LlmRelationProposer } from "../ledger/extract/llm.ts";
import { normaliseTime } from "../ledger/ids.ts";
import { Ledger, type LedgerOptions } from "../ledger/ledger.ts";
import { LlmQueryRewriter } from "../ledger/query-rewrite.ts";
import { RETRIEVAL_OVERRIDES, type RetrievalOverrides } from "../ledger/retrieval-overrides.ts";
import type { Hit } from "../ledger/types.ts";
import type { ChatModel } from "../llm/types.ts";
import { KeyedQueue } from "../util/keyed-queue.ts";
import type { SystemContext, SystemDefinition, SystemInfo } from "./definition.ts";
import { checkBatch } from "./history.ts";
import { resultLimit } from "./query.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

export interface LedgerSystemOptions {
  embedder?: Embedder;
  /** Token budget of `context()` (default 4000). */
  tokenBudget?: number;
  /** SQLite file of the store (default ":memory:"). */
  path?: string;
  ledger?: Omit<LedgerOptions, "path" | "embedder">;
  /** A model for the LLM extractor and relation proposer; the offline rules when absent. */
  extractionModel?: ChatModel;
  /** A model that rewrites each query into extra searches (query-rewrite.ts); none when absent. */
  queryModel?: ChatModel;
  /**
   * With a store that keeps a session's turns when extraction fails (`onExtractionError:
   * "keep-turns"`), fail the ingest anyway, saying why, so a caller that retries extracts again
   * (the service's protocol routes); by default such a session is kept without memories.
   */
  failOnExtractionError?: boolean;
}

export class LedgerSystem implements MemorySystem {
  readonly id = "ledger";
  readonly caps: SystemCaps = {
    granularity: "session",
    ranked: true,
    provenance: true,
    readback: true,
    nativeAnswer: false,
  };
  readonly ledger: Ledger;
  private readonly open_ = new Set<string>();
  private readonly writes = new KeyedQueue();
  private readonly tokenBudget: number;
  private readonly described: SystemInfo;
  private readonly failOnExtractionError: boolean;

  /** `ledger`: a store made elsewhere to work in (`membench serve`'s), instead of one made from the options. */
  constructor(options: LedgerSystemOptions = {}, ledger?: Ledger) {
    this.tokenBudget = options.tokenBudget ?? 4000;
    this.failOnExtractionError = options.failOnExtractionError ?? false;
    const model = options.extractionModel;
    this.described = {
      unit: "memory",
      extractor: model ? `llm (${model.id})` : "offline rules",
      embedder: options.embedder?.id ?? "none (lexical search only)",
      ...(options.queryModel ? { queryRewrite: `llm (${options.queryModel.id})` } : {}),
    };
    this.ledger =
      ledger ??
      new Ledger({
        ...(model ? { extractor: new LlmExtractor(model), proposer: new LlmRelationProposer(model) } : {}),
        ...(options.queryModel ? { rewriter: new LlmQueryRewriter(options.queryModel) } : {}),
        ...options.ledger,
        path: options.path,
        embedder: options.embedder,
      });
  }

  private need(ns: string, operation: string): void {
    if (!this.open_.has(ns)) {
      throw new SystemError(`namespace "${ns}" is not open; call open("${ns}") first`, this.id, operation);
    }
  }

  async open(ns: string): Promise<void> {
    if (typeof ns !== "string" || ns === "")
      throw new SystemError("a namespace must be a non-empty string", this.id, "open");
    this.open_.add(ns);
    this.ledger.open(ns);
  }

  async close(ns: string): Promise<void> {
    if (!this.open_.has(ns)) return;
    await this.writes.idle(ns);
    this.open_.delete(ns);
    this.ledger.drop(ns);
  }

  ingest(ns: string, batch: IngestBatch): Promise<void> {
    try {
      this.need(ns, "ingest");
      checkBatch(batch, this.id);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.writes.run(ns, async () => {
      const added = await this.ledger.add(ns, {
        sessionId: batch.sessionId,
        sessionIndex: batch.sessionIndex,
        time: batch.time,
        turns: batch.turns.map((t) => ({
          id: t.id,
          role: t.role,
          content: t.content,
          ...(t.speaker !== undefined ? { speaker: t.speaker } : {}),
          ...(t.time !== undefined ? { time: t.time } : {}),
        })),
      });
      if (added.extractionError && this.failOnExtractionError) {
        throw new SystemError(
          `session ${batch.sessionId}: stored without memories: ${added.extractionError}`,
          this.id,
          "ingest",
        );
      }
    });
  }

  async flush(ns: string): Promise<void> {
    this.need(ns, "flush");
    await this.writes.idle(ns);
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    this.need(ns, "search");
    const limit = resultLimit(q, this.id);
    await this.writes.idle(ns);
    if (limit === 0) return [];
    const k = Number.isFinite(limit) ? limit : 1000;
    const at = normaliseTime(q.time);
    const hits = await this.ledger.search(ns, q.text, { k, ...(at ? { at } : {}) });
    // The reader sees each memory's flags ("updated on …", "conflicts with …", "when …"), as of the question time.
    const byId = memoriesById(hits);
    return hits.map((hit) => toRetrieved(hit, renderBody(hit, byId, at)));
  }

  async readback(ns: string, sessionIds: string[]): Promise<Retrieved[]> {
    this.need(ns, "readback");
    await this.writes.idle(ns);
    const { turns, memories } = this.ledger.sessionContents(ns, sessionIds);
    const out: Retrieved[] = [];
    for (const t of turns) {
      out.push({
        text: `${t.speaker ?? t.role}: ${t.content}`,
        score: 1,
        ...(t.time ? { time: t.time } : {}),
        sessionIds: [t.sessionId],
        turnIds: [t.id],
        kind: "turn",
      });
    }
    for (const m of memories) {
      out.push({
        text: m.text,
        score: 1,
        ...(m.recordedAt ? { time: m.recordedAt } : {}),
        sessionIds: [m.sessionId],
        turnIds: [...m.turnIds],
        kind: "memory",
        meta: { memoryId: m.id, subject: m.subject, attribute: m.attribute, status: m.status },
      });
    }
    return out;
  }

  /** Who extracts, who rewrites queries, which embedder: recorded in the run snapshot. */
  info(): SystemInfo {
    return { ...this.described };
  }

  /** The rendered context of a search, within the budget, for readers that want it. */
  async context(ns: string, q: SearchQuery, tokenBudget = this.tokenBudget): Promise<string> {
    this.need(ns, "search");
    const at = normaliseTime(q.time);
    const hits = await this.ledger.search(ns, q.text, { k: q.k, ...(at ? { at } : {}) });
    return buildContext(hits, { tokenBudget, ...(at ? { at } : {}) }).text;
  }
}

export const LEDGER_EXTRACTORS = ["auto", "offline", "llm"] as const;
export type LedgerExtractorMode = (typeof LEDGER_EXTRACTORS)[number];

export const LEDGER_OPTIONS = z
  .object({
    extractor: z
      .enum(LEDGER_EXTRACTORS)
      .default("auto")
      .describe(
        "who writes the memories: auto (the run's model when one is configured, else the rules), llm (the model; needs one) or offline (the rules)",
      ),
    queryRewrite: z
      .boolean()
      .default(false)
      .describe("the model rewrites each query into extra searches (one call per probe; needs a model)"),
    retrieval: RETRIEVAL_OVERRIDES.optional().describe("overrides of the retrieval parameters (docs/ledger.md)"),
    vectors: z
      .boolean()
      .default(true)
      .describe("embed turns and memories with the run's --embedder; false searches lexically only"),
    tokenBudget: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("token budget of its context() (default: the run's --token-budget, else 4000)"),
  })
  .strict();

export type LedgerDefinitionOptions = z.infer<typeof LEDGER_OPTIONS>;

/** An option that calls the model is refused when none is configured, before any unit runs. */
function needModel(context: SystemContext, option: string, what: string): void {
  if (!context.modelStatus.configured || !context.model) {
    throw new ConfigError(`${what} needs a model (${context.modelStatus.detail})`, `ledger.${option}`);
  }
}

export const LEDGER_SYSTEM: SystemDefinition<LedgerDefinitionOptions> = {
  id: "ledger",
  summary: "membench's own memory engine: extracted memories with time and provenance (docs/ledger.md)",
  options: LEDGER_OPTIONS,
  needsEmbedder: (options) => options.vectors,
  async create(options, context) {
    if (options.extractor === "llm") needModel(context, "extractor", '"llm"');
    if (options.queryRewrite) needModel(context, "queryRewrite", "query rewrite");
    const model = context.modelStatus.configured ? context.model : undefined;
    return new LedgerSystem({
      ...(options.vectors ? { embedder: await context.embedder() } : {}),
      tokenBudget: options.tokenBudget ?? context.tokenBudget,
      ...(options.extractor !== "offline" && model ? { extractionModel: model } : {}),
      ...(options.queryRewrite && model ? { queryModel: model } : {}),
      ...(options.retrieval ? { ledger: { retrieval: options.retrieval as RetrievalOverrides } } : {}),
    });
  },
};

function toRetrieved(hit: Hit, text: string): Retrieved {
  return {
    text,
    score: hit.score,
    ...(hit.time ? { time: hit.time } : {}),
    sessionIds: [...hit.sessionIds],
    turnIds: [...hit.turnIds],
    kind: hit.kind,
    meta: {
      memories: hit.memories.map((m) => ({
        id: m.id,
        subject: m.subject,
        attribute: m.attribute,
        value: m.value,
        status: m.status,
        ...(m.condition ? { condition: m.condition } : {}),
      })),
      links: hit.links,
    },
  };
}
