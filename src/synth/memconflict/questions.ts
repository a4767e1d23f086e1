/**
 * Trigger detection and question templates (paper §3.5; upstream Step4_4).
 * A session triggers questions when it holds a dynamic update, a static
 * point after Point_A, or a conditional point after Point_A; its questions
 * follow one fixed layout, numbered `Q_001`… in that order, which is what
 * membench's loader relies on to tie each question back to its records
 * (`src/benchmarks/memconflict/evidence.ts`):
 *   1. per update: "changed recently?" (easy) and "how changed?" (medium); a
 *      career change instead gets the whole change, up to three changed
 *      fields, and one field that stayed the same;
 *   2. per static Point_B…: the neutral field question; the answer states the
 *      inconsistency and the true value (recover_truth, hard);
 *   3. per conditional Point_B…: the condition of the *previous* point's item,
 *      so the newest mention is a competitor, not the answer (bind_condition, hard).
 * The wording is ours; answers and labels never depend on the realiser.
 */
import { dynamicQuestionDetails } from "../../benchmarks/memconflict/evidence.ts";
import { isDistractor, isTrigger, pointRank } from "../../benchmarks/memconflict/records.ts";
import { hasValue } from "../../benchmarks/memconflict/values.ts";
import { isRec, type Json, type Question, questionId, type Rec, type Session } from "./model.ts";
import { staticLabel } from "./statics.ts";

export type QuestionKind = "dynamic" | "static" | "conditional";

/** A template question before numbering, with the indirect wording of the implicit-query ablation. */
export interface Draft {
  kind: QuestionKind;
  question: string;
  indirect: string;
  answer: string;
  ability: string;
  difficulty: "easy" | "medium" | "hard";
  /** Sessions from the earliest evidence to the question's session (the loader's probe `meta.distance`). */
  distance?: number;
}

const humanise = (v: string) => v.replace(/_/g, " ").toLowerCase();

/** A dynamic value in an answer. */
export function valueWords(attribute: string, value: Json | undefined): string {
  if (value === undefined || value === null) return "none";
  if (!isRec(value)) return attribute === "Residence" ? String(value) : humanise(String(value));
  switch (attribute) {
    case "Marital_Status": {
      const s = String(value.Status ?? "").toLowerCase();
      if (!value.Name) return s;
      return s === "married" ? `married to ${value.Name}` : `${s} ${value.Name}`;
    }
    case "Children_Status": {
      const kids = Object.entries(value).filter(([k]) => k.startsWith("Child_"));
      if (!kids.length) return "no children";
      const names = kids.map(([, v]) => String((v as Rec).Name)).join(", ");
      return `${kids.length} child${kids.length === 1 ? "" : "ren"} (${names})`;
    }
    case "Health_Status":
      return `${humanise(String(value.Physical_Health))} and ${humanise(String(value.Mental_Health))}`;
    case "Career_Status": {
      if (value.Employment_Status === "Unemployed")
        return `unemployed (previously in ${humanise(String(value.Industry))})`;
      const role = value.Employment_Status === "Entrepreneur" ? "running their own business as" : "working as";
      return `${role} ${humanise(String(value.Job_Title))} at ${value.Company_Name} in ${humanise(String(value.Industry))}, earning ${value.Monthly_Income} a month`;
    }
    default:
      if ("Current_State" in value) return humanise(String(value.Current_State));
      return JSON.stringify(value);
  }
}

interface DynamicWords {
  easy: string;
  medium: string;
  easyIndirect: string;
  mediumIndirect: string;
  what: string;
}

const DYNAMIC: Record<string, DynamicWords> = {
  Residence: {
    easy: "Has the user moved house recently?",
    medium: "Where did the user live before, and where do they live now?",
    easyIndirect: "Has the user's home base shifted lately?",
    mediumIndirect: "Where was the user based before, and where are they based now?",
    what: "home",
  },
  Marital_Status: {
    easy: "Has the user's relationship situation changed lately?",
    medium: "How has the user's relationship status changed?",
    easyIndirect: "Is there news in the user's love life?",
    mediumIndirect: "What happened in the user's love life?",
    what: "relationship status",
  },
  Children_Status: {
    easy: "Has the user's family grown recently?",
    medium: "How has the number of the user's children changed?",
    easyIndirect: "Is there a new arrival in the user's household?",
    mediumIndirect: "How did the user's household change?",
    what: "children",
  },
  Work_Status: {
    easy: "Has the user's workload changed lately?",
    medium: "How has the user's work rhythm changed?",
    easyIndirect: "Has the user's pace at the job shifted lately?",
    mediumIndirect: "How did the user's pace at the job shift?",
    what: "work rhythm",
  },
  Health_Status: {
    easy: "Has the user's health changed lately?",
    medium: "How has the user's health changed?",
    easyIndirect: "Is the user feeling different than before?",
    mediumIndirect: "In what way is the user feeling different than before?",
    what: "health",
  },
  Social_Status: {
    easy: "Has the user's social life changed lately?",
    medium: "How has the user's social life changed?",
    easyIndirect: "Has the way the user spends time with others shifted?",
    mediumIndirect: "How does the user spend time with others now, compared to before?",
    what: "social life",
  },
};

