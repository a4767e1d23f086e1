/**
 * The contract every memory system implements, built-in or external.
 * One namespace per episode and run keeps histories isolated.
 */
import type { Role } from "../core/model.ts";
import type { SystemInfo } from "./definition.ts";

/** How a system wants history fed to it. The runner splits sessions accordingly. */
export type Granularity = "turn" | "session" | "batch" | "chunk";

export interface SystemCaps {
  granularity: Granularity;
  /** Search results are ranked best first. */
  ranked: boolean;
  /** Results carry source session/turn ids, so retrieval metrics need no LLM. */
  provenance: boolean;
  /** Can return what it wrote from given sessions (the `perfect` setting). */
  readback: boolean;
  /** Answers questions itself (agent-style systems). */
  nativeAnswer: boolean;
}

export interface IngestTurn {
  id: string;
  role: Role;
  speaker?: string;
  content: string;
  time?: string;
}

/** Turns of one session (all of it, or part at turn granularity), in order. */
export interface IngestBatch {
  sessionId: string;
  /** Canonical position of the session in the episode. */
  sessionIndex: number;
  time?: string;
  turns: IngestTurn[];
}

export interface SearchQuery {
  text: string;
  /** How many items to return at most. */
  k: number;
  /** The question's time, where the benchmark gives one. */
  time?: string;
}

export interface Retrieved {
  text: string;
  score: number;
  time?: string;
  /** Provenance: the session(s) and turn(s) the item came from, where known. */
  sessionIds?: string[];
  turnIds?: string[];
  /** What the item is: a raw turn, a whole session, an extracted memory, a chunk. */
  kind?: "turn" | "session" | "memory" | "chunk";
  meta?: Record<string, unknown>;
}

export interface ProbeView {
  id: string;
  question: string;
  time?: string;
}

export interface MemorySystem {
  readonly id: string;
  readonly caps: SystemCaps;
  open(ns: string): Promise<void>;
  ingest(ns: string, batch: IngestBatch): Promise<void>;
  /** Waits until everything ingested is searchable. */
  flush?(ns: string): Promise<void>;
  search(ns: string, q: SearchQuery): Promise<Retrieved[]>;
  /** What the system wrote from the given sessions (perfect-retrieval setting). */
  readback?(ns: string, sessionIds: string[]): Promise<Retrieved[]>;
  answer?(ns: string, probe: ProbeView): Promise<string>;
  close(ns: string): Promise<void>;
  /** Names and versions to record in the run snapshot (server, SDK, protocol); optional. */
  info?(): Promise<SystemInfo> | SystemInfo;
  /** Releases what the instance holds (connections, files) after the run; optional. */
  dispose?(): Promise<void>;
}
