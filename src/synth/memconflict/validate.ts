/**
 * Checks a folder of MemConflict data (ours or edited since) beyond what the
 * loader checks:
 * - labels: session types, roles, and each question's conflict_type,
 *   ability_target and difficulty are the benchmark's own
 *   (src/benchmarks/memconflict/format.ts);
 * - no future facts: dates never go back; a static Point_A comes before its
 *   Point_B and conditional points in order; an update's old value is the one
 *   stated last before it; a distractor sits inside the span it is linked
 *   to; every question's answer is the one its session's history supports
 *   (recomputed from the records visible at that session);
 * - evidence present: every fact a session's records say it carries is stated
 *   in that session's user turns, and a fact about another person is
 *   attributed to them;
 * - counts: question ids, `Session_Question_Count` and the persona totals.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  ABILITY_TARGETS,
  CONFLICT_TYPES,
  DIFFICULTIES,
  isOneOf,
  SESSION_TYPES,
} from "../../benchmarks/memconflict/format.ts";
import { pointRank } from "../../benchmarks/memconflict/records.ts";
import type { ValidationIssue } from "../types.ts";
import { truePoints } from "./conflicts.ts";
import { coverageProblem, sessionMentions } from "./mentions.ts";
import { isRec, type Message, type Profile, type Rec, type Session, UPDATE_ATTRIBUTES } from "./model.ts";
import { sessionDrafts } from "./questions.ts";
import { FINAL_FILE, IMPLICIT_FILE } from "./release.ts";

const QUESTION_ID = /^Q_(\d{3,})$/;
const ROLE = /^(Point_[A-Z]|Distractor)$/;
const CONFLICT_KIND: Record<string, string> = {
  dynamic_conflict: "dynamic",
  static_conflict: "static",
  conditional_conflict: "conditional",
};

/** The messages of a `Session_Dialogue`, in turn order, for the role/content shapes the release uses. */
function messages(dialogue: unknown): Message[] {
  if (!isRec(dialogue)) return [];
  return Object.entries(dialogue)
    .map(([k, v]) => [Number(/^dialogue_turn_(\d+)$/.exec(k)?.[1] ?? Number.NaN), v] as const)
    .filter(([n]) => Number.isFinite(n))
    .sort((a, b) => a[0] - b[0])
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
    .filter(isRec)
    .map(
      (m) =>
        ({
          role: m.role === "assistant" ? "assistant" : "user",
          content: typeof m.content === "string" ? m.content : "",
        }) as Message,
    )
    .filter((m) => m.content);
}

const list = <T = Rec>(v: unknown): T[] => (Array.isArray(v) ? (v.filter(isRec) as T[]) : []);

