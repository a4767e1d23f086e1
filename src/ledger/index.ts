export {
  buildContext,
  type ContextOptions,
  memoriesById,
  memoryFlags,
  type RenderedContext,
  renderBody,
  renderHit,
} from "./context.ts";
export { LedgerConflictError, LedgerLimitError } from "./errors.ts";
export type { ExportPart, ImportCounts } from "./export-format.ts";
export { INVARIANT_ATTRIBUTES, isInvariant } from "./extract/attributes.ts";
export { LlmExtractor, LlmRelationProposer } from "./extract/llm.ts";
export { extractTurns, OfflineExtractor, sentences } from "./extract/offline.ts";
export type { ExtractionInput, Extractor } from "./extract/types.ts";
export { type AddResult, Ledger, type LedgerLimits, type LedgerOptions } from "./ledger.ts";
export { type RelationProposer, type ResolutionPlan, resolve, ruleProposer, sameValue } from "./resolve.ts";
export { DEFAULT_RETRIEVAL, type RetrievalParams, type RetrievalWeights } from "./retrieval-params.ts";
export { DEFAULT_SERVICE_LIMITS, type LedgerServiceOptions, startLedgerService } from "./service/server.ts";
export { LedgerStore } from "./store.ts";
export { dayOf, resolveTimeExpression, toMs } from "./time.ts";
export type * from "./types.ts";
export { validAt } from "./validity.ts";
