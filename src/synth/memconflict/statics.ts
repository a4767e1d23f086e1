/**
 * What a static conflict says (paper §3.3.3; upstream Step3_1 asks an LLM for
 * these triples, here they are rules over the pools): the candidate fact
 * paths of the fixed profile, the true value at a path, a false value that
 * contradicts it explicitly (a plain replacement) or implicitly (a natural
 * statement that rules the truth out), and the first-person line a dialogue
 * uses for each.
 */
import type { Rng } from "../rng.ts";
import type { Json, Rec } from "./model.ts";
import type { Pools } from "./pools.ts";
import { otherGender, place } from "./profile.ts";

/** Paths into `Fixed_Profile` a static conflict may target, as the release names them. */
export function candidatePaths(fixed: Rec): string[] {
  const paths = [
    "Name",
    "Gender",
    "Birthdate",
    "Birthplace",
    "Education_Background.Highest_Degree",
    "Education_Background.Major",
    "Education_Background.University",
    "Family_Information.Has_Father",
    "Family_Information.Has_Mother",
    "Family_Information.Has_Siblings",
    "Family_Information.Sibling_Count",
  ];
  const family = (fixed.Family_Information ?? {}) as Record<string, Rec>;
  for (const [key, rec] of Object.entries(family)) {
    const fields = key.startsWith("Sibling_") ? ["Type", "Name", "Birth_Date"] : ["Name", "Birth_Date"];
    for (const f of fields) if (rec[f] !== undefined) paths.push(`Family_Information.${key}.${f}`);
  }
  return paths;
}

function siblings(fixed: Rec): string[] {
  return Object.keys((fixed.Family_Information ?? {}) as Rec).filter((k) => k.startsWith("Sibling_"));
}

/** The true value at `path`, derived for the `Has_*` and `Sibling_Count` paths. */
export function truthAt(fixed: Rec, path: string): Json {
  const family = (fixed.Family_Information ?? {}) as Record<string, Rec>;
  switch (path) {
    case "Family_Information.Has_Father":
      return family.Father ? "Yes" : "No";
    case "Family_Information.Has_Mother":
      return family.Mother ? "Yes" : "No";
    case "Family_Information.Has_Siblings":
      return siblings(fixed).length ? "Yes" : "No";
    case "Family_Information.Sibling_Count":
      return siblings(fixed).length;
  }
  let value: Json = fixed;
  for (const part of path.split(".")) value = (value as Rec)?.[part] as Json;
  return value ?? null;
}

const first = (name: Json | undefined) => String(name ?? "").split(" ")[0] ?? "";
const family = (name: Json) => String(name).split(" ").slice(1).join(" ");
const yearShift = (d: Json, by: number) => `${Number(String(d).slice(0, 4)) + by}${String(d).slice(4)}`;
const NUMBER_WORDS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
export const numberWord = (n: number) => NUMBER_WORDS[n] ?? String(n);

/** Who a family path is about, in words: "father", "sister Lena" … */
function relative(fixed: Rec, path: string): { role: string; name: string } {
  const key = path.split(".")[1] ?? "";
  const rec = ((fixed.Family_Information ?? {}) as Record<string, Rec>)[key] ?? {};
  const role = key.startsWith("Sibling_") ? String(rec.Type ?? "sibling").toLowerCase() : key.toLowerCase();
  return { role, name: String(rec.Name ?? "") };
}

/** A value that contradicts `truth` at `path`: a plain replacement. */
export function explicitClaim(rng: Rng, pools: Pools, fixed: Rec, path: string, truth: Json): Json {
  const field = path.split(".").at(-1) ?? path;
  const names = pools.Fixed_Information.Names;
  const differ = <T>(options: T[]): T =>
    rng.pick(options.filter((o) => o !== truth).length ? options.filter((o) => o !== truth) : options);
  switch (field) {
    case "Name": {
      const gender =
        path === "Name" ? String(fixed.Gender) : relative(fixed, path).role.match(/father|brother/) ? "Male" : "Female";
      const pool = gender === "Female" ? names.Female_Names : names.Male_Names;
      return `${differ(pool.filter((n) => n !== first(truth)))} ${family(truth)}`;
    }
    case "Gender":
      return otherGender(String(truth));
    case "Birthdate":
    case "Birth_Date":
      return yearShift(truth, rng.pick([-4, -3, -2, -1, 1, 2, 3, 4]));
    case "Birthplace": {
      for (let i = 0; i < 8; i++) {
        const p = place(rng, pools);
        if (p !== truth) return p;
      }
      return place(rng, pools);
    }
    case "Highest_Degree":
      return differ(Object.keys(pools.Fixed_Information.Education.Highest_Degree));
    case "Major":
      return differ(pools.Fixed_Information.Education.Major);
    case "University":
      return differ(Object.values(pools.Fixed_Information.Education.University).flat());
    case "Has_Father":
    case "Has_Mother":
    case "Has_Siblings":
      return truth === "Yes" ? "No" : "Yes";
    case "Sibling_Count": {
      const n = Number(truth);
      return n === 0 ? rng.int(1, 3) : differ([n - 1, n + 1, n + 2].filter((x) => x >= 0));
    }
    case "Type":
      return truth === "Brother" ? "Sister" : "Brother";
    default:
      return `${String(truth)} (disputed)`;
  }
}

