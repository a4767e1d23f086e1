/**
 * The system registry: the one place the CLI and the runner look memory systems up.
 * Adding a system is one file plus one line here.
 */
import { ConfigError } from "../core/errors.ts";
import type { Embedder } from "../embed/types.ts";
import type { RetrievalOverrides } from "../ledger/retrieval-overrides.ts";
import type { ChatModel } from "../llm/types.ts";
import { Bm25System } from "./bm25.ts";
import { DenseSystem } from "./dense.ts";
import { FullContextSystem } from "./full-context.ts";
import { HybridSystem } from "./hybrid.ts";
import { LedgerSystem } from "./ledger.ts";
import { NoneSystem } from "./none.ts";
import type { MemorySystem } from "./types.ts";

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
  if (!factory) throw new ConfigError(`unknown system "${id}"; known: ${systemIds().join(", ")}`, "system");
  return factory(options);
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
export type * from "./definition.ts";
export { DEFAULT_EMBED_BATCH, type DenseOptions, DenseRanker, DenseSystem } from "./dense.ts";
export { DEFAULT_TOKEN_BUDGET, type FullContextOptions, FullContextSystem } from "./full-context.ts";
export { fusionDepth, type HybridOptions, HybridSystem } from "./hybrid.ts";
export { NoneSystem } from "./none.ts";
export { type Ranker, RetrievalSystem } from "./retrieval-system.ts";
export { RRF_K, reciprocalRankFusion } from "./rrf.ts";
export { lexicalTokens, STOPWORDS } from "./tokenize.ts";
export type * from "./types.ts";
