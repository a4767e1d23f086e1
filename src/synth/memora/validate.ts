/**
 * Checks a folder of Memora data (ours or the release's layout) for what would
 * make a question unfair: a session dated after the question or numbered past
 * its question point (a leaked future fact), evidence that points at a missing
 * session or at one whose memory turns never state it, and labels the
 * benchmark does not define (src/benchmarks/memora/labels.ts).
 */
import { relative } from "node:path";
import { findPersonaFolders } from "../../benchmarks/memora/discover.ts";
import {
  CRITERION_KINDS,
  OPERATIONS,
  questionKind,
  questionPoint,
  SESSION_TYPES,
  SPEAKER_ROLES,
  SUBTYPE_TASKS,
  TASKS,
} from "../../benchmarks/memora/labels.ts";
import { listSessionFiles } from "../../benchmarks/memora/sessions.ts";
import { LoadContext } from "../../benchmarks/shared/context.ts";
import { isRecord, type Rec } from "../../benchmarks/shared/fields.ts";
import { readJsonFile } from "../../benchmarks/shared/files.ts";
import { coverage } from "../text-overlap.ts";
import type { ValidationIssue } from "../types.ts";
import { mentions } from "./dialogue.ts";

/** Share of an evidence value's content words its session's memory turns must carry when it is not there verbatim. */
const MIN_COVERAGE = 0.6;

interface SessionInfo {
  file: string;
  date: string;
  /** Text of the turns flagged `share_memory`. */
  shared: string;
  type: string;
}

function readJson(path: string, root: string, issues: ValidationIssue[]): unknown {
  try {
    return readJsonFile(path);
  } catch (error) {
    issues.push({ file: relative(root, path), problem: `unreadable: ${(error as Error).message}` });
    return undefined;
  }
}

/** The value an evidence entry states, as the memory turn of its session must say it. */
function stated(entry: Rec): string | undefined {
  for (const key of ["value", "item", "description"]) {
    if (typeof entry[key] === "string" && entry[key]) return entry[key] as string;
  }
  if (typeof entry.amount === "number") return String(entry.amount);
  if (typeof entry.step_count === "number") return String(entry.step_count);
  return undefined;
}

/** Every object under `node` that names a session, with its path. */
function sessionEntries(node: unknown, path: string, out: Array<{ path: string; entry: Rec }> = []) {
  if (Array.isArray(node)) {
    for (const [i, item] of node.entries()) sessionEntries(item, `${path}[${i}]`, out);
  } else if (isRecord(node)) {
    if ("session_id" in node) out.push({ path, entry: node });
    for (const [k, v] of Object.entries(node)) {
      if (k === "session_ids" && Array.isArray(v)) {
        v.forEach((id, i) => {
          out.push({ path: `${path}.${k}[${i}]`, entry: { session_id: id } });
        });
      } else if (typeof v === "object") sessionEntries(v, `${path}.${k}`, out);
    }
  }
  return out;
}

function checkSessions(dir: string, root: string, persona: string, issues: ValidationIssue[]) {
  const sessions = new Map<number, SessionInfo>();
  for (const f of listSessionFiles(dir)) {
    const file = relative(root, f.path);
    const raw = readJson(f.path, root, issues);
    if (!isRecord(raw)) continue;
    const record = `session ${f.number}`;
    const type = String(raw.session_type);
    if (!SESSION_TYPES.has(type))
      issues.push({ file, record, field: "session_type", problem: `unknown session_type "${type}"` });
    const operation = raw.operation;
    if (operation !== null && !OPERATIONS.has(String(operation))) {
      issues.push({ file, record, field: "operation", problem: `unknown operation "${String(operation)}"` });
    }
    if (raw.persona !== persona)
      issues.push({
        file,
        record,
        field: "persona",
        problem: `persona "${String(raw.persona)}" in folder "${persona}"`,
      });
    const turns = Array.isArray(raw.conversation) ? raw.conversation.filter(isRecord) : [];
    let shared = "";
    turns.forEach((t, i) => {
      if (!SPEAKER_ROLES[String(t.speaker)]) {
        issues.push({
          file,
          record,
          field: `conversation[${i}].speaker`,
          problem: `unknown speaker "${String(t.speaker)}"`,
        });
      }
      if (t.share_memory === true) shared += `\n${String(t.message)}`;
    });
    if (operation !== null && !shared) {
      issues.push({
        file,
        record,
        field: "conversation",
        problem: "a memory session with no share_memory turn: its memory is never stated",
      });
    }
    if (operation === null && shared) {
      issues.push({ file, record, field: "conversation", problem: "a memory-neutral session has share_memory turns" });
    }
    sessions.set(f.number, { file, date: String(raw.date), shared, type });
  }
  return sessions;
}

