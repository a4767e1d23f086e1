/**
 * Memora's question and rubric generation (the paper's Stage 3 and 4,
 * arXiv 2604.20006 §3.5 and App. B): questions written from the final memory
 * state at the end of the timeline, each with memory-presence criteria (valid
 * information the answer must carry, expected "yes") and, for Remembering and
 * Recommending, forgetting-absence criteria (deleted, replaced or expired
 * information it must leave out, expected "no"). Question ids follow the
 * release's templates, which is how our loader reads the question type.
 *
 * Selection follows the release: Remembering and Recommending questions need
 * both kinds of evidence, Reasoning questions memory evidence only; one
 * question per category first, then the questions drawing on the most
 * distinct sessions.
 */
import type { Duration } from "../../benchmarks/memora/labels.ts";
import { EXPENSE_TYPES, type ExpenseType, type PreferenceDomain, SUBCATEGORIES } from "./catalogue.ts";
import { type DocumentType, fieldLabel, fieldText, TITLE_FIELD } from "./documents.ts";
import {
  addDays,
  type DocumentState,
  type Expense,
  type Forgotten,
  type MemoryState,
  type Simulation,
  type StepLog,
} from "./simulate.ts";

export const TASK_KEYS = ["remembering", "reasoning", "recommending"] as const;
export type TaskKey = (typeof TASK_KEYS)[number];

export interface CriterionOut {
  evaluation_question_id: string;
  evaluation_question: string;
  expected_answer: "yes" | "no";
  evaluation_type: "memory_presence" | "forgetting_absence";
}

export interface QuestionOut {
  question_id: string;
  question: string;
  question_date: string;
  memory_evidence: Record<string, unknown>;
  forgetting_evidence?: Record<string, unknown> | null;
  evaluation: {
    evaluation_questions: CriterionOut[];
    total_evaluation_questions: number;
    memory_presence_questions: number;
    forgetting_absence_questions: number;
  };
}

export interface Candidate {
  task: TaskKey;
  /** The memory category, for stratified selection. */
  category: string;
  question: QuestionOut;
  /** Distinct sessions the question draws on (the paper's consolidation). */
  sessions: number;
}

const usd = (n: number) => `$${n.toFixed(2)}`;
const cents = (n: number) => Math.round(n * 100) / 100;
const num = (n: number) => n.toLocaleString("en-US");
const ordinal = (n: number) =>
  `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`;

/** Builds one question's rubric; criterion templates rotate by index so a long rubric does not repeat one phrasing. */
class Rubric {
  readonly list: CriterionOut[] = [];
  #mp = 0;
  #fa = 0;
  constructor(private readonly id: string) {}

  present(templates: ReadonlyArray<(v: string) => string>, value: string) {
    const i = this.#mp++;
    this.list.push({
      evaluation_question_id: `${this.id}_eval_memory_presence_${i}`,
      evaluation_question: (templates[i % templates.length] as (v: string) => string)(value),
      expected_answer: "yes",
      evaluation_type: "memory_presence",
    });
  }

  absent(templates: ReadonlyArray<(v: string) => string>, value: string) {
    const i = this.#fa++;
    this.list.push({
      evaluation_question_id: `${this.id}_eval_forgetting_${i}`,
      evaluation_question: (templates[i % templates.length] as (v: string) => string)(value),
      expected_answer: "no",
      evaluation_type: "forgetting_absence",
    });
  }

  evaluation(): QuestionOut["evaluation"] {
    return {
      evaluation_questions: this.list,
      total_evaluation_questions: this.list.length,
      memory_presence_questions: this.#mp,
      forgetting_absence_questions: this.#fa,
    };
  }
}

