/**
 * What each session's dialogue must state, derived from its records alone:
 * the attributes it reveals, the new values of its updates, its static and
 * conditional points, and its facts about other people. Each mention carries
 * the fact in words (for the model's prompt), the user's line (for template
 * dialogues), and the key phrases a dialogue must contain for the mention to
 * count (for the model reply's check and for the validator). Deriving the
 * keys from the records alone is what lets `validate` check a file written
 * by anyone: the evidence of every question must be in its sessions' turns.
 */
import { isRec, type Json, type Message, type Profile, type Rec, type Session } from "./model.ts";
import { capital, factLine, numberWord, otherFactLine, staticLabel } from "./statics.ts";

export interface Mention {
  /** Stable id inside the session, e.g. `update/Residence`, `SC_003/Point_B`, `others/Work_Status/Contacts_2`. */
  id: string;
  /** Set when the fact is about another person: the dialogue must attribute it to them. */
  other?: { key: string; name: string; relationship: string };
  /** The fact in words, for a model prompt. */
  fact: string;
  /** The user's line in a template dialogue. */
  line: string;
  /** Every group must appear, each as one of its alternatives, in the user's messages. */
  keys: string[][];
}

/** Lower case, no accents, thousands separators dropped, punctuation as spaces, padded with spaces. */
export function normalise(text: string): string {
  const plain = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/(\d)[,.](?=\d{3}\b)/g, "$1")
    .replace(/[^a-z0-9/]+/g, " ")
    .trim();
  return ` ${plain} `;
}

/** Whether `key` starts a word of the normalised `text` (so "divorc" finds "divorced", "man" not "woman"). */
export function hasKey(normalisedText: string, key: string): boolean {
  const k = normalise(key).trimEnd();
  return k.trim() !== "" && normalisedText.includes(k);
}

const first = (name: Json | undefined) => String(name ?? "").split(" ")[0] ?? "";
const humanise = (v: string) => v.replace(/_/g, " ").toLowerCase();

/** Significant words of a phrase (4+ letters), longest first. */
function words(text: string): string[] {
  return [
    ...new Set(
      normalise(text)
        .trim()
        .split(" ")
        .filter((w) => w.length >= 4),
    ),
  ].sort((a, b) => b.length - a.length);
}

/** Stems short enough to survive inflection ("technology" → "tech"), for enum-like values. */
function stem(value: string): string {
  const w = normalise(value).trim();
  return w.length > 6 ? w.slice(0, Math.max(4, Math.ceil(w.length * 0.6))) : w;
}

const PHRASES: Record<string, { say: string; fact: string; keys: string[] }> = {
  Busy: { say: "work has been really busy", fact: "is very busy at work", keys: ["busy", "hectic", "swamped"] },
  Normal: {
    say: "work is at a normal, steady pace",
    fact: "works at a normal pace",
    keys: ["normal", "steady", "usual", "regular"],
  },
  Free: {
    say: "I have a lot of free time at work",
    fact: "has a lot of free time at work",
    keys: ["free", "quiet", "light"],
  },
  On_Business_Trip: {
    say: "I'm away on a business trip",
    fact: "is away on a business trip",
    keys: ["business trip", "work trip", "trip"],
  },
  "Energetic and Fit": { say: "I feel energetic and fit", fact: "energetic and fit", keys: ["energetic", "fit"] },
  "Generally Healthy": { say: "I'm generally healthy", fact: "generally healthy", keys: ["healthy", "health is good"] },
  "Often Fatigued": { say: "I'm often fatigued", fact: "often fatigued", keys: ["fatigue", "tired", "exhaust"] },
  "Physically Unwell": { say: "I'm physically unwell", fact: "physically unwell", keys: ["unwell", "sick", "ill"] },
  "Emotionally Positive": {
    say: "emotionally I feel positive",
    fact: "emotionally positive",
    keys: ["positive", "upbeat", "happy"],
  },
  "Emotionally Stable": {
    say: "emotionally I'm stable",
    fact: "emotionally stable",
    keys: ["stable", "steady", "calm", "balanced"],
  },
  "Frequently Stressed": { say: "I'm frequently stressed", fact: "frequently stressed", keys: ["stress"] },
  "Emotionally Distressed": {
    say: "I feel emotionally distressed",
    fact: "emotionally distressed",
    keys: ["distress", "overwhelm", "struggl"],
  },
  Meeting_More_People: {
    say: "I've been meeting more people",
    fact: "has been meeting more people",
    keys: ["meeting more people", "meeting new people", "new people"],
  },
  Staying_in_Contact: {
    say: "I'm mostly staying in contact with people",
    fact: "mostly stays in contact with people",
    keys: ["in contact", "in touch"],
  },
  Seeing_People_More_Often: {
    say: "I'm seeing people more often",
    fact: "is seeing people more often",
    keys: ["more often", "seeing people", "seeing friends"],
  },
  Joining_Social_Activities: {
    say: "I've been joining social activities",
    fact: "has been joining social activities",
    keys: ["joining", "social activit", "club"],
  },
  Spending_Less_Time_Socializing: {
    say: "I'm spending less time socializing",
    fact: "is spending less time socializing",
    keys: ["less time", "socializ", "socialis"],
  },
  Keeping_to_Oneself: {
    say: "I've been keeping to myself",
    fact: "has been keeping to themselves",
    keys: ["to myself", "to oneself", "keeping to"],
  },
};

