/**
 * Memora's label vocabulary (arXiv 2604.20006 §3.5). The release groups questions
 * under lowercase task keys and carries no question type, so the type and the
 * memory category are read off the generator's question ids; reports use the
 * paper's task names.
 */
import type { Role } from "../../core/model.ts";

/** Durations in the order the paper's tables use. */
export const DURATIONS = ["weekly", "monthly", "quarterly"] as const;
export type Duration = (typeof DURATIONS)[number];

export function isDuration(name: string): name is Duration {
  return (DURATIONS as readonly string[]).includes(name);
}

/** Key under `questions` in the evaluation file → the paper's task name. */
export const TASKS: Readonly<Record<string, string>> = {
  remembering: "Remembering",
  reasoning: "Reasoning",
  recommending: "Recommending",
};

/** The generator's `question_type` → task (the released `unified_question_generator.py`). */
export const SUBTYPE_TASKS: Readonly<Record<string, string>> = {
  activity_status: "Remembering",
  content_regeneration: "Remembering",
  activity_aggregation: "Reasoning",
  goal_progress_analysis: "Reasoning",
  temporal_comparative_analysis: "Reasoning",
  temporal_goal_analysis: "Reasoning",
  preference_based_recommendation: "Recommending",
};

/** `speaker` → role. The data uses `user_agent`; the data README says `user`. */
export const SPEAKER_ROLES: Readonly<Record<string, Role>> = {
  user_agent: "user",
  user: "user",
  ai_agent: "assistant",
  assistant: "assistant",
};

/** `evaluation_type` → criterion kind, with the answer a satisfied criterion gets (arXiv 2604.20006 §4.2). */
export const CRITERION_KINDS: Readonly<Record<string, { kind: "presence" | "absence"; expected: "yes" | "no" }>> = {
  memory_presence: { kind: "presence", expected: "yes" },
  forgetting_absence: { kind: "absence", expected: "no" },
};

export const SESSION_TYPES: ReadonlySet<string> = new Set(["no_memory", "activity", "preference", "goal"]);
export const OPERATIONS: ReadonlySet<string> = new Set(["add", "update", "delete"]);

export interface QuestionKind {
  subtype: string;
  /** The memory category the question is about (`todo_list`, `movies`, `food_expenses`, ...). */
  category: string;
}

/**
 * Question id patterns of `unified_question_generator.py`, most specific first.
 * The trailing number is the session count at the question point.
 */
const RULES: ReadonlyArray<{ re: RegExp; subtype: string; category: string | number }> = [
  { re: /^activity_todos_\d+$/, subtype: "activity_status", category: "todo_list" },
  { re: /^activity_calendar_\d+$/, subtype: "activity_status", category: "calendar_event" },
  { re: /^activity_food_[a-z]+_\d+$/, subtype: "activity_aggregation", category: "food_expenses" },
  { re: /^activity_steps_total_\d+$/, subtype: "activity_aggregation", category: "step_tracker" },
  { re: /^content_([a-z_]+?)_\d+_/, subtype: "content_regeneration", category: 1 },
  { re: /^goal_(food_expenses|step_tracker)_[a-z_]+_\d+_\d+$/, subtype: "goal_progress_analysis", category: 1 },
  {
    re: /^comparative_goal_(?:met|exceeded)_[a-z_]+_(?:week|month)_\d+$/,
    subtype: "temporal_goal_analysis",
    category: "food_expenses",
  },
  {
    re: /^comparative_steps_max_(?:week|month)_\d+$/,
    subtype: "temporal_comparative_analysis",
    category: "step_tracker",
  },
  {
    re: /^comparative_[a-z]+_max_(?:week|month)_\d+$/,
    subtype: "temporal_comparative_analysis",
    category: "food_expenses",
  },
  { re: /^pref_([a-z]+)_[a-z_]+_\d+$/, subtype: "preference_based_recommendation", category: 1 },
];

/** The question type and category of a generator question id, or undefined for an unknown pattern. */
export function questionKind(questionId: string): QuestionKind | undefined {
  for (const rule of RULES) {
    const m = rule.re.exec(questionId);
    if (!m) continue;
    const category = typeof rule.category === "number" ? m[rule.category] : rule.category;
    if (category) return { subtype: rule.subtype, category };
  }
  return undefined;
}

/**
 * The question template: the id without the session count and what follows it
 * (`goal_food_expenses_coffee_163_0` → `goal_food_expenses_coffee`).
 */
export function questionTemplate(questionId: string): string | undefined {
  const stem = questionId.replace(/_\d+(?:_.*)?$/, "");
  return stem && stem !== questionId ? stem : undefined;
}

/** The session count at the question point, from a generator question id (`activity_todos_158` → 158). */
export function questionPoint(questionId: string): number | undefined {
  const m = /_(\d+)(?:_.*)?$/.exec(questionId);
  return m ? Number(m[1]) : undefined;
}