const TODO_MP = [
  (v: string) => `Does the response mention the task: ${v}?`,
  (v: string) => `Is '${v}' listed as a task that is still open?`,
  (v: string) => `Does the current task list in the response include ${v}?`,
];
const TODO_FA = [
  (v: string) => `Does the response mention the finished or removed task: ${v}?`,
  (v: string) => `Is '${v}' listed as a task that is still open?`,
  (v: string) => `Does the response include ${v} in the task list?`,
];
const EVENT_MP = [
  (v: string) => `Does the response mention the upcoming event: ${v}?`,
  (v: string) => `Is '${v}' included among the upcoming events?`,
];
const EVENT_PAST = [
  (v: string) => `Does the response mention the past event: ${v}?`,
  (v: string) => `Is the event '${v}', which has already happened, listed as upcoming?`,
];
const EVENT_CANCELLED = [
  (v: string) => `Does the response mention the cancelled event: ${v}?`,
  (v: string) => `Is the removed calendar event '${v}' listed?`,
];
const FIELD_MP = [
  (v: string) => `Does the response include the ${v}?`,
  (v: string) => `Is the ${v} correctly carried into the document?`,
];
const FIELD_FA = [
  (v: string) => `Does the response include the removed ${v}?`,
  (v: string) => `Is the deleted ${v} mentioned anywhere in the document?`,
];
const LIKE_MP = [(v: string) => `Does the response reflect or align with the user's preference for ${v}?`];
const DISLIKE_MP = [(v: string) => `Does the response avoid recommending ${v} (which the user dislikes)?`];
const PREF_FA = [(v: string) => `Does the response reflect or mention the user's preference for ${v}?`];
const SAYS = [(v: string) => `Does the response mention ${v}?`];

/** "this week", "this month", "in the last 3 months". */
function periodPhrase(duration: Duration): string {
  return duration === "weekly" ? "this week" : duration === "monthly" ? "this month" : "in the last 3 months";
}

function bySession<T extends { session: number }>(items: T[]): T[] {
  return [...items].sort((a, b) => a.session - b.session);
}

function distinct(...lists: number[][]): number {
  return new Set(lists.flat()).size;
}

// ---------------------------------------------------------------- Remembering

function todoQuestion(state: MemoryState, n: number, end: string, duration: Duration): Candidate {
  const id = `activity_todos_${n}`;
  const remaining = bySession([...state.todos.entries()].map(([d, t]) => ({ value: d, session: t.session })));
  const forgotten = bySession(state.forgottenTodos);
  const rubric = new Rubric(id);
  for (const r of remaining) rubric.present(TODO_MP, r.value);
  for (const f of forgotten) rubric.absent(TODO_FA, f.value);
  return {
    task: "remembering",
    category: "todo_list",
    sessions: distinct(
      remaining.map((r) => r.session),
      forgotten.map((f) => f.session),
    ),
    question: {
      question_id: id,
      question: `What tasks remain on my todo list ${periodPhrase(duration)}?`,
      question_date: end,
      memory_evidence: {
        remaining_tasks: remaining.map((r) => ({ value: r.value, session_id: r.session })),
        task_count: remaining.length,
      },
      forgetting_evidence: {
        forgotten_items: forgotten.map((f) => ({ value: f.value, session_id: f.session })),
        total_forgotten_items: forgotten.length,
      },
      evaluation: rubric.evaluation(),
    },
  };
}

function calendarQuestion(state: MemoryState, n: number, end: string): Candidate {
  const id = `activity_calendar_${n}`;
  const when = (e: { createdAt: string; inDays: number }) => addDays(e.createdAt, e.inDays);
  const active = bySession([...state.calendar.values()]);
  const upcoming = active.filter((e) => when(e) >= end);
  const past = active.filter((e) => when(e) < end);
  const cancelled = [...state.deletedEvents].sort((a, b) => a.deletedIn - b.deletedIn);
  const rubric = new Rubric(id);
  for (const e of upcoming) rubric.present(EVENT_MP, `${e.name} (${when(e)})`);
  for (const e of past) rubric.absent(EVENT_PAST, `${e.name} (${when(e)})`);
  for (const e of cancelled) rubric.absent(EVENT_CANCELLED, e.name);
  const forgotten = [
    ...past.map((e) => ({ value: e.name, date: when(e), reason: "past event", session_id: e.session })),
    ...cancelled.map((e) => ({ value: e.name, date: when(e), reason: "deleted", session_id: e.deletedIn })),
  ];
  return {
    task: "remembering",
    category: "calendar_event",
    sessions: distinct(
      upcoming.map((e) => e.session),
      forgotten.map((f) => f.session_id),
    ),
    question: {
      question_id: id,
      question: "What upcoming events do I have in my calendar?",
      question_date: end,
      memory_evidence: {
        calendar_events: upcoming.map((e) => ({ value: e.name, date: when(e), session_id: e.session })),
        event_count: upcoming.length,
      },
      forgetting_evidence: { forgotten_items: forgotten, total_forgotten_items: forgotten.length },
      evaluation: rubric.evaluation(),
    },
  };
}

