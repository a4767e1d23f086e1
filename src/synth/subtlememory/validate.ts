/**
 * Checks a folder of SubtleMemory data (`history_sessions.json` +
 * `bench_instances.json` per persona): labels the benchmark defines
 * (src/benchmarks/subtlememory/labels.ts), evidence sessions that exist,
 * belong to their case and state their variant, sessions shaped as the
 * release's schema requires, and a timeline whose times never run backwards.
 * Every question is asked after the whole history, so a "future" fact here is
 * a session whose time lies after a session placed later: replayed in order,
 * it would be seen before it happened.
 */
import { dirname, join, relative } from "node:path";
import { isRecord, type Rec } from "../../benchmarks/shared/fields.ts";
import { findFiles, readJsonFile } from "../../benchmarks/shared/files.ts";
import { relationSubtype, relationType, source } from "../../benchmarks/subtlememory/labels.ts";
import { contentWords, coverage } from "../text-overlap.ts";
import type { ValidationIssue } from "../types.ts";

export const HISTORY = "history_sessions.json";
export const INSTANCES = "bench_instances.json";

/** Share of a variant's content words its session must carry. */
export const MIN_COVERAGE = 0.5;

function read(path: string, root: string, issues: ValidationIssue[]): unknown[] | undefined {
  try {
    const raw = readJsonFile(path);
    if (Array.isArray(raw)) return raw;
    issues.push({ file: relative(root, path), problem: "expected a JSON array" });
  } catch (error) {
    issues.push({ file: relative(root, path), problem: `unreadable: ${(error as Error).message}` });
  }
  return undefined;
}

interface SessionInfo {
  caseId: string;
  text: string;
}

function checkHistory(list: unknown[], file: string, issues: ValidationIssue[]): Map<string, SessionInfo> {
  const sessions = new Map<string, SessionInfo>();
  let prev: { time: number; id: string } | undefined;
  list.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    const id = String(raw.session_id);
    const record = `session [${i}] ${id}`;
    if (raw.order !== i)
      issues.push({ file, record, field: "order", problem: `order ${String(raw.order)} at position ${i}` });
    const src = source(String(raw.source));
    if (!src) issues.push({ file, record, field: "source", problem: `unknown source "${String(raw.source)}"` });
    const level = raw.persona_signal_level;
    if (
      src === "user-related"
        ? !["low", "medium", "high"].includes(String(level))
        : level !== null && level !== undefined
    ) {
      issues.push({ file, record, field: "persona_signal_level", problem: `"${String(level)}" for a ${src} session` });
    }
    const time = Date.parse(String(raw.timestamp));
    if (Number.isNaN(time))
      issues.push({ file, record, field: "timestamp", problem: `unreadable time "${String(raw.timestamp)}"` });
    else {
      if (prev && time < prev.time) {
        issues.push({
          file,
          record,
          field: "timestamp",
          problem: `dated before ${prev.id}, which comes earlier: its facts would be seen before they happen`,
        });
      }
      prev = { time, id };
    }
    const messages = Array.isArray(raw.history) ? raw.history.filter(isRecord) : [];
    if (messages.length < 6)
      issues.push({ file, record, field: "history", problem: `${messages.length} messages; a session has at least 6` });
    messages.forEach((m: Rec, j) => {
      const want = j % 2 === 0 ? "user" : "assistant";
      if (m.role !== want)
        issues.push({
          file,
          record,
          field: `history[${j}].role`,
          problem: `"${String(m.role)}" where the session needs ${want} (start with user, alternate)`,
        });
    });
    sessions.set(id, { caseId: String(raw.case_id), text: messages.map((m) => String(m.content)).join("\n") });
  });
  return sessions;
}

