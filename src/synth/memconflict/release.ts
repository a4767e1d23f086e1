/**
 * The files: one persona per JSONL line in the release's final format
 * (TaoZhen1110/MemConflict@17cbc14 `Data/Step4_4.jsonl`, reconstructed from the
 * released intermediate `Data/Step*.jsonl` files and `Code/Step4_4.py`, as
 * docs/data/memconflict.md describes: `State_Before`, `State_After` and
 * `Update_Reason` pruned, questions and token counts added), the
 * question-style ablation `Step4_4_indirect.jsonl`, and on request the
 * intermediate stage files `Step1_1` … `Step4_3` with the keys each stage adds.
 */
import { countTokens } from "../../tokens/count.ts";
import type { Dialogue, Json, Persona, Question, Rec, Session } from "./model.ts";

export const FINAL_FILE = "Step4_4.jsonl";
export const IMPLICIT_FILE = "Step4_4_indirect.jsonl";
export const STEPS_FOLDER = "pipeline";

/** o200k tokens of a dialogue's message contents (upstream Step4_3 counts content only). */
export function dialogueTokens(dialogue: Dialogue | undefined): number {
  let n = 0;
  for (const turn of Object.values(dialogue ?? {})) for (const m of turn) if (m.content) n += countTokens(m.content);
  return n;
}

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  model: string;
}

function tokenCost(usage: Usage): Rec {
  const stage = {
    input_tokens: usage.inputTokens,
    output_tokens: usage.outputTokens,
    total_tokens: usage.inputTokens + usage.outputTokens,
    model: usage.model,
    total_cost_usd: usage.costUsd ?? 0,
    pricing_available: usage.costUsd !== null,
    note:
      usage.model === "templates"
        ? "realised by membench templates: no model calls"
        : "membench synth: tokens of every model call that wrote this persona (replayed ones included); the spend is in membench-synth.json",
  };
  return {
    current_stage: stage,
    cumulative: {
      input_tokens: stage.input_tokens,
      output_tokens: stage.output_tokens,
      total_tokens: stage.total_tokens,
      total_cost_usd: stage.total_cost_usd,
    },
  };
}

/** One session as the release keeps it, questions in the given wording. */
function releaseSession(s: Session, questions: Question[]): Rec {
  const out: Rec = { Session_ID: s.Session_ID, Date: s.Date, Session_Type: s.Session_Type };
  if (s.Session_Type === "initial_reveal") out.Revealed_Attributes = (s.Revealed_Attributes ?? {}) as Json;
  else out.Updated_Attributes = (s.Updated_Attributes ?? []) as unknown as Json;
  out.Static_Conflict_Information = s.Static_Conflict_Information as unknown as Json;
  out.Conditional_Conflict_Information = s.Conditional_Conflict_Information as unknown as Json;
  out.Others_Dynamic_Information = s.Others_Dynamic_Information as unknown as Json;
  out.Question_Trigger_Types = s.Question_Trigger_Types ?? [];
  out.Session_Questions = questions as unknown as Json;
  out.Session_Question_Count = questions.length;
  out.Event_Types = s.Event_Types ?? [];
  out.Session_Outline = s.Session_Outline ?? "";
  out.Session_Dialogue = (s.Session_Dialogue ?? {}) as unknown as Json;
  out.Session_Dialogue_Token_Length = dialogueTokens(s.Session_Dialogue);
  return out;
}

export interface ReleaseOptions {
  usage: Usage;
  /** `metadata.membench_synth`: how this persona was made. */
  synth: Rec;
  /** The questions of each session in this file's wording, by Session_ID. */
  questions: ReadonlyMap<number, Question[]>;
  /** For the indirect file: `Question_Style_Metadata`. */
  styleMetadata?: Rec;
}

/** One line of the release file. */
export function releaseRecord(persona: Persona, options: ReleaseOptions): Rec {
  const { profile, chain } = persona;
  const sessions = chain.map((s) => releaseSession(s, options.questions.get(s.Session_ID) ?? []));
  const record: Rec = {
    ID: profile.ID,
    Fixed_Profile: profile.Fixed_Profile,
    Dynamic_Profile: profile.Dynamic_Profile,
    Preference_Profile: profile.Preference_Profile,
    Personality: profile.Personality,
    Life_Goal: profile.Life_Goal,
    Others_Profile: profile.Others_Profile,
    Full_Session_Chain: sessions,
    metadata: { ...profile.metadata, membench_synth: options.synth },
    token_cost: tokenCost(options.usage),
    Total_Dialogue_Token_Length: sessions.reduce((n, s) => n + Number(s.Session_Dialogue_Token_Length), 0),
    Valid_Session_Dialogue_Count: chain.filter((s) => Object.keys(s.Session_Dialogue ?? {}).length > 0).length,
    Total_Session_Question_Count: sessions.reduce((n, s) => n + Number(s.Session_Question_Count), 0),
    Triggered_Session_Count: chain.filter((s) => (s.Question_Trigger_Types ?? []).length > 0).length,
  };
  if (options.styleMetadata) record.Question_Style_Metadata = options.styleMetadata;
  return record;
}

