/**
 * Profile sampling, `U_u = (I_u, D_u, C_u, T_u, R_u)` (paper Eq. 2; upstream
 * Step1_1 … Step1_5): the fixed profile, the dynamic state at the start of the
 * timeline, condition-dependent preferences, personality and life goal, and
 * the people around the user, who later supply the distractors. Upstream
 * samples each block from the pools and has an LLM repair it for consistency
 * with a Persona Hub seed; here the sampler itself keeps the blocks
 * consistent (ages, parent/child gaps, partner for Dating/Married) and the
 * seed is one of our own persona lines.
 */
import type { Rng } from "../rng.ts";
import type { Json, Profile, Rec } from "./model.ts";
import { type Pools, preferencePool } from "./pools.ts";

export interface ProfileClock {
  /** Year of the first session (ages are computed at January 1st): the profile's "now". */
  startYear: number;
  /** How many preference types (default: the pools' `Preference_Types_Count`). */
  preferenceTypes?: [number, number];
  /** Items (each with its condition) per preference type. */
  itemsPerType: [number, number];
}

const pad = (n: number) => String(n).padStart(2, "0");

function date(rng: Rng, year: number): string {
  return `${year}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
}

function yearOf(d: Json | undefined): number {
  return typeof d === "string" ? Number(d.slice(0, 4)) : Number.NaN;
}

function firstName(rng: Rng, pools: Pools, gender: string): string {
  const names = pools.Fixed_Information.Names;
  return rng.pick(gender === "Female" ? names.Female_Names : names.Male_Names);
}

function fullName(rng: Rng, pools: Pools, gender: string, family?: string): string {
  return `${firstName(rng, pools, gender)} ${family ?? rng.pick(pools.Fixed_Information.Names.Family_Names)}`;
}

export function otherGender(gender: string): string {
  return gender === "Female" ? "Male" : "Female";
}

/** "City, Country" from the pools; `country` keeps it inside one country. */
export function place(rng: Rng, pools: Pools, country?: string): string {
  const bp = pools.Fixed_Information.Birthplace;
  const c = country && bp.Cities[country] ? country : rng.pick(bp.Countries);
  return `${rng.pick(bp.Cities[c] ?? [c])}, ${c}`;
}

export function countryOf(placeText: Json | undefined): string {
  return typeof placeText === "string" ? (placeText.split(",").at(-1)?.trim() ?? "") : "";
}

function education(rng: Rng, pools: Pools, country: string): Rec {
  const edu = pools.Fixed_Information.Education;
  const universities = edu.University[country] ?? Object.values(edu.University).flat();
  return {
    Highest_Degree: rng.weightedKey(edu.Highest_Degree),
    Major: rng.pick(edu.Major),
    University: rng.pick(universities),
  };
}

/** The age bucket of `Age_based_Family_States` nearest below `age`. */
function parentStatus(rng: Rng, pools: Pools, age: number): string {
  const fam = pools.Fixed_Information.Family_Life;
  const ages = [...fam.Typical_Ages].sort((a, b) => a - b);
  const bucket = ages.filter((a) => a <= age).at(-1) ?? ages[0];
  const states = fam.Age_based_Family_States[String(bucket)]?.parent_status ?? { both_alive: 1 };
  return rng.weightedKey(states);
}

function fixedProfile(rng: Rng, pools: Pools, clock: ProfileClock): Rec {
  const fx = pools.Fixed_Information;
  const gender = rng.pick(fx.Genders);
  const family = rng.pick(fx.Names.Family_Names);
  const [y0, y1] = fx.Birthdate.Years_Range;
  const year = rng.int(y0, Math.min(y1, clock.startYear - 18));
  const birthdate = `${year}-${pad(rng.int(...fx.Birthdate.Months_Range))}-${pad(rng.int(...fx.Birthdate.Days_Range))}`;
  const birthplace = place(rng, pools);
  const age = clock.startYear - year;
  const familyInfo: Rec = {};
  const status = parentStatus(rng, pools, age);
  const [p0, p1] = fx.Family_Life.Parent_Age_Range;
  const lost = status === "one_deceased" ? rng.pick(["Father", "Mother"]) : undefined;
  for (const parent of ["Father", "Mother"] as const) {
    if (status === "both_deceased" || lost === parent) continue;
    familyInfo[parent] = {
      Name: fullName(rng, pools, parent === "Father" ? "Male" : "Female", parent === "Father" ? family : undefined),
      Birth_Date: date(rng, year - rng.int(p0, p1)),
    };
  }
  const siblings = Number(rng.weightedKey(fx.Family_Life.Sibling_Count_Distribution));
  for (let i = 1; i <= siblings; i++) {
    const type = rng.pick(fx.Family_Life.Sibling_Type);
    const diff = rng.int(...fx.Family_Life.Sibling_Age_Diff_Range) * (rng.bool() ? 1 : -1);
    familyInfo[`Sibling_${i}`] = {
      Type: type,
      Name: fullName(rng, pools, type === "Sister" ? "Female" : "Male", family),
      Birth_Date: date(rng, Math.min(year + diff, clock.startYear - 1)),
    };
  }
  return {
    Name: `${firstName(rng, pools, gender)} ${family}`,
    Gender: gender,
    Birthdate: birthdate,
    Birthplace: birthplace,
    Education_Background: education(rng, pools, countryOf(birthplace)),
    Family_Information: familyInfo,
  };
}

/** A full career snapshot drawn from the priors (upstream redraws the whole snapshot on a career change). */
export function careerSnapshot(rng: Rng, pools: Pools): Rec {
  const cs = pools.Dynamic_Information.Career_Status;
  const employment = rng.weightedKey(cs.Employment_Status);
  if (employment === "Unemployed") {
    // No employer, title or income while out of work; the industry is the last one worked in.
    return {
      Employment_Status: employment,
      Industry: rng.weightedKey(cs.Industries),
      Savings_Amount: rng.weightedKey(cs.Savings_Amount),
    };
  }
  const type = rng.weightedKey(cs.Company_Types);
  return {
    Employment_Status: employment,
    Company_Type: type,
    Company_Name: rng.pick(cs.Company_Names[type] ?? Object.values(cs.Company_Names).flat()),
    Job_Title: employment === "Entrepreneur" ? rng.pick(["Director", "Executive"]) : rng.weightedKey(cs.Job_Titles),
    Industry: rng.weightedKey(cs.Industries),
    Monthly_Income: rng.weightedKey(cs.Monthly_Income),
    Savings_Amount: rng.weightedKey(cs.Savings_Amount),
  };
}

export function childRecord(rng: Rng, pools: Pools, family: string, birthdate: string): Rec {
  return { Name: fullName(rng, pools, rng.pick(["Male", "Female"]), family), Birthdate: birthdate };
}

export function partnerRecord(rng: Rng, pools: Pools, gender: string, birthYear: number): Rec {
  const diff = rng.int(...pools.Dynamic_Information.Marital_Status.Marital_Age_Diff_Range) * (rng.bool() ? 1 : -1);
  return { Name: fullName(rng, pools, otherGender(gender)), Birthdate: date(rng, birthYear + diff) };
}

function dynamicProfile(rng: Rng, pools: Pools, fixed: Rec, clock: ProfileClock): Rec {
  const dy = pools.Dynamic_Information;
  const birthYear = yearOf(fixed.Birthdate);
  const age = clock.startYear - birthYear;
  const gender = String(fixed.Gender);
  const family = String(fixed.Name).split(" ").slice(1).join(" ");
  const statusWeights: Record<string, number> =
    age < 26 ? { Single: 5, Dating: 4, Married: 1, Divorced: 0.2 } : { Single: 2, Dating: 2, Married: 4, Divorced: 1 };
  const status = rng.weightedKey(Object.fromEntries(dy.Marital_Status.Status.map((s) => [s, statusWeights[s] ?? 1])));
  const marital: Rec =
    status === "Dating" || status === "Married"
      ? { Status: status, ...partnerRecord(rng, pools, gender, birthYear) }
      : { Status: status };
  const children: Rec = { Status: "No" };
  const [g0, g1] = dy.Children_Status.Parent_Child_Age_Gap_Range;
  if (dy.Children_Status.Allowed_Parent_Status.includes(status) && age >= g0 + 1 && rng.bool(0.6)) {
    children.Status = "Yes";
    const n = Number(rng.weightedKey(dy.Children_Status.Children_Count_Range));
    for (let i = 1; i <= n; i++) {
      const year = Math.min(birthYear + rng.int(g0, g1), clock.startYear - 1);
      children[`Child_${i}`] = childRecord(rng, pools, family, date(rng, year));
    }
  }
  const contacts: Rec = {};
  const nContacts = rng.int(...dy.Social_Relationships.Relationship_Count_Range);
  for (let i = 1; i <= nContacts; i++) {
    contacts[`Contacts_${i}`] = {
      Name: fullName(rng, pools, rng.pick(["Male", "Female"])),
      Type: rng.pick(dy.Social_Relationships.Relationship_Types),
    };
  }
  return {
    Residence: place(rng, pools, rng.bool(0.5) ? countryOf(fixed.Birthplace) : undefined),
    Marital_Status: marital,
    Children_Status: children,
    Career_Status: careerSnapshot(rng, pools),
    Work_Status: { Current_State: rng.pick(dy.Work_Status.Current_State) },
    Health_Status: {
      Physical_Health: rng.pick(dy.Health_Status.Physical_Health),
      Mental_Health: rng.pick(dy.Health_Status.Mental_Health),
    },
    Social_Relationships: {
      Contacts: contacts,
      Social_Status: { Current_State: rng.pick(dy.Social_Relationships.Social_Status.Current_State) },
    },
  };
}

/** 6–10 preference types, 2–4 items each, every item bound to its own condition. */
function preferenceProfile(rng: Rng, pools: Pools, clock: ProfileClock): Record<string, Record<string, string>> {
  const types = Object.keys(pools.Preferences.Preference_Types);
  const [k0, k1] = clock.preferenceTypes ?? pools.Preferences.Preference_Types_Count;
  const chosen = rng.sample(types, rng.int(Math.min(k0, types.length), Math.min(k1, types.length)));
  const out: Record<string, Record<string, string>> = {};
  for (const type of chosen) {
    const pool = preferencePool(pools, type);
    // Conditions come in contrasting pairs; a type's items take them pair by pair, so they stay distinct.
    const conditions = rng.shuffle(pool.conditions).flatMap((pair) => rng.shuffle(pair));
    const unique = [...new Set(conditions)];
    const n = Math.min(rng.int(...clock.itemsPerType), pool.items.length, unique.length);
    if (n < 2) continue;
    const items = rng.sample(pool.items, n);
    out[type] = Object.fromEntries(items.map((item, i) => [item, unique[i] as string]));
  }
  return out;
}

function hobbies(rng: Rng, pools: Pools): Rec {
  const all = pools.Membench_Extras.Hobbies;
  const names = rng.sample(Object.keys(all), rng.int(2, 3));
  return Object.fromEntries(names.map((h) => [h, rng.pick(all[h] ?? ["now and then"])]));
}

interface Relation {
  key: string;
  relationship: string;
  name: string;
  gender: string;
  birthdate: string;
}

/** Related people (`Others_Profile`, R_u): family from the fixed and dynamic profile, partner, children, contacts. */
function othersProfile(rng: Rng, pools: Pools, fixed: Rec, dynamic: Rec, clock: ProfileClock): Record<string, Rec> {
  const ex = pools.Membench_Extras;
  const relations: Relation[] = [];
  const family = (fixed.Family_Information ?? {}) as Record<string, Rec>;
  for (const [key, rec] of Object.entries(family)) {
    const relationship = key.startsWith("Sibling") ? String(rec.Type) : key;
    const gender = key === "Father" || rec.Type === "Brother" ? "Male" : "Female";
    relations.push({ key, relationship, name: String(rec.Name), gender, birthdate: String(rec.Birth_Date) });
  }
  const marital = dynamic.Marital_Status as Rec;
  if (marital.Name) {
    relations.push({
      key: "Partner",
      relationship: marital.Status === "Married" ? "Spouse" : "Partner",
      name: String(marital.Name),
      gender: otherGender(String(fixed.Gender)),
      birthdate: String(marital.Birthdate),
    });
  }
  for (const [key, rec] of Object.entries(dynamic.Children_Status as Rec)) {
    if (!key.startsWith("Child_")) continue;
    const child = rec as Rec;
    relations.push({
      key,
      relationship: "Child",
      name: String(child.Name),
      gender: rng.pick(["Male", "Female"]),
      birthdate: String(child.Birthdate),
    });
  }
  const contacts = ((dynamic.Social_Relationships as Rec).Contacts ?? {}) as Record<string, Rec>;
  for (const [key, rec] of Object.entries(contacts)) {
    relations.push({
      key,
      relationship: String(rec.Type),
      name: String(rec.Name),
      gender: rng.pick(["Male", "Female"]),
      birthdate: date(rng, rng.int(clock.startYear - 60, clock.startYear - 20)),
    });
  }
  const out: Record<string, Rec> = {};
  for (const r of relations) {
    const prng = rng.fork(r.key);
    const birthplace = place(prng, pools);
    const isChild = r.key.startsWith("Child_");
    const person: Rec = {
      Name: r.name,
      Gender: r.gender,
      Birthdate: r.birthdate,
      Birthplace: birthplace,
      Education_Background: isChild
        ? { Highest_Degree: "School pupil", Major: "N/A", University: "Local school" }
        : education(prng, pools, countryOf(birthplace)),
      Residence: place(prng, pools),
      Career_Status: isChild ? "Student" : prng.pick(ex.Other_Careers),
      Work_Status: isChild ? "In school" : prng.pick(ex.Other_Work_States),
      Health_Status: prng.pick(ex.Other_Health_States),
      Preference_Profile: hobbies(prng, pools),
      Relationship_To_User: r.relationship,
      Source_Key: r.key,
    };
    if (r.key.startsWith("Contacts_")) {
      const kids = prng.int(0, 3);
      person.Family_Information = { Has_Siblings: prng.bool(0.8), Sibling_Count: prng.int(0, 3) };
      person.Marital_Status = { Status: prng.pick(ex.Other_Marital) };
      person.Children_Status = { Has_Children: kids > 0, Children_Count: kids };
    }
    out[r.key] = person;
  }
  return out;
}

function lifeGoal(rng: Rng, pools: Pools, fixed: Rec, dynamic: Rec): { Type: string; Description: string } {
  const type = rng.pick(pools.life_goal.life_goal_types);
  const template =
    pools.Membench_Extras.Life_Goal_Templates[type] ??
    "{name} wants to make steady progress towards a long-held personal goal over the next decade.";
  const career = dynamic.Career_Status as Rec;
  const job = typeof career.Industry === "string" ? career.Industry.toLowerCase() : "their current";
  return {
    Type: type,
    Description: template.replaceAll("{name}", String(fixed.Name).split(" ")[0] ?? "The user").replaceAll("{job}", job),
  };
}

/** One persona's profile, every block from its own stream. */
export function sampleProfile(rng: Rng, pools: Pools, clock: ProfileClock): Profile {
  const fixed = fixedProfile(rng.fork("fixed"), pools, clock);
  const dynamic = dynamicProfile(rng.fork("dynamic"), pools, fixed, clock);
  const mbti = rng.fork("personality").pick(pools.Personality.MBTI_Types);
  return {
    ID: rng.fork("id").uuid(),
    Fixed_Profile: fixed,
    Dynamic_Profile: dynamic,
    Preference_Profile: preferenceProfile(rng.fork("preferences"), pools, clock),
    Personality: { MBTI: mbti, MBTI_Tags: pools.Personality.MBTI_Tags[mbti] ?? [] },
    Life_Goal: lifeGoal(rng.fork("goal"), pools, fixed, dynamic),
    Others_Profile: othersProfile(rng.fork("others"), pools, fixed, dynamic, clock),
    metadata: { persona_seed: rng.fork("seed").pick(pools.Membench_Extras.Persona_Seeds) },
  };
}
