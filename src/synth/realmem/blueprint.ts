/**
 * RealMem's project foundation and timeline (the paper's Stage 1,
 * arXiv 2601.06966 §3.1 and Fig. 3): per project a blueprint of anchor
 * nodes, an event list of 3N–5N events that create, update, suspend or
 * scale back the project's attributes (with the paper's volatility:
 * setbacks that force a pause or a downgrade), one session per change, and
 * the interleaving of all projects into one queue (one active project per
 * topic, a uniform pick among the active ones, a five-session cool-down of a
 * topic after its project ends, dates advancing one to three days).
 */
import type { Rng } from "../rng.ts";
import { type ProjectGoal, SCHEDULE_DAYS, SCHEDULE_TIMES, SETBACKS, type Slot, type Topic } from "./catalogue.ts";

export type Tag = "Create" | "Update" | "Suspend" | "Downgrade";

export interface ScheduleValue {
  label: string;
  days: readonly string[];
  time: string;
}

export const scheduleText = (v: ScheduleValue, paused = false) =>
  `${v.label} every ${v.days.join(", ")} at ${v.time}${paused ? " (Paused)" : ""}`;

export interface Change {
  tag: Tag;
  /** A slot of the topic, or the project's schedule item. */
  slot: Slot | "schedule";
  attribute: string;
  key: string;
  value: string;
  old?: string;
  schedule?: ScheduleValue;
  oldSchedule?: ScheduleValue;
  /** Why a plan was paused or scaled back. */
  reason?: string;
  /** The slot was paused and this change resumes it. */
  resumes?: boolean;
}

export interface ProjectEvent {
  index: number;
  anchor: number;
  name: string;
  complexityMode: "Definition" | "Linear" | "Drama" | "Pivot" | "Acceleration" | "Setback";
  deviationType: "Standard" | "Positive_Shock" | "Negative_Shock" | "Plan_Change";
  stage: "Start" | "Development" | "Twist" | "Conclusion" | "Mutation";
  changes: Change[];
}

export interface Step {
  project: Project;
  /** `S3_01`. */
  step: string;
  event: ProjectEvent;
  change: Change;
  /** "The purpose of the session is …" (the paper's session summary). */
  summary: string;
}

export interface Project {
  /** `Fitness_2`: the session identifier's project part. */
  id: string;
  topic: Topic;
  goal: ProjectGoal;
  anchors: number;
  events: ProjectEvent[];
  steps: Step[];
}

function purpose(c: Change, title: string): string {
  switch (c.tag) {
    case "Create":
      return `to set the ${c.key} for "${title}"`;
    case "Update":
      return c.resumes ? `to resume the ${c.key} after the pause` : `to change the ${c.key}`;
    case "Suspend":
      return `to pause the ${c.key} because ${c.reason}`;
    case "Downgrade":
      return `to scale back the ${c.key} because ${c.reason}`;
  }
}

function scheduleValue(label: string, rng: Rng, not?: ScheduleValue): ScheduleValue {
  for (;;) {
    const v = { label, days: rng.pick(SCHEDULE_DAYS), time: rng.pick(SCHEDULE_TIMES) };
    if (!not || v.time !== not.time || v.days.join() !== not.days.join()) return v;
  }
}

