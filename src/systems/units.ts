/**
 * Retrieval units of the built-in baselines: a single turn, or a whole session as
 * one speaker-prefixed transcript. Every unit knows where it came from, so results
 * carry provenance, and its place in the timeline, so ties break the same way on
 * every run (earlier session first, then earlier turn).
 */
import type { StoredSession, StoredTurn } from "./history.ts";
import type { Retrieved } from "./types.ts";

export type RetrievalUnit = "turn" | "session";

export interface Unit {
  /** Unique within a namespace. */
  key: string;
  kind: RetrievalUnit;
  text: string;
  sessionId: string;
  turnIds: string[];
  time?: string;
  /** Timeline position: session index, session arrival, turn position. */
  order: readonly [number, number, number];
  meta: Record<string, unknown>;
}

export interface Scored {
  key: string;
  score: number;
}

export function turnUnit(session: StoredSession, turn: StoredTurn): Unit {
  const time = turn.time ?? session.time;
  return {
    key: `t\u0000${session.id}\u0000${turn.id}`,
    kind: "turn",
    text: turn.content,
    sessionId: session.id,
    turnIds: [turn.id],
    ...(time !== undefined ? { time } : {}),
    order: [session.index, session.seq, turn.position],
    meta: {
      role: turn.role,
      ...(turn.speaker !== undefined ? { speaker: turn.speaker } : {}),
      sessionIndex: session.index,
    },
  };
}

/** One line per turn, `speaker: content` (the role when the data names no speaker). */
export function transcript(turns: readonly StoredTurn[]): string {
  return turns.map((t) => `${t.speaker ?? t.role}: ${t.content}`).join("\n");
}

export function sessionUnit(session: StoredSession): Unit {
  const time = session.time ?? session.turns.find((t) => t.time !== undefined)?.time;
  return {
    key: `s\u0000${session.id}`,
    kind: "session",
    text: transcript(session.turns),
    sessionId: session.id,
    turnIds: session.turns.map((t) => t.id),
    ...(time !== undefined ? { time } : {}),
    order: [session.index, session.seq, 0],
    meta: { sessionIndex: session.index, turns: session.turns.length },
  };
}

/** The units a session contributes; an empty session contributes none. */
export function unitsOf(session: StoredSession, unit: RetrievalUnit): Unit[] {
  if (session.turns.length === 0) return [];
  return unit === "turn" ? session.turns.map((t) => turnUnit(session, t)) : [sessionUnit(session)];
}

export function compareOrder(a: Unit, b: Unit): number {
  return a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2];
}

/**
 * The best `depth` of `scored`, best first, ties broken by timeline order. Keys
 * without a unit and non-finite scores are dropped.
 */
export function topScored(scored: readonly Scored[], units: ReadonlyMap<string, Unit>, depth: number): Scored[] {
  const rows: { hit: Scored; unit: Unit }[] = [];
  for (const hit of scored) {
    const unit = units.get(hit.key);
    if (unit && Number.isFinite(hit.score)) rows.push({ hit, unit });
  }
  rows.sort((a, b) => b.hit.score - a.hit.score || compareOrder(a.unit, b.unit));
  return rows.slice(0, Math.max(0, depth)).map((r) => r.hit);
}

export function toRetrieved(unit: Unit, score: number): Retrieved {
  return {
    text: unit.text,
    score,
    ...(unit.time !== undefined ? { time: unit.time } : {}),
    sessionIds: [unit.sessionId],
    turnIds: [...unit.turnIds],
    kind: unit.kind,
    meta: { ...unit.meta },
  };
}
