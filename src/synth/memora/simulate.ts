/**
 * Memora's session simulator (the paper's Stage 1, arXiv 2604.20006 §3 and
 * App. A–B): a schedule of memory-grounded and memory-neutral sessions built
 * week by week, and a persistent memory state that each session changes by one
 * operation. The operation rules are the paper's: append-only logs (expenses,
 * steps) only add; preferences, todos, calendar events and documents may also
 * be updated or deleted, never when there is nothing to update or delete (the
 * session falls back to an add, as the released simulator does); an exhausted
 * pool turns the session into a memory-neutral one. Unlike the original, every
 * draw comes from the seeded stream, so the same seed gives the same timeline.
 */
import type { Rng } from "../rng.ts";
import {
  ARCHETYPES,
  BUDGET_RANGES,
  EXPENSE_RANGES,
  EXPENSE_TYPES,
  type ExpenseType,
  PERSONAL_EVENTS,
  PERSONAL_TASKS,
  type Persona,
  type PreferenceDomain,
  STEP_GOAL_RANGES,
  SUBCATEGORIES,
} from "./catalogue.ts";
import {
  DOCUMENT_TYPES,
  type DocumentSeed,
  type DocumentType,
  documentPool,
  type FieldValue,
  TITLE_FIELD,
} from "./documents.ts";
import { FLIP_SHARE, type Frequency, type Operation, type OpWeights, type TimelineConfig } from "./schedule-config.ts";

// ---------------------------------------------------------------- dates

export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

// ---------------------------------------------------------------- state

export interface Entry {
  item: string;
  session: number;
}

export interface Forgotten {
  value: string;
  session: number;
  field?: string;
}

export interface PreferenceSlot {
  likes: Entry[];
  dislikes: Entry[];
}

export interface Expense {
  type: ExpenseType;
  amount: number;
  session: number;
  date: string;
}

export interface StepLog {
  count: number;
  session: number;
  date: string;
}

export interface GoalValue {
  value: number;
  session: number;
  date: string;
}

export interface CalendarEvent {
  type: string;
  name: string;
  /** Days after `createdAt` (the release stores "+N days"). */
  inDays: number;
  createdAt: string;
  updatedAt?: string;
  /** The session of the last add or update. */
  session: number;
}

export interface DocumentState {
  seed: DocumentSeed;
  fields: Record<string, FieldValue>;
  /** The session each list item (field\0item) or scalar field was last stated in. */
  stated: Map<string, number>;
  reserve: Record<string, string[]>;
  touches: number;
  threshold: number;
  status: "draft" | "completed";
  forgotten: Forgotten[];
}

export interface MemoryState {
  preferences: Record<PreferenceDomain, Record<string, PreferenceSlot>>;
  /** Deleted or replaced preference items, per domain. */
  forgottenPreferences: Record<PreferenceDomain, Forgotten[]>;
  todos: Map<string, { taskType: string; session: number; createdAt: string }>;
  forgottenTodos: Forgotten[];
  calendar: Map<string, CalendarEvent>;
  deletedEvents: Array<CalendarEvent & { deletedIn: number }>;
  expenses: Expense[];
  steps: StepLog[];
  /** Every value each goal has had, in order (weekly food budgets; the daily step target). */
  goals: Map<ExpenseType | "daily_steps", GoalValue[]>;
  documents: Record<DocumentType, { available: DocumentSeed[]; started: DocumentState[] }>;
}

// ---------------------------------------------------------------- sessions

/** What the memory phase of a session must express; realisation and grounding read it. */
export type Share =
  | { kind: "expense"; expenseType: ExpenseType; amount: number }
  | { kind: "steps"; count: number }
  | { kind: "todo"; op: "add" | "delete"; description: string }
  | { kind: "calendar"; op: Operation; name: string; inDays: number; oldInDays?: number }
  | {
      kind: "preference";
      op: Operation;
      domain: PreferenceDomain;
      subcategory: string;
      item: string;
      preference: "like" | "dislike";
      oldItem?: string;
      oldPreference?: "like" | "dislike";
    }
  | { kind: "goal"; target: ExpenseType | "daily_steps"; value: number; oldValue?: number }
  | {
      kind: "content";
      op: Operation;
      docType: DocumentType;
      title: string;
      /** The field values the user states, one memory turn each. */
      fields: Array<{ field: string; value: string }>;
      removed?: Array<{ field: string; value: string }>;
    };