const pick = (s: Session, keys: Array<keyof Session>): Rec => {
  const out: Rec = {};
  for (const k of keys) if (s[k] !== undefined) out[k] = s[k] as unknown as Json;
  return out;
};

/** The records of the intermediate stage files, `Step1_1` … `Step4_3`, each a superset of the one before. */
export function stepRecords(persona: Persona, usage: Usage): Record<string, Rec> {
  const { profile, chain } = persona;
  const head = { ID: profile.ID };
  const tail = { metadata: profile.metadata, token_cost: tokenCost(usage) };
  const p1 = { Fixed_Profile: profile.Fixed_Profile };
  const p2 = { ...p1, Dynamic_Profile: profile.Dynamic_Profile };
  const p3 = { ...p2, Preference_Profile: profile.Preference_Profile };
  const p4 = { ...p3, Personality: profile.Personality, Life_Goal: profile.Life_Goal };
  const p5 = { ...p4, Others_Profile: profile.Others_Profile };
  const reveals = chain.filter((s) => s.Session_Type === "initial_reveal");
  const initial: Rec = Object.fromEntries(
    reveals.map((s, i) => [String(i), { Date: s.Date, Revealed_Attributes: s.Revealed_Attributes ?? {} }]),
  );
  const timeline = chain
    .filter((s) => s.Session_Type !== "initial_reveal")
    .map((s, i) => ({
      // Upstream numbers the monthly sessions from 1 here; the chain renumbers them after the reveals.
      Session_ID: i + 1,
      ...pick(s, ["Date", "Session_Type", "State_Before", "State_After", "Updated_Attributes"]),
      Update_Reason: (s.Update_Reason ?? null) as Json,
    }));
  const base: Array<keyof Session> = [
    "Session_ID",
    "Date",
    "Session_Type",
    "Revealed_Attributes",
    "State_Before",
    "State_After",
    "Updated_Attributes",
    "Update_Reason",
  ];
  const stage = (extra: Array<keyof Session>) => chain.map((s) => pick(s, [...base, ...extra]));
  const withCounts = (sessions: Rec[]) => ({
    Total_Dialogue_Token_Length: sessions.reduce((n, s) => n + Number(s.Session_Dialogue_Token_Length ?? 0), 0),
    Valid_Session_Dialogue_Count: sessions.filter((s) => Object.keys((s.Session_Dialogue ?? {}) as Rec).length).length,
  });
  const chainAt = (extra: Array<keyof Session>) => ({ ...head, ...p5, Full_Session_Chain: stage(extra), ...tail });
  const s43 = chain.map((s) => ({
    ...pick(s, [
      ...base,
      "Static_Conflict_Information",
      "Conditional_Conflict_Information",
      "Others_Dynamic_Information",
      "Event_Types",
      "Session_Outline",
      "Session_Dialogue",
    ]),
    Session_Dialogue_Token_Length: dialogueTokens(s.Session_Dialogue),
  }));
  return {
    Step1_1: { ...head, ...p1, ...tail },
    Step1_2: { ...head, ...p2, ...tail },
    Step1_3: { ...head, ...p3, ...tail },
    Step1_4: { ...head, ...p4, ...tail },
    Step1_5: { ...head, ...p5, ...tail },
    Step2_1: { ...head, ...p5, Timeline_Initial_State: initial, ...tail },
    Step2_2: { ...head, ...p5, Timeline_Initial_State: initial, Timeline_Sessions: timeline, ...tail },
    Step3_1: chainAt(["Static_Conflict_Information"]),
    Step3_2: chainAt(["Static_Conflict_Information", "Conditional_Conflict_Information"]),
    Step3_3: chainAt(["Static_Conflict_Information", "Conditional_Conflict_Information", "Others_Dynamic_Information"]),
    Step4_1: chainAt([
      "Static_Conflict_Information",
      "Conditional_Conflict_Information",
      "Others_Dynamic_Information",
      "Event_Types",
      "Session_Outline",
    ]),
    Step4_2: chainAt([
      "Static_Conflict_Information",
      "Conditional_Conflict_Information",
      "Others_Dynamic_Information",
      "Event_Types",
      "Session_Outline",
      "Session_Dialogue",
    ]),
    Step4_3: { ...head, ...p5, Full_Session_Chain: s43, ...tail, ...withCounts(s43) },
  };
}