function phrase(value: string): { say: string; fact: string; keys: string[] } {
  return PHRASES[value] ?? { say: humanise(value), fact: humanise(value), keys: [stem(value)] };
}

/** "Career news: " + a sentence, keeping "I" upper case. */
function lead(prefix: string, sentence: string): string {
  return `${prefix}${/^I\b/.test(sentence) ? sentence : sentence.charAt(0).toLowerCase() + sentence.slice(1)}`;
}

function city(placeText: Json | undefined): string {
  return (
    String(placeText ?? "")
      .split(",")[0]
      ?.trim() ?? ""
  );
}

function rangeKeys(range: Json | undefined): string[] {
  const lo = String(range ?? "")
    .split("-")[0]
    ?.trim();
  return lo ? [lo] : [];
}

function children(value: Rec): Rec[] {
  return Object.entries(value)
    .filter(([k]) => k.startsWith("Child_"))
    .map(([, v]) => v as Rec);
}

/** A career snapshot in the third person, for prompts. */
function valueFact(v: Rec): string {
  if (v.Employment_Status === "Unemployed")
    return `unemployed (last in ${String(v.Industry ?? "").toLowerCase()}), savings ${v.Savings_Amount}`;
  const role = v.Employment_Status === "Entrepreneur" ? "runs their own business" : "employed";
  return `${role}, ${String(v.Job_Title ?? "").toLowerCase()} at ${v.Company_Name}${v.Company_Type ? ` (${humanise(String(v.Company_Type))})` : ""}, ${String(v.Industry ?? "").toLowerCase()} industry, monthly income ${v.Monthly_Income}, savings ${v.Savings_Amount}`;
}

interface Said {
  fact: string;
  line: string;
  keys: string[][];
}

