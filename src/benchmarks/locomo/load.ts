/**
 * LoCoMo loader: one episode per conversation. Reads both layouts:
 * `locomo10.json` (the single file most harnesses use), an array of
 * `{sample_id, conversation: {...}, qa, ...}`, and the per-conversation files of
 * snap-research/locomo@e76cdff:data/locomo10.zip (`26.json`: one flat object
 * with the sessions and `qa` side by side). Observations, session summaries and event summaries are
 * generated annotations, not dialogue: they are skipped.
 */
import { basename } from "node:path";
import { DataError } from "../../core/errors.ts";
import type { Dataset, EpisodeInput, ProbeInput, Role } from "../../core/model.ts";
import {
  asArray,
  asRecord,
  type FieldWhere,
  fileSize,
  findFiles,
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
import { ABSTENTION_ANSWER, ADVERSARIAL, CATEGORY_NAMES, categoryId } from "./categories.ts";
import { diaSession, parseEvidence } from "./evidence.ts";

/** Written by `membench data pull` next to the release files; not a conversation. */
const PULL_MANIFEST = "membench-release.json";
const SESSION_KEY = /^session_(\d+)$/;

type SessionInput = EpisodeInput["sessions"][number];

function compact(rec: Rec): Rec | undefined {
  const out = Object.fromEntries(Object.entries(rec).filter(([, v]) => v !== undefined));
  return Object.keys(out).length ? out : undefined;
}

/**
 * `26.json` from the zip is the conversation `locomo10.json` calls `conv-26`;
 * naming both alike keeps probe ids comparable across layouts.
 */
function idFromFileName(file: string): string {
  const base = basename(file).replace(/\.json$/i, "");
  return /^\d+$/.test(base) ? `conv-${base}` : base;
}

interface Speakers {
  a: string;
  b: string;
}

function readSessions(
  ctx: LoadContext,
  conv: Rec,
  speakers: Speakers,
  where: FieldWhere,
): { sessions: SessionInput[]; turnSession: Map<string, string> } {
  // Some releases carry `session_<n>_date_time` for sessions that have no turns: only listed sessions count.
  const numbers = Object.keys(conv)
    .map((key) => SESSION_KEY.exec(key))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => Number(m[1]))
    .sort((x, y) => x - y);
  const turnSession = new Map<string, string>();
  const sessions = numbers.map((n, index): SessionInput => {
    const id = `session_${n}`;
    const dateTime = optString(conv, `${id}_date_time`, where);
    const time = parseLooseTime(dateTime);
    if (dateTime === undefined) ctx.issue("session has no date", { ...where, field: `${id}_date_time` });
    else if (!time) ctx.issue(`unreadable date "${dateTime}"`, { ...where, field: `${id}_date_time` });
    const turns = asArray(conv[id], where, id).map((item, i) => {
      const tw = { file: where.file, record: `${where.record} ${id}[${i}]` };
      const t = asRecord(item, tw);
      const speaker = reqString(t, "speaker", tw);
      const turnId = reqString(t, "dia_id", tw).trim();
      if (!turnId) throw new DataError("empty dialog id", { ...tw, field: "dia_id" });
      turnSession.set(turnId, id);
      let role: Role = "user";
      if (speaker === speakers.b) role = "assistant";
      else if (speaker !== speakers.a) {
        ctx.issue(`speaker "${speaker}" is neither "${speakers.a}" nor "${speakers.b}"`, { ...tw, field: "speaker" });
      }
      // Captions stay out of the content: the reference `task_eval/` prompts are not known to show them.
      const meta = compact({
        imgUrl: t.img_url ?? undefined,
        blipCaption: optString(t, "blip_caption", tw),
        imageQuery: optString(t, "query", tw),
        reDownload: t["re-download"] ?? undefined,
      });
      return { id: turnId, index: i, role, speaker, content: reqString(t, "text", tw), ...(meta && { meta }) };
    });
    const meta = compact({ dateTime });
    return { id, index, ...(time && { time }), turns, ...(meta && { meta }) };
  });
  return { sessions, turnSession };
}

