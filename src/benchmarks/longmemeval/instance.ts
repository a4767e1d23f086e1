/**
 * One LongMemEval question instance → one episode: its own haystack of
 * sessions, and one probe that fires after all of them at the question date.
 */
import { DataError } from "../../core/errors.ts";
import type { EpisodeInput } from "../../core/model.ts";
import type { LoadContext } from "../shared/context.ts";
import { asRecord, describe, type FieldWhere, optArray, type Rec, reqArray, reqString } from "../shared/fields.ts";
import { parseLooseTime } from "../shared/time.ts";
import { isAbstention, QUESTION_TYPES } from "./labels.ts";
import type { StringPool } from "./string-pool.ts";

type SessionInput = EpisodeInput["sessions"][number];
type TurnInput = SessionInput["turns"][number];

const ROLES = new Set(["user", "assistant", "system"]);

function stringList(rec: Rec, field: string, where: FieldWhere, required: boolean): string[] {
  const list = required ? reqArray(rec, field, where) : optArray(rec, field, where);
  return list.map((v, k) => {
    if (typeof v === "string") return v;
    if (typeof v === "number") return String(v);
    throw new DataError(`expected a string, got ${describe(v)}`, { ...where, field: `${field}[${k}]` });
  });
}

function buildTurns(raw: unknown, s: number, sessionId: string, where: FieldWhere, pool: StringPool) {
  const turns: TurnInput[] = [];
  const evidence: string[] = [];
  const list = Array.isArray(raw) ? raw : undefined;
  if (!list)
    throw new DataError(`expected an array of turns, got ${describe(raw)}`, {
      ...where,
      field: `haystack_sessions[${s}]`,
    });
  for (const [j, t] of list.entries()) {
    const tw = { file: where.file, record: `${where.record} haystack_sessions[${s}][${j}]` };
    const turn = asRecord(t, tw);
    const role = reqString(turn, "role", tw).toLowerCase();
    if (!ROLES.has(role)) throw new DataError(`unknown role "${turn.role}"`, { ...tw, field: "role" });
    const id = pool.intern(`${sessionId}#${j}`);
    const out: TurnInput = {
      id,
      index: j,
      role: role as TurnInput["role"],
      content: pool.intern(reqString(turn, "content", tw)),
    };
    if (turn.has_answer === true) {
      out.meta = { hasAnswer: true };
      evidence.push(id);
    }
    turns.push(out);
  }
  return { turns, evidence };
}

/**
 * Session ids are unique within a haystack except for a few filler sessions the
 * sampler drew twice (13 histories of LongMemEval_s, identical content, two
 * dates). Both copies stay on the timeline; the later one is renamed `<id>~2`
 * and keeps the official id in `meta.sourceId`.
 */
function sessionIdFor(
  id: string,
  s: number,
  seen: Map<string, number>,
  sessions: unknown[],
  questionId: string,
  where: FieldWhere,
  ctx: LoadContext,
): string {
  const first = seen.get(id);
  if (first === undefined) {
    seen.set(id, s);
    return id;
  }
  let copy = 2;
  while (seen.has(`${id}~${copy}`)) copy++;
  const renamed = `${id}~${copy}`;
  seen.set(renamed, s);
  if (JSON.stringify(sessions[first]) !== JSON.stringify(sessions[s])) {
    ctx.issue(`haystack session id "${id}" repeats with different content`, {
      ...where,
      field: `haystack_session_ids[${s}]`,
    });
  }
  ctx.warnings.push(`${questionId}: haystack session "${id}" occurs again at position ${s}; that copy is "${renamed}"`);
  return renamed;
}

export function buildLongMemEvalInstance(
  raw: unknown,
  index: number,
  file: string,
  ctx: LoadContext,
  pool: StringPool,
): EpisodeInput {
  const where: FieldWhere = { file, record: `element ${index}` };
  const rec = asRecord(raw, where);
  const questionId = reqString(rec, "question_id", where);
  where.record = `question ${questionId} (element ${index})`;
  const questionType = reqString(rec, "question_type", where);
  if (!QUESTION_TYPES.includes(questionType)) {
    ctx.issue(`unknown question type "${questionType}" (known: ${QUESTION_TYPES.join(", ")})`, {
      ...where,
      field: "question_type",
    });
  }
  const question = reqString(rec, "question", where);
  const answer = reqString(rec, "answer", where);
  const rawQuestionDate = reqString(rec, "question_date", where);
  const questionTime = parseLooseTime(rawQuestionDate);
  if (!questionTime) ctx.issue(`unreadable date "${rawQuestionDate}"`, { ...where, field: "question_date" });

  const ids = stringList(rec, "haystack_session_ids", where, true);
  const dates = stringList(rec, "haystack_dates", where, true);
  const haystack = reqArray(rec, "haystack_sessions", where);
  if (ids.length !== haystack.length) {
    throw new DataError(`${ids.length} ids for ${haystack.length} haystack sessions`, {
      ...where,
      field: "haystack_session_ids",
    });
  }
  if (dates.length !== haystack.length) {
    throw new DataError(`${dates.length} dates for ${haystack.length} haystack sessions`, {
      ...where,
      field: "haystack_dates",
    });
  }

  const seen = new Map<string, number>();
  const evidenceTurnIds: string[] = [];
  const sessions: SessionInput[] = haystack.map((rawSession, s) => {
    const sourceId = ids[s] as string;
    const id = pool.intern(sessionIdFor(sourceId, s, seen, haystack, questionId, where, ctx));
    const rawDate = dates[s] as string;
    const time = parseLooseTime(rawDate);
    if (!time) ctx.issue(`unreadable date "${rawDate}"`, { ...where, field: `haystack_dates[${s}]` });
    const { turns, evidence } = buildTurns(rawSession, s, id, where, pool);
    evidenceTurnIds.push(...evidence);
    const session: SessionInput = { id, index: s, time, turns };
    if (id !== sourceId) session.meta = { sourceId };
    return session;
  });

  const labels = { question_type: questionType, abstention: isAbstention(questionId) ? "yes" : "no" };
  return {
    id: questionId,
    benchmark: "longmemeval",
    sessions,
    probes: [
      {
        id: questionId,
        question,
        time: questionTime,
        position: { at: "end" },
        labels,
        gold: {
          answers: [answer],
          evidenceSessionIds: stringList(rec, "answer_session_ids", where, false),
          evidenceTurnIds,
        },
      },
    ],
    labels,
  };
}