export type SessionType = "no_memory" | "activity" | "preference" | "goal";

export interface SimSession {
  id: number;
  date: string;
  sessionType: SessionType;
  operation: Operation | null;
  details: Record<string, unknown>;
  share?: Share;
}

type Slot =
  | { kind: "pref"; domain: PreferenceDomain }
  | { kind: "meal"; meal: ExpenseType }
  | { kind: "steps" }
  | { kind: "todo" }
  | { kind: "calendar" }
  | { kind: "content"; doc: DocumentType }
  | { kind: "food_goal" }
  | { kind: "step_goal" }
  | { kind: "no_memory" };

const MEAL_ORDER: Partial<Record<ExpenseType, number>> = { breakfast: 0, lunch: 1, dinner: 2 };

export interface SimulationOptions {
  persona: Persona;
  config: TimelineConfig;
  startDate: string;
  /** Multiplies every frequency (1 = the paper's configuration). */
  sessionScale: number;
}

export interface Simulation {
  sessions: SimSession[];
  state: MemoryState;
  startDate: string;
  endDate: string;
}

/** A count drawn from `range`, scaled; the fraction is rounded at random so small scales keep their mean. */
function draw(freq: Frequency, scale: number, rng: Rng): number {
  const n = rng.int(freq.range[0], freq.range[1]) * scale;
  const whole = Math.floor(n);
  return whole + (rng.bool(n - whole) ? 1 : 0);
}

/** Day blocks for a period: days of each week (1–7, 8–14, …) or each calendar month. */
function blocks(per: "week" | "month", days: number, startDate: string): number[][] {
  const out: number[][] = [];
  if (per === "week") {
    for (let d = 0; d < days; d += 7) out.push(Array.from({ length: Math.min(7, days - d) }, (_, i) => d + i));
    return out;
  }
  let current = "";
  for (let d = 0; d < days; d++) {
    const month = addDays(startDate, d).slice(0, 7);
    if (month !== current) {
      out.push([]);
      current = month;
    }
    out.at(-1)?.push(d);
  }
  return out;
}

function buildSchedule(opts: SimulationOptions, rng: Rng): Slot[][] {
  const { config, sessionScale: scale } = opts;
  const days: Slot[][] = Array.from({ length: config.days }, () => []);
  const place = (freq: Frequency, slot: () => Slot, stream: Rng) => {
    if (freq.per === "day") {
      for (const day of days) for (let i = draw(freq, scale, stream); i > 0; i--) day.push(slot());
      return;
    }
    for (const block of blocks(freq.per, config.days, opts.startDate)) {
      // A partial week (the quarter's 92nd day) gets its share of the week's sessions.
      const share = freq.per === "week" ? block.length / 7 : 1;
      const n = draw(freq, scale * share, stream);
      for (let i = 0; i < n; i++) days[stream.pick(block)]?.push(slot());
    }
  };
  for (const domain of Object.keys(config.preferences) as PreferenceDomain[]) {
    place(config.preferences[domain].freq, () => ({ kind: "pref", domain }), rng.fork(`pref-${domain}`));
  }
  for (const meal of Object.keys(config.meals) as Array<keyof TimelineConfig["meals"]>) {
    place(config.meals[meal], () => ({ kind: "meal", meal }), rng.fork(`meal-${meal}`));
  }
  place(config.grocery, () => ({ kind: "meal", meal: "grocery" }), rng.fork("grocery"));
  place(config.steps, () => ({ kind: "steps" }), rng.fork("steps"));
  place(config.todos.freq, () => ({ kind: "todo" }), rng.fork("todos"));
  place(config.calendar.freq, () => ({ kind: "calendar" }), rng.fork("calendar"));
  for (const doc of DOCUMENT_TYPES) place(config.content[doc].freq, () => ({ kind: "content", doc }), rng.fork(doc));
  place(config.foodGoals, () => ({ kind: "food_goal" }), rng.fork("food-goals"));
  place(config.stepGoals, () => ({ kind: "step_goal" }), rng.fork("step-goals"));
  place(config.noMemory, () => ({ kind: "no_memory" }), rng.fork("no-memory"));

  // Sessions of a day in random order, except that meals keep breakfast → lunch → dinner.
  const order = rng.fork("order");
  return days.map((slots) => {
    const shuffled = order.shuffle(slots);
    const mealAt = shuffled.flatMap((s, i) => (s.kind === "meal" && s.meal in MEAL_ORDER ? [i] : []));
    const meals = mealAt
      .map((i) => shuffled[i] as Slot & { kind: "meal" })
      .sort((a, b) => (MEAL_ORDER[a.meal] ?? 0) - (MEAL_ORDER[b.meal] ?? 0));
    mealAt.forEach((at, k) => {
      shuffled[at] = meals[k] as Slot;
    });
    return shuffled;
  });
}