/** The user's own value of a dynamic attribute, revealed (`now` false) or just changed (`now` true). */
export function userAttribute(attribute: string, value: Json, changed: boolean, before?: Json): Said {
  const v = isRec(value) ? value : {};
  switch (attribute) {
    case "Residence":
      return {
        fact: changed ? `the user has moved and now lives in ${value}` : `the user lives in ${value}`,
        line: changed ? `Big change: I've moved, I live in ${value} now.` : `I live in ${value} these days.`,
        keys: [[city(value)]],
      };
    case "Marital_Status": {
      const status = String(v.Status ?? "");
      const name = v.Name ? String(v.Name) : undefined;
      const statusKeys: Record<string, string[]> = {
        Single: ["single"],
        Dating: ["dating", "seeing", "going out", "girlfriend", "boyfriend", "partner", "relationship"],
        Married: ["married", "wife", "husband", "wedding", "spouse"],
        Divorced: ["divorc", "split", "separat"],
      };
      const line = name
        ? status === "Married"
          ? `${name} and I are married now.`
          : `I'm ${status.toLowerCase()} ${name} these days.`
        : status === "Single"
          ? "I'm single at the moment."
          : `I'm ${status.toLowerCase()} now.`;
      return {
        fact: `the user's relationship status is ${status.toLowerCase()}${name ? ` (${name})` : ""}`,
        line: changed ? lead("Relationship news: ", line) : line,
        keys: [statusKeys[status] ?? [stem(status)], ...(name ? [[first(name)]] : [])],
      };
    }
    case "Children_Status": {
      const kids = children(v);
      if (changed) {
        const before_ = isRec(before) ? children(before) : [];
        const born = kids.filter((k) => !before_.some((b) => b.Name === k.Name));
        const names = born.map((k) => `${k.Name} (born ${k.Birthdate})`).join(" and ");
        return {
          fact: `the user has a new child: ${names}`,
          line: `We have a new baby in the family: ${names}.`,
          keys: born.map((k) => [first(k.Name)]),
        };
      }
      if (!kids.length) {
        return {
          fact: "the user has no children",
          line: "I don't have any children.",
          keys: [["no children", "any children", "no kids", "any kids", "childless", "kids", "children"]],
        };
      }
      const list = kids.map((k) => `${k.Name} (born ${k.Birthdate})`).join(", ");
      return {
        fact: `the user has ${kids.length} child${kids.length === 1 ? "" : "ren"}: ${list}`,
        line: `I have ${numberWord(kids.length)} kid${kids.length === 1 ? "" : "s"}: ${list}.`,
        keys: kids.map((k) => [first(k.Name)]),
      };
    }
    case "Career_Status": {
      const parts: string[] = [];
      const keys: string[][] = [];
      if (v.Employment_Status === "Unemployed") {
        parts.push("I'm unemployed at the moment");
        keys.push(["unemploy", "out of work", "between jobs", "lost my job", "without a job", "no job"]);
        if (v.Industry) parts.push(`I used to work in ${String(v.Industry).toLowerCase()}`);
      } else {
        const title = String(v.Job_Title ?? "");
        const own = v.Employment_Status === "Entrepreneur" ? "I run my own business," : "I work";
        parts.push(
          `${own} as ${/^[aeiou]/i.test(title) ? "an" : "a"} ${title.toLowerCase()} at ${v.Company_Name}${v.Company_Type ? ` (a ${humanise(String(v.Company_Type))})` : ""} in ${String(v.Industry).toLowerCase()}`,
        );
        keys.push([String(v.Company_Name)], [title]);
        if (v.Industry) keys.push([stem(String(v.Industry))]);
      }
      if (v.Monthly_Income) {
        parts.push(`I make ${v.Monthly_Income} a month`);
        keys.push(rangeKeys(v.Monthly_Income));
      }
      if (v.Savings_Amount) {
        parts.push(`I have ${v.Savings_Amount} in savings`);
        keys.push(rangeKeys(v.Savings_Amount));
      }
      const text = `${parts.join("; ")}.`;
      return {
        fact: `the user's work situation${changed ? " is now" : ""}: ${valueFact(v)}`,
        line: changed ? lead("Career news: ", text) : capital(text),
        keys,
      };
    }
    case "Work_Status":
    case "Social_Status": {
      const p = phrase(String(v.Current_State ?? value));
      return {
        fact: `${changed ? "a change: " : ""}the user ${p.fact}`,
        line: `${changed ? "Lately things changed: " : ""}${p.say}.`.replace(/^./, (c) => c.toUpperCase()),
        keys: [p.keys],
      };
    }
    case "Health_Status": {
      const body = phrase(String(v.Physical_Health ?? ""));
      const mind = phrase(String(v.Mental_Health ?? ""));
      return {
        fact: `${changed ? "a change in health: " : ""}the user is ${body.fact} and ${mind.fact}`,
        line: `${changed ? "Health-wise things changed: " : "Health-wise, "}${body.say}, and ${mind.say}.`,
        keys: [body.keys, mind.keys],
      };
    }
    case "Social_Relationships": {
      const contacts = Object.values((v.Contacts ?? {}) as Record<string, Rec>);
      const status = isRec(v.Social_Status) ? String(v.Social_Status.Current_State) : "";
      const p = phrase(status);
      const list = contacts.map((c) => `${c.Name} (${String(c.Type).toLowerCase()})`).join(", ");
      return {
        fact: `the people the user talks to most: ${list}; socially the user ${p.fact}`,
        line: `The people I talk to most are ${list}. Socially, ${p.say}.`,
        keys: [...contacts.map((c) => [first(c.Name)]), p.keys],
      };
    }
    default:
      return {
        fact: `${humanise(attribute)}: ${JSON.stringify(value)}`,
        line: `${humanise(attribute)}: ${JSON.stringify(value)}.`,
        keys: [],
      };
  }
}