export interface Claim {
  /** The record's `Value`. */
  value: Json;
  /** How the user says it in a dialogue. */
  line: string;
}

/** The user's own line stating `value` at `path` (a true point, or an explicit false one). */
export function factLine(fixed: Rec, path: string, value: Json): string {
  const field = path.split(".").at(-1) ?? path;
  const who = path.startsWith("Family_Information.") ? relative(fixed, path) : undefined;
  switch (path) {
    case "Name":
      return `By the way, my full name is ${value}.`;
    case "Gender":
      return `For the record, I'm a ${value === "Female" ? "woman" : "man"}.`;
    case "Birthdate":
      return `I was born on ${value}.`;
    case "Birthplace":
      return `I was born in ${value}.`;
    case "Education_Background.Highest_Degree":
      return `My highest degree is a ${value} degree.`;
    case "Education_Background.Major":
      return `At university I studied ${value}.`;
    case "Education_Background.University":
      return `I studied at ${value}.`;
    case "Family_Information.Has_Father":
      return value === "Yes" ? "My father is still very much part of my life." : "My father is no longer alive.";
    case "Family_Information.Has_Mother":
      return value === "Yes" ? "My mother is still very much part of my life." : "My mother is no longer alive.";
    case "Family_Information.Has_Siblings":
      return value === "Yes" ? "I do have siblings." : "I don't have any siblings.";
    case "Family_Information.Sibling_Count":
      return `I have ${value} sibling${Number(value) === 1 ? "" : "s"}.`;
  }
  if (field === "Name") return `My ${who?.role}'s name is ${value}.`;
  if (field === "Birth_Date") return `My ${who?.role} was born on ${value}.`;
  if (field === "Type") return `${first(who?.name)} is my ${String(value).toLowerCase()}.`;
  return `My ${path.replace(/[._]/g, " ").toLowerCase()} is ${value}.`;
}

