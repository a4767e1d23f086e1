/**
 * SubtleMemory loader: one episode per persona folder
 * (`history_sessions.json` + `bench_instances.json`, as released in
 * Yummytanmo/SubtleMemory@be80b281:data/subtlememory/persona_<n>/).
 * The path may be a persona folder, one of its two files, or any folder
 * holding persona folders at any depth.
 */
import { basename, dirname, join, relative, sep } from "node:path";
import { DataError } from "../../core/errors.ts";
import { type Dataset, type EpisodeInput, IsoTime, type ProbeInput, type Role } from "../../core/model.ts";
import {
  asArray,
  asRecord,
  type FieldWhere,
  fileExists,
  fileSize,
  findFiles,
  isDirectory,
  LoadContext,
  optArray,
  optString,
  parseLooseTime,
  type Rec,
  readJsonFile,
  reqArray,
  reqString,
} from "../shared/index.ts";
import type { LoadOptions } from "../types.ts";
import { relationSubtype, relationType, source } from "./labels.ts";
import { readInstant, spreadTurnTimes } from "./turn-times.ts";

export const HISTORY_FILE = "history_sessions.json";
export const INSTANCES_FILE = "bench_instances.json";

type SessionInput = EpisodeInput["sessions"][number];

interface RawSession {
  id: string;
  order?: number;
  time?: string;
  sortTime: number;
  messages: Array<{ role: Role; content: string; time?: string }>;
  meta: Rec;
}

/** Drops undefined values so metadata stays small and serialises cleanly. */
function compact(rec: Rec): Rec {
  return Object.fromEntries(Object.entries(rec).filter(([, v]) => v !== undefined));
}

function strings(values: unknown[], where: FieldWhere, field: string): string[] {
  return values
    .map((v, i) => {
      if (typeof v === "string") return v.trim();
      if (typeof v === "number") return String(v);
      throw new DataError(`expected a string, got ${v === null ? "null" : typeof v}`, {
        ...where,
        field: `${field}[${i}]`,
      });
    })
    .filter((v) => v.length > 0);
}

function sortKey(time: string | undefined): number {
  if (!time) return Number.POSITIVE_INFINITY;
  const instant = readInstant(time);
  if (instant) return instant.epoch;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(time);
  return day ? Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : Number.POSITIVE_INFINITY;
}

/** A release time as ISO 8601, keeping its UTC offset; anything else is reported. */
function readTime(ctx: LoadContext, raw: string | undefined, where: FieldWhere, field: string): string | undefined {
  if (raw === undefined || raw.trim() === "") return undefined;
  const s = raw.trim();
  if (IsoTime.safeParse(s).success) return s;
  const loose = parseLooseTime(s);
  if (loose) return loose;
  ctx.issue(`unreadable time "${raw}"`, { ...where, field });
  return undefined;
}

function readOrder(rec: Rec, where: FieldWhere): number | undefined {
  const v = rec.order;
  if (v === undefined || v === null) return undefined;
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n)) {
    throw new DataError(`expected a number, got ${JSON.stringify(v)}`, { ...where, field: "order" });
  }
  return n;
}