function checkInstances(list: unknown[], sessions: Map<string, SessionInfo>, file: string, issues: ValidationIssue[]) {
  list.forEach((raw, i) => {
    if (!isRecord(raw)) return;
    const id = String(raw.instance_id);
    const record = `instance [${i}] ${id}`;
    const type = relationType(String(raw.relation_type));
    const sub = relationSubtype(String(raw.relation_subtype));
    const src = source(String(raw.source));
    if (!type)
      issues.push({
        file,
        record,
        field: "relation_type",
        problem: `unknown relation type "${String(raw.relation_type)}"`,
      });
    if (!sub)
      issues.push({
        file,
        record,
        field: "relation_subtype",
        problem: `unknown relation subtype "${String(raw.relation_subtype)}"`,
      });
    else if (type && sub.type !== type)
      issues.push({
        file,
        record,
        field: "relation_subtype",
        problem: `"${String(raw.relation_subtype)}" is a ${sub.type} subtype, not ${type}`,
      });
    if (!src) issues.push({ file, record, field: "source", problem: `unknown source "${String(raw.source)}"` });
    else if (src === "user-related" && /^[abc]_/.test(String(raw.relation_subtype))) {
      issues.push({
        file,
        record,
        field: "relation_subtype",
        problem: `"${String(raw.relation_subtype)}" is a subtype of world-knowledge (user-unrelated) cases`,
      });
    }
    let name = new Set<string>();
    try {
      const persona = JSON.parse(String(raw.persona_str ?? "{}"));
      name = contentWords(String(persona?.name ?? ""));
    } catch {
      issues.push({ file, record, field: "persona_str", problem: "not JSON text" });
    }
    const ids = Array.isArray(raw.session_ids) ? raw.session_ids.map(String) : [];
    if (!ids.length) issues.push({ file, record, field: "session_ids", problem: "no evidence sessions" });
    const texts: string[] = [];
    ids.forEach((sid, j) => {
      const s = sessions.get(sid);
      if (!s)
        issues.push({
          file,
          record,
          field: `session_ids[${j}]`,
          problem: `evidence session "${sid}" is not in ${HISTORY}`,
        });
      else if (s.caseId !== String(raw.case_id))
        issues.push({
          file,
          record,
          field: `session_ids[${j}]`,
          problem: `session "${sid}" belongs to case "${s.caseId}", not "${String(raw.case_id)}"`,
        });
      texts.push(s?.text ?? "");
    });
    const facts = Array.isArray(raw.facts) ? raw.facts.map(String) : [];
    // Our generator writes one session per fact, in order; the release sometimes has more facts than sessions.
    const paired = facts.length === ids.length;
    facts.forEach((fact, j) => {
      const score = paired
        ? coverage(fact, texts[j] ?? "", name)
        : Math.max(0, ...texts.map((t) => coverage(fact, t, name)));
      if (score < MIN_COVERAGE) {
        issues.push({
          file,
          record,
          field: `facts[${j}]`,
          problem: `no evidence session states this variant (${Math.round(score * 100)}% of its words found)`,
        });
      }
    });
    const qas = Array.isArray(raw.qas) ? raw.qas.filter(isRecord) : [];
    if (!qas.length) issues.push({ file, record, field: "qas", problem: "no questions" });
    qas.forEach((qa, j) => {
      if (!String(qa.query ?? "").trim()) issues.push({ file, record, field: `qas[${j}].query`, problem: "empty" });
      for (const key of ["correct_answers", "incorrect_answers"]) {
        const n = Array.isArray(qa[key]) ? qa[key].length : 0;
        if (n !== 3)
          issues.push({
            file,
            record,
            field: `qas[${j}].${key}`,
            problem: `${n} answers; the release gives 3`,
            severity: n ? "warning" : "error",
          });
      }
    });
  });
}

export async function validateSubtleMemory(dir: string): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const histories = await findFiles(dir, (_p, name) => name === HISTORY);
  if (!histories.length) issues.push({ file: ".", problem: `no ${HISTORY} found` });
  for (const history of histories) {
    const folder = dirname(history);
    const sessionsRaw = read(history, dir, issues);
    const instancesRaw = read(join(folder, INSTANCES), dir, issues);
    if (!sessionsRaw || !instancesRaw) continue;
    const sessions = checkHistory(sessionsRaw, relative(dir, history), issues);
    checkInstances(instancesRaw, sessions, relative(dir, join(folder, INSTANCES)), issues);
  }
  return issues;
}