function emptyState(opts: SimulationOptions, rng: Rng): MemoryState {
  const prefs = {} as MemoryState["preferences"];
  const forgotten = {} as MemoryState["forgottenPreferences"];
  for (const domain of Object.keys(SUBCATEGORIES) as PreferenceDomain[]) {
    prefs[domain] = Object.fromEntries(SUBCATEGORIES[domain].map((s) => [s, { likes: [], dislikes: [] }]));
    forgotten[domain] = [];
  }
  const weeks = Math.ceil(opts.config.days / 7);
  const documents = {} as MemoryState["documents"];
  for (const doc of DOCUMENT_TYPES) {
    const rule = opts.config.content[doc];
    const mean = (rule.freq.range[0] + rule.freq.range[1]) / 2;
    // Enough documents for the adds the schedule will ask for, and two to spare.
    const count = Math.ceil(weeks * mean * opts.sessionScale * rule.ops.add) + 2;
    documents[doc] = { available: documentPool(doc, opts.persona, count, rng.fork(`pool-${doc}`)), started: [] };
  }
  return {
    preferences: prefs,
    forgottenPreferences: forgotten,
    todos: new Map(),
    forgottenTodos: [],
    calendar: new Map(),
    deletedEvents: [],
    expenses: [],
    steps: [],
    goals: new Map(),
    documents,
  };
}

const money = (lo: number, hi: number, rng: Rng) => Math.round((lo + rng.float() * (hi - lo)) * 100) / 100;

function drawOp(weights: OpWeights, rng: Rng): Operation {
  return rng.weighted(["add", "update", "delete"] as Operation[], [weights.add, weights.update, weights.delete]);
}

