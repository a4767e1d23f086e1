/**
 * The attribute pools the profile sampler and the timeline draw from. The
 * default is membench's own `pools.json` (our values, in the structure of the
 * upstream generator's `Data/Config.json`). `--knob pools=PATH` reads a copy of
 * the upstream `Config.json` (or any file of that structure) instead; what
 * such a file lacks — persona seeds, other people's facts, small talk, the
 * `Membench_Extras` section — comes from ours.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { ConfigError } from "../../core/errors.ts";
import { assetPath } from "../../util/paths.ts";

export const DEFAULT_POOLS = assetPath("synth", "memconflict", "pools.json");

const priors = z.record(z.string(), z.number().min(0));
const range = z.tuple([z.number(), z.number()]);
const strings = z.array(z.string().min(1)).min(1);

const fixedSchema = z.object({
  Names: z.object({ Family_Names: strings, Male_Names: strings, Female_Names: strings }),
  Genders: strings,
  Birthdate: z.object({ Years_Range: range, Months_Range: range, Days_Range: range }),
  Birthplace: z.object({ Countries: strings, Cities: z.record(z.string(), strings) }),
  Education: z.object({ Highest_Degree: priors, Major: strings, University: z.record(z.string(), strings) }),
  Family_Life: z.object({
    Typical_Ages: z.array(z.number()).min(1),
    Age_based_Family_States: z.record(z.string(), z.object({ parent_status: priors })),
    Parent_Age_Range: range,
    Sibling_Count_Distribution: priors,
    Sibling_Age_Diff_Range: range,
    Sibling_Type: strings,
  }),
});

const dynamicSchema = z.object({
  Marital_Status: z.object({
    Status: strings,
    Marital_Age_Diff_Range: range,
    Allowed_Transitions: z.record(z.string(), z.array(z.string())),
    Cooldown_Months: z.number(),
  }),
  Children_Status: z.object({
    Children_Count_Range: priors,
    Parent_Child_Age_Gap_Range: range,
    Allowed_Parent_Status: strings,
    Cooldown_Months: z.number(),
  }),
  Career_Status: z.object({
    Employment_Status: priors,
    Company_Types: priors,
    Job_Titles: priors,
    Industries: priors,
    Company_Names: z.record(z.string(), strings),
    Monthly_Income: priors,
    Savings_Amount: priors,
    Cooldown_Months: z.number(),
  }),
  Work_Status: z.object({ Current_State: strings, Cooldown_Months: z.number() }),
  Health_Status: z.object({ Physical_Health: strings, Mental_Health: strings, Cooldown_Months: z.number() }),
  Social_Relationships: z.object({
    Relationship_Count_Range: range,
    Relationship_Types: strings,
    Social_Status: z.object({ Current_State: strings, Cooldown_Months: z.number() }),
  }),
});

const preferencesSchema = z.object({
  Preference_Types_Count: range,
  Preference_Types: z.record(z.string(), z.record(z.string(), z.array(z.unknown()))),
});

const extrasSchema = z.object({
  Persona_Seeds: strings,
  Life_Goal_Templates: z.record(z.string(), z.string()),
  Hobbies: z.record(z.string(), strings),
  Other_Careers: strings,
  Other_Work_States: strings,
  Other_Health_States: strings,
  Other_Marital: strings,
  Small_Talk: z.record(z.string(), strings),
  Assistant_Lines: strings,
  User_Follow_Ups: strings,
  Explainer_Topics: strings,
});

const poolsSchema = z.object({
  Fixed_Information: fixedSchema,
  Dynamic_Information: dynamicSchema,
  Preferences: preferencesSchema,
  Personality: z.object({ MBTI_Types: strings, MBTI_Tags: z.record(z.string(), strings) }),
  life_goal: z.object({ life_goal_types: strings }),
  Membench_Extras: extrasSchema,
});

export type Pools = z.infer<typeof poolsSchema>;

/** One preference type's items and condition pairs (`Food_Items`, `Condition_Pairs`). */
export interface PreferencePool {
  items: string[];
  conditions: string[][];
}

export function preferencePool(pools: Pools, type: string): PreferencePool {
  const entry = pools.Preferences.Preference_Types[type] ?? {};
  const itemsKey = Object.keys(entry).find((k) => k.endsWith("_Items"));
  const items = (itemsKey ? entry[itemsKey] : []) as unknown[];
  const pairs = (entry.Condition_Pairs ?? []) as unknown[];
  return {
    items: items.filter((x): x is string => typeof x === "string"),
    conditions: pairs.filter(Array.isArray).map((p) => p.filter((x): x is string => typeof x === "string")),
  };
}

function readJson(path: string, what: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(error as Error).message}`, "knob pools", "--knob pools");
  }
}

/** Our pools, or `path`'s with ours filling the sections it lacks. */
export function loadPools(path?: string): Pools {
  const ours = readJson(DEFAULT_POOLS, "membench's pools");
  const theirs = path ? readJson(path, "the pools file") : {};
  const merged: Record<string, unknown> = { ...ours };
  for (const [key, value] of Object.entries(theirs)) if (key in ours) merged[key] = value;
  const parsed = poolsSchema.safeParse(merged);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(
      `${path ?? DEFAULT_POOLS} does not have the pools structure: ${issue?.path.join(".")}: ${issue?.message}`,
      "knob pools",
      "--knob pools",
    );
  }
  return parsed.data;
}