/** Another person's value of a dynamic attribute, as `Others_Profile` holds it. */
function otherAttribute(attribute: string, value: Json, who: string): Said {
  if (attribute === "Residence")
    return { fact: `${who} lives in ${value}`, line: `${capital(who)} lives in ${value}.`, keys: [[city(value)]] };
  if (isRec(value)) {
    if ("Status" in value) {
      const status = String(value.Status);
      return {
        fact: `${who} is ${status.toLowerCase()}`,
        line: `${capital(who)} is ${status.toLowerCase()}.`,
        keys: [[stem(status)]],
      };
    }
    if ("Children_Count" in value) {
      const n = Number(value.Children_Count);
      return {
        fact: `${who} has ${n} children`,
        line: `${capital(who)} has ${numberWord(n)} kid${n === 1 ? "" : "s"}.`,
        keys: [[String(n), numberWord(n)]],
      };
    }
  }
  const text = String(value).replace(/\.$/, "");
  // Other people's careers are verb phrases ("runs a bicycle shop"); work and health are states.
  const verb = attribute === "Career_Status" ? "" : "is ";
  return {
    fact: `${who} ${verb}${text}`,
    line: `${capital(who)} ${verb}${text}.`,
    keys: [words(text).slice(0, 1)],
  };
}

function otherOf(
  profile: Profile,
  key: string,
  relationship?: Json,
): { key: string; name: string; relationship: string } {
  const person = profile.Others_Profile[key] ?? {};
  return {
    key,
    name: String(person.Name ?? key),
    relationship: String(relationship ?? person.Relationship_To_User ?? key),
  };
}

const whoText = (o: { name: string; relationship: string }) => `my ${o.relationship.toLowerCase()} ${first(o.name)}`;
/** The same person named in a prompt, from the outside. */
const theirs = (o: { name: string; relationship: string }) => `the user's ${o.relationship.toLowerCase()} ${o.name}`;

