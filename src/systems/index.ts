/**
 * The system registry: the one place the CLI and the runner look memory systems up.
 * Adding a system is one file plus one line here.
 */
import { ConfigError } from "../core/errors.ts";
import type { Embedder } from "../embed/types.ts";
import type { RetrievalOverrides } from "../ledger/retrieval-overrides.ts";
import type { ChatModel } from "../llm/types.ts";
import { Bm25System } from "./bm25.ts";
import type { SystemContext, SystemDefinition } from "./definition.ts";
import { DenseSystem } from "./dense.ts";
import { FullContextSystem } from "./full-context.ts";
import { HybridSystem } from "./hybrid.ts";
import { LedgerSystem } from "./ledger.ts";
import { lettaDefinition } from "./letta.ts";
import { mem0Definition } from "./mem0.ts";
import { mem0OssDefinition } from "./mem0-oss.ts";
import { NoneSystem } from "./none.ts";
import { supermemoryDefinition } from "./supermemory.ts";
import type { MemorySystem } from "./types.ts";
import { zepDefinition } from "./zep.ts";

export interface SystemOptions {
  /** Needed by dense and hybrid systems. */
  embedder?: Embedder;
  /** full-context: o200k tokens returned at most (default 128000). */
  tokenBudget?: number;
  /** ledger: the model that extracts memories and proposes relations; the offline rules when absent. */
  extractionModel?: ChatModel;
  /** ledger: overrides of its retrieval parameters (`--ledger-retrieval`). */
  ledgerRetrieval?: RetrievalOverrides;
  /** ledger: the model that rewrites each query into extra searches (`--ledger-query-rewrite`); none when absent. */
  queryModel?: ChatModel;
}

export type SystemFactory = (options: SystemOptions) => MemorySystem;

export const SYSTEMS: Readonly<Record<string, SystemFactory>> = {
  none: () => new NoneSystem(),
  "full-context": (o) => new FullContextSystem({ tokenBudget: o.tokenBudget }),
  bm25: () => new Bm25System({ unit: "turn" }),
  "bm25-session": () => new Bm25System({ unit: "session" }),
  dense: (o) => new DenseSystem({ embedder: o.embedder, unit: "turn" }),
  "dense-session": (o) => new DenseSystem({ embedder: o.embedder, unit: "session" }),
  hybrid: (o) => new HybridSystem({ embedder: o.embedder, unit: "turn" }),
  "hybrid-session": (o) => new HybridSystem({ embedder: o.embedder, unit: "session" }),
  ledger: (o) =>
    new LedgerSystem({
      embedder: o.embedder,
      tokenBudget: o.tokenBudget,
      extractionModel: o.extractionModel,
      ...(o.queryModel ? { queryModel: o.queryModel } : {}),
      ...(o.ledgerRetrieval ? { ledger: { retrieval: o.ledgerRetrieval } } : {}),
    }),
  // Still to come, each one file plus one line here:
  // http / mem0 / zep / letta / supermemory       external systems over HTTP
};

export function systemIds(): string[] {
  return Object.keys(SYSTEMS);
}

export function createSystem(id: string, options: SystemOptions = {}): MemorySystem {
  const factory = Object.hasOwn(SYSTEMS, id) ? SYSTEMS[id] : undefined;
  if (!factory && adapterDefinition(id)) {
    throw new ConfigError(
      `system "${id}" is an adapter, made asynchronously: use createAdapterSystem("${id}", …)`,
      "system",
    );
  }
  if (!factory) throw new ConfigError(`unknown system "${id}"; known: ${systemIds().join(", ")}`, "system");
  return factory(options);
}

// Adapters for the systems the papers compare, each a SystemDefinition with its own options schema.
// (The registry of definitions will take these in; until then they are listed here.)
// biome-ignore lint/suspicious/noExplicitAny: each definition has its own options type
export const ADAPTERS: readonly SystemDefinition<any>[] = [
  mem0Definition,
  mem0OssDefinition,
  zepDefinition,
  lettaDefinition,
  supermemoryDefinition,
];

export function adapterDefinition(id: string): SystemDefinition<unknown> | undefined {
  return ADAPTERS.find((d) => d.id === id);
}

/** Makes an adapter system: its options checked by its schema, then its (async) create. */
export async function createAdapterSystem(id: string, options: unknown, context: SystemContext): Promise<MemorySystem> {
  const definition = adapterDefinition(id);
  if (!definition) {
    throw new ConfigError(`unknown adapter "${id}"; known: ${ADAPTERS.map((d) => d.id).join(", ")}`, "system");
  }
  const parsed = definition.options
    ? definition.options.safeParse(options ?? {})
    : { success: true as const, data: options };
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(options)"}: ${i.message}`).join("; ");
    throw new ConfigError(issues, `system ${id} options`);
  }
  return definition.create(parsed.data, context);
}

export { type Bm25Options, type Bm25Params, Bm25Ranker, Bm25System } from "./bm25.ts";
export {
  assertConformance,
  CONFORMANCE_CHECKS,
  CONFORMANCE_HISTORY,
  type ConformanceCheck,
  type ConformanceCheckName,
  type ConformanceFactory,
  type ConformanceOptions,
  type ConformanceReport,
  type ConformanceSession,
  runConformance,
} from "./conformance.ts";
export { DEFAULT_EMBED_BATCH, type DenseOptions, DenseRanker, DenseSystem } from "./dense.ts";
export { DEFAULT_TOKEN_BUDGET, type FullContextOptions, FullContextSystem } from "./full-context.ts";
export { fusionDepth, type HybridOptions, HybridSystem } from "./hybrid.ts";
export { NoneSystem } from "./none.ts";
export { type Ranker, RetrievalSystem } from "./retrieval-system.ts";
export { RRF_K, reciprocalRankFusion } from "./rrf.ts";
export { lexicalTokens, STOPWORDS } from "./tokenize.ts";
export type * from "./types.ts";