function readProbes(
  ctx: LoadContext,
  rec: Rec,
  episodeId: string,
  turnSession: Map<string, string>,
  lastTime: string | undefined,
  where: FieldWhere,
): ProbeInput[] {
  return reqArray(rec, "qa", where).map((item, j): ProbeInput => {
    const qw = { file: where.file, record: `${where.record} qa[${j}]` };
    const q = asRecord(item, qw);
    const question = reqString(q, "question", qw);
    if (q.category === undefined || q.category === null) throw new DataError("missing", { ...qw, field: "category" });
    const cat = categoryId(q.category);
    if (cat === undefined) ctx.issue(`unknown category ${JSON.stringify(q.category)}`, { ...qw, field: "category" });
    const answer = optString(q, "answer", qw)?.trim();
    // Adversarial items often carry only the trap answer; every other category needs a gold answer.
    if (cat !== ADVERSARIAL && (answer === undefined || answer === "")) {
      throw new DataError(answer === undefined ? "missing" : "empty answer", { ...qw, field: "answer" });
    }
    const adversarial = optString(q, "adversarial_answer", qw)?.trim();
    const rawEvidence = optArray(q, "evidence", qw);
    const evidence = parseEvidence(rawEvidence);
    // The official release has such tokens (conv-42 qa[88]: "D"). Evidence feeds no LoCoMo
    // score (F1 and J read the answer only), so strict mode loads it too.
    if (evidence.unreadable.length) {
      const tokens = evidence.unreadable.map((e) => JSON.stringify(e)).join(", ");
      ctx.warn(`unreadable evidence ${tokens} dropped (evidence does not change F1 or J)`, {
        ...qw,
        field: "evidence",
      });
    }
    const sessionIds = [
      ...new Set(evidence.ids.map((id) => turnSession.get(id) ?? `session_${diaSession(id) ?? "?"}`)),
    ];
    const synthesized = cat === ADVERSARIAL && !answer;
    return {
      id: `${episodeId}:q${j}`,
      question,
      ...(lastTime && { time: lastTime }),
      position: { at: "end" },
      labels: { category: cat === undefined ? String(q.category) : CATEGORY_NAMES[cat] },
      gold: {
        answers: answer ? [answer] : synthesized ? [ABSTENTION_ANSWER] : [],
        wrongAnswers: adversarial ? [adversarial] : [],
        evidenceTurnIds: evidence.ids,
        evidenceSessionIds: sessionIds,
      },
      meta: compact({
        categoryId: cat ?? q.category,
        // The reference scorer expects an abstention on every adversarial item, whatever `answer` says.
        abstention: cat === ADVERSARIAL || undefined,
        answerSynthesized: synthesized || undefined,
        evidenceRaw: evidence.repaired || evidence.unreadable.length ? rawEvidence : undefined,
      }),
    };
  });
}

function readConversation(ctx: LoadContext, rec: Rec, id: string, where: FieldWhere): EpisodeInput {
  const conv = rec.conversation === undefined ? rec : asRecord(rec.conversation, where, "conversation");
  const speakers = { a: reqString(conv, "speaker_a", where), b: reqString(conv, "speaker_b", where) };
  const { sessions, turnSession } = readSessions(ctx, conv, speakers, where);
  const lastTime = sessions.findLast((s) => s.time)?.time;
  const probes = readProbes(ctx, rec, id, turnSession, lastTime, where);
  return { id, benchmark: "locomo", sessions, probes, meta: { speakerA: speakers.a, speakerB: speakers.b } };
}

export async function loadLocomo(path: string, options: LoadOptions = {}): Promise<Dataset> {
  const ctx = new LoadContext("locomo", path, options);
  const files = await findFiles(
    path,
    (_p, name) => name.toLowerCase().endsWith(".json") && name !== PULL_MANIFEST && !name.startsWith("."),
  );
  if (!files.length) throw new DataError("no LoCoMo .json file found", { file: path });
  const total = files.reduce((n, f) => n + fileSize(f), 0);
  let done = 0;
  for (const file of files) {
    const raw = readJsonFile(file, ctx);
    ctx.read(file);
    const items: Array<{ value: unknown; record: string }> = Array.isArray(raw)
      ? raw.map((value, i) => ({ value, record: `conversation [${i}]` }))
      : [{ value: raw, record: "conversation" }];
    for (const { value, record } of items) {
      const rec = asRecord(value, { file, record });
      const sampleId = optString(rec, "sample_id", { file, record })?.trim();
      // An array must name its conversations; a single-conversation file is named by its file name.
      if (Array.isArray(raw) && !sampleId) throw new DataError("missing", { file, record, field: "sample_id" });
      const id = sampleId || idFromFileName(file);
      const where = { file, record: `conversation ${id}` };
      ctx.add(readConversation(ctx, rec, id, where), where);
    }
    done += fileSize(file);
    options.onProgress?.(done, total);
  }
  return ctx.dataset();
}