const DOC_QUESTIONS: Partial<Record<DocumentType, (title: string) => string>> = {
  project_proposal: (t) => `Write a project proposal for '${t}'`,
  email_writeup: (t) => `Write an email about: ${t}`,
  meeting_notes: (t) => `Write meeting notes for: ${t}`,
};

function documentQuestion(doc: DocumentState, n: number, end: string): Candidate | undefined {
  const type = doc.seed.type;
  const ask = DOC_QUESTIONS[type];
  if (!ask) return undefined;
  const id = `content_${type}_${n}_${doc.seed.id}`;
  const rubric = new Rubric(id);
  const sessions = new Set<number>();
  for (const [field, value] of Object.entries(doc.fields)) {
    if (Array.isArray(value) && !value.length) continue;
    rubric.present(FIELD_MP, `${fieldLabel(field)}: ${fieldText(value)}`);
    if (Array.isArray(value)) for (const v of value) sessions.add(doc.stated.get(`${field}\u0000${v}`) ?? 0);
    else sessions.add(doc.stated.get(field) ?? 0);
  }
  sessions.delete(0);
  for (const f of doc.forgotten) rubric.absent(FIELD_FA, `${fieldLabel(f.field ?? "")}: ${f.value}`);
  const ids = [...sessions].sort((a, b) => a - b);
  return {
    task: "remembering",
    category: type,
    sessions: distinct(
      ids,
      doc.forgotten.map((f) => f.session),
    ),
    question: {
      question_id: id,
      question: ask(String(doc.fields[TITLE_FIELD[type]])),
      question_date: end,
      // session_ids is our addition: the release's content evidence names no session.
      memory_evidence: { content_data: structuredClone(doc.fields), session_ids: ids },
      forgetting_evidence: {
        forgotten_items: doc.forgotten.map((f) => ({ field: f.field, value: f.value, session_id: f.session })),
        total_forgotten_items: doc.forgotten.length,
      },
      evaluation: rubric.evaluation(),
    },
  };
}

// ---------------------------------------------------------------- Reasoning

function reasoning(
  id: string,
  category: string,
  question: string,
  end: string,
  evidence: Record<string, unknown>,
  sessions: number[],
  checks: string[],
): Candidate {
  const rubric = new Rubric(id);
  for (const c of checks) rubric.present(SAYS, c);
  return {
    task: "reasoning",
    category,
    sessions: distinct(sessions),
    question: {
      question_id: id,
      question,
      question_date: end,
      memory_evidence: evidence,
      evaluation: rubric.evaluation(),
    },
  };
}

const expenseItem = (e: Expense) => ({ expense_type: e.type, amount: e.amount, session_id: e.session });
const stepItem = (s: StepLog) => ({ activity_type: "daily_steps", step_count: s.count, session_id: s.session });
const spendOn = (t: ExpenseType) => (t === "grocery" ? "groceries" : t);

interface PeriodSpan {
  index: number;
  first: string;
  last: string;
  days: number;
}

