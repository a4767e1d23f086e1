/**
 * What the runner stores for every probe in every setting: everything a report,
 * a re-score or a person drilling into one probe needs, with no recomputation.
 */
export type Setting = "default" | "oracle" | "perfect";
export const SETTINGS: readonly Setting[] = ["default", "oracle", "perfect"];

export interface RetrievedRecord {
  rank: number;
  text: string;
  score: number;
  time?: string;
  sessionIds?: string[];
  turnIds?: string[];
  kind?: string;
}

export interface ProbeRecord {
  unitId: string;
  system: string;
  episodeId: string;
  probeId: string;
  setting: Setting;
  question: string;
  time?: string;
  labels: Record<string, string>;
  /** `skipped` when the setting cannot apply (e.g. no readback, no evidence); see `skipReason`. */
  status: "done" | "skipped";
  skipReason?: string;
  retrieved: RetrievedRecord[];
  context: { text: string; tokens: number; used: number };
  /** Provenance retrieval metrics (default setting, probes with evidence). */
  retrieval?: Record<string, number>;
  answer?: string;
  /** Why no answer: no model configured, or the model call failed (its message). */
  answerSkipped?: string;
  answerError?: string;
  /**
   * The context is frozen and the answer model not asked yet: the answer is asked
   * from the record after the replay moved on, and a run stopped before that asks it
   * on `--resume`. Absent once the answer (or its failure) is recorded.
   */
  answerPending?: true;
  /**
   * Who was asked: the answer model (from the stored context, so a failed answer can be
   * asked again without a replay) or the system itself (its memory is needed: a failed
   * answer replays the unit). Absent in records written before this was recorded: the model.
   */
  answeredBy?: "model" | "system";
  timings: { flushMs: number; searchMs: number; answerMs?: number };
  usage?: { inputTokens: number; outputTokens: number; cached: boolean };
}

export interface UnitInfo {
  id: string;
  system: string;
  episodeId: string;
  state: "pending" | "running" | "done" | "failed";
  attempts: number;
  error?: string;
  /** Wall time of each ingest call, ms. */
  ingestMs: number[];
  /**
   * Set when a worker pool gave up on the unit (`run --queue`): every attempt
   * failed and its job stays in the queue's failed list as `job`. `state` is
   * then `failed` and `error` the last attempt's. `--resume` tries it again.
   */
  deadLetter?: { job: string; attempts: number; at: string };
  /** When its last attempt started and when it was stored (ISO); absent before it did. */
  startedAt?: string;
  finishedAt?: string;
}

export function unitId(system: string, episodeId: string): string {
  return `${system}|${episodeId}`;
}