/** Problems in one persona folder. */
function checkPersona(
  folder: { dir: string; questionsFile: string; conversationsDir: string; persona: string },
  root: string,
): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const sessions = checkSessions(folder.conversationsDir, root, folder.persona, issues);
  const file = relative(root, folder.questionsFile);
  const doc = readJson(folder.questionsFile, root, issues);
  if (!isRecord(doc) || !isRecord(doc.questions)) {
    issues.push({ file, field: "questions", problem: "no questions object" });
    return issues;
  }
  const end = isRecord(doc.date_range) ? String(doc.date_range.end_date) : undefined;
  for (const s of sessions.values()) {
    if (end && s.date > end) {
      issues.push({
        file: s.file,
        field: "date",
        problem: `session dated ${s.date}, after the questions' date ${end}`,
      });
    }
  }
  for (const [key, list] of Object.entries(doc.questions)) {
    const task = TASKS[key];
    if (!task) issues.push({ file, field: `questions.${key}`, problem: `unknown task "${key}"` });
    if (!Array.isArray(list)) continue;
    list.forEach((q, i) => {
      if (!isRecord(q)) return;
      const id = String(q.question_id);
      const record = `questions.${key}[${i}] ${id}`;
      const kind = questionKind(id);
      if (!kind) issues.push({ file, record, field: "question_id", problem: "not a Memora question template" });
      else if (task && SUBTYPE_TASKS[kind.subtype] !== task) {
        issues.push({ file, record, field: "question_id", problem: `a ${kind.subtype} question filed under ${key}` });
      }
      const point = questionPoint(id);
      const date = String(q.question_date);
      const criteria =
        isRecord(q.evaluation) && Array.isArray(q.evaluation.evaluation_questions)
          ? q.evaluation.evaluation_questions.filter(isRecord)
          : [];
      criteria.forEach((c, j) => {
        const k = CRITERION_KINDS[String(c.evaluation_type)];
        const field = `evaluation.evaluation_questions[${j}]`;
        if (!k)
          issues.push({
            file,
            record,
            field: `${field}.evaluation_type`,
            problem: `unknown evaluation_type "${String(c.evaluation_type)}"`,
          });
        else if (c.expected_answer !== k.expected) {
          issues.push({
            file,
            record,
            field: `${field}.expected_answer`,
            problem: `a ${String(c.evaluation_type)} criterion must expect "${k.expected}"`,
          });
        }
      });
      if (!criteria.some((c) => c.evaluation_type === "memory_presence")) {
        issues.push({ file, record, field: "evaluation", problem: "no memory-presence criterion" });
      }
      for (const field of ["memory_evidence", "forgetting_evidence"]) {
        for (const { path, entry } of sessionEntries(q[field], field)) {
          const n = typeof entry.session_id === "number" ? entry.session_id : Number.NaN;
          const session = sessions.get(n);
          if (!session) {
            issues.push({
              file,
              record,
              field: path,
              problem: `evidence session ${String(entry.session_id)} does not exist`,
            });
            continue;
          }
          if (date < session.date || (point !== undefined && n > point)) {
            issues.push({
              file,
              record,
              field: path,
              problem: `evidence from session ${n} (${session.date}) lies after the question (${date}, after session ${point})`,
            });
          }
          const value = stated(entry);
          // Verbatim, or most of its words: a paraphrase ("I still need to refactor some legacy code") counts.
          if (
            value !== undefined &&
            !mentions(session.shared, value) &&
            coverage(value, session.shared) < MIN_COVERAGE
          ) {
            issues.push({
              file,
              record,
              field: path,
              problem: `session ${n} never states "${value}" in its memory turns`,
            });
          }
        }
      }
    });
  }
  return issues;
}

export async function validateMemora(dir: string): Promise<ValidationIssue[]> {
  const ctx = new LoadContext("memora", dir, { strict: false });
  const folders = findPersonaFolders(dir, ctx);
  const issues: ValidationIssue[] = ctx.warnings.map((w) => ({ file: ".", problem: w }));
  if (!folders.length)
    issues.push({
      file: ".",
      problem: "no <duration>/<persona>/ folder with conversations/ and evaluation_questions_<persona>.json",
    });
  for (const folder of folders) issues.push(...checkPersona(folder, dir));
  return issues;
}
