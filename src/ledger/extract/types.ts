import type { LedgerTurn, MemoryDraft } from "../types.ts";

/** What an extractor sees: one session's new turns, with the session date for relative time. */
export interface ExtractionInput {
  sessionId: string;
  time?: string;
  turns: readonly LedgerTurn[];
}

/** Turns into memory drafts; the LLM and the offline rule-based extractor both implement it. */
export interface Extractor {
  readonly id: string;
  extract(input: ExtractionInput): Promise<MemoryDraft[]>;
}
