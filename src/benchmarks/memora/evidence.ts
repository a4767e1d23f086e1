/**
 * Reads Memora's `memory_evidence` / `forgetting_evidence`, whose shape differs
 * per question template (the release's `evaluation_questions_*.json`): session references sit at any
 * depth, and the facts are strings, preference items, document fields or
 * numeric log entries.
 */
import { isRecord, type Rec } from "../shared/fields.ts";

/** Our id for session number `n`, matching the file name `session_NNNN.json`. */
export function sessionIdOf(n: number): string {
  return `session_${String(n).padStart(4, "0")}`;
}

/** A session reference in any spelling (`3`, `"3"`, `"session_0003"`) → its number. */
export function parseSessionRef(value: unknown): number | undefined {
  if (typeof value === "number") return Number.isInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== "string") return undefined;
  const m = /^(?:session_?)?(\d+)$/i.exec(value.trim());
  return m ? Number(m[1]) : undefined;
}

export interface BadRef {
  /** Where in the evidence, e.g. `goal_session.session_id`. */
  path: string;
  value: unknown;
}

/** Keys holding one session reference, and keys holding a list of them. */
const REF_KEYS = new Set(["session_id"]);
const REF_LIST_KEYS = new Set(["session_history", "session_ids"]);

function joinPath(base: string, key: string | number): string {
  if (typeof key === "number") return `${base}[${key}]`;
  return base ? `${base}.${key}` : key;
}

/**
 * Every session number referenced anywhere inside `evidence`, ascending and
 * without repeats. `null` references (a goal whose setting session the
 * generator could not find) are skipped; unreadable ones go to `bad`.
 */
export function collectSessionRefs(evidence: unknown, base = ""): { refs: number[]; bad: BadRef[] } {
  const found = new Set<number>();
  const bad: BadRef[] = [];
  const take = (value: unknown, path: string) => {
    if (value === null || value === undefined) return;
    const n = parseSessionRef(value);
    if (n === undefined) bad.push({ path, value });
    else found.add(n);
  };
  const walk = (node: unknown, path: string) => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) walk(item, joinPath(path, i));
      return;
    }
    if (!isRecord(node)) return;
    for (const [key, value] of Object.entries(node)) {
      const p = joinPath(path, key);
      if (REF_KEYS.has(key)) take(value, p);
      else if (REF_LIST_KEYS.has(key) && Array.isArray(value)) {
        for (const [i, v] of value.entries()) take(v, joinPath(p, i));
      } else walk(value, p);
    }
  };
  walk(evidence, base);
  return { refs: [...found].sort((a, b) => a - b), bad };
}

const human = (key: string) => key.replace(/_/g, " ");

function scalar(value: unknown): string | undefined {
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

/** The fact one evidence entry states, for the entry shapes that state one. */
function entryFact(entry: Rec): string | undefined {
  const value = scalar(entry.value);
  if (value !== undefined) {
    const field = scalar(entry.field);
    return field ? `${human(field)}: ${value}` : value;
  }
  const item = scalar(entry.item);
  if (item !== undefined) return item;
  const expense = scalar(entry.expense_type);
  const amount = scalar(entry.amount);
  if (expense && amount) return `${expense} expense: ${amount}`;
  const steps = scalar(entry.step_count);
  if (steps) return `daily steps: ${steps}`;
  return undefined;
}

/**
 * The facts stated in one evidence object, as short texts. Entries that carry
 * a session reference are facts of that session, so two equal texts from
 * different sessions (two $3.41 coffees) both stay. Calendar `forgotten_items`
 * carry no value in the release, so they yield nothing.
 */
export function evidenceFacts(evidence: unknown): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (text: string | undefined, session?: unknown) => {
    if (!text) return;
    const key = `${text}\u0000${parseSessionRef(session) ?? ""}`;
    if (seen.has(key)) return;
    seen.add(key);
    out.push(text);
  };
  const walk = (node: unknown, key: string, parent: string) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item, key, parent);
      return;
    }
    if (key === "likes" || key === "dislikes") {
      const item = isRecord(node) ? scalar(node.item) : scalar(node);
      const where = parent && parent !== "subcategory_data" ? ` (${human(parent)})` : "";
      if (item !== undefined) add(`${key} ${item}${where}`, isRecord(node) ? node.session_id : undefined);
      return;
    }
    if (!isRecord(node)) return;
    if (key === "content_data") {
      for (const [field, value] of Object.entries(node)) {
        for (const v of Array.isArray(value) ? value : [value]) {
          const s = scalar(v);
          if (s !== undefined) add(`${human(field)}: ${s}`);
        }
      }
      return;
    }
    if (key === "goal_data") {
      const target = scalar(node.subcategory) ?? scalar(node.category);
      const value = scalar(node.value);
      if (target && value) add(`${human(target)} goal: ${value}`);
      return;
    }
    if ("session_id" in node) {
      add(entryFact(node), node.session_id);
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      // The likes of a subcategory question, repeated from `subcategory_data`.
      if (k === "specific_items") continue;
      walk(v, k, key);
    }
  };
  walk(evidence, "", "");
  return out;
}