function readSessions(ctx: LoadContext, file: string): RawSession[] {
  const list = asArray(readJsonFile(file, ctx), { file, record: "(top level)" }, "(root)");
  ctx.read(file);
  const seen = new Map<string, number>();
  const out: RawSession[] = [];
  for (const [i, item] of list.entries()) {
    const rec = asRecord(item, { file, record: `session [${i}]` });
    const id = reqString(rec, "session_id", { file, record: `session [${i}]` }).trim();
    const where = { file, record: `session [${i}] "${id}"` };
    if (!id) throw new DataError("empty session id", { ...where, field: "session_id" });
    const first = seen.get(id);
    if (first !== undefined) {
      throw new DataError(`duplicate session id (also at [${first}])`, { ...where, field: "session_id" });
    }
    seen.set(id, i);
    const time = readTime(ctx, optString(rec, "timestamp", where), where, "timestamp");
    const order = readOrder(rec, where);
    const messages = reqArray(rec, "history", where).map((m, j) => {
      const msg = asRecord(m, where, `history[${j}]`);
      const mw = { file, record: `${where.record} message [${j}]` };
      const rawRole = reqString(msg, "role", mw).trim().toLowerCase();
      const role: Role = rawRole === "user" ? "user" : "assistant";
      if (rawRole !== "user" && rawRole !== "assistant") {
        ctx.issue(`unknown role "${rawRole}" (read as assistant, as the reference harness does)`, {
          ...mw,
          field: "role",
        });
      }
      return {
        role,
        content: reqString(msg, "content", mw),
        time: readTime(ctx, optString(msg, "time", mw), mw, "time"),
      };
    });
    out.push({
      id,
      order,
      time,
      sortTime: sortKey(time),
      messages,
      meta: compact({
        order,
        caseId: optString(rec, "case_id", where),
        source: optString(rec, "source", where),
        conversationType: optString(rec, "conversation_type", where),
        personaSignalLevel: optString(rec, "persona_signal_level", where),
      }),
    });
  }
  // The released converter's order (`subtlememory_converter.py`): `order`, then timestamp, then id;
  // sessions lacking a key sort after the rest.
  return out.sort(
    (a, b) =>
      (a.order ?? Number.POSITIVE_INFINITY) - (b.order ?? Number.POSITIVE_INFINITY) ||
      (a.sortTime === b.sortTime ? 0 : a.sortTime < b.sortTime ? -1 : 1) ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

function toSessions(raw: RawSession[]): SessionInput[] {
  return raw.map((s, index) => {
    const times = spreadTurnTimes(s.time, raw[index + 1]?.time, s.messages.length);
    return {
      id: s.id,
      index,
      ...(s.time && { time: s.time }),
      meta: s.meta,
      // The release gives messages no ids; position within the session is stable.
      turns: s.messages.map((m, i) => {
        const time = m.time ?? times[i];
        return { id: `${s.id}#${i}`, index: i, role: m.role, content: m.content, ...(time && { time }) };
      }),
    };
  });
}

function readLabels(ctx: LoadContext, rec: Rec, where: FieldWhere): Record<string, string> {
  const rawType = reqString(rec, "relation_type", where);
  const rawSubtype = reqString(rec, "relation_subtype", where);
  const rawSource = reqString(rec, "source", where);
  const type = relationType(rawType);
  if (!type) ctx.issue(`unknown relation type "${rawType}"`, { ...where, field: "relation_type" });
  const sub = relationSubtype(rawSubtype);
  if (!sub) ctx.issue(`unknown relation subtype "${rawSubtype}"`, { ...where, field: "relation_subtype" });
  else if (type && sub.type !== type) {
    ctx.issue(`subtype "${rawSubtype}" belongs to ${sub.type}, not ${type}`, { ...where, field: "relation_subtype" });
  }
  const src = source(rawSource);
  if (!src) ctx.issue(`unknown source "${rawSource}"`, { ...where, field: "source" });
  const labels: Record<string, string> = {
    relation_type: type ?? rawType,
    relation_subtype: sub?.subtype ?? rawSubtype,
    source: src ?? rawSource,
  };
  const topic = optString(rec, "topic", where)?.trim();
  if (topic) labels.topic = topic;
  return labels;
}

function readProbes(ctx: LoadContext, file: string): { probes: ProbeInput[]; personaId?: string } {
  const list = asArray(readJsonFile(file, ctx), { file, record: "(top level)" }, "(root)");
  ctx.read(file);
  const seen = new Map<string, number>();
  const probes: ProbeInput[] = [];
  let personaId: string | undefined;
  for (const [i, item] of list.entries()) {
    const rec = asRecord(item, { file, record: `instance [${i}]` });
    const id = reqString(rec, "instance_id", { file, record: `instance [${i}]` }).trim();
    const where = { file, record: `instance [${i}] "${id}"` };
    if (!id) throw new DataError("empty instance id", { ...where, field: "instance_id" });
    const first = seen.get(id);
    if (first !== undefined) {
      throw new DataError(`duplicate instance id (also at [${first}])`, { ...where, field: "instance_id" });
    }
    seen.set(id, i);
    const labels = readLabels(ctx, rec, where);
    const evidence = strings(reqArray(rec, "session_ids", where), where, "session_ids");
    personaId ??= optString(rec, "persona_id", where);
    // The judge shows the persona only for user-related cases (the released `llm_judge.py`).
    const persona = labels.source === "user-related" ? optString(rec, "persona_str", where) : undefined;
    const shared = compact({
      instanceId: id,
      caseId: optString(rec, "case_id", where),
      relationSubtypeRaw: reqString(rec, "relation_subtype", where),
      case: optString(rec, "case", where),
      facts: strings(optArray(rec, "facts", where), where, "facts"),
      persona,
    });
    const qas = reqArray(rec, "qas", where);
    if (!qas.length) ctx.issue("instance has no questions", { ...where, field: "qas" });
    for (const [j, q] of qas.entries()) {
      const qa = asRecord(q, where, `qas[${j}]`);
      const qw = { file, record: `${where.record} qas[${j}]` };
      const answers = strings(reqArray(qa, "correct_answers", qw), qw, "correct_answers");
      if (!answers.length) ctx.issue("no correct answers", { ...qw, field: "correct_answers" });
      probes.push({
        // From the instance id and the question's position in it, so ids survive reordering of the file.
        id: `${id}:qa${j}`,
        question: reqString(qa, "query", qw),
        position: { at: "end" },
        labels,
        gold: {
          answers,
          wrongAnswers: strings(optArray(qa, "incorrect_answers", qw), qw, "incorrect_answers"),
          evidenceSessionIds: evidence,
        },
        meta: { ...shared, qaIndex: j },
      });
    }
  }
  return { probes, personaId };
}

/** The persona folders under `root`, each with both files; a folder with only one of them is an error. */
async function personaFolders(root: string): Promise<string[]> {
  const found = await findFiles(root, (_p, name) => name === HISTORY_FILE || name === INSTANCES_FILE);
  const dirs = [...new Set(found.map((f) => dirname(f)))].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
  for (const dir of dirs) {
    for (const name of [HISTORY_FILE, INSTANCES_FILE]) {
      if (!fileExists(join(dir, name))) {
        throw new DataError(`persona folder lacks ${name}`, { file: join(dir, name) });
      }
    }
  }
  if (!dirs.length) {
    throw new DataError(`no persona folder (${HISTORY_FILE} + ${INSTANCES_FILE}) found`, { file: root });
  }
  return dirs;
}

function episodeId(root: string, dir: string): string {
  const rel = relative(root, dir);
  return rel ? rel.split(sep).join("/") : basename(dir);
}

export async function loadSubtleMemory(path: string, options: LoadOptions = {}): Promise<Dataset> {
  const ctx = new LoadContext("subtlememory", path, options);
  let root = path;
  if (fileExists(path) && !isDirectory(path)) {
    const name = basename(path);
    if (name !== HISTORY_FILE && name !== INSTANCES_FILE) {
      throw new DataError(`expected a persona folder or its ${HISTORY_FILE} / ${INSTANCES_FILE}`, { file: path });
    }
    root = dirname(path);
  }
  const dirs = await personaFolders(root);
  const total = dirs.reduce((n, d) => n + fileSize(join(d, HISTORY_FILE)) + fileSize(join(d, INSTANCES_FILE)), 0);
  let done = 0;
  for (const dir of dirs) {
    const historyFile = join(dir, HISTORY_FILE);
    const instancesFile = join(dir, INSTANCES_FILE);
    const sessions = toSessions(readSessions(ctx, historyFile));
    const { probes, personaId } = readProbes(ctx, instancesFile);
    const id = episodeId(root, dir);
    ctx.add(
      { id, benchmark: "subtlememory", sessions, probes, meta: compact({ personaId }) },
      { file: dir, record: `persona ${id}` },
    );
    done += fileSize(historyFile) + fileSize(instancesFile);
    options.onProgress?.(done, total);
  }
  return ctx.dataset();
}