/** Runs one persona's timeline. */
export function simulate(opts: SimulationOptions, rng: Rng): Simulation {
  const state = emptyState(opts, rng);
  const schedule = buildSchedule(opts, rng.fork("schedule"));
  const sessions: SimSession[] = [];
  const ops = rng.fork("operations");
  const p = opts.persona;
  const workTasks = [...p.work.tasks, ...p.work.tasks.flatMap((t) => p.work.systems.map((s) => `${t} for the ${s}`))];
  const todoPool = [
    ...workTasks.map((d) => ({ d, type: "work_tasks" })),
    ...PERSONAL_TASKS.map((d) => ({ d, type: "personal_tasks" })),
  ];
  const eventPool = [
    ...p.work.meetings.map((name) => ({ type: "work_meetings", name })),
    ...PERSONAL_EVENTS.map((e) => ({ type: e.type, name: e.name })),
  ];
  const maxAhead = Math.max(10, Math.round(opts.config.days * 0.4));

  const noMemory = (id: number, date: string, details: Record<string, unknown> = {}): SimSession => ({
    id,
    date,
    sessionType: "no_memory",
    operation: null,
    details,
  });

  const preference = (id: number, date: string, domain: PreferenceDomain): SimSession => {
    const rule = opts.config.preferences[domain];
    const slots = state.preferences[domain];
    const present = (sub: string) => {
      const slot = slots[sub] as PreferenceSlot;
      return new Set([...slot.likes, ...slot.dislikes].map((e) => e.item));
    };
    const gone = new Set(state.forgottenPreferences[domain].map((f) => f.value));
    const archetype = p.archetypes[domain];
    const candidates = (sub: string, polarity: "like" | "dislike") => {
      const pools = ARCHETYPES[domain];
      const items =
        polarity === "like"
          ? (pools[archetype]?.[sub] ?? [])
          : Object.entries(pools).flatMap(([a, subs]) => (a === archetype ? [] : (subs[sub] ?? [])));
      const taken = present(sub);
      return items.filter((i) => !taken.has(i) && !gone.has(i));
    };
    const existing = SUBCATEGORIES[domain].flatMap((sub) => {
      const slot = slots[sub] as PreferenceSlot;
      return [
        ...slot.likes.map((e) => ({ sub, e, polarity: "like" as const })),
        ...slot.dislikes.map((e) => ({ sub, e, polarity: "dislike" as const })),
      ];
    });
    let op = drawOp(rule.ops, ops);
    let fallback: string | undefined;
    if (op !== "add" && !existing.length) {
      fallback = `${op}_failed_no_valid_items`;
      op = "add";
    }
    const base = { id, date, sessionType: "preference" as const, operation: op };
    if (op === "add") {
      const polarity = ops.bool(0.65) ? ("like" as const) : ("dislike" as const);
      const subs = ops.shuffle(SUBCATEGORIES[domain]);
      const sub = subs.find((s) => candidates(s, polarity).length);
      if (!sub) return noMemory(id, date, { conversion_reason: "preference_pool_exhausted" });
      const item = ops.pick(candidates(sub, polarity));
      (slots[sub] as PreferenceSlot)[polarity === "like" ? "likes" : "dislikes"].push({ item, session: id });
      return {
        ...base,
        details: { item, preference: polarity, subcategory: sub, ...(fallback ? { fallback_reason: fallback } : {}) },
        share: { kind: "preference", op, domain, subcategory: sub, item, preference: polarity },
      };
    }
    const target = ops.pick(existing);
    const slot = slots[target.sub] as PreferenceSlot;
    const list = target.polarity === "like" ? slot.likes : slot.dislikes;
    list.splice(list.indexOf(target.e), 1);
    if (op === "delete") {
      state.forgottenPreferences[domain].push({ value: target.e.item, session: id, field: target.sub });
      return {
        ...base,
        details: { item: target.e.item, preference: target.polarity, subcategory: target.sub },
        share: {
          kind: "preference",
          op,
          domain,
          subcategory: target.sub,
          item: target.e.item,
          preference: target.polarity,
        },
      };
    }
    const replacements = candidates(target.sub, target.polarity);
    if (ops.bool(FLIP_SHARE) || !replacements.length) {
      const flipped = target.polarity === "like" ? ("dislike" as const) : ("like" as const);
      slot[flipped === "like" ? "likes" : "dislikes"].push({ item: target.e.item, session: id });
      return {
        ...base,
        details: {
          item: target.e.item,
          preference: flipped,
          subcategory: target.sub,
          update_type: "preference_update",
          old_preference: target.polarity,
        },
        share: {
          kind: "preference",
          op,
          domain,
          subcategory: target.sub,
          item: target.e.item,
          preference: flipped,
          oldPreference: target.polarity,
        },
      };
    }
    const item = ops.pick(replacements);
    list.push({ item, session: id });
    state.forgottenPreferences[domain].push({ value: target.e.item, session: id, field: target.sub });
    return {
      ...base,
      details: {
        item,
        preference: target.polarity,
        subcategory: target.sub,
        update_type: "value_update",
        old_preference: target.polarity,
        old_item: target.e.item,
      },
      share: {
        kind: "preference",
        op,
        domain,
        subcategory: target.sub,
        item,
        preference: target.polarity,
        oldItem: target.e.item,
      },
    };
  };

  const todo = (id: number, date: string): SimSession => {
    let op = drawOp(opts.config.todos.ops, ops);
    let fallback: string | undefined;
    if (op === "delete" && !state.todos.size) {
      fallback = "delete_failed_no_valid_items";
      op = "add";
    }
    if (op === "delete") {
      const description = ops.pick([...state.todos.keys()]);
      const entry = state.todos.get(description);
      state.todos.delete(description);
      state.forgottenTodos.push({ value: description, session: id });
      return {
        id,
        date,
        sessionType: "activity",
        operation: "delete",
        details: {
          item: { task_type: entry?.taskType, description, created_at: entry?.createdAt },
          category: "todo_list",
        },
        share: { kind: "todo", op: "delete", description },
      };
    }
    const ever = new Set(state.forgottenTodos.map((f) => f.value));
    const fresh = todoPool.filter((t) => !state.todos.has(t.d) && !ever.has(t.d));
    // Once every task has been used, a finished task may come back (and is current again).
    const pool = fresh.length ? fresh : todoPool.filter((t) => !state.todos.has(t.d));
    if (!pool.length) return noMemory(id, date, { conversion_reason: "todo_pool_exhausted" });
    const pick = ops.pick(pool);
    state.forgottenTodos = state.forgottenTodos.filter((f) => f.value !== pick.d);
    state.todos.set(pick.d, { taskType: pick.type, session: id, createdAt: date });
    return {
      id,
      date,
      sessionType: "activity",
      operation: "add",
      details: {
        item: { task_type: pick.type, description: pick.d, created_at: date },
        category: "todo_list",
        ...(fallback ? { fallback_reason: fallback } : {}),
      },
      share: { kind: "todo", op: "add", description: pick.d },
    };
  };

  const calendar = (id: number, date: string): SimSession => {
    let op = drawOp(opts.config.calendar.ops, ops);
    let fallback: string | undefined;
    if (op !== "add" && !state.calendar.size) {
      fallback = `${op}_failed_no_valid_items`;
      op = "add";
    }
    const item = (e: CalendarEvent) => ({
      event_type: e.type,
      event_name: e.name,
      date: `+${e.inDays} days`,
      created_at: e.createdAt,
      ...(e.updatedAt ? { updated_at: e.updatedAt } : {}),
    });
    if (op === "add") {
      const deleted = new Set(state.deletedEvents.map((e) => e.name));
      const fresh = eventPool.filter((e) => !state.calendar.has(e.name) && !deleted.has(e.name));
      const pool = fresh.length ? fresh : eventPool.filter((e) => !state.calendar.has(e.name));
      if (!pool.length) return noMemory(id, date, { conversion_reason: "calendar_pool_exhausted" });
      const pick = ops.pick(pool);
      const event: CalendarEvent = { ...pick, inDays: ops.int(1, maxAhead), createdAt: date, session: id };
      state.deletedEvents = state.deletedEvents.filter((e) => e.name !== pick.name);
      state.calendar.set(pick.name, event);
      return {
        id,
        date,
        sessionType: "activity",
        operation: "add",
        details: { item: item(event), category: "calendar_event", ...(fallback ? { fallback_reason: fallback } : {}) },
        share: { kind: "calendar", op: "add", name: event.name, inDays: event.inDays },
      };
    }
    const name = ops.pick([...state.calendar.keys()]);
    const event = state.calendar.get(name) as CalendarEvent;
    if (op === "delete") {
      state.calendar.delete(name);
      state.deletedEvents.push({ ...event, deletedIn: id });
      return {
        id,
        date,
        sessionType: "activity",
        operation: "delete",
        details: { item: item(event), category: "calendar_event" },
        share: { kind: "calendar", op: "delete", name, inDays: event.inDays },
      };
    }
    // A rescheduled event keeps its creation day; the new date is relative to it, as released.
    const elapsed = daysBetween(event.createdAt, date);
    let inDays = ops.int(elapsed + 1, elapsed + maxAhead);
    if (inDays === event.inDays) inDays += 1;
    const updated: CalendarEvent = { ...event, inDays, updatedAt: date, session: id };
    state.calendar.set(name, updated);
    return {
      id,
      date,
      sessionType: "activity",
      operation: "update",
      details: { item: item(updated), category: "calendar_event" },
      share: { kind: "calendar", op: "update", name, inDays, oldInDays: event.inDays },
    };
  };

  const docSession = (id: number, date: string, type: DocumentType): SimSession => {
    const rule = opts.config.content[type];
    const docs = state.documents[type];
    const drafts = docs.started.filter((d) => d.status === "draft");
    let op = drawOp(rule.ops, ops);
    let fallback: string | undefined;
    if (op !== "add" && !drafts.length) {
      fallback = `${op}_failed_no_valid_items`;
      op = "add";
    }
    const contentData = (d: DocumentState) => structuredClone(d.fields);
    const touch = (d: DocumentState) => {
      d.touches++;
      if (d.touches >= d.threshold) d.status = "completed";
    };
    const title = (d: DocumentState) => String(d.fields[TITLE_FIELD[type]]);
    if (op === "add") {
      const seed = docs.available.shift();
      if (!seed) {
        return noMemory(id, date, {
          item: null,
          content_data: null,
          conversion_reason: "both_pools_exhausted",
          message: `All ${type} items have been used. Converting to general conversation.`,
        });
      }
      const doc: DocumentState = {
        seed,
        fields: structuredClone(seed.fields),
        stated: new Map(),
        reserve: structuredClone(seed.reserve),
        touches: 0,
        threshold: ops.int(rule.completion[0], rule.completion[1]),
        status: "draft",
        forgotten: [],
      };
      for (const [field, value] of Object.entries(doc.fields)) {
        if (Array.isArray(value)) for (const v of value) doc.stated.set(`${field}\u0000${v}`, id);
        else doc.stated.set(field, id);
      }
      docs.started.push(doc);
      // The completion threshold counts edit sessions; a type that is never edited is complete when written.
      if (!rule.ops.update && !rule.ops.delete) doc.status = "completed";
      return {
        id,
        date,
        sessionType: "activity",
        operation: "add",
        details: {
          item: seed.id,
          content_data: contentData(doc),
          pool_status: doc.status,
          ...(fallback ? { fallback_reason: fallback } : {}),
        },
        share: {
          kind: "content",
          op: "add",
          docType: type,
          title: title(doc),
          fields: Object.entries(doc.fields).map(([field, value]) => ({
            field,
            value: Array.isArray(value) ? value.join("; ") : String(value),
          })),
        },
      };
    }
    const doc = ops.pick(drafts);
    const removable = () =>
      Object.entries(doc.fields).flatMap(([field, value]) =>
        Array.isArray(value) && value.length > 1 ? value.map((v) => ({ field, value: v })) : [],
      );
    const addable = () =>
      Object.entries(doc.reserve).flatMap(([field, items]) => items.map((value) => ({ field, value })));
    let converted: string | undefined;
    if (op === "delete" && !removable().length) {
      op = "update";
      converted = "delete_to_update";
    }
    if (op === "update" && !addable().length) {
      if (!removable().length) {
        touch(doc);
        doc.status = "completed";
        return noMemory(id, date, { conversion_reason: "no_fields_left_to_edit", item: doc.seed.id });
      }
      op = "delete";
      converted = "update_to_delete";
    }
    if (op === "update") {
      const n = ops.int(rule.updateIntensity[0], rule.updateIntensity[1]);
      const added = ops.sample(addable(), n);
      for (const a of added) {
        const list = (doc.fields[a.field] as string[] | undefined) ?? [];
        doc.fields[a.field] = [...list, a.value];
        doc.reserve[a.field] = (doc.reserve[a.field] ?? []).filter((v) => v !== a.value);
        doc.stated.set(`${a.field}\u0000${a.value}`, id);
      }
      touch(doc);
      return {
        id,
        date,
        sessionType: "activity",
        operation: "update",
        details: {
          item: doc.seed.id,
          content_data: contentData(doc),
          pool_status: doc.status,
          update_type: "list_item_update",
          ...(converted ? { operation_converted: converted } : {}),
          memory_updates: added.map((a) => ({ field: a.field, added_item: a.value, action: "added" })),
        },
        share: { kind: "content", op: "update", docType: type, title: title(doc), fields: added },
      };
    }
    const n = ops.int(rule.deleteIntensity[0], rule.deleteIntensity[1]);
    const removed: Array<{ field: string; value: string }> = [];
    for (let i = 0; i < n; i++) {
      const options = removable();
      if (!options.length) break;
      const r = ops.pick(options);
      doc.fields[r.field] = (doc.fields[r.field] as string[]).filter((v) => v !== r.value);
      doc.stated.delete(`${r.field}\u0000${r.value}`);
      doc.forgotten.push({ field: r.field, value: r.value, session: id });
      removed.push(r);
    }
    touch(doc);
    return {
      id,
      date,
      sessionType: "activity",
      operation: "delete",
      details: {
        item: doc.seed.id,
        content_data: contentData(doc),
        pool_status: doc.status,
        deletion_method: "list_item_removal",
        ...(converted ? { operation_converted: converted } : {}),
        memory_deletes: removed.map((r) => ({ field: r.field, removed_item: r.value, action: "removed_from_memory" })),
      },
      share: { kind: "content", op: "delete", docType: type, title: title(doc), fields: [], removed },
    };
  };

  const goal = (id: number, date: string, target: ExpenseType | "daily_steps"): SimSession => {
    const history = state.goals.get(target) ?? [];
    const ranges = target === "daily_steps" ? STEP_GOAL_RANGES : BUDGET_RANGES[target];
    const [lo, hi] = ops.pick(ranges);
    let value = target === "daily_steps" ? Math.round(ops.int(lo, hi) / 500) * 500 : ops.int(lo, hi);
    const old = history.at(-1)?.value;
    if (value === old) value += target === "daily_steps" ? 500 : 5;
    history.push({ value, session: id, date });
    state.goals.set(target, history);
    return {
      id,
      date,
      sessionType: "goal",
      // Goal sessions say "add" even for updates; the real operation is in actual_operation (as released).
      operation: "add",
      details: {
        subcategory: target,
        item: value,
        actual_operation: old === undefined ? "add" : "update",
        ...(old === undefined ? {} : { old_value: old }),
      },
      share: { kind: "goal", target, value, ...(old === undefined ? {} : { oldValue: old }) },
    };
  };

  let id = 0;
  schedule.forEach((slots, day) => {
    const date = addDays(opts.startDate, day);
    for (const slot of slots) {
      id++;
      switch (slot.kind) {
        case "no_memory":
          sessions.push(noMemory(id, date));
          break;
        case "pref":
          sessions.push(preference(id, date, slot.domain));
          break;
        case "meal": {
          const [lo, hi] = EXPENSE_RANGES[slot.meal];
          const amount = money(lo, hi, ops);
          state.expenses.push({ type: slot.meal, amount, session: id, date });
          sessions.push({
            id,
            date,
            sessionType: "activity",
            operation: "add",
            details: { item: { expense_type: slot.meal, amount, created_at: date }, category: "food_expenses" },
            share: { kind: "expense", expenseType: slot.meal, amount },
          });
          break;
        }
        case "steps": {
          const count = ops.int(p.steps[0], p.steps[1]);
          state.steps.push({ count, session: id, date });
          sessions.push({
            id,
            date,
            sessionType: "activity",
            operation: "add",
            details: {
              item: { activity_type: "daily_steps", step_count: count, created_at: date },
              category: "step_tracker",
            },
            share: { kind: "steps", count },
          });
          break;
        }
        case "todo":
          sessions.push(todo(id, date));
          break;
        case "calendar":
          sessions.push(calendar(id, date));
          break;
        case "content":
          sessions.push(docSession(id, date, slot.doc));
          break;
        case "food_goal":
          sessions.push(goal(id, date, ops.pick(EXPENSE_TYPES)));
          break;
        case "step_goal":
          sessions.push(goal(id, date, "daily_steps"));
          break;
      }
    }
  });
  return { sessions, state, startDate: opts.startDate, endDate: addDays(opts.startDate, opts.config.days - 1) };
}