/** Weeks of the month (days 1–7, 8–14, …) or calendar months of the quarter. */
function periods(sim: Simulation, duration: Duration): { unit: "week" | "month"; spans: PeriodSpan[] } {
  const total = Math.round((Date.parse(sim.endDate) - Date.parse(sim.startDate)) / 86_400_000) + 1;
  const spans: PeriodSpan[] = [];
  if (duration === "monthly") {
    for (let d = 0, i = 1; d + 7 <= total; d += 7, i++) {
      spans.push({ index: i, first: addDays(sim.startDate, d), last: addDays(sim.startDate, d + 6), days: 7 });
    }
    return { unit: "week", spans };
  }
  let d = 0;
  while (d < total) {
    const first = addDays(sim.startDate, d);
    let days = 0;
    while (d + days < total && addDays(sim.startDate, d + days).slice(0, 7) === first.slice(0, 7)) days++;
    spans.push({ index: spans.length + 1, first, last: addDays(first, days - 1), days });
    d += days;
  }
  return { unit: "month", spans };
}

const inSpan = (date: string, s: PeriodSpan) => date >= s.first && date <= s.last;

function reasoningCandidates(sim: Simulation, n: number, duration: Duration): Candidate[] {
  const { state, endDate: end } = sim;
  const out: Candidate[] = [];
  const phrase = periodPhrase(duration);
  const expenses = state.expenses;
  const total = cents(expenses.reduce((s, e) => s + e.amount, 0));
  if (expenses.length) {
    out.push(
      reasoning(
        `activity_food_total_${n}`,
        "food_expenses",
        `What is my total food spending ${phrase}?`,
        end,
        { expense_count: expenses.length, total_amount: total, food_expenses: expenses.map(expenseItem) },
        expenses.map((e) => e.session),
        [`the total food spending amount of ${usd(total)}`],
      ),
    );
  }
  for (const type of EXPENSE_TYPES) {
    const items = expenses.filter((e) => e.type === type);
    if (!items.length) continue;
    const sum = cents(items.reduce((s, e) => s + e.amount, 0));
    out.push(
      reasoning(
        `activity_food_${type}_${n}`,
        "food_expenses",
        `How much have I spent on ${spendOn(type)} ${phrase}?`,
        end,
        { expense_type: type, category_total: sum, expense_items: items.map(expenseItem) },
        items.map((e) => e.session),
        [`the ${type} spending amount of ${usd(sum)}`],
      ),
    );
  }
  if (duration === "weekly") {
    const steps = state.steps;
    if (steps.length) {
      const sum = steps.reduce((s, x) => s + x.count, 0);
      out.push(
        reasoning(
          `activity_steps_total_${n}`,
          "step_tracker",
          `How many total steps have I taken ${phrase}?`,
          end,
          { step_count: steps.length, total_steps: sum, step_data: steps.map(stepItem) },
          steps.map((s) => s.session),
          [`the total step count of ${num(sum)} steps`],
        ),
      );
    }
    for (const [target, history] of state.goals) {
      const goal = history.at(-1);
      if (!goal) continue;
      if (target === "daily_steps") {
        if (!steps.length) continue;
        const avg = Math.round(steps.reduce((s, x) => s + x.count, 0) / steps.length);
        const met = avg >= goal.value;
        out.push(
          reasoning(
            `goal_step_tracker_daily_steps_${n}_0`,
            "step_tracker",
            "Am I meeting my daily step goal?",
            end,
            {
              goal_value: goal.value,
              actual_value: avg,
              goal_status: { is_goal_met: met, status: met ? "meeting_target" : "below_target" },
              goal_data: { category: "step_tracker", subcategory: "daily_steps", value: goal.value },
              goal_session: { session_id: goal.session, session_date: goal.date },
              activity_sessions: steps.map((s) => ({
                session_id: s.session,
                session_date: s.date,
                step_count: s.count,
              })),
            },
            [goal.session, ...steps.map((s) => s.session)],
            [
              `the daily step goal of ${num(goal.value)} steps`,
              `the average daily step count (${num(avg)} steps) compared to the goal (${num(goal.value)} steps)`,
              `that the step goal was ${met ? "MET" : "NOT MET"} (average ${num(avg)} vs goal ${num(goal.value)} steps)`,
            ],
          ),
        );
        continue;
      }
      const items = expenses.filter((e) => e.type === target);
      const actual = cents(items.reduce((s, e) => s + e.amount, 0));
      const within = actual <= goal.value;
      out.push(
        reasoning(
          `goal_food_expenses_${target}_${n}_0`,
          "food_expenses",
          `Am I meeting my ${target} budget goal?`,
          end,
          {
            goal_value: goal.value,
            actual_value: actual,
            goal_status: { is_goal_met: within, status: within ? "under_budget" : "over_budget" },
            goal_data: { category: "food_expenses", subcategory: target, value: goal.value },
            goal_session: { session_id: goal.session, session_date: goal.date },
            activity_sessions: items.map((e) => ({
              session_id: e.session,
              session_date: e.date,
              amount: e.amount,
              expense_type: e.type,
            })),
          },
          [goal.session, ...items.map((e) => e.session)],
          [
            `the ${target} budget goal of ${usd(goal.value)}`,
            `the actual ${target} spending (${usd(actual)}) compared to the budget goal (${usd(goal.value)})`,
            `that spending is ${within ? "WITHIN BUDGET" : "OVER BUDGET"} (actual ${usd(actual)} vs budget ${usd(goal.value)})`,
          ],
        ),
      );
    }
    return out;
  }

  // Monthly and quarterly: comparisons across weeks or months.
  const { unit, spans } = periods(sim, duration);
  const within = duration === "monthly" ? "in this month" : "in the last 3 months";
  const stepsBy = spans.map((s) => state.steps.filter((x) => inSpan(x.date, s)));
  const stepTotals = stepsBy.map((list) => list.reduce((a, x) => a + x.count, 0));
  const best = stepTotals.indexOf(Math.max(...stepTotals));
  if (state.steps.length && best >= 0) {
    const span = spans[best] as PeriodSpan;
    out.push(
      reasoning(
        `comparative_steps_max_${unit}_${n}`,
        "step_tracker",
        `Which ${unit} ${within} did I have the most steps?`,
        end,
        {
          max_period: span.index,
          max_value: stepTotals[best],
          period_breakdown: Object.fromEntries(
            spans.map((s, i) => [
              String(s.index),
              {
                total_steps: stepTotals[i],
                items: (stepsBy[i] ?? []).map(stepItem),
                period_ref: `${ordinal(s.index)} ${unit}`,
              },
            ]),
          ),
        },
        state.steps.map((s) => s.session),
        [
          `that the ${ordinal(span.index)} ${unit} had the most steps`,
          `the maximum step count of ${num(stepTotals[best] ?? 0)} steps`,
        ],
      ),
    );
  }
  for (const type of EXPENSE_TYPES) {
    const items = expenses.filter((e) => e.type === type);
    if (!items.length) continue;
    const byPeriod = spans.map((s) => items.filter((e) => inSpan(e.date, s)));
    const totals = byPeriod.map((list) => cents(list.reduce((a, e) => a + e.amount, 0)));
    const top = totals.indexOf(Math.max(...totals));
    const topSpan = spans[top] as PeriodSpan;
    out.push(
      reasoning(
        `comparative_${type}_max_${unit}_${n}`,
        "food_expenses",
        `Which ${unit} ${within} did I spend the most on ${spendOn(type)}?`,
        end,
        {
          max_period: topSpan.index,
          max_value: totals[top],
          period_breakdown: Object.fromEntries(
            spans.map((s, i) => [
              String(s.index),
              {
                total_amount: totals[i],
                items: (byPeriod[i] ?? []).map(expenseItem),
                period_ref: `${ordinal(s.index)} ${unit}`,
              },
            ]),
          ),
        },
        items.map((e) => e.session),
        [
          `that the ${ordinal(topSpan.index)} ${unit} had the most ${type} spending`,
          `the maximum ${type} spending amount of ${usd(totals[top] ?? 0)}`,
        ],
      ),
    );
    const history = state.goals.get(type);
    if (!history?.length) continue;
    // The weekly budget in force at a period's end, scaled to the period's days.
    const met: Array<Record<string, unknown>> = [];
    const exceeded: Array<Record<string, unknown>> = [];
    const none: Array<Record<string, unknown>> = [];
    spans.forEach((s, i) => {
      const goal = history.filter((g) => g.date <= s.last).at(-1);
      const ref = `${ordinal(s.index)} ${unit}`;
      if (!goal) {
        none.push({ period: s.index, period_ref: ref });
        return;
      }
      const budget = cents((goal.value * s.days) / 7);
      const actual = totals[i] ?? 0;
      if (actual <= budget) met.push({ period: s.index, period_ref: ref, actual, goal: budget });
      else exceeded.push({ period: s.index, period_ref: ref, actual, goal: budget, overspent: cents(actual - budget) });
    });
    const evidence = {
      budget_timeline: Object.fromEntries(history.map((g) => [String(g.session), g.value])),
      periods_met: met,
      periods_exceeded: exceeded,
      periods_no_budget: none,
      total_periods: spans.length,
      met_count: met.length,
      exceeded_count: exceeded.length,
      session_ids: [...history.map((g) => g.session), ...items.map((e) => e.session)].sort((a, b) => a - b),
    };
    const plural = (k: number) => `${k} ${unit}${k === 1 ? "" : "s"}`;
    const sessions = evidence.session_ids;
    out.push(
      reasoning(
        `comparative_goal_met_${type}_${unit}_${n}`,
        "food_expenses",
        `How many ${unit}s ${within} was I able to meet my ${type} budget?`,
        end,
        evidence,
        sessions,
        [`that you met your ${type} budget in ${plural(met.length)}`],
      ),
    );
    out.push(
      reasoning(
        `comparative_goal_exceeded_${type}_${unit}_${n}`,
        "food_expenses",
        `How many ${unit}s ${within} did I overspend on my ${type} budget?`,
        end,
        evidence,
        sessions,
        [`that you overspent your ${type} budget in ${plural(exceeded.length)}`],
      ),
    );
  }
  return out;
}

