/**
 * The ledger's data model: raw turns (always kept), memories extracted from them
 * with two timelines and provenance, and typed links between versions of the same
 * subject and attribute.
 */

export type MemoryKind = "fact" | "preference" | "event" | "plan" | "schedule" | "project";

/**
 * - active: current (or, for a contradiction, the canonical side)
 * - superseded: replaced by a later value; still valid inside its own interval
 * - contested: the non-canonical side of a contradiction of an invariant attribute
 * - retired: forgotten on request; kept for history, never searched
 */
export type MemoryStatus = "active" | "superseded" | "contested" | "retired";

export type Relation = "supersedes" | "contradicts" | "conditional" | "complements";

/** The user, or a named other person, lowercased ("user", "sister", "anna"). */
export type Subject = string;

export const USER: Subject = "user";

export interface LedgerTurn {
  id: string;
  role: "user" | "assistant" | "system";
  speaker?: string;
  content: string;
  time?: string;
}

export interface LedgerSessionInput {
  sessionId: string;
  /** Canonical position in the timeline; defaults to arrival order. */
  sessionIndex?: number;
  /** Session date (ISO); relative time expressions are resolved against it. */
  time?: string;
  turns: LedgerTurn[];
}

/** What an extractor proposes; the ledger adds ids, timelines' bookkeeping and status. */
export interface MemoryDraft {
  subject: Subject;
  kind: MemoryKind;
  /** Stable key of what the memory is about, e.g. "residence", "preference:coffee". */
  attribute: string;
  value: string;
  /** The circumstance a conditional preference holds under ("when working"). */
  condition?: string;
  /** A self-contained sentence, what search indexes and context shows. */
  text: string;
  /** When it became true, as stated or implied (ISO date); defaults to the session date. */
  validFrom?: string;
  /** When it stopped being true, when stated (an event's end, a plan's date). */
  validTo?: string;
  turnIds: string[];
  /** The speaker states a change ("now", "no longer", "switched to"). */
  change?: boolean;
  /** The statement negates the attribute ("I no longer like coffee"). */
  negated?: boolean;
}

export interface Memory {
  id: string;
  ns: string;
  subject: Subject;
  kind: MemoryKind;
  attribute: string;
  value: string;
  condition?: string;
  text: string;
  validFrom?: string;
  validTo?: string;
  /** Conversation time at which it was told. */
  recordedAt?: string;
  /** Conversation (or call) time at which it was superseded, contested or forgotten. */
  retiredAt?: string;
  sessionId: string;
  turnIds: string[];
  status: MemoryStatus;
  /** For a contradiction: the side that stands (the first statement of an invariant attribute). */
  canonical: boolean;
  /** Order of insertion inside the namespace. */
  seq: number;
}

export interface Link {
  from: string;
  to: string;
  relation: Relation;
}

export interface StoredTurn extends LedgerTurn {
  sessionId: string;
  position: number;
  sessionIndex: number;
}

/** One search result: a memory, a raw turn, or a bundle of one session's best hits. */
export interface Hit {
  kind: "memory" | "turn" | "session";
  text: string;
  score: number;
  time?: string;
  sessionIds: string[];
  turnIds: string[];
  /** Memories in the hit, with their flags ("updated on …", "conflicts with …"). */
  memories: Memory[];
  /** Links among the returned memories and their siblings. */
  links: Link[];
}

export interface SearchOptions {
  k?: number;
  /** Question time (ISO): memories are ranked by validity then, and nothing later is shown. */
  at?: string;
}

export interface LedgerExport {
  format: "membench-ledger";
  version: 1;
  ns: string;
  sessions: Array<{ id: string; index: number; time?: string }>;
  turns: StoredTurn[];
  memories: Memory[];
  links: Link[];
}