/** A natural statement that rules `truth` out without naming the field (Prompt3_1's "Implicit" style). */
export function implicitClaim(rng: Rng, pools: Pools, fixed: Rec, path: string, truth: Json): Claim {
  const alt = explicitClaim(rng, pools, fixed, path, truth);
  const field = path.split(".").at(-1) ?? path;
  const who = path.startsWith("Family_Information.") ? relative(fixed, path) : undefined;
  switch (path) {
    case "Name":
      return {
        value: `User signs every message as ${alt} and says friends have always called them that.`,
        line: `Everyone has always called me ${alt}; that's how I sign my messages too.`,
      };
    case "Gender":
      return alt === "Female"
        ? {
            value: "User identifies as a woman and uses she/her pronouns.",
            line: "I identify as a woman and use she/her pronouns.",
          }
        : {
            value: "User identifies as a man and uses he/him pronouns.",
            line: "I identify as a man and use he/him pronouns.",
          };
    case "Birthdate": {
      const year = Number(String(alt).slice(0, 4)) + 18;
      return {
        value: `User mentions celebrating their 18th birthday in ${year}.`,
        line: `I celebrated my 18th birthday back in ${year}.`,
      };
    }
    case "Birthplace": {
      const city = String(alt).split(",")[0];
      return {
        value: `User talks about being born and raised in ${city}, never having lived anywhere else as a child.`,
        line: `I was born and raised in ${city} and never lived anywhere else as a kid.`,
      };
    }
    case "Education_Background.Highest_Degree":
      return {
        value: `User says their formal education ended with a ${alt} degree.`,
        line: `My formal education ended with a ${alt} degree.`,
      };
    case "Education_Background.Major":
      return {
        value: `User recalls spending all of university studying ${alt}.`,
        line: `I spent all of university studying ${alt}.`,
      };
    case "Education_Background.University":
      return {
        value: `User fondly remembers graduation day at ${alt}.`,
        line: `I still remember graduation day at ${alt}.`,
      };
    case "Family_Information.Has_Father":
    case "Family_Information.Has_Mother": {
      const parent = path.endsWith("Father") ? "father" : "mother";
      return alt === "No"
        ? {
            value: `User says they grew up never knowing their ${parent}.`,
            line: `I grew up never knowing my ${parent}.`,
          }
        : { value: `User mentions phoning their ${parent} every Sunday.`, line: `I phone my ${parent} every Sunday.` };
    }
    case "Family_Information.Has_Siblings":
      return alt === "No"
        ? {
            value: "User says growing up without any brothers or sisters made them independent.",
            line: "Growing up without any brothers or sisters made me independent.",
          }
        : {
            value: "User talks about their sibling's wedding last summer.",
            line: "My sibling's wedding last summer was lovely.",
          };
    case "Family_Information.Sibling_Count": {
      const n = Number(alt) + 1;
      return {
        value: `User talks about being one of ${n} children in the family.`,
        line: `I'm one of ${n} children in my family.`,
      };
    }
  }
  if (field === "Name") {
    return {
      value: `User mentions their ${who?.role}, ${alt}, calling last week.`,
      line: `My ${who?.role}, ${alt}, called me last week.`,
    };
  }
  if (field === "Birth_Date") {
    const year = Number(String(alt).slice(0, 4)) + 50;
    return {
      value: `User says their ${who?.role} turned 50 in ${year}.`,
      line: `My ${who?.role} turned 50 in ${year}.`,
    };
  }
  if (field === "Type") {
    return {
      value: `User refers to ${first(who?.name)} as their ${String(alt).toLowerCase()}.`,
      line: `${first(who?.name)}, my ${String(alt).toLowerCase()}, visited last week.`,
    };
  }
  return { value: alt, line: factLine(fixed, path, alt) };
}

/** The value at `path` for another person of `Others_Profile`, where they have that field. */
export function otherValueAt(person: Rec, path: string): Json | undefined {
  switch (path) {
    case "Name":
    case "Birthdate":
    case "Birthplace":
      return person[path] as Json;
    case "Education_Background.Highest_Degree":
    case "Education_Background.Major":
    case "Education_Background.University": {
      const edu = person.Education_Background as Rec | undefined;
      const v = edu?.[path.split(".")[1] as string];
      return v === "N/A" ? undefined : (v as Json);
    }
    default:
      return undefined;
  }
}

/** How the user mentions another person's fact at a static path. */
export function otherFactLine(relationship: string, name: string, path: string, value: Json): string {
  const who = `my ${relationship.toLowerCase()} ${first(name)}`;
  switch (path) {
    case "Name":
      return `I had lunch with ${who}, whose full name is ${value}.`;
    case "Birthdate":
      return `${capital(who)} was born on ${value}.`;
    case "Birthplace":
      return `${capital(who)} was born in ${value}.`;
    case "Education_Background.Highest_Degree":
      return `${capital(who)} has a ${value} degree.`;
    case "Education_Background.Major":
      return `${capital(who)} studied ${value}.`;
    case "Education_Background.University":
      return `${capital(who)} went to ${value}.`;
    default:
      return `${capital(who)}: ${String(value)}.`;
  }
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** How a static field is named for people: "place of birth", "father's name", "relation to Lena". */
export function staticLabel(fixed: Rec, path: string): string {
  const simple: Record<string, string> = {
    Name: "full name",
    Gender: "gender",
    Birthdate: "date of birth",
    Birthplace: "place of birth",
    "Education_Background.Highest_Degree": "highest degree",
    "Education_Background.Major": "university major",
    "Education_Background.University": "university",
    "Family_Information.Has_Father": "father",
    "Family_Information.Has_Mother": "mother",
    "Family_Information.Has_Siblings": "siblings",
    "Family_Information.Sibling_Count": "number of siblings",
  };
  if (simple[path]) return simple[path];
  const field = path.split(".").at(-1) ?? path;
  const who = relative(fixed, path);
  if (field === "Name") return `${who.role}'s name`;
  if (field === "Birth_Date") return `${who.role}'s date of birth`;
  if (field === "Type") return `relation to ${first(who.name)}`;
  return path.replace(/[._]+/g, " ").toLowerCase();
}
