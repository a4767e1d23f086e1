/**
 * Provenance a hosted store keeps for membench: the adapters write the session,
 * turn ids and time of what they add into each memory's metadata under these keys,
 * and read them back from what search returns, since the stores rewrite the text.
 */
export const PROVENANCE_KEYS = { session: "membench_session", turns: "membench_turns", time: "membench_time" } as const;

export interface MetadataProvenance {
  /** Absent when the memory carries no membench session (not written by membench, or the store dropped it). */
  sessionId?: string;
  turnIds: string[];
  time?: string;
}

/** What `metadata` says of a memory's source; values of the wrong type are ignored. */
export function provenanceFromMetadata(meta: Record<string, unknown> | null | undefined): MetadataProvenance {
  const session = meta?.[PROVENANCE_KEYS.session];
  const turns = meta?.[PROVENANCE_KEYS.turns];
  const time = meta?.[PROVENANCE_KEYS.time];
  return {
    ...(typeof session === "string" ? { sessionId: session } : {}),
    turnIds: Array.isArray(turns) ? turns.filter((t): t is string => typeof t === "string") : [],
    ...(typeof time === "string" ? { time } : {}),
  };
}
