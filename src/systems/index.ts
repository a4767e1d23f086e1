/**
 * The system registry: the one place the CLI and the runner look memory systems
 * up by id. Each entry is a SystemDefinition (its options schema, how to make
 * it); a user's module, an HTTP server or `registerSystem()` adds more without
 * editing this file (docs/systems.md). Adding a built-in is one file plus one
 * line in BUILT_IN_SYSTEMS.
 */
import { ConfigError } from "../core/errors.ts";
import { BM25_SESSION_SYSTEM, BM25_SYSTEM } from "./bm25.ts";
import type { SystemContext } from "./definition.ts";
import { DENSE_SESSION_SYSTEM, DENSE_SYSTEM } from "./dense.ts";
import { FULL_CONTEXT_SYSTEM } from "./full-context.ts";
import { HYBRID_SESSION_SYSTEM, HYBRID_SYSTEM } from "./hybrid.ts";
import { LEDGER_SYSTEM } from "./ledger.ts";
import { lettaDefinition } from "./letta.ts";
import { mem0Definition } from "./mem0.ts";
import { mem0OssDefinition } from "./mem0-oss.ts";
import { NONE_SYSTEM } from "./none.ts";
import { ANY_OPTIONS, type AnySystemDefinition } from "./options.ts";
import { isModulePath } from "./spec.ts";
import { supermemoryDefinition } from "./supermemory.ts";
import type { MemorySystem } from "./types.ts";
import { zepDefinition } from "./zep.ts";

const BUILT_IN_SYSTEMS: readonly AnySystemDefinition[] = [
  NONE_SYSTEM,
  FULL_CONTEXT_SYSTEM,
  BM25_SYSTEM,
  BM25_SESSION_SYSTEM,
  DENSE_SYSTEM,
  DENSE_SESSION_SYSTEM,
  HYBRID_SYSTEM,
  HYBRID_SESSION_SYSTEM,
  LEDGER_SYSTEM,
];

/**
 * Adapters for the systems the papers compare: each SDK is an optional peer
 * dependency, imported by the adapter's `create` only when it is chosen.
 */
export const ADAPTERS: readonly AnySystemDefinition[] = [
  mem0Definition,
  mem0OssDefinition,
  zepDefinition,
  lettaDefinition,
  supermemoryDefinition,
];

const registry = new Map<string, AnySystemDefinition>([...BUILT_IN_SYSTEMS, ...ADAPTERS].map((d) => [d.id, d]));

/** How a registered factory makes a system: its options as given (unchecked) and the run's context. */
export type SystemFactory = (
  options: Record<string, unknown>,
  context: SystemContext,
) => MemorySystem | Promise<MemorySystem>;

const ID = /^[A-Za-z0-9._-]+$/;

/**
 * Adds a system to the registry, so `--system`, `startRun` and `createSystem`
 * know it by id: `registerSystem(definition)` (with an options schema), or
 * `registerSystem(id, factory, summary?)`. An id already taken is refused,
 * unless it is the same definition again.
 */
export function registerSystem(definition: AnySystemDefinition): void;
export function registerSystem(id: string, factory: SystemFactory, summary?: string): void;
export function registerSystem(first: AnySystemDefinition | string, factory?: SystemFactory, summary?: string): void {
  const definition: AnySystemDefinition =
    typeof first === "string"
      ? {
          id: first,
          summary: summary ?? `registered with registerSystem("${first}", factory)`,
          options: ANY_OPTIONS,
          create: (options, context) => {
            if (typeof factory !== "function") throw new ConfigError("registerSystem(id, factory): no factory", first);
            return factory(options as Record<string, unknown>, context);
          },
        }
      : first;
  if (typeof definition?.id !== "string" || typeof definition.create !== "function") {
    throw new ConfigError(
      "registerSystem takes a SystemDefinition ({ id, summary, create }) or (id, factory)",
      "system",
    );
  }
  if (typeof first === "string" && typeof factory !== "function") {
    throw new ConfigError(`registerSystem("${first}", factory): the factory must be a function`, "system");
  }
  const id = definition.id;
  if (!ID.test(id) || isModulePath(id) || /^https?$/i.test(id)) {
    throw new ConfigError(
      `"${id}" cannot be a system id: letters, digits, ".", "_" and "-" only, and not a file name`,
      "system",
    );
  }
  const existing = registry.get(id);
  if (existing && existing !== definition) {
    throw new ConfigError(`a system "${id}" is registered already; choose another id`, "system");
  }
  registry.set(id, definition);
}

/** Removes a system added with registerSystem (tests, plug-in reloads); built-ins stay. */
export function unregisterSystem(id: string): boolean {
  if ([...BUILT_IN_SYSTEMS, ...ADAPTERS].some((d) => d.id === id)) return false;
  return registry.delete(id);
}

export function getSystemDefinition(id: string): AnySystemDefinition | undefined {
  return registry.get(id);
}

/** Every registered definition, built-ins first, in registration order. */
export function systemDefinitions(): AnySystemDefinition[] {
  return [...registry.values()];
}

export function systemIds(): string[] {
  return [...registry.keys()];
}

export { lexicalTokens, STOPWORDS } from "../text/tokenize.ts";
export { BM25_SESSION_SYSTEM, BM25_SYSTEM, type Bm25Options, type Bm25Params, Bm25Ranker, Bm25System } from "./bm25.ts";
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
export { formatConformance, type SystemConformance, systemConformance } from "./conformance-systems.ts";
export { type SystemContextInput, systemContext } from "./context.ts";
export { type CreateSystemOptions, createSystem } from "./create.ts";
export type { ModelEndpoint, SystemContext, SystemDefinition, SystemInfo } from "./definition.ts";
export {
  DEFAULT_EMBED_BATCH,
  DENSE_SESSION_SYSTEM,
  DENSE_SYSTEM,
  type DenseOptions,
  DenseRanker,
  DenseSystem,
} from "./dense.ts";
export {
  DEFAULT_TOKEN_BUDGET,
  FULL_CONTEXT_SYSTEM,
  type FullContextOptions,
  FullContextSystem,
} from "./full-context.ts";
export { fusionDepth, HYBRID_SESSION_SYSTEM, HYBRID_SYSTEM, type HybridOptions, HybridSystem } from "./hybrid.ts";
export { LEDGER_SYSTEM, type LedgerExtractorMode, LedgerSystem } from "./ledger.ts";
export { NONE_SYSTEM, NoneSystem } from "./none.ts";
export { ANY_OPTIONS, checkSystemOptions, describeOptions, type OptionDoc } from "./options.ts";
export {
  type MadeSystem,
  makeSystems,
  type ResolvedSystem,
  resolveRecorded,
  resolveSystems,
  type SystemInput,
  type SystemRecord,
  type SystemSource,
} from "./resolve.ts";
export { type Ranker, RetrievalSystem } from "./retrieval-system.ts";
export { RRF_K, reciprocalRankFusion } from "./rrf.ts";
export {
  applySystemOptions,
  parseSystemOption,
  parseSystemSpec,
  parseSystemSpecs,
  type SpecBase,
  type SystemSpec,
  splitSpecs,
} from "./spec.ts";
export type * from "./types.ts";
