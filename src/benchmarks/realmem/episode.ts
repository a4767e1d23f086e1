/**
 * One RealMem user file (`<Person>_dialogues_256k.json`) → one episode.
 *
 * Queries are user turns inside sessions. The reference harness searches with
 * the query text before the session is added, then adds the whole session, so
 * a probe fires `before` its own session, and the query turn and its gold reply
 * stay in the session's turns (ingested after the probe, as in the original).
 *
 * Errors name the record as a path to the object (`Kenta_Tanaka dialogues[3]
 * (Fitness_3:S1_01) dialogue_turns[2]`) and the field as its key.
 */
import { basename } from "node:path";
import { DataError } from "../../core/errors.ts";
import type { EpisodeInput, ProbeInput } from "../../core/model.ts";
import type { LoadContext } from "../shared/context.ts";
import {
  asArray,
  asRecord,
  describe,
  type FieldWhere,
  isRecord,
  optArray,
  optString,
  type Rec,
  reqArray,
  reqString,
} from "../shared/fields.ts";
import { parseLooseTime } from "../shared/time.ts";
import {
  CATEGORY_NAMES,
  MEMORY_TYPES,
  parseSessionIdentifier,
  SESSION_TYPES,
  sessionTypeOf,
  TOPIC_NAMES,
} from "./labels.ts";

type SessionInput = EpisodeInput["sessions"][number];
type TurnInput = SessionInput["turns"][number];

interface SessionRef {
  id: string;
  index: number;
}

interface Build {
  ctx: LoadContext;
  file: string;
  persona: string;
  byUuid: Map<string, SessionRef>;
  queryIds: Set<string>;
}

interface QuerySession extends SessionRef {
  time?: string;
  project: string;
  /** The project's topic in the data's spelling, the fallback for a query without `topic`. */
  topic?: string;
  record: string;
}

const child = (where: FieldWhere, path: string): FieldWhere => ({
  file: where.file,
  record: `${where.record} ${path}`,
});

/** Text of a `content` field; one release turn and one memory hold an object, kept as JSON. */
function contentOf(rec: Rec, field: string, where: FieldWhere): string {
  const v = rec[field];
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (typeof v === "object" && v !== null) return JSON.stringify(v);
  throw new DataError(v === undefined ? "missing" : `expected text, got ${describe(v)}`, { ...where, field });
}

function roleOf(rec: Rec, where: FieldWhere): "user" | "assistant" {
  const speaker = reqString(rec, "speaker", where);
  const role = speaker.toLowerCase();
  if (role === "user" || role === "assistant") return role;
  throw new DataError(`unknown speaker "${speaker}" (expected User or Assistant)`, { ...where, field: "speaker" });
}

/** Maps a release label to ours; an unknown one is an issue, kept verbatim when lenient. */
function mapped(
  table: Readonly<Record<string, string>>,
  raw: string,
  what: string,
  b: Build,
  where: FieldWhere,
  field: string,
): string {
  const value = table[raw];
  if (value) return value;
  b.ctx.issue(`unknown ${what} "${raw}" (known: ${Object.keys(table).join(", ")})`, { ...where, field });
  return raw;
}

/** The persona: `_metadata.person_name`, else the file name without its suffix. */
function personaOf(root: Rec, file: string): string {
  const meta = root._metadata;
  const named = isRecord(meta) ? optString(meta, "person_name", { file, record: "_metadata" }) : undefined;
  return named || basename(file).replace(/_dialogues(?:_[^.]*)?\.json$/i, "");
}

/** First pass: session ids and uuids, so that evidence uuids resolve whatever their order. */
function indexSessions(dialogues: unknown[], file: string, persona: string): Map<string, SessionRef> {
  const byUuid = new Map<string, SessionRef>();
  const ids = new Set<string>();
  for (const [index, raw] of dialogues.entries()) {
    const where = { file, record: `${persona} dialogues[${index}]` };
    const rec = asRecord(raw, where);
    const id = reqString(rec, "session_identifier", where);
    const uuid = reqString(rec, "session_uuid", where);
    if (ids.has(id)) throw new DataError(`duplicate session id "${id}"`, { ...where, field: "session_identifier" });
    if (byUuid.has(uuid)) throw new DataError(`duplicate session uuid "${uuid}"`, { ...where, field: "session_uuid" });
    ids.add(id);
    byUuid.set(uuid, { id, index });
  }
  return byUuid;
}

