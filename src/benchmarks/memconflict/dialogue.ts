/**
 * Tolerant reading of `Session_Dialogue`, the LLM-written
 * `{"dialogue_turn_N": [{role, content}, …]}` object of each session.
 *
 * Quirks handled (observed by the third-party EngTurtle/hermes-memconflict
 * harness in the released Step4_4.jsonl, plus upstream's own readers):
 * - keys are sorted by their number, so `dialogue_turn_10` follows `_9`;
 *   keys that are not `dialogue_turn_<n>` are skipped, as upstream Step4_3 does;
 * - a "turn" is not reliably a user+assistant pair (1 or 3 messages occur), so
 *   every message is flattened in order and none is paired by position;
 * - `{"role": "assistant"}` with no content is dropped (nothing to remember;
 *   upstream's token count skips it too);
 * - `{"assistant": "content", "content": "…"}`: a sentinel key names the role
 *   and the text is in `content`;
 * - `{"assistant": {"content": "…"}}`: the role is the key, the text nested;
 * - an extra `name` key is kept as the speaker;
 * - defensive, from the same harness: a turn holding one message object
 *   instead of a list, and `content` nested one level (`{"content": "…"}`).
 * Role names are compared case-insensitively. A message whose role cannot be
 * found is an issue (strict: error; lenient: dropped with a warning).
 */
import type { DataErrorWhere } from "../../core/errors.ts";
import type { Role, Turn } from "../../core/model.ts";
import { describe, isRecord, type Rec } from "../shared/fields.ts";
import type { Reporter } from "./reporter.ts";

const TURN_KEY = /^dialogue_turn_(\d+)$/;
const ROLES: readonly Role[] = ["user", "assistant", "system"];

export type DialogueQuirk =
  | "no_content"
  | "sentinel_role_key"
  | "role_key_object"
  | "role_key_text"
  | "nested_content"
  | "single_message_turn"
  | "uneven_turn"
  | "role_case";

export interface Dialogue {
  turns: Turn[];
  /** Messages seen, before empty ones were dropped. */
  messageCount: number;
  quirks: Partial<Record<DialogueQuirk, number>>;
}

interface Message {
  role: Role;
  content: string;
  speaker?: string;
  quirk?: DialogueQuirk;
}

function asRole(value: string): { role?: Role; recased: boolean } {
  const lower = value.trim().toLowerCase();
  const role = ROLES.find((r) => r === lower);
  return { role, recased: role !== undefined && role !== value };
}

function textOf(value: unknown): { text: string; nested: boolean } {
  if (typeof value === "string") return { text: value, nested: false };
  if (isRecord(value) && typeof value.content === "string") return { text: value.content, nested: true };
  return { text: "", nested: false };
}

/** One message in any of the known shapes, or a reason it could not be read. */
function readMessage(raw: unknown, count: (q: DialogueQuirk) => void): Message | string {
  if (!isRecord(raw)) return `expected a message object, got ${describe(raw)}`;
  const speaker = typeof raw.name === "string" && raw.name.trim() ? raw.name : undefined;
  if (typeof raw.role === "string") {
    const { role, recased } = asRole(raw.role);
    if (!role) return `unknown role "${raw.role}"`;
    if (recased) count("role_case");
    const { text, nested } = textOf(raw.content);
    return { role, content: text, speaker, quirk: nested ? "nested_content" : undefined };
  }
  const key = Object.keys(raw).find((k) => asRole(k).role);
  if (!key) return `no role in message with keys [${Object.keys(raw).join(", ")}]`;
  const role = asRole(key).role as Role;
  const value = raw[key];
  if (isRecord(value)) return { role, content: textOf(value).text, speaker, quirk: "role_key_object" };
  if (typeof raw.content === "string") return { role, content: raw.content, speaker, quirk: "sentinel_role_key" };
  // `{"user": "text"}`: the value is the text itself when no `content` key exists.
  return { role, content: typeof value === "string" ? value : "", speaker, quirk: "role_key_text" };
}

function turnEntries(dialogue: Rec, where: DataErrorWhere, report: Reporter): Array<[number, string, unknown]> {
  const entries: Array<[number, string, unknown]> = [];
  for (const [key, value] of Object.entries(dialogue)) {
    const m = TURN_KEY.exec(key);
    if (m) entries.push([Number(m[1]), key, value]);
    else
      report.warn(`skipped key "${key}" that is not dialogue_turn_<n>`, { ...where, field: `${where.field}.${key}` });
  }
  return entries.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
}

/**
 * Flattens one session's dialogue into turns with ids `<sessionId>#<index>`,
 * `index` counting the kept messages from 0. `where.field` is the path of the
 * `Session_Dialogue` field, extended for errors inside it.
 */
export function parseDialogue(raw: unknown, sessionId: string, where: DataErrorWhere, report: Reporter): Dialogue {
  const quirks: Partial<Record<DialogueQuirk, number>> = {};
  const count = (q: DialogueQuirk) => {
    quirks[q] = (quirks[q] ?? 0) + 1;
  };
  const turns: Turn[] = [];
  let messageCount = 0;
  if (!isRecord(raw)) {
    report.issue(`expected an object of dialogue turns, got ${describe(raw)}`, where);
    return { turns, messageCount, quirks };
  }
  for (const [n, key, value] of turnEntries(raw, where, report)) {
    const field = `${where.field}.${key}`;
    let messages: unknown[];
    if (Array.isArray(value)) messages = value;
    else if (isRecord(value)) {
      messages = [value];
      count("single_message_turn");
    } else {
      report.issue(`expected a list of messages, got ${describe(value)}`, { ...where, field });
      continue;
    }
    const roles = messages.map((m) => (isRecord(m) && typeof m.role === "string" ? m.role.toLowerCase() : "?"));
    if (roles.length !== 2 || roles[0] !== "user" || roles[1] !== "assistant") count("uneven_turn");
    messages.forEach((rawMessage, i) => {
      messageCount++;
      const message = readMessage(rawMessage, count);
      if (typeof message === "string") {
        report.issue(message, { ...where, field: `${field}[${i}]` });
        return;
      }
      if (message.quirk) count(message.quirk);
      if (!message.content.trim()) {
        count("no_content");
        return;
      }
      const index = turns.length;
      turns.push({
        id: `${sessionId}#${index}`,
        index,
        role: message.role,
        ...(message.speaker ? { speaker: message.speaker } : {}),
        content: message.content,
        meta: { dialogueTurn: n, ...(message.quirk ? { quirk: message.quirk } : {}) },
      });
    });
  }
  return { turns, messageCount, quirks };
}