// ---------------------------------------------------------------- Recommending

const GENERAL: Readonly<Record<PreferenceDomain, readonly string[]>> = {
  movies: [
    "Can you suggest a movie for tonight?",
    "What film should I watch next?",
    "Any movie recommendations for me?",
  ],
  books: ["What book should I read next?", "Can you recommend a book for me?", "I need something new to read. Ideas?"],
  music: [
    "What music should I put on?",
    "Can you recommend some music for me?",
    "Any album suggestions for this week?",
  ],
  travel: [
    "Where should I go on my next trip?",
    "Can you suggest a travel destination for me?",
    "Any ideas for my next getaway?",
  ],
};

const SPECIFIC: Readonly<Record<string, string>> = {
  "movies/genres": "Can you recommend a movie in a genre I enjoy?",
  "movies/directors": "Can you recommend a movie by a director I like?",
  "movies/actors": "Can you recommend a movie with actors I like?",
  "books/authors": "Can you recommend a book by an author I like?",
  "books/topics": "Can you recommend a book on a topic I'm interested in?",
  "music/genres": "Can you recommend music in genres I enjoy?",
  "music/artists": "Can you recommend music by artists I like?",
  "music/decades": "Can you recommend music from a decade I enjoy?",
  "travel/destination_types": "Can you recommend a trip that matches the kinds of places I like?",
  "travel/regions": "Can you recommend a destination in a region I like?",
  "travel/climates": "Can you recommend a destination with a climate I enjoy?",
};