/** The blueprint and event list of one project. */
export function buildProject(id: string, topic: Topic, goal: ProjectGoal, rng: Rng): Project {
  const anchors = 3;
  const count = rng.int(3 * anchors, 5 * anchors);
  const state = new Map<string, { value: string; paused: boolean; schedule?: ScheduleValue }>();
  const slots: Array<Slot | "schedule"> = [...topic.slots, "schedule"];
  const keyOf = (slot: Slot | "schedule") => (slot === "schedule" ? topic.schedule.label : slot.key);
  const attrOf = (slot: Slot | "schedule") => (slot === "schedule" ? topic.schedule.attribute : slot.attribute);

  const nextChange = (first: boolean): Change => {
    const fresh = slots.filter((sl) => !state.has(keyOf(sl)));
    if (fresh.length && (first || rng.bool(0.45))) {
      const slot = fresh[0] as Slot | "schedule";
      const key = keyOf(slot);
      if (slot === "schedule") {
        const v = scheduleValue(topic.schedule.label, rng);
        state.set(key, { value: scheduleText(v), paused: false, schedule: v });
        return { tag: "Create", slot, attribute: attrOf(slot), key, value: scheduleText(v), schedule: v };
      }
      const value = slot.values[0] as string;
      state.set(key, { value, paused: false });
      return { tag: "Create", slot, attribute: attrOf(slot), key, value };
    }
    const made = slots.filter((sl) => state.has(keyOf(sl)));
    const slot = rng.pick(made);
    const key = keyOf(slot);
    const now = state.get(key) as { value: string; paused: boolean; schedule?: ScheduleValue };
    const roll = rng.float();
    const lighter = slot === "schedule" ? undefined : (slot.values.at(-1) as string);
    if (now.paused || roll < 0.55 || (roll < 0.8 && lighter === now.value)) {
      if (slot === "schedule") {
        const v = scheduleValue(topic.schedule.label, rng, now.schedule);
        state.set(key, { value: scheduleText(v), paused: false, schedule: v });
        return {
          tag: "Update",
          slot,
          attribute: attrOf(slot),
          key,
          value: scheduleText(v),
          old: now.value,
          schedule: v,
          oldSchedule: now.schedule,
          resumes: now.paused,
        };
      }
      const options = slot.values.filter((v) => v !== now.value && v !== lighter);
      const value = options.length ? rng.pick(options) : (slot.values.find((v) => v !== now.value) as string);
      state.set(key, { value, paused: false });
      return { tag: "Update", slot, attribute: attrOf(slot), key, value, old: now.value, resumes: now.paused };
    }
    const reason = rng.pick(SETBACKS);
    if (roll < 0.8 || slot === "schedule" || lighter === undefined) {
      state.set(key, { ...now, paused: true });
      return {
        tag: "Suspend",
        slot,
        attribute: attrOf(slot),
        key,
        value: slot === "schedule" ? scheduleText(now.schedule as ScheduleValue, true) : now.value,
        old: now.value,
        schedule: now.schedule,
        reason,
      };
    }
    state.set(key, { value: lighter, paused: false });
    return { tag: "Downgrade", slot, attribute: attrOf(slot), key, value: lighter, old: now.value, reason };
  };

  const events: ProjectEvent[] = [];
  for (let i = 1; i <= count; i++) {
    const changes = [nextChange(i === 1)];
    if (rng.bool(0.3)) changes.push(nextChange(false));
    const main = changes[0] as Change;
    const setback = main.tag === "Suspend" || main.tag === "Downgrade";
    events.push({
      index: i,
      anchor: Math.min(anchors, Math.ceil((i / count) * anchors)),
      name: `${main.tag} ${main.key}`,
      complexityMode:
        main.tag === "Create" ? "Definition" : setback ? "Setback" : main.resumes ? "Acceleration" : "Linear",
      deviationType: setback
        ? "Negative_Shock"
        : main.resumes
          ? "Positive_Shock"
          : main.tag === "Update"
            ? "Plan_Change"
            : "Standard",
      stage: i === 1 ? "Start" : i === count ? "Conclusion" : setback ? "Twist" : "Development",
      changes,
    });
  }
  const project: Project = { id, topic, goal, anchors, events, steps: [] };
  // One session per change: a two-change event is the paper's Multi-Turn mode (S<event>_01, S<event>_02).
  for (const event of events) {
    event.changes.forEach((change, k) => {
      project.steps.push({
        project,
        step: `S${event.index}_${String(k + 1).padStart(2, "0")}`,
        event,
        change,
        summary: `The purpose of the session is ${purpose(change, goal.title)}.`,
      });
    });
  }
  return project;
}

/** Cool-down of a topic after one of its projects ends, in sessions (the released code's value). */
export const TOPIC_COOLDOWN = 5;

/** The interleaved queue of all project sessions. */
export function interleaveProjects(projects: Project[], rng: Rng): Step[] {
  const waiting = new Map<string, Project[]>();
  for (const p of projects) waiting.set(p.topic.id, [...(waiting.get(p.topic.id) ?? []), p]);
  const active = new Map<string, { project: Project; next: number }>();
  const cooldown = new Map<string, number>();
  const out: Step[] = [];
  const activate = () => {
    for (const [topic, queue] of waiting) {
      if (active.has(topic) || (cooldown.get(topic) ?? 0) > 0 || !queue.length) continue;
      active.set(topic, { project: queue.shift() as Project, next: 0 });
    }
  };
  activate();
  while (active.size || [...waiting.values()].some((q) => q.length)) {
    if (!active.size) {
      // Everything left is cooling down: let time pass.
      for (const [t, n] of cooldown) cooldown.set(t, n - 1);
      activate();
      continue;
    }
    const topics = [...active.keys()].sort();
    const topic = rng.pick(topics);
    const run = active.get(topic) as { project: Project; next: number };
    out.push(run.project.steps[run.next] as Step);
    run.next++;
    for (const [t, n] of cooldown) cooldown.set(t, n - 1);
    if (run.next >= run.project.steps.length) {
      active.delete(topic);
      cooldown.set(topic, TOPIC_COOLDOWN);
    }
    activate();
  }
  return out;
}
