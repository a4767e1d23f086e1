/**
 * Reads one persona's `conversations/session_NNNN.json` files into sessions in
 * canonical order: by `session_id`, which is the release's own order (the
 * harness ingests in it) and agrees with the days, which carry no time of day.
 */
import { DataError } from "../../core/errors.ts";
import type { Session, Turn } from "../../core/model.ts";
import type { LoadContext } from "../shared/context.ts";
import { asArray, asRecord, optString, reqString } from "../shared/fields.ts";
import { listFolder, readJsonFile } from "../shared/files.ts";
import { parseLooseTime } from "../shared/time.ts";
import { parseSessionRef, sessionIdOf } from "./evidence.ts";
import { OPERATIONS, SESSION_TYPES, SPEAKER_ROLES } from "./labels.ts";

const SESSION_FILE = /^session_(\d+)\.json$/;

export interface SessionFile {
  path: string;
  /** The number in the file name. */
  number: number;
}

/** The session files of a `conversations/` folder, by number. */
export function listSessionFiles(dir: string): SessionFile[] {
  return listFolder(dir)
    .filter((e) => e.kind === "file" && SESSION_FILE.test(e.name))
    .map((e) => ({ path: e.path, number: Number(SESSION_FILE.exec(e.name)?.[1]) }))
    .sort((a, b) => a.number - b.number || a.path.localeCompare(b.path));
}

export interface ReadSession {
  session: Session;
  number: number;
  file: string;
}

function readTurns(raw: unknown, sessionId: string, where: { file: string; record: string }, ctx: LoadContext): Turn[] {
  const turns: Turn[] = [];
  const numbers = new Set<number>();
  asArray(raw, where, "conversation").forEach((item, i) => {
    const field = `conversation[${i}]`;
    const rec = asRecord(item, where, field);
    const at = { file: where.file, record: `${where.record} ${field}` };
    const speaker = reqString(rec, "speaker", at);
    const content = reqString(rec, "message", at);
    const n = typeof rec.turn === "number" && Number.isInteger(rec.turn) && rec.turn > 0 ? rec.turn : i + 1;
    if (numbers.has(n)) throw new DataError(`duplicate turn number ${n}`, { ...where, field: `${field}.turn` });
    numbers.add(n);
    const role = SPEAKER_ROLES[speaker];
    if (!role) {
      ctx.issue(`unknown speaker "${speaker}" (expected user_agent or ai_agent); turn skipped`, {
        ...where,
        field: `${field}.speaker`,
      });
      return;
    }
    turns.push({
      id: `${sessionId}:${n}`,
      index: turns.length,
      role,
      speaker,
      content,
      // Marks the turns that carry the memory operation; gold, never shown to a system.
      ...(rec.share_memory === true ? { meta: { shareMemory: true } } : {}),
    });
  });
  return turns;
}