/** Key phrases of a static value: its distinctive words (an implicit statement's names and numbers). */
export function staticKeys(path: string, value: Json): string[][] {
  const field = path.split(".").at(-1) ?? path;
  const text = String(value);
  if (/^User /.test(text)) {
    const anchors = text
      .split(/[^A-Za-z0-9'/]+/)
      .slice(1)
      .filter((w) => /^[A-Z0-9]/.test(w) && !["User", "I"].includes(w));
    // A statement without names or numbers is known by the stem of its longest word.
    return anchors.length ? anchors.map((w) => [w]) : [[stem(words(text)[0] ?? text)]];
  }
  switch (field) {
    case "Gender":
      return [text === "Female" ? ["woman", "female", "she/her"] : ["man", "male", "he/him"]];
    case "Birthdate":
    case "Birth_Date":
      return [[text.slice(0, 4)]];
    case "Birthplace":
      return [[city(value)]];
    case "Highest_Degree":
      return [[stem(text)]];
    case "Has_Father":
      return [["father", "dad"]];
    case "Has_Mother":
      return [["mother", "mum", "mom"]];
    case "Has_Siblings":
      return [["sibling", "brother", "sister"]];
    case "Sibling_Count":
      return [[text, numberWord(Number(value))]];
    case "Type":
      return [[text.toLowerCase()]];
    case "Name":
      return [[first(text)]];
    default:
      return [[text]];
  }
}

/** Every fact `session`'s dialogue must state. `lines` gives the static points' lines (`Conflict_ID/Role`). */
export function sessionMentions(session: Session, profile: Profile, lines?: ReadonlyMap<string, string>): Mention[] {
  const out: Mention[] = [];
  for (const [attribute, value] of Object.entries(session.Revealed_Attributes ?? {})) {
    out.push({ id: `reveal/${attribute}`, ...userAttribute(attribute, value, false) });
  }
  for (const u of session.Updated_Attributes ?? []) {
    out.push({ id: `update/${u.Attribute}`, ...userAttribute(u.Attribute, u.After, true, u.Before) });
  }
  for (const s of session.Static_Conflict_Information) {
    const path = String(s.Target_Field_Path);
    const id = `${s.Conflict_ID}/${s.Role}`;
    const keys = staticKeys(path, s.Value);
    if (s.Role === "Distractor") {
      const other = otherOf(profile, String(s.Source_Person_ID), s.Relationship_To_User);
      out.push({
        id,
        other,
        fact: `${theirs(other)}: ${humanise(path.split(".").at(-1) ?? path)} ${s.Value}`,
        line: lines?.get(id) ?? otherFactLine(other.relationship, other.name, path, s.Value),
        keys,
      });
    } else {
      const line = lines?.get(id) ?? factLine(profile.Fixed_Profile, path, s.Value);
      out.push({
        id,
        fact: /^User /.test(String(s.Value))
          ? String(s.Value).replace(/^User /, "the user ")
          : `the user's ${staticLabel(profile.Fixed_Profile, path)}: ${s.Value}`,
        line,
        keys,
      });
    }
  }
  for (const c of session.Conditional_Conflict_Information) {
    if (c.Role === "Distractor") {
      const other = otherOf(profile, String(c.Source_Person_ID), c.Relationship_To_User);
      const hobby = humanise(String(c.Preference_Key));
      out.push({
        id: `${c.Conflict_ID}/Distractor/${c.Source_Person_ID}/${c.Preference_Key}`,
        other,
        fact: `${theirs(other)} enjoys ${hobby} (${c.Preference_Description})`,
        line: `${capital(whoText(other))} loves ${hobby}; ${first(other.name)} ${c.Preference_Description}.`,
        keys: [words(String(c.Preference_Description)).slice(0, 1)],
      });
      continue;
    }
    const type = humanise(String(c.Preference_Type));
    out.push({
      id: String(c.Rule_ID ?? `${c.Conflict_ID}/${c.Role}`),
      fact: `the user's ${type}: ${c.Item}, when ${String(c.Condition).toLowerCase()}`,
      line: `When it's ${String(c.Condition).toLowerCase()}, my go-to is ${c.Item}.`,
      keys: [[String(c.Item)], words(String(c.Condition)).slice(0, 1)],
    });
  }
  for (const d of session.Others_Dynamic_Information) {
    const other = otherOf(profile, d.Source_Person_ID, d.Relationship_To_User);
    const said = otherAttribute(d.Attribute, d.Value, whoText(other));
    const fact = otherAttribute(d.Attribute, d.Value, theirs(other)).fact;
    out.push({ id: `others/${d.Attribute}/${d.Source_Person_ID}`, other, ...said, fact });
  }
  return out.map((m) => ({ ...m, keys: m.keys.filter((g) => g.length && g.some((k) => k.trim())) }));
}

/** What is wrong with `messages` as a realisation of `mentions`, or undefined when each is stated and attributed. */
export function coverageProblem(messages: readonly Message[], mentions: readonly Mention[]): string | undefined {
  const user = messages.filter((m) => m.role === "user").map((m) => normalise(m.content));
  const all = user.join(" ");
  const missing: string[] = [];
  for (const m of mentions) {
    const absent = m.keys.filter((group) => !group.some((k) => hasKey(all, k)));
    if (absent.length) {
      missing.push(`${m.id} (needs ${absent.map((g) => `"${g[0]}"`).join(", ")})`);
      continue;
    }
    if (m.other) {
      const o = m.other;
      const names = [first(o.name), o.relationship];
      const attributed = user.some(
        (u) => m.keys.every((group) => group.some((k) => hasKey(u, k))) && names.some((n) => hasKey(u, n)),
      );
      if (!attributed) missing.push(`${m.id} (not attributed to ${o.relationship} ${first(o.name)})`);
    }
  }
  return missing.length ? `the user's turns do not state: ${missing.join("; ")}` : undefined;
}
