/**
 * Reads the conflict-injection records of one session (`Data/Step4_4.jsonl`): the
 * dynamic updates and first reveals, the static and conditional conflict
 * points, and the distractors about other people. These records are the only
 * link between a question and the sessions that hold its evidence.
 */
import { isRecord, type Rec } from "../shared/fields.ts";
import type { Item } from "./item.ts";
import type { Reporter } from "./reporter.ts";

export interface UpdateRecord {
  attribute: string;
  before: unknown;
  after: unknown;
}

/** Who a distractor is about: an `Others_Profile` key and the relation to the user. */
export interface Source {
  sourcePersonId?: string;
  relationship?: string;
}

export interface StaticRecord extends Source {
  conflictId: string;
  /** `Point_A` (the truth), `Point_B` (the false claim) or `Distractor`. */
  role: string;
  fieldPath: string;
  value: unknown;
}

export interface ConditionalRecord extends Source {
  conflictId: string;
  ruleId?: string;
  role: string;
  /** Point_A → 1, Point_B → 2, …; 0 for a distractor. */
  rank: number;
  preferenceType?: string;
  item?: unknown;
  condition?: unknown;
  preferenceKey?: string;
  preferenceDescription?: string;
}

export interface DynamicDistractor extends Source {
  attribute: string;
  value: unknown;
  /** The user's consecutive true points this distractor sits between (Session_IDs). */
  leftSessionId?: string;
  rightSessionId?: string;
}

export interface SessionRecords {
  /** `Session_ID` as a string: the session id everywhere downstream. */
  id: string;
  /** Position in `Full_Session_Chain`: upstream's notion of "visible so far". */
  index: number;
  type: string;
  revealed: Rec;
  updates: UpdateRecord[];
  statics: StaticRecord[];
  conditionals: ConditionalRecord[];
  othersDynamic: DynamicDistractor[];
}

const POINT_ROLE = /^Point_([A-Z])$/;
const DISTRACTOR_ROLE = "Distractor";

/** Upstream `role_rank`: Point_A → 1 … Point_Z → 26; anything else → 0. */
export function pointRank(role: string): number {
  const m = POINT_ROLE.exec(role);
  return m?.[1] ? m[1].charCodeAt(0) - 64 : 0;
}

/** Upstream treats either marker as "about another person" (Step4_2 dialogue input). */
export function isDistractor(record: { role: string } & Source): boolean {
  return record.role === DISTRACTOR_ROLE || record.sourcePersonId !== undefined;
}

/** A point after Point_A: what makes upstream ask a question in that session (Step4_4). */
export function isTrigger(record: { role: string }): boolean {
  return pointRank(record.role) > 1;
}

function source(item: Item): Source {
  const sourcePersonId = item.optStr("Source_Person_ID");
  const relationship = item.optStr("Relationship_To_User");
  return {
    ...(sourcePersonId !== undefined ? { sourcePersonId } : {}),
    ...(relationship !== undefined ? { relationship } : {}),
  };
}

function role(item: Item, report: Reporter): string {
  const value = item.str("Role").trim();
  if (value !== DISTRACTOR_ROLE && !POINT_ROLE.test(value)) {
    report.issue(`unknown role "${value}" (expected Point_A…Point_Z or Distractor)`, {
      ...item.where,
      field: item.field("Role"),
    });
  }
  return value;
}

function readStatic(item: Item, report: Reporter): StaticRecord {
  return {
    conflictId: item.str("Conflict_ID"),
    role: role(item, report),
    fieldPath: item.str("Target_Field_Path"),
    value: item.has("Value"),
    ...source(item),
  };
}

function readConditional(item: Item, report: Reporter): ConditionalRecord {
  const base = { conflictId: item.str("Conflict_ID"), role: role(item, report), ...source(item) };
  if (isDistractor(base)) {
    const preferenceKey = item.optStr("Preference_Key");
    const preferenceDescription = item.optStr("Preference_Description");
    return {
      ...base,
      rank: 0,
      ...(preferenceKey !== undefined ? { preferenceKey } : {}),
      ...(preferenceDescription !== undefined ? { preferenceDescription } : {}),
    };
  }
  const ruleId = item.optStr("Rule_ID");
  return {
    ...base,
    rank: pointRank(base.role),
    ...(ruleId !== undefined ? { ruleId } : {}),
    preferenceType: item.str("Preference_Type"),
    item: item.has("Item"),
    condition: item.has("Condition"),
  };
}

function readOthersDynamic(item: Item): DynamicDistractor {
  const left = item.optStr("Linked_Left_Session_ID");
  const right = item.optStr("Linked_Right_Session_ID");
  return {
    attribute: item.str("Attribute"),
    value: item.has("Value"),
    ...source(item),
    ...(left !== undefined ? { leftSessionId: left } : {}),
    ...(right !== undefined ? { rightSessionId: right } : {}),
  };
}

/** The records of `session` (one element of `Full_Session_Chain`). */
export function readSessionRecords(session: Item, id: string, index: number, type: string, report: Reporter) {
  const revealed = session.rec.Revealed_Attributes;
  if (revealed !== undefined && revealed !== null && !isRecord(revealed)) {
    session.fail("Revealed_Attributes", "expected an object of attribute values");
  }
  return {
    id,
    index,
    type,
    revealed: isRecord(revealed) ? revealed : {},
    updates: session.items("Updated_Attributes").map((u) => ({
      attribute: u.str("Attribute"),
      before: u.rec.Before,
      after: u.rec.After,
    })),
    statics: session.items("Static_Conflict_Information").map((s) => readStatic(s, report)),
    conditionals: session.items("Conditional_Conflict_Information").map((c) => readConditional(c, report)),
    othersDynamic: session.items("Others_Dynamic_Information").map(readOthersDynamic),
  } satisfies SessionRecords;
}
