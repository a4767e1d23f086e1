/**
 * What an in-process system has been fed in one namespace: sessions and their turns,
 * kept in canonical order (session index, then arrival) whatever order batches came in.
 * A turn id seen again in the same session replaces the earlier turn in place, so
 * replaying a batch after a crash does not duplicate anything.
 */
import { SystemError } from "../core/errors.ts";
import type { Role } from "../core/model.ts";
import type { IngestBatch } from "./types.ts";

export interface StoredTurn {
  id: string;
  sessionId: string;
  role: Role;
  speaker?: string;
  content: string;
  time?: string;
  /** Position inside its session, in arrival order. */
  position: number;
}

export interface StoredSession {
  id: string;
  /** Canonical position in the episode, as the runner gave it. */
  index: number;
  /** Arrival order, breaking ties between sessions given the same index. */
  seq: number;
  time?: string;
  turns: StoredTurn[];
}

const ROLES = new Set<string>(["user", "assistant", "system"]);

/** Rejects a malformed batch before any of it is stored. */
export function checkBatch(batch: IngestBatch, systemId: string): void {
  const fail = (message: string) => new SystemError(message, systemId, "ingest");
  if (batch === null || typeof batch !== "object") throw fail("the batch must be an object");
  if (typeof batch.sessionId !== "string" || batch.sessionId === "") {
    throw fail("batch.sessionId must be a non-empty string");
  }
  if (!Number.isFinite(batch.sessionIndex)) throw fail(`batch ${batch.sessionId}: sessionIndex must be a number`);
  if (!Array.isArray(batch.turns)) throw fail(`batch ${batch.sessionId}: turns must be an array`);
  batch.turns.forEach((turn, i) => {
    const where = `batch ${batch.sessionId}, turn ${i}`;
    if (typeof turn?.id !== "string" || turn.id === "") throw fail(`${where}: id must be a non-empty string`);
    if (typeof turn.content !== "string") throw fail(`${where} (${turn.id}): content must be a string`);
    if (!ROLES.has(turn.role)) throw fail(`${where} (${turn.id}): unknown role "${String(turn.role)}"`);
  });
}

export class History {
  private readonly sessions = new Map<string, StoredSession>();
  /** Session id and turn id → position, so a replayed turn is found without a scan. */
  private readonly positions = new Map<string, number>();
  private ordered: StoredSession[] | undefined;

  /** Stores a checked batch; returns its session and the turns added or replaced. */
  add(batch: IngestBatch): { session: StoredSession; turns: StoredTurn[] } {
    let session = this.sessions.get(batch.sessionId);
    if (!session) {
      session = {
        id: batch.sessionId,
        index: batch.sessionIndex,
        seq: this.sessions.size,
        time: batch.time,
        turns: [],
      };
      this.sessions.set(session.id, session);
      this.ordered = undefined;
    } else if (batch.time !== undefined && session.time === undefined) {
      session.time = batch.time;
    }
    const touched: StoredTurn[] = [];
    for (const turn of batch.turns) {
      const key = `${session.id}\u0000${turn.id}`;
      const position = this.positions.get(key) ?? session.turns.length;
      this.positions.set(key, position);
      const stored: StoredTurn = {
        id: turn.id,
        sessionId: session.id,
        role: turn.role,
        content: turn.content,
        position,
        ...(turn.speaker !== undefined ? { speaker: turn.speaker } : {}),
        ...(turn.time !== undefined ? { time: turn.time } : {}),
      };
      session.turns[position] = stored;
      touched.push(stored);
    }
    return { session, turns: touched };
  }

  session(id: string): StoredSession | undefined {
    return this.sessions.get(id);
  }

  /** Sessions by canonical index, then arrival. */
  orderedSessions(): StoredSession[] {
    this.ordered ??= [...this.sessions.values()].sort((a, b) => a.index - b.index || a.seq - b.seq);
    return this.ordered;
  }

  /** Every turn, oldest first. */
  orderedTurns(): StoredTurn[] {
    return this.orderedSessions().flatMap((s) => s.turns);
  }

  get sessionCount(): number {
    return this.sessions.size;
  }
}