export function readSession(file: SessionFile, persona: string, ctx: LoadContext): ReadSession {
  ctx.read(file.path);
  const stem = sessionIdOf(file.number);
  const rec = asRecord(readJsonFile(file.path, ctx), { file: file.path, record: stem });
  if (rec.session_id === undefined || rec.session_id === null) {
    throw new DataError("missing", { file: file.path, record: stem, field: "session_id" });
  }
  const number = parseSessionRef(rec.session_id);
  if (number === undefined) {
    throw new DataError(`expected a session number, got ${JSON.stringify(rec.session_id)}`, {
      file: file.path,
      record: stem,
      field: "session_id",
    });
  }
  const id = sessionIdOf(number);
  const where = { file: file.path, record: id };
  if (number !== file.number)
    ctx.issue(`session_id ${number} does not match the file name`, { ...where, field: "session_id" });

  const date = reqString(rec, "date", where);
  const time = parseLooseTime(date);
  if (time?.length !== 10) throw new DataError(`expected a YYYY-MM-DD day, got "${date}"`, { ...where, field: "date" });

  const owner = optString(rec, "persona", where);
  if (owner !== undefined && owner !== persona) {
    ctx.issue(`belongs to persona "${owner}", not "${persona}"`, { ...where, field: "persona" });
  }
  const sessionType = optString(rec, "session_type", where);
  // The session type and operation are kept as metadata; no score reads them.
  if (sessionType !== undefined && !SESSION_TYPES.has(sessionType)) {
    ctx.warn(`unknown session_type "${sessionType}"`, { ...where, field: "session_type" });
  }
  // Goal sessions say "add" even for updates; the real operation is in `actual_operation` (as released).
  const details = rec.operation_details;
  const actual =
    details && typeof details === "object" ? (details as Record<string, unknown>).actual_operation : undefined;
  const operation = typeof actual === "string" ? actual : optString(rec, "operation", where);
  if (operation !== undefined && !OPERATIONS.has(operation)) {
    ctx.warn(`unknown operation "${operation}"`, { ...where, field: "operation" });
  }
  if (rec.conversation === undefined) throw new DataError("missing", { ...where, field: "conversation" });

  const meta: Record<string, string> = {};
  if (sessionType) meta.sessionType = sessionType;
  if (operation) meta.operation = operation;
  return {
    session: {
      id,
      index: 0,
      time,
      turns: readTurns(rec.conversation, id, where, ctx),
      ...(Object.keys(meta).length ? { meta } : {}),
    },
    number,
    file: file.path,
  };
}

/**
 * Puts sessions in canonical order and numbers them. Two files with one
 * `session_id` are an error; a day that steps backwards is suspicious.
 */
export function orderSessions(read: ReadSession[], ctx: LoadContext): Session[] {
  const byNumber = new Map<number, ReadSession>();
  for (const r of read) {
    const prior = byNumber.get(r.number);
    if (prior) {
      throw new DataError(`duplicate session_id ${r.number} (also in ${prior.file})`, {
        file: r.file,
        record: r.session.id,
        field: "session_id",
      });
    }
    byNumber.set(r.number, r);
  }
  const sorted = [...read].sort((a, b) => a.number - b.number);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1]!;
    const cur = sorted[i]!;
    if ((cur.session.time ?? "") < (prev.session.time ?? "")) {
      ctx.issue(`date ${cur.session.time} is before ${prev.session.time} of the previous session ${prev.session.id}`, {
        file: cur.file,
        record: cur.session.id,
        field: "date",
      });
    }
  }
  return sorted.map((r, index) => ({ ...r.session, index }));
}

/** `3`, `4–5` or `3, 7–9` for sorted session numbers. */
function ranges(numbers: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === (numbers[j] as number) + 1) j++;
    out.push(i === j ? `${numbers[i]}` : `${numbers[i]}–${numbers[j]}`);
    i = j + 1;
  }
  return out.join(", ");
}

/**
 * The release numbers sessions 1..N with one file each, and the question ids
 * end in N (the release's `conversations/session_NNNN.json`). A missing file changes what a system is shown, so it
 * is an issue: a gap in the numbers, or files that stop before the question point.
 */
export function checkSessionFiles(numbers: number[], askedAfter: number | undefined, dir: string, ctx: LoadContext) {
  if (!numbers.length) return;
  const present = new Set(numbers);
  const last = Math.max(...numbers, askedAfter ?? 0);
  const missing: number[] = [];
  for (let n = 1; n <= last; n++) if (!present.has(n)) missing.push(n);
  if (!missing.length) return;
  const file = (n: number) => `${sessionIdOf(n)}.json`;
  const files =
    missing.length === 1
      ? file(missing[0] as number)
      : `${file(missing[0] as number)} … ${file(missing.at(-1) as number)}`;
  const why =
    askedAfter !== undefined && askedAfter > Math.max(...numbers)
      ? `the questions are asked after session ${askedAfter} (the number in their ids)`
      : `the sessions run from 1 to ${last}`;
  ctx.issue(`no file for session${missing.length === 1 ? "" : "s"} ${ranges(missing)} (${files}); ${why}`, {
    file: dir,
  });
}
