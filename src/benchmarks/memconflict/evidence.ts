/**
 * Derives each question's supporting sessions and memory texts from the
 * conflict records, because the release links questions to nothing: a
 * question carries only `question_id` (`Q_001`… restarting in every
 * session), its text, answer and labels.
 *
 * Step 1, tie a question to the records it was generated from. Upstream
 * (`Code/Step4_4.py`) builds a session's questions from a fixed
 * template layout and numbers them in that order, and the LLM rewrite must
 * keep the ids (a structural check rejects anything else), so `Q_n` is the
 * n-th slot of:
 *   1. per `Updated_Attributes` entry with a non-empty `After`, in order:
 *      2 slots ("changed recently?" + "how changed?"), or for a
 *      `Career_Status` object pair 1 + min(3, changed fields) + (1 if one of
 *      Employment_Status / Savings_Amount / Company_Type stayed the same);
 *   2. per static point after Point_A (not a distractor), in record order: 1;
 *   3. per conditional point after Point_A, in record order: 1.
 * If every question of the session lands on a slot of its own conflict type,
 * the tie is "template" (exact). Otherwise (a file from another generator
 * version) each question is tied to all records of its type in that session
 * ("type"); if the session has none, nothing can be tied ("none"): the
 * question keeps its gold answer, gets no evidence sessions, and a warning is
 * recorded in both modes, since the paper's scoring never uses session ids
 * (support is judged by an LLM over retrieved texts, arXiv 2605.20926 §3.6).
 *
 * Step 2, from records to evidence, only ever looking at sessions up to the
 * question's own (no future information):
 * - dynamic: the update in this session plus the latest earlier session that
 *   stated the same attribute (its reveal or its previous update; a reveal of
 *   `Social_Relationships` states `Social_Status`), because the gold answer
 *   is the old → new change. Memory: "changed from <Before> to <After>".
 *   Outdated value (UOCS) → meta.outdatedValues. A career question about one
 *   field (its slot says which) gets that field's change, or "stayed <v>".
 * - static: the Point_A session (the truth) and this Point_B session (the
 *   false claim). Memory: the Point_A value. The claim (CRS) →
 *   meta.conflictingClaims. A Point_A that cannot be found (upstream then
 *   answers "cannot be confirmed") leaves only this session, with a warning.
 * - conditional: the question asks for the condition of the *previous* point
 *   of the same conflict (B asks about A, C about B), so the evidence is that
 *   point's session alone; the newer rule is the competitor →
 *   meta.competingRules. Without a previous point upstream asks about the
 *   point itself, and so does this.
 * Distractors of the same conflict (same Conflict_ID, or for dynamic the
 * others-dynamic item linked to this update) are listed in meta, never as
 * evidence.
 */
import { isRecord } from "../shared/fields.ts";
import type { ConflictKind } from "./format.ts";
import {
  type ConditionalRecord,
  isDistractor,
  isTrigger,
  type SessionRecords,
  type StaticRecord,
  type UpdateRecord,
} from "./records.ts";
import { attributeText, fieldLabel, hasValue, sameValue, valueText } from "./values.ts";

export type Target =
  | { kind: "dynamic"; update: UpdateRecord; detail?: CareerDetail }
  | { kind: "static"; point: StaticRecord }
  | { kind: "conditional"; point: ConditionalRecord };

export type TieMethod = "template" | "type" | "none";

const CAREER_PRIORITY = [
  "Company_Name",
  "Job_Title",
  "Industry",
  "Monthly_Income",
  "Company_Type",
  "Savings_Amount",
  "Employment_Status",
];
const CAREER_STABLE = ["Employment_Status", "Savings_Amount", "Company_Type"];

/** One career field a question is about: a changed one, or the one that stayed the same. */
export interface CareerDetail {
  key: string;
  before: unknown;
  after: unknown;
  stable: boolean;
}

/**
 * The questions upstream generates for one update, as the detail each is
 * about: undefined for the whole change. A `Career_Status` object pair gets
 * one question on the whole change, one per changed field (at most 3, in
 * upstream's priority order) and one on the first stable field found.
 */
export function dynamicQuestionDetails(update: UpdateRecord): Array<CareerDetail | undefined> {
  const { before, after } = update;
  if (update.attribute !== "Career_Status" || !isRecord(before) || !isRecord(after)) return [undefined, undefined];
  const extra = [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => !CAREER_PRIORITY.includes(k))
    .sort();
  const changed: CareerDetail[] = [];
  const unchanged = new Map<string, unknown>();
  for (const key of [...CAREER_PRIORITY, ...extra]) {
    if (!(key in before) && !(key in after)) continue;
    if (sameValue(before[key], after[key])) unchanged.set(key, before[key]);
    else changed.push({ key, before: before[key], after: after[key], stable: false });
  }
  const stableKey = CAREER_STABLE.find((k) => unchanged.has(k));
  const stable: CareerDetail[] =
    stableKey === undefined
      ? []
      : [{ key: stableKey, before: unchanged.get(stableKey), after: unchanged.get(stableKey), stable: true }];
  return [undefined, ...changed.slice(0, 3), ...stable];
}