function entries(list: Array<{ item: string; session: number }>) {
  return bySession(list).map((e) => ({ item: e.item, session_id: e.session }));
}

function preferenceQuestions(state: MemoryState, n: number, end: string, variant: number): Candidate[] {
  const out: Candidate[] = [];
  for (const domain of Object.keys(SUBCATEGORIES) as PreferenceDomain[]) {
    const slots = state.preferences[domain];
    const forgotten = bySession(state.forgottenPreferences[domain]);
    const build = (id: string, question: string, subs: readonly string[], gone: Forgotten[], specific: boolean) => {
      const rubric = new Rubric(id);
      const sessions: number[] = [];
      const items: Record<string, unknown> = {};
      let count = 0;
      for (const sub of subs) {
        const slot = slots[sub];
        if (!slot) continue;
        for (const e of bySession(slot.likes)) rubric.present(LIKE_MP, e.item);
        for (const e of bySession(slot.dislikes)) rubric.present(DISLIKE_MP, e.item);
        sessions.push(...slot.likes.map((e) => e.session), ...slot.dislikes.map((e) => e.session));
        count += slot.likes.length + slot.dislikes.length;
        items[sub] = { likes: entries(slot.likes), dislikes: entries(slot.dislikes) };
      }
      for (const f of gone) rubric.absent(PREF_FA, f.value);
      const sub = subs[0] as string;
      const slot = slots[sub];
      const memory = specific
        ? {
            subcategory_data: items[sub],
            likes_count: slot?.likes.length ?? 0,
            specific_items: entries(slot?.likes ?? []),
          }
        : { item_count: count, memory_items: items };
      out.push({
        task: "recommending",
        category: domain,
        sessions: distinct(
          sessions,
          gone.map((f) => f.session),
        ),
        question: {
          question_id: id,
          question,
          question_date: end,
          memory_evidence: memory,
          forgetting_evidence: {
            forgotten_items: gone.map((f) => ({ value: f.value, session_id: f.session })),
            total_forgotten_items: gone.length,
          },
          evaluation: rubric.evaluation(),
        },
      });
    };
    const phrasings = GENERAL[domain];
    build(
      `pref_${domain}_general_${n}`,
      phrasings[variant % phrasings.length] as string,
      SUBCATEGORIES[domain],
      forgotten,
      false,
    );
    for (const sub of SUBCATEGORIES[domain]) {
      const question = SPECIFIC[`${domain}/${sub}`];
      if (!question) continue;
      build(
        `pref_${domain}_${sub}_${n}`,
        question,
        [sub],
        forgotten.filter((f) => f.field === sub),
        true,
      );
    }
  }
  return out;
}