const CAREER_FIELDS: Record<string, { label: string; indirect: string }> = {
  Company_Name: { label: "employer", indirect: "workplace" },
  Job_Title: { label: "job title", indirect: "role" },
  Industry: { label: "industry", indirect: "line of work" },
  Monthly_Income: { label: "monthly income", indirect: "pay" },
  Company_Type: { label: "type of company", indirect: "kind of workplace" },
  Savings_Amount: { label: "savings", indirect: "nest egg" },
  Employment_Status: { label: "employment status", indirect: "work arrangement" },
};

function dynamicDrafts(attribute: string, before: Json | undefined, after: Json): Draft[] {
  const base = { kind: "dynamic" as const, ability: "track_state_over_time" };
  const career = attribute === "Career_Status";
  if (career && isRec(before) && isRec(after)) {
    return dynamicQuestionDetails({ attribute, before, after }).map((detail): Draft => {
      if (!detail) {
        return {
          ...base,
          question: "How has the user's job situation changed?",
          indirect: "What's new in the user's working life?",
          answer: `The user's job situation went from ${valueWords(attribute, before)} to ${valueWords(attribute, after)}.`,
          difficulty: "medium",
        };
      }
      const f = CAREER_FIELDS[detail.key] ?? { label: humanise(detail.key), indirect: humanise(detail.key) };
      const word = (v: unknown) =>
        v === undefined || v === null ? "none" : detail.key === "Company_Name" ? String(v) : humanise(String(v));
      if (detail.stable) {
        return {
          ...base,
          question: `Did the user's ${f.label} stay the same?`,
          indirect: `Is the user's ${f.indirect} unchanged?`,
          answer: `Yes. The user's ${f.label} stayed ${word(detail.after)}.`,
          difficulty: "easy",
        };
      }
      return {
        ...base,
        question: `What changed about the user's ${f.label}?`,
        indirect: `What's different about the user's ${f.indirect}?`,
        answer: `The user's ${f.label} changed from ${word(detail.before)} to ${word(detail.after)}.`,
        difficulty: "medium",
      };
    });
  }
  const w = DYNAMIC[attribute] ?? {
    easy: `Has the user's ${humanise(attribute)} changed recently?`,
    medium: `How has the user's ${humanise(attribute)} changed?`,
    easyIndirect: `Is anything new about the user's ${humanise(attribute)}?`,
    mediumIndirect: `What is new about the user's ${humanise(attribute)}?`,
    what: humanise(attribute),
  };
  const change =
    attribute === "Residence"
      ? `The user moved from ${valueWords(attribute, before)} to ${valueWords(attribute, after)}.`
      : `The user's ${w.what} went from ${valueWords(attribute, before)} to ${valueWords(attribute, after)}.`;
  return [
    { ...base, question: w.easy, indirect: w.easyIndirect, answer: "Yes.", difficulty: "easy" },
    { ...base, question: w.medium, indirect: w.mediumIndirect, answer: change, difficulty: "medium" },
  ];
}

/** The neutral question about a static field. */
function staticQuestion(path: string, fixed: Rec): { label: string; question: string } {
  const label = staticLabel(fixed, path);
  const special: Record<string, string> = {
    "Family_Information.Has_Father": "Is the user's father alive?",
    "Family_Information.Has_Mother": "Is the user's mother alive?",
    "Family_Information.Has_Siblings": "Does the user have any siblings?",
    "Family_Information.Sibling_Count": "How many siblings does the user have?",
  };
  if (special[path]) return { label, question: special[path] };
  const [, key = "", field = ""] = path.split(".");
  const rec = ((fixed.Family_Information ?? {}) as Record<string, Rec>)[key] ?? {};
  const who = key.startsWith("Sibling_") ? String(rec.Type ?? "sibling").toLowerCase() : key.toLowerCase();
  if (path.startsWith("Family_Information.") && field === "Name")
    return { label, question: `What is the name of the user's ${who}?` };
  if (field === "Birth_Date") return { label, question: `When was the user's ${who} born?` };
  if (field === "Type")
    return { label, question: `Is ${String(rec.Name ?? "").split(" ")[0]} the user's brother or sister?` };
  return { label, question: `What is the user's ${label}?` };
}

function staticWords(value: Json): string {
  const text = String(value);
  return /^User /.test(text) ? `"${text}"` : text;
}