/** The template layout of one session's questions (see the module comment). */
export function templateSlots(session: SessionRecords): Target[] {
  const slots: Target[] = [];
  for (const update of session.updates) {
    if (!hasValue(update.after)) continue;
    for (const detail of dynamicQuestionDetails(update)) {
      slots.push({ kind: "dynamic", update, ...(detail ? { detail } : {}) });
    }
  }
  for (const point of session.statics) {
    if (isTrigger(point) && !isDistractor(point)) slots.push({ kind: "static", point });
  }
  for (const point of session.conditionals) {
    if (isTrigger(point) && !isDistractor(point)) slots.push({ kind: "conditional", point });
  }
  return slots;
}

export interface QuestionKey {
  questionId: string;
  /** Undefined when the conflict type label is unknown (lenient mode). */
  kind?: ConflictKind;
}

export interface Tie {
  method: TieMethod;
  targets: Target[];
}

const QUESTION_NUMBER = /^Q_(\d+)$/;

/** Ties each question of `session` to the records it asks about. */
export function tieQuestions(session: SessionRecords, questions: QuestionKey[]): Tie[] {
  const slots = templateSlots(session);
  const bySlot = questions.map((q) => {
    const m = QUESTION_NUMBER.exec(q.questionId.trim());
    const slot = m ? slots[Number(m[1]) - 1] : undefined;
    return slot && slot.kind === q.kind ? slot : undefined;
  });
  if (bySlot.every((s) => s !== undefined)) {
    return bySlot.map((s) => ({ method: "template", targets: [s as Target] }));
  }
  return questions.map((q) => {
    const targets: Target[] = [];
    for (const slot of slots) {
      if (slot.kind === q.kind && !targets.some((t) => recordOf(t) === recordOf(slot))) targets.push(slot);
    }
    return { method: targets.length ? "type" : "none", targets };
  });
}

function recordOf(target: Target): object {
  return target.kind === "dynamic" ? target.update : target.point;
}

export interface Evidence {
  /** Session ids in timeline order. */
  sessionIds: string[];
  memories: string[];
  /** Sessions between the earliest evidence session and the question's own. */
  distance?: number;
  meta: Record<string, unknown>;
}

/** Sessions a question may look at: its own and every earlier one. */
function visible(chain: SessionRecords[], session: SessionRecords): SessionRecords[] {
  return chain.slice(0, session.index + 1);
}

/** The latest session before `session` that stated `attribute` (reveal or update). */
export function previousMention(
  chain: SessionRecords[],
  session: SessionRecords,
  attribute: string,
): SessionRecords | undefined {
  for (let i = session.index - 1; i >= 0; i--) {
    const s = chain[i];
    if (!s) continue;
    if (s.updates.some((u) => u.attribute === attribute && hasValue(u.after))) return s;
    if (attribute in s.revealed) return s;
    const social = s.revealed.Social_Relationships;
    if (attribute === "Social_Status" && isRecord(social) && "Social_Status" in social) return s;
  }
  return undefined;
}

function distractorText(d: { relationship?: string; sourcePersonId?: string }, what: string, value: unknown): string {
  return `${d.relationship ?? d.sourcePersonId ?? "another person"}'s ${what}: ${valueText(value)}`;
}

function ruleText(point: ConditionalRecord): string {
  return `User's ${fieldLabel(point.preferenceType ?? "preference")}: ${valueText(point.item)}, under the condition: ${valueText(point.condition)}`;
}

class Collector {
  readonly sessions = new Set<SessionRecords>();
  readonly memories: string[] = [];
  readonly distractorSessions = new Set<SessionRecords>();
  readonly distractors: string[] = [];
  readonly meta: Record<string, string[]> = {};

  add(key: string, value: string | undefined): void {
    if (value === undefined) return;
    const list = this.meta[key] ?? [];
    if (!list.includes(value)) list.push(value);
    this.meta[key] = list;
  }

  memory(text: string): void {
    if (!this.memories.includes(text)) this.memories.push(text);
  }

  distractor(session: SessionRecords, text: string): void {
    this.distractorSessions.add(session);
    if (!this.distractors.includes(text)) this.distractors.push(text);
  }
}