function validatePersona(record: Rec, file: string, line: number, issues: ValidationIssue[]): void {
  const where = `line ${line} (persona ${String(record.ID ?? "?")})`;
  const issue = (field: string, problem: string) => issues.push({ file, record: where, field, problem });
  const rawChain = Array.isArray(record.Full_Session_Chain) ? record.Full_Session_Chain : [];
  if (!rawChain.length) issue("Full_Session_Chain", "no sessions");
  const chain: Session[] = rawChain.filter(isRec).map((s) => ({
    ...(s as unknown as Session),
    Static_Conflict_Information: list(s.Static_Conflict_Information) as Session["Static_Conflict_Information"],
    Conditional_Conflict_Information: list(
      s.Conditional_Conflict_Information,
    ) as Session["Conditional_Conflict_Information"],
    Others_Dynamic_Information: list(s.Others_Dynamic_Information) as Session["Others_Dynamic_Information"],
    Updated_Attributes: list(s.Updated_Attributes) as Session["Updated_Attributes"],
  }));
  const profile = record as unknown as Profile;
  const fixed = isRec(record.Fixed_Profile) ? record.Fixed_Profile : {};
  const at = (i: number, field: string) => `Full_Session_Chain[${i}].${field}`;
  const indexOf = new Map(chain.map((s, i) => [s.Session_ID, i]));
  const staticA = new Map<string, number>();
  const conditionalRank = new Map<string, { rank: number; session: number }>();
  let totalQuestions = 0;
  let triggered = 0;
  chain.forEach((s, i) => {
    if (!isOneOf(SESSION_TYPES, String(s.Session_Type)))
      issue(at(i, "Session_Type"), `unknown session type "${s.Session_Type}"`);
    const previous = chain[i - 1];
    if (previous && String(s.Date) < String(previous.Date)) {
      issue(at(i, "Date"), `${s.Date} comes before the previous session's ${previous.Date}`);
    }
    if (previous && !(s.Session_ID > previous.Session_ID))
      issue(at(i, "Session_ID"), "Session_IDs must increase along the chain");

    // Records: roles, order of points, distractor spans.
    s.Static_Conflict_Information.forEach((r, j) => {
      const field = at(i, `Static_Conflict_Information[${j}]`);
      if (!ROLE.test(String(r.Role))) issue(`${field}.Role`, `unknown role "${r.Role}"`);
      if (r.Role === "Point_A") staticA.set(String(r.Conflict_ID), i);
      if (r.Role === "Point_B" && !staticA.has(String(r.Conflict_ID))) {
        issue(field, `Point_B of ${r.Conflict_ID} has no earlier Point_A (the true value would come from the future)`);
      }
    });
    s.Conditional_Conflict_Information.forEach((r, j) => {
      const field = at(i, `Conditional_Conflict_Information[${j}]`);
      if (!ROLE.test(String(r.Role))) issue(`${field}.Role`, `unknown role "${r.Role}"`);
      const rank = pointRank(String(r.Role));
      if (!rank) return;
      const before = conditionalRank.get(String(r.Conflict_ID));
      if (rank > 1 && (!before || before.rank !== rank - 1)) {
        issue(
          field,
          `${r.Role} of ${r.Conflict_ID} comes before its previous point (the queried rule would come from the future)`,
        );
      }
      conditionalRank.set(String(r.Conflict_ID), { rank, session: i });
    });
    s.Others_Dynamic_Information.forEach((r, j) => {
      const left = indexOf.get(r.Linked_Left_Session_ID);
      const right = indexOf.get(r.Linked_Right_Session_ID);
      if (left === undefined || right === undefined || !(left < i && i < right)) {
        issue(
          at(i, `Others_Dynamic_Information[${j}]`),
          `distractor for ${r.Attribute} is not between its linked sessions ${r.Linked_Left_Session_ID} and ${r.Linked_Right_Session_ID}`,
        );
      }
    });

    // Evidence: every fact of the session is in its user turns.
    const problem = coverageProblem(messages(s.Session_Dialogue), sessionMentions(s, profile));
    if (problem) issue(at(i, "Session_Dialogue"), problem);

    // Questions: ids, labels, and answers as the visible history supports them.
    const questions = list(s.Session_Questions);
    const drafts = sessionDrafts(s, chain.slice(0, i + 1), fixed);
    let last = 0;
    questions.forEach((q, j) => {
      const field = at(i, `Session_Questions[${j}]`);
      const type = String(q.conflict_type);
      if (!CONFLICT_TYPES[type]) issue(`${field}.conflict_type`, `unknown conflict_type "${type}"`);
      if (!isOneOf(ABILITY_TARGETS, String(q.ability_target)))
        issue(`${field}.ability_target`, `unknown ability_target "${q.ability_target}"`);
      if (!isOneOf(DIFFICULTIES, String(q.difficulty)))
        issue(`${field}.difficulty`, `unknown difficulty "${q.difficulty}"`);
      const m = QUESTION_ID.exec(String(q.question_id));
      if (!m) {
        issue(`${field}.question_id`, `"${q.question_id}" is not Q_<number>`);
        return;
      }
      const n = Number(m[1]);
      if (n <= last) issue(`${field}.question_id`, `${q.question_id} does not follow the previous id`);
      last = n;
      const draft = drafts[n - 1];
      if (!draft) {
        issue(
          field,
          `${q.question_id}: nothing in this session's history asks this question (no record of its slot up to session ${s.Session_ID})`,
        );
      } else if (CONFLICT_KIND[type] !== draft.kind) {
        issue(`${field}.conflict_type`, `${q.question_id} is a ${draft.kind} question in this session, not ${type}`);
      } else if (q.answer !== draft.answer) {
        issue(
          `${field}.answer`,
          `${q.question_id}: the answer is not what the history up to session ${s.Session_ID} supports (expected ${JSON.stringify(draft.answer)})`,
        );
      }
    });
    if (s.Session_Question_Count !== undefined && s.Session_Question_Count !== questions.length) {
      issue(at(i, "Session_Question_Count"), `says ${s.Session_Question_Count}, holds ${questions.length}`);
    }
    totalQuestions += questions.length;
    if (Array.isArray(s.Question_Trigger_Types) && s.Question_Trigger_Types.length) triggered++;
  });

  // Dynamic continuity: each update's old value is the value stated last before it.
  for (const attribute of UPDATE_ATTRIBUTES) {
    const points = truePoints(chain, attribute);
    chain.forEach((s, i) => {
      (s.Updated_Attributes ?? []).forEach((u, j) => {
        if (u.Attribute !== attribute) return;
        const earlier = points.filter((p) => (indexOf.get(p.session) ?? -1) < i).at(-1);
        if (earlier && JSON.stringify(earlier.value) !== JSON.stringify(u.Before)) {
          issue(
            at(i, `Updated_Attributes[${j}].Before`),
            `${attribute} was last stated as ${JSON.stringify(earlier.value)} in session ${earlier.session}, not ${JSON.stringify(u.Before)}`,
          );
        }
      });
    });
  }
  if (record.Total_Session_Question_Count !== undefined && record.Total_Session_Question_Count !== totalQuestions) {
    issue(
      "Total_Session_Question_Count",
      `says ${record.Total_Session_Question_Count}, the sessions hold ${totalQuestions}`,
    );
  }
  if (record.Triggered_Session_Count !== undefined && record.Triggered_Session_Count !== triggered) {
    issue(
      "Triggered_Session_Count",
      `says ${record.Triggered_Session_Count}, ${triggered} sessions have trigger types`,
    );
  }
}

export async function validateMemconflict(dir: string): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const files = [FINAL_FILE, IMPLICIT_FILE].filter((f) => existsSync(join(dir, f)));
  if (!files.length) return [{ file: ".", problem: `neither ${FINAL_FILE} nor ${IMPLICIT_FILE} in the folder` }];
  for (const file of files) {
    const lines = readFileSync(join(dir, file), "utf8").split("\n");
    lines.forEach((text, i) => {
      if (!text.trim()) return;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch (error) {
        issues.push({ file, record: `line ${i + 1}`, problem: `invalid JSON: ${(error as Error).message}` });
        return;
      }
      if (!isRec(record)) {
        issues.push({ file, record: `line ${i + 1}`, problem: "expected a persona object" });
        return;
      }
      validatePersona(record, file, i + 1, issues);
    });
  }
  return issues;
}