/** Maps the evidence uuids of a gold reply to session ids; evidence must lie in the past. */
function evidenceSessions(uuids: string[], here: SessionRef, b: Build, where: FieldWhere): string[] {
  const field = "memory_session_uuids";
  const out: string[] = [];
  for (const uuid of uuids) {
    const ref = b.byUuid.get(uuid);
    if (!ref) b.ctx.issue(`evidence session uuid "${uuid}" is not a session of this file`, { ...where, field });
    else if (ref.index > here.index) b.ctx.issue(`cites a memory of a later session (${ref.id})`, { ...where, field });
    const id = ref?.id ?? uuid;
    if (!out.includes(id)) out.push(id);
  }
  return out;
}

/** The gold reply: the assistant turn right after the query, with the memory it cited. */
function goldReply(turns: unknown[], j: number, session: QuerySession, b: Build) {
  const where = { file: b.file, record: `${session.record} dialogue_turns[${j + 1}]` };
  const raw = turns[j + 1];
  if (!isRecord(raw) || roleOf(raw, where) !== "assistant") {
    throw new DataError("a query must be followed by the Assistant's gold reply", {
      file: b.file,
      record: `${session.record} dialogue_turns[${j}]`,
      field: "is_query",
    });
  }
  const used = optArray(raw, "memory_used", where).map((item, m) => {
    const w = child(where, `memory_used[${m}]`);
    const rec = asRecord(item, w);
    return { uuid: reqString(rec, "session_uuid", w), content: contentOf(rec, "content", w) };
  });
  if (!used.length) b.ctx.issue("the gold reply cites no memory", { ...where, field: "memory_used" });
  const listed = raw.memory_session_uuids;
  const uuids =
    listed === undefined || listed === null
      ? used.map((u) => u.uuid)
      : asArray(listed, where, "memory_session_uuids").map((u, k) => {
          if (typeof u !== "string") {
            throw new DataError(`expected a string, got ${describe(u)}`, {
              ...where,
              field: `memory_session_uuids[${k}]`,
            });
          }
          return u;
        });
  return {
    answer: contentOf(raw, "content", where),
    used,
    evidenceSessionIds: evidenceSessions(uuids, session, b, where),
  };
}

function buildProbe(turns: unknown[], j: number, session: QuerySession, b: Build): ProbeInput {
  const where = { file: b.file, record: `${session.record} dialogue_turns[${j}]` };
  const query = asRecord(turns[j], where);
  if (roleOf(query, where) !== "user") {
    throw new DataError("a query turn must be a User turn", { ...where, field: "speaker" });
  }
  const question = contentOf(query, "content", where);
  if (!question.trim()) throw new DataError("the query text is empty", { ...where, field: "content" });
  const queryId = optString(query, "query_id", where);
  if (queryId !== undefined) {
    if (b.queryIds.has(queryId))
      throw new DataError(`duplicate query id "${queryId}"`, { ...where, field: "query_id" });
    b.queryIds.add(queryId);
  }
  const reply = goldReply(turns, j, session, b);

  const category = mapped(
    CATEGORY_NAMES,
    reqString(query, "category_name", where),
    "category",
    b,
    where,
    "category_name",
  );
  const rawTopic = optString(query, "topic", where) ?? session.topic;
  const topic = rawTopic === undefined ? undefined : mapped(TOPIC_NAMES, rawTopic, "topic", b, where, "topic");
  const rawType = optString(query, "session_type", where);
  const declared =
    rawType === undefined ? undefined : mapped(SESSION_TYPES, rawType, "session type", b, where, "session_type");
  const derived = sessionTypeOf(reply.evidenceSessionIds.length);
  if (declared && derived && declared !== derived) {
    b.ctx.issue(`"${rawType}" disagrees with the ${reply.evidenceSessionIds.length} evidence session(s)`, {
      ...where,
      field: "session_type",
    });
  }
  const sessionType = derived ?? declared;

  const labels: Record<string, string> = { category };
  if (sessionType) labels.session_type = sessionType;
  if (topic) labels.topic = topic;
  labels.persona = b.persona;

  return {
    id: `${b.persona}:${session.id}:${j}`,
    question,
    time: session.time,
    position: { at: "before", sessionId: session.id },
    labels,
    gold: {
      answers: [reply.answer],
      evidenceSessionIds: reply.evidenceSessionIds,
      evidenceMemories: reply.used.map((u) => u.content),
    },
    meta: {
      queryId,
      project: session.project,
      queryTurnId: `${session.id}#${j}`,
      answerTurnId: `${session.id}#${j + 1}`,
      // Parallel to gold.evidenceMemories: the session each memory was extracted in.
      evidenceMemorySessionIds: reply.used.map((u) => b.byUuid.get(u.uuid)?.id ?? u.uuid),
      // A few queries cite memory of their own session, which the protocol has not ingested yet.
      evidenceInOwnSession: reply.evidenceSessionIds.includes(session.id),
    },
  };
}