function collectDynamic(
  c: Collector,
  chain: SessionRecords[],
  session: SessionRecords,
  target: { update: UpdateRecord; detail?: CareerDetail },
  warn: (m: string) => void,
) {
  const { attribute, before, after } = target.update;
  const previous = previousMention(chain, session, attribute);
  if (previous) c.sessions.add(previous);
  else warn(`no earlier session states ${attribute}: evidence is the update session only`);
  c.sessions.add(session);
  c.add("attributes", attribute);
  const detail = target.detail;
  if (detail?.stable) {
    c.memory(`User's ${fieldLabel(detail.key)} stayed ${attributeText(detail.key, detail.after)}.`);
    c.add("currentValues", attributeText(detail.key, detail.after));
  } else {
    const [label, old, now] = detail
      ? [fieldLabel(detail.key), detail.before, detail.after]
      : [fieldLabel(attribute), before, after];
    const key = detail?.key ?? attribute;
    c.memory(
      old === undefined
        ? `User's ${label} is now ${attributeText(key, now)}.`
        : `User's ${label} changed from ${attributeText(key, old)} to ${attributeText(key, now)}.`,
    );
    if (old !== undefined) c.add("outdatedValues", attributeText(key, old));
    c.add("currentValues", attributeText(key, now));
  }
  for (const s of visible(chain, session)) {
    for (const d of s.othersDynamic) {
      if (d.attribute !== attribute) continue;
      const linked =
        d.rightSessionId !== undefined
          ? d.rightSessionId === session.id
          : previous !== undefined && s.index > previous.index;
      if (linked) c.distractor(s, distractorText(d, fieldLabel(attribute), attributeText(attribute, d.value)));
    }
  }
}

function collectStatic(
  c: Collector,
  chain: SessionRecords[],
  session: SessionRecords,
  point: StaticRecord,
  warn: (m: string) => void,
) {
  const seen = visible(chain, session);
  const truth = seen
    .flatMap((s) => s.statics.map((r) => ({ s, r })))
    .find(
      ({ r }) =>
        r.conflictId === point.conflictId &&
        r.role === "Point_A" &&
        !isDistractor(r) &&
        r.fieldPath === point.fieldPath,
    );
  c.add("conflictIds", point.conflictId);
  c.add("fieldPaths", point.fieldPath);
  c.add("conflictingClaims", valueText(point.value));
  if (truth) {
    c.sessions.add(truth.s);
    c.memory(`User's ${fieldLabel(point.fieldPath)}: ${valueText(truth.r.value)}`);
    c.add("trueValues", valueText(truth.r.value));
  } else {
    warn(
      `static conflict ${point.conflictId} has no Point_A before its ${point.role}: only the claim's session is evidence`,
    );
  }
  c.sessions.add(session);
  for (const s of seen) {
    for (const d of s.statics) {
      if (d.conflictId === point.conflictId && isDistractor(d))
        c.distractor(s, distractorText(d, fieldLabel(d.fieldPath), d.value));
    }
  }
}

function collectConditional(c: Collector, chain: SessionRecords[], session: SessionRecords, point: ConditionalRecord) {
  const seen = visible(chain, session);
  let queried: { s: SessionRecords; r: ConditionalRecord } = { s: session, r: point };
  if (point.rank > 1) {
    // Upstream keeps the last match of the previous rank among the visible sessions.
    for (const s of seen) {
      for (const r of s.conditionals) {
        if (r.conflictId === point.conflictId && r.rank === point.rank - 1 && !isDistractor(r)) queried = { s, r };
      }
    }
  }
  c.sessions.add(queried.s);
  c.memory(ruleText(queried.r));
  c.add("conflictIds", point.conflictId);
  c.add("queriedRules", ruleText(queried.r));
  if (queried.r !== point) c.add("competingRules", ruleText(point));
  for (const s of seen) {
    for (const d of s.conditionals) {
      if (d.conflictId === point.conflictId && isDistractor(d)) {
        c.distractor(s, distractorText(d, fieldLabel(d.preferenceKey ?? "preference"), d.preferenceDescription));
      }
    }
  }
}

/** Evidence for one question tied to `targets`, asked right after `session`. */
export function buildEvidence(
  chain: SessionRecords[],
  session: SessionRecords,
  targets: Target[],
  warn: (message: string) => void,
): Evidence {
  const c = new Collector();
  for (const t of targets) {
    if (t.kind === "dynamic") collectDynamic(c, chain, session, t, warn);
    else if (t.kind === "static") collectStatic(c, chain, session, t.point, warn);
    else collectConditional(c, chain, session, t.point);
  }
  const ordered = [...c.sessions].sort((a, b) => a.index - b.index);
  const first = ordered[0];
  return {
    sessionIds: ordered.map((s) => s.id),
    memories: c.memories,
    ...(first ? { distance: session.index - first.index } : {}),
    meta: {
      ...c.meta,
      distractorSessionIds: [...c.distractorSessions].sort((a, b) => a.index - b.index).map((s) => s.id),
      distractors: c.distractors,
    },
  };
}