/** The latest session before `at` that states `attribute` (its reveal or an update), as the loader looks it up. */
function previousStatement(visible: readonly Session[], at: number, attribute: string): number | undefined {
  for (let i = visible.length - 1; i >= 0; i--) {
    const s = visible[i] as Session;
    if (s.Session_ID >= at) continue;
    if ((s.Updated_Attributes ?? []).some((u) => u.Attribute === attribute && hasValue(u.After))) return s.Session_ID;
    const revealed = s.Revealed_Attributes ?? {};
    if (attribute in revealed) return s.Session_ID;
    if (
      attribute === "Social_Status" &&
      isRec(revealed.Social_Relationships) &&
      "Social_Status" in revealed.Social_Relationships
    ) {
      return s.Session_ID;
    }
  }
  return undefined;
}

/** The template questions of one session, in the loader's layout; `chain` is the history up to and including it. */
export function sessionDrafts(session: Session, chain: readonly Session[], fixed: Rec): Draft[] {
  const drafts: Draft[] = [];
  const visible = chain.filter((s) => s.Session_ID <= session.Session_ID);
  for (const u of session.Updated_Attributes ?? []) {
    if (!hasValue(u.After)) continue;
    const previous = previousStatement(visible, session.Session_ID, u.Attribute);
    const distance = previous === undefined ? undefined : session.Session_ID - previous;
    drafts.push(
      ...dynamicDrafts(u.Attribute, u.Before, u.After).map((d) => ({
        ...d,
        ...(distance !== undefined ? { distance } : {}),
      })),
    );
  }
  for (const point of session.Static_Conflict_Information) {
    const r = { role: String(point.Role), sourcePersonId: point.Source_Person_ID as string | undefined };
    if (!isTrigger(r) || isDistractor(r)) continue;
    const path = String(point.Target_Field_Path);
    const truthSession = visible.find((s) =>
      s.Static_Conflict_Information.some((x) => x.Conflict_ID === point.Conflict_ID && x.Role === "Point_A"),
    );
    const truth = truthSession?.Static_Conflict_Information.find(
      (x) => x.Conflict_ID === point.Conflict_ID && x.Role === "Point_A",
    );
    const q = staticQuestion(path, fixed);
    drafts.push({
      kind: "static",
      question: q.question,
      indirect: `If you had to fill in the user's ${q.label} on a form, what would you write?`,
      answer: truth
        ? `The history contradicts itself about the user's ${q.label}. What holds is ${staticWords(truth.Value)}; the other claim (${staticWords(point.Value)}) is false.`
        : `The user's ${q.label} cannot be confirmed: the only statement (${staticWords(point.Value)}) has nothing earlier to check it against.`,
      ability: "recover_truth",
      difficulty: "hard",
      ...(truthSession ? { distance: session.Session_ID - truthSession.Session_ID } : {}),
    });
  }
  for (const point of session.Conditional_Conflict_Information) {
    const r = { role: String(point.Role), sourcePersonId: point.Source_Person_ID as string | undefined };
    if (!isTrigger(r) || isDistractor(r)) continue;
    const rank = pointRank(r.role);
    let asked: Rec = point;
    let askedAt = session.Session_ID;
    for (const s of visible) {
      for (const x of s.Conditional_Conflict_Information) {
        if (
          x.Conflict_ID === point.Conflict_ID &&
          pointRank(String(x.Role)) === rank - 1 &&
          x.Source_Person_ID === undefined
        ) {
          asked = x;
          askedAt = s.Session_ID;
        }
      }
    }
    const type = humanise(String(point.Preference_Type));
    drafts.push({
      kind: "conditional",
      question: `Regarding the user's ${type}, in what situation does the user choose ${asked.Item}?`,
      indirect: `What kind of moment makes the user reach for ${asked.Item}?`,
      answer: `The user chooses ${asked.Item} when: ${asked.Condition}.`,
      ability: "bind_condition",
      difficulty: "hard",
      distance: session.Session_ID - askedAt,
    });
  }
  return drafts;
}

const CONFLICT_TYPE = {
  dynamic: "dynamic_conflict",
  static: "static_conflict",
  conditional: "conditional_conflict",
} as const;

const TRIGGER = { dynamic: "dynamic_update", static: "static_conflict", conditional: "conditional_conflict" } as const;

export function triggerTypes(drafts: readonly Draft[]): string[] {
  return (["dynamic", "static", "conditional"] as const)
    .filter((k) => drafts.some((d) => d.kind === k))
    .map((k) => TRIGGER[k]);
}

/** Numbered release questions from drafts; `text` picks the wording (direct, indirect, or a rewrite). */
export function numberQuestions(
  drafts: readonly Draft[],
  text: (d: Draft, i: number) => string = (d) => d.question,
): Question[] {
  return drafts.map((d, i) => ({
    question_id: questionId(i + 1),
    question: text(d, i),
    answer: d.answer,
    conflict_type: CONFLICT_TYPE[d.kind],
    ability_target: d.ability,
    difficulty: d.difficulty,
  }));
}