/** The session's extracted memory: the paper's memory base, kept as metadata for statistics. */
function buildMemories(rec: Rec, sessionId: string, b: Build, where: FieldWhere) {
  return optArray(rec, "extracted_memory", where).map((raw, m) => {
    const w = child(where, `extracted_memory[${m}]`);
    const mem = asRecord(raw, w);
    const type = reqString(mem, "type", w);
    const category = mapped(MEMORY_TYPES, type, "memory type", b, w, "type");
    const sourceTurn = mem.source_turn;
    return {
      id: optString(mem, "index", w),
      type,
      category,
      content: contentOf(mem, "content", w),
      // source_turn is 1-based; Schedule memories carry -1 (no source turn).
      sourceTurnId: typeof sourceTurn === "number" && sourceTurn >= 1 ? `${sessionId}#${sourceTurn - 1}` : undefined,
    };
  });
}

/** Assistant turns outside queries can cite memory too; keep where it came from. */
function citedSessions(turn: Rec, b: Build): unknown[] | undefined {
  if (!Array.isArray(turn.memory_used) || !turn.memory_used.length) return undefined;
  return turn.memory_used.map((m) => {
    const uuid = isRecord(m) ? m.session_uuid : undefined;
    return (typeof uuid === "string" && b.byUuid.get(uuid)?.id) || uuid;
  });
}

function buildSession(raw: unknown, index: number, b: Build, probes: ProbeInput[]): SessionInput {
  const where = { file: b.file, record: `${b.persona} dialogues[${index}]` };
  const rec = asRecord(raw, where);
  const id = reqString(rec, "session_identifier", where);
  where.record = `${b.persona} dialogues[${index}] (${id})`;
  const uuid = reqString(rec, "session_uuid", where);
  const rawTime = reqString(rec, "current_time", where);
  const time = parseLooseTime(rawTime);
  if (!time) b.ctx.issue(`unreadable date "${rawTime}"`, { ...where, field: "current_time" });
  const ident = parseSessionIdentifier(id);
  const session: QuerySession = { id, index, time, project: ident.project, topic: ident.topic, record: where.record };

  const rawTurns = reqArray(rec, "dialogue_turns", where);
  const turns = rawTurns.map((t, j): TurnInput => {
    const tw = child(where, `dialogue_turns[${j}]`);
    const turn = asRecord(t, tw);
    const out: TurnInput = {
      id: `${id}#${j}`,
      index: j,
      role: roleOf(turn, tw),
      content: contentOf(turn, "content", tw),
    };
    // is_query is missing on one turn of the release: absent means not a query.
    if (turn.is_query === true) {
      const probe = buildProbe(rawTurns, j, session, b);
      probes.push(probe);
      out.meta = { queryId: probe.meta?.queryId, probeId: probe.id };
    } else {
      const cited = citedSessions(turn, b);
      if (cited) out.meta = { memorySessionIds: cited };
    }
    return out;
  });
  for (const probe of probes) {
    const answer = turns.find((t) => t.id === probe.meta?.answerTurnId);
    if (answer) answer.meta = { ...answer.meta, goldFor: probe.id };
  }

  const memories = buildMemories(rec, id, b, where);
  return {
    id,
    index,
    time,
    turns,
    // Identifiers carry project names: labels for reports, never content for a memory system.
    meta: {
      uuid,
      project: ident.project,
      step: ident.step,
      topic: ident.topic === undefined ? undefined : (TOPIC_NAMES[ident.topic] ?? ident.topic),
      filler: ident.filler,
      rawTime,
      hasMemory: memories.length > 0,
      memories,
    },
  };
}

/** Builds the episode of one user file from its parsed JSON. */
export function buildRealMemEpisode(raw: unknown, file: string, ctx: LoadContext): EpisodeInput {
  const root = asRecord(raw, { file, record: "(root)" });
  const persona = personaOf(root, file);
  const dialogues = reqArray(root, "dialogues", { file, record: persona });
  const b: Build = { ctx, file, persona, byUuid: indexSessions(dialogues, file, persona), queryIds: new Set() };
  const probes: ProbeInput[] = [];
  const sessions = dialogues.map((s, i) => {
    const own: ProbeInput[] = [];
    const session = buildSession(s, i, b, own);
    probes.push(...own);
    return session;
  });
  const meta = isRecord(root._metadata) ? root._metadata : {};
  return {
    id: persona,
    benchmark: "realmem",
    sessions,
    probes,
    labels: { persona },
    meta: { totalTokens: meta.total_tokens, declaredSessions: meta.total_sessions },
  };
}