// ---------------------------------------------------------------- selection

/** Every question the final state supports, before selection. */
export function candidateQuestions(sim: Simulation, duration: Duration, variant: number): Candidate[] {
  const n = sim.sessions.length;
  const end = sim.endDate;
  const docs = Object.values(sim.state.documents).flatMap((d) => d.started);
  return [
    todoQuestion(sim.state, n, end, duration),
    calendarQuestion(sim.state, n, end),
    ...docs.flatMap((d) => documentQuestion(d, n, end) ?? []),
    ...reasoningCandidates(sim, n, duration),
    ...preferenceQuestions(sim.state, n, end, variant),
  ];
}

function qualifies(c: Candidate): boolean {
  const e = c.question.evaluation;
  if (e.memory_presence_questions < 1) return false;
  return c.task === "reasoning" || e.forgetting_absence_questions >= 1;
}

/** The release's stratified pick: the best question of each category first, then by distinct evidence sessions. */
export function selectQuestions(candidates: Candidate[], counts: Readonly<Record<TaskKey, number>>) {
  const chosen = {} as Record<TaskKey, QuestionOut[]>;
  const shortfall: Partial<Record<TaskKey, number>> = {};
  for (const task of TASK_KEYS) {
    const pool = candidates
      .filter((c) => c.task === task && qualifies(c))
      .sort((a, b) => b.sessions - a.sessions || a.question.question_id.localeCompare(b.question.question_id));
    const want = counts[task];
    const picked: Candidate[] = [];
    const seen = new Set<string>();
    for (const c of pool) {
      if (picked.length >= want) break;
      if (seen.has(c.category)) continue;
      seen.add(c.category);
      picked.push(c);
    }
    for (const c of pool) {
      if (picked.length >= want) break;
      if (!picked.includes(c)) picked.push(c);
    }
    chosen[task] = picked.map((c) => c.question);
    if (picked.length < want) shortfall[task] = want - picked.length;
  }
  return { chosen, shortfall };
}
