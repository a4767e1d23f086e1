/**
 * The simulator's records, keyed as the release keys them (`Data/Step4_4.jsonl`,
 * PascalCase_With_Underscores), so the files it writes are the release's
 * format without a translation step. Each stage adds keys to a session, as
 * the upstream pipeline's Step files do.
 */

export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
export type Rec = { [key: string]: Json };

export const SESSION_TYPES = ["initial_reveal", "update", "chitchat", "future_plan"] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

/** The seven dynamic attributes revealed in January (paper §3.2: D_u). */
export const REVEAL_ATTRIBUTES = [
  "Residence",
  "Marital_Status",
  "Children_Status",
  "Career_Status",
  "Work_Status",
  "Health_Status",
  "Social_Relationships",
] as const;

/** Attributes an update changes. Social changes are `Social_Status`, revealed inside `Social_Relationships`. */
export const UPDATE_ATTRIBUTES = [
  "Residence",
  "Marital_Status",
  "Children_Status",
  "Career_Status",
  "Work_Status",
  "Health_Status",
  "Social_Status",
] as const;
export type UpdateAttribute = (typeof UPDATE_ATTRIBUTES)[number];

export interface Profile {
  ID: string;
  Fixed_Profile: Rec;
  Dynamic_Profile: Rec;
  Preference_Profile: Record<string, Record<string, string>>;
  Personality: Rec;
  Life_Goal: { Type: string; Description: string };
  Others_Profile: Record<string, Rec>;
  metadata: Rec & { persona_seed: string };
}

export interface UpdatedAttribute {
  Attribute: UpdateAttribute;
  Before: Json;
  After: Json;
}

export interface UpdateReason {
  Attribute: UpdateAttribute;
  Reason: { Driver: string; Trigger_Type: string };
}

export interface StaticRecord extends Rec {
  Conflict_ID: string;
  Role: string;
  Target_Field_Path: string;
  Value: Json;
}

export interface ConditionalRecord extends Rec {
  Conflict_ID: string;
  Role: string;
}

export interface OthersDynamicRecord extends Rec {
  Attribute: UpdateAttribute;
  Role: "Distractor";
  Source_Person_ID: string;
  Relationship_To_User: string;
  Value: Json;
  Linked_Left_Session_ID: number;
  Linked_Right_Session_ID: number;
}

export interface Question extends Rec {
  question_id: string;
  question: string;
  answer: string;
  conflict_type: "dynamic_conflict" | "static_conflict" | "conditional_conflict";
  ability_target: string;
  difficulty: string;
}

export type Message = { role: "user" | "assistant"; content: string };
export type Dialogue = Record<string, Message[]>;

/** One session as the pipeline builds it up; the release prunes the state fields. */
export interface Session {
  Session_ID: number;
  Date: string;
  Session_Type: SessionType;
  Revealed_Attributes?: Rec;
  State_Before?: Rec;
  State_After?: Rec;
  Updated_Attributes?: UpdatedAttribute[];
  Update_Reason?: UpdateReason[] | { Driver: string; Trigger_Type: string } | null;
  Static_Conflict_Information: StaticRecord[];
  Conditional_Conflict_Information: ConditionalRecord[];
  Others_Dynamic_Information: OthersDynamicRecord[];
  Event_Types?: string[];
  Session_Outline?: string;
  Session_Dialogue?: Dialogue;
  Session_Dialogue_Token_Length?: number;
  Question_Trigger_Types?: string[];
  Session_Questions?: Question[];
  Session_Question_Count?: number;
}

/** A persona through the pipeline: its profile and its session chain. */
export interface Persona {
  profile: Profile;
  chain: Session[];
  /** First-person lines for static points, by `Conflict_ID/Role` (the records keep only the value). */
  staticLines: Map<string, string>;
}

/** `Q_001` … */
export function questionId(n: number): string {
  return `Q_${String(n).padStart(3, "0")}`;
}

export function isRec(value: unknown): value is Rec {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
