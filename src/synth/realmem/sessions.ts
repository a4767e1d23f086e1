/**
 * RealMem's dialogue skeleton and memory loop (the paper's Stages 2–3,
 * arXiv 2601.06966 §3.2–3.3): session by session, what the user says, what
 * the assistant cites from the memory base built by earlier sessions, which
 * memory points each session adds (project state, persona, schedule), which
 * older points they make obsolete (deduplication marks, never deletes), and
 * which user turns are queries. A query is a user turn whose reply cites
 * memory — the release's rule — and its category is fixed here by what the
 * turn does: asking for the next step (Static Retrieval), changing a stored
 * plan (Dynamic Updating), vague feedback answered from the user's persona
 * (Proactive Alignment), or a time slot checked against the schedule
 * (Temporal Reasoning). Categories follow the configured mix where the
 * memory base allows them.
 */
import { NEUTRAL_TOPICS } from "../memora/neutral-topics.ts";
import type { Rng } from "../rng.ts";
import { type Change, type ScheduleValue, type Step, scheduleText } from "./blueprint.ts";
import { SCHEDULE_DAYS, SCHEDULE_TIMES, type UserProfile, VAGUE_FEEDBACK } from "./catalogue.ts";

/** The release's `category_name` values, in the order of the paper's Table 4. */
export const CATEGORIES = [
  "Dynamic Incremental",
  "Dynamic Updating",
  "Implicit Preference",
  "Temporal-reasoning",
] as const;
export type Category = (typeof CATEGORIES)[number];

export type MemoryType = "Dynamic" | "Static" | "Schedule";

export interface MemoryRec {
  index: string;
  type: MemoryType;
  content: string;
  /** The value a reply citing it must state. */
  key: string;
  /** Position of the session that created it. */
  session: number;
  uuid: string;
  project: string;
  /** Slot the memory records (project key or schedule label); undefined for persona facts. */
  slot?: string;
  schedule?: ScheduleValue & { paused: boolean };
  /** Position in the session's turns, or -1 for schedule items (the release's `source_turn` −1). */
  turn: number;
  role: "User" | "Assistant";
  discarded: boolean;
}

export interface TurnPlan {
  speaker: "User" | "Assistant";
  instruction: string;
  template: string;
  required: string[];
  query?: Category;
  cites?: MemoryRec[];
}

export interface SessionSkeleton {
  identifier: string;
  uuid: string;
  date: string;
  filler: boolean;
  topic?: string;
  summary: string;
  turns: TurnPlan[];
  memories: MemoryRec[];
}

export interface QueryMix {
  weights: Readonly<Record<Category, number>>;
  /** Mean queries per project session (the release: 1,415 over 1,070). */
  perSession: number;
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const plain = (content: string) => content.replace(/^【[^】]*】\s*/, "");
/** A memory point as the assistant says it back ("User set the …" → "you set the …"). */
const toYou = (content: string) =>
  plain(content)
    .replace(/^User's /, "your ")
    .replace(/^User /, "you ")
    .replace(/\.$/, "");

/** "User is vegetarian." → "I am vegetarian." (and "you are…" for the assistant). */
export function person(fact: string, who: "I" | "you"): string {
  const m = /^User('s|\s+(\S+))(.*)$/.exec(fact.trim());
  if (!m) return fact;
  if (m[1] === "'s") return `${who === "I" ? "My" : "your"}${m[3]}`;
  const verb = m[2] as string;
  const rest = m[3] as string;
  const subject = who === "I" ? "I" : "you";
  const irregular: Record<string, string> = {
    is: who === "I" ? "am" : "are",
    has: "have",
    does: "do",
    cannot: "cannot",
  };
  const v =
    irregular[verb] ??
    verb
      .replace(/ies$/, "y")
      .replace(/(ch|sh|x|ss)es$/, "$1")
      .replace(/s$/, "");
  return `${subject} ${v}${rest}`;
}

/** The part of a persona fact a reply must repeat: the fact without "User <verb>" ("User is vegetarian." → "vegetarian"). */
export function factKey(fact: string): string {
  return fact
    .trim()
    .replace(/^User('s)?\s+\S+\s+/, "")
    .replace(/\.$/, "");
}

function weekday(day: string): string {
  return new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { weekday: "long", timeZone: "UTC" });
}

export function currentTime(day: string): string {
  return `${day} (${weekday(day)})`;
}

/** Builds every session of one user, in timeline order. */
export class MemoryLoop {
  readonly memories: MemoryRec[] = [];
  readonly counts: Record<Category, number> = {
    "Dynamic Incremental": 0,
    "Dynamic Updating": 0,
    "Implicit Preference": 0,
    "Temporal-reasoning": 0,
  };
  #schedule = 0;
  #revealed = new Set<string>();
  #started = new Set<string>();

  constructor(
    private readonly user: UserProfile,
    private readonly mix: QueryMix,
  ) {}

  /** Which feasible category is furthest below its share (the planner keeps the mix where the data allows). */
  #choose(feasible: Category[]): Category | undefined {
    const total = Object.values(this.counts).reduce((a, b) => a + b, 0) + 1;
    const sum = CATEGORIES.reduce((a, c) => a + this.mix.weights[c], 0) || 1;
    let best: Category | undefined;
    let gap = Number.NEGATIVE_INFINITY;
    for (const c of CATEGORIES) {
      if (!feasible.includes(c) || this.mix.weights[c] <= 0) continue;
      const g = (this.mix.weights[c] / sum) * total - this.counts[c];
      // Only a category below its share is asked: a session without room for the one most needed asks fewer.
      if (g > 0 && g > gap) {
        gap = g;
        best = c;
      }
    }
    return best;
  }

  #live(pos: number, filter: (m: MemoryRec) => boolean) {
    return this.memories.filter((m) => !m.discarded && m.session < pos && filter(m));
  }

  filler(date: string, identifier: string, uuid: string, rng: Rng): SessionSkeleton {
    const turns: TurnPlan[] = [];
    for (const t of rng.sample(NEUTRAL_TOPICS, rng.int(2, 3))) {
      turns.push(
        {
          speaker: "User",
          instruction: `Ask a general-knowledge question about ${t.topic}.`,
          template: t.question,
          required: [],
        },
        {
          speaker: "Assistant",
          instruction: `Answer the question about ${t.topic} helpfully.`,
          template: t.answer,
          required: [],
        },
        { speaker: "User", instruction: `Ask a short follow-up about ${t.topic}.`, template: t.followUp, required: [] },
        { speaker: "Assistant", instruction: "Answer the follow-up briefly.", template: t.followAnswer, required: [] },
      );
    }
    return { identifier, uuid, date, filler: true, summary: "An unrelated chat.", turns, memories: [] };
  }

  session(pos: number, date: string, step: Step, uuid: string, rng: Rng): SessionSkeleton {
    const { project, change } = step;
    const title = project.goal.title;
    const turns: TurnPlan[] = [];
    const created: MemoryRec[] = [];
    const counters = { DM: 0, SM: 0 };
    const prefix = `${project.id}-`;
    const add = (
      type: MemoryType,
      content: string,
      key: string,
      turn: number,
      role: "User" | "Assistant",
      extra: Partial<MemoryRec> = {},
    ) => {
      // Deduplication: a point the base already holds (and has not retired) is not extracted again.
      if (
        this.memories.some((m) => !m.discarded && m.content === content) ||
        created.some((m) => m.content === content)
      )
        return;
      let index: string;
      if (type === "Schedule") index = `${project.id}:${step.step}-schedule-${++this.#schedule}`;
      else {
        const kind = type === "Dynamic" ? "DM" : "SM";
        index = `${prefix}${kind}-${step.step}-${String(++counters[kind]).padStart(2, "0")}`;
      }
      created.push({
        index,
        type,
        content,
        key,
        session: pos,
        uuid,
        project: project.id,
        turn,
        role,
        discarded: false,
        ...extra,
      });
    };

    // How many queries, and of which kinds, the memory base allows here.
    const wanted = [0, 1, 2].filter(() => rng.bool(Math.min(1, this.mix.perSession / 3))).length;
    const projectState = this.#live(pos, (m) => m.project === project.id && m.type === "Dynamic");
    const previous = this.#live(pos, (m) => m.project === project.id && m.slot === change.key);
    const statics = this.#live(pos, (m) => m.type === "Static");
    const schedules = this.#live(pos, (m) => m.type === "Schedule" && !m.schedule?.paused);
    const feasible = new Set<Category>();
    if (projectState.length) feasible.add("Dynamic Incremental");
    if (change.tag !== "Create" && previous.length) feasible.add("Dynamic Updating");
    if (statics.length) feasible.add("Implicit Preference");
    if (schedules.length) feasible.add("Temporal-reasoning");
    const queries = new Set<Category>();
    for (let i = 0; i < wanted; i++) {
      const c = this.#choose([...feasible].filter((f) => !queries.has(f)));
      if (!c) break;
      queries.add(c);
      this.counts[c]++;
    }

    // Opening.
    const first = !this.#started.has(project.id);
    this.#started.add(project.id);
    if (queries.has("Dynamic Incremental")) {
      // Mostly what the last session of the project settled (one session), else the latest points across sessions.
      const lastSession = Math.max(...projectState.map((m) => m.session));
      const latest = projectState.filter((m) => m.session === lastSession).slice(-3);
      const cites = rng.bool(0.6) ? latest : projectState.slice(-rng.int(2, 3));
      turns.push({
        speaker: "User",
        instruction: `Come back to the project "${title}", say briefly how it is going, and ask what the next step is.`,
        template: `Hi, I'm back. ${rng.pick(["I've kept to the plan so far.", "Things are going fine.", "I've made some progress since last time."])} What should we do next on "${title}"?`,
        required: [],
        query: "Dynamic Incremental",
      });
      turns.push({
        speaker: "Assistant",
        instruction: "Recall where the project stands from the cited memories, then propose the next step.",
        template: `Picking up where we left off: ${cites.map((m) => toYou(m.content)).join("; ")}. Next, let's look at the ${change.key}.`,
        required: cites.map((m) => m.key),
        cites,
      });
    } else if (first) {
      const goalTurn = turns.length;
      turns.push({
        speaker: "User",
        instruction: `Introduce a new project, "${title}", and state its goal: ${project.goal.goal}.`,
        template: `Hi! I'd like your help with a new project: ${title}. My goal is to ${project.goal.goal}.`,
        required: [project.goal.goal],
      });
      turns.push({
        speaker: "Assistant",
        instruction: "Welcome the project and suggest starting with the first part of the plan.",
        template: `That's a clear goal. Let's build the plan step by step, starting with the ${change.key}.`,
        required: [],
      });
      add(
        "Dynamic",
        `【${project.topic.attributes[0]}】 User's goal for "${title}" is to ${project.goal.goal}.`,
        project.goal.goal,
        goalTurn,
        "User",
        { slot: "goal" },
      );
    } else {
      turns.push({
        speaker: "User",
        instruction: `Say you are back to work on "${title}".`,
        template: `Hi, I'm back to work on "${title}".`,
        required: [],
      });
      turns.push({
        speaker: "Assistant",
        instruction: "Welcome the user back and ask what to focus on.",
        template: "Welcome back. What would you like to focus on today?",
        required: [],
      });
    }

    // The change this session exists for.
    this.#change(change, turns, queries.has("Dynamic Updating") ? previous.slice(-1) : undefined, add);

    // A persona fact, now and then.
    const unrevealed = this.user.facts.filter((f) => !this.#revealed.has(f));
    if (unrevealed.length && rng.bool(0.25)) {
      const fact = rng.pick(unrevealed);
      this.#revealed.add(fact);
      const at = turns.length;
      turns.push({
        speaker: "User",
        instruction: `Mention in passing this fact about yourself: "${person(fact, "I")}"`,
        template: `By the way, ${person(fact, "I")}`,
        required: [],
      });
      turns.push({
        speaker: "Assistant",
        instruction: "Acknowledge it briefly.",
        template: "Thanks for telling me, I'll keep that in mind.",
        required: [],
      });
      add("Static", fact, factKey(fact), at, "User");
    }

    if (queries.has("Temporal-reasoning")) this.#temporal(schedules, step, turns, rng);
    if (queries.has("Implicit Preference")) this.#proactive(statics, projectState, change, turns, rng);

    turns.push({
      speaker: "User",
      instruction: "Thank the assistant and end the session.",
      template: rng.pick([
        "Thanks, that's all for today.",
        "Great, that helps. Talk soon.",
        "Perfect, let's stop here.",
      ]),
      required: [],
    });
    turns.push({
      speaker: "Assistant",
      instruction: "Close the session politely.",
      template: rng.pick([
        "You're welcome. See you next time!",
        "Glad to help. Good luck until next time.",
        "Anytime. We'll pick it up from here.",
      ]),
      required: [],
    });

    // Stage 3 after the session: new points join the base, the ones they replace are retired.
    for (const m of created) {
      if (m.slot === undefined || m.slot === "goal") continue;
      for (const old of this.memories)
        if (!old.discarded && old.project === m.project && old.slot === m.slot) old.discarded = true;
    }
    this.memories.push(...created);
    return {
      identifier: `${project.id}:${step.step}`,
      uuid,
      date,
      filler: false,
      topic: project.topic.id,
      summary: step.summary,
      turns,
      memories: created,
    };
  }

  #change(
    c: Change,
    turns: TurnPlan[],
    cite: MemoryRec[] | undefined,
    add: (
      type: MemoryType,
      content: string,
      key: string,
      turn: number,
      role: "User" | "Assistant",
      extra?: Partial<MemoryRec>,
    ) => void,
  ) {
    const at = turns.length;
    const query = cite?.length ? ("Dynamic Updating" as const) : undefined;
    const attr = `【${c.attribute}】`;
    if (c.slot === "schedule") {
      const v = c.schedule as ScheduleValue;
      const text = scheduleText(v);
      let user: string;
      if (c.tag === "Create") user = `Please put ${text.charAt(0).toLowerCase()}${text.slice(1)} on my schedule.`;
      else if (c.tag === "Suspend")
        user = `${cap(c.reason ?? "")}, so please pause the ${v.label.toLowerCase()} (${text}) for now.`;
      else user = `Let's move the ${v.label.toLowerCase()}: ${text} instead of ${c.old?.replace(/ \(Paused\)$/, "")}.`;
      const required = c.tag === "Suspend" ? [v.label.toLowerCase()] : [v.time, ...v.days];
      turns.push({
        speaker: "User",
        instruction: `Ask to ${c.tag === "Create" ? "add" : c.tag === "Suspend" ? "pause" : "move"} a recurring item on your schedule: ${scheduleText(v, c.tag === "Suspend")}.`,
        template: user,
        required,
        ...(query ? { query } : {}),
      });
      turns.push({
        speaker: "Assistant",
        instruction: query
          ? "Recall the schedule item as it was (cited), then confirm the change."
          : "Confirm the schedule change.",
        template: query
          ? `Noted. You had ${cite?.[0]?.content}; I've updated your schedule.`
          : `Done: ${scheduleText(v, c.tag === "Suspend")} is on your schedule.`,
        required: query ? [cite?.[0]?.key ?? ""] : [],
        ...(query ? { cites: cite } : {}),
      });
      add("Schedule", scheduleText(v, c.tag === "Suspend"), c.tag === "Suspend" ? v.label : v.time, -1, "Assistant", {
        slot: c.key,
        schedule: { ...v, paused: c.tag === "Suspend" },
      });
      // The schedule change is project state too.
      add(
        "Dynamic",
        `${attr} User ${c.tag === "Create" ? "scheduled" : c.tag === "Suspend" ? "paused" : "moved"} the ${v.label.toLowerCase()}: ${scheduleText(v, c.tag === "Suspend")}.`,
        c.tag === "Suspend" ? v.label.toLowerCase() : v.time,
        at,
        "User",
        { slot: `${c.key} plan` },
      );
      return;
    }
    let user: string;
    let reply: string;
    let content: string;
    let required: string[];
    switch (c.tag) {
      case "Create":
        user = `For the ${c.attribute.toLowerCase()}, let's set the ${c.key} to ${c.value}.`;
        reply = `Done: the ${c.key} is now ${c.value}. I'll plan the rest around it.`;
        content = `${attr} User set the ${c.key} to ${c.value}.`;
        required = [c.value];
        break;
      case "Update":
        user = c.resumes
          ? `I'm ready to pick the ${c.key} up again, with ${c.value}.`
          : `I want to change the ${c.key}: make it ${c.value} instead of ${c.old}.`;
        reply = query
          ? `Noted. Until now the ${c.key} was ${c.old}; I've switched it to ${c.value} and adjusted the plan.`
          : `Okay, the ${c.key} is now ${c.value}.`;
        content = c.resumes
          ? `${attr} User resumed the ${c.key} with ${c.value}.`
          : `${attr} User changed the ${c.key} from ${c.old} to ${c.value}.`;
        required = [c.value];
        break;
      case "Suspend":
        user = `${cap(c.reason ?? "")}, so I need to pause the ${c.key} (${c.old}) for now.`;
        reply = query
          ? `Understood. We had planned ${c.old}; I'll mark the ${c.key} as paused until you're ready.`
          : "Understood, we'll pause it for now.";
        content = `${attr} User paused the ${c.key} (${c.old}) after a setback: "${c.reason}".`;
        required = [c.old ?? ""];
        break;
      case "Downgrade":
        user = `${cap(c.reason ?? "")}. Can we scale the ${c.key} back from ${c.old} to ${c.value}?`;
        reply = query
          ? `Of course. The plan had ${c.old}; ${c.value} is a sensible step back for now.`
          : `Of course, ${c.value} it is for now.`;
        content = `${attr} User scaled the ${c.key} back from ${c.old} to ${c.value} after a setback: "${c.reason}".`;
        required = [c.value];
        break;
    }
    turns.push({
      speaker: "User",
      instruction: `State this change to the plan: ${plain(content)}`,
      template: user,
      required,
      ...(query ? { query } : {}),
    });
    turns.push({
      speaker: "Assistant",
      instruction: query
        ? "Recall the earlier plan from the cited memory, then confirm the revised plan."
        : "Confirm the change briefly.",
      template: reply,
      required: query ? [cite?.[0]?.key ?? ""] : [],
      ...(query ? { cites: cite } : {}),
    });
    add("Dynamic", content, required[0] ?? c.value, at, "User", { slot: c.key });
  }

  #temporal(schedules: MemoryRec[], step: Step, turns: TurnPlan[], rng: Rng) {
    const target = rng.pick(schedules);
    const s = target.schedule as ScheduleValue;
    const busy = new Set(
      schedules.flatMap((m) => (m.schedule ? m.schedule.days.map((d) => `${d} ${m.schedule?.time}`) : [])),
    );
    const clash = rng.bool(0.6);
    const free = () => {
      for (const days of SCHEDULE_DAYS)
        for (const time of SCHEDULE_TIMES) if (!busy.has(`${days[0]} ${time}`)) return { day: days[0] as string, time };
      return { day: "Sunday", time: "10 AM" };
    };
    const slot = clash ? { day: s.days[0] as string, time: s.time } : free();
    const sameDay = schedules.filter((m) => m.schedule?.days.includes(slot.day));
    const cites = clash ? [target] : sameDay.length ? sameDay.slice(0, 2) : [target];
    const what = `an extra hour for "${step.project.goal.title}"`;
    turns.push({
      speaker: "User",
      instruction: `Ask whether you can fit ${what} on ${slot.day} at ${slot.time}.`,
      template: `Could I fit ${what} on ${slot.day} at ${slot.time}?`,
      required: [slot.day, slot.time],
      query: "Temporal-reasoning",
    });
    const alt = free();
    turns.push({
      speaker: "Assistant",
      instruction: clash
        ? `Check the cited schedule: the slot clashes; say so and offer ${alt.day} at ${alt.time} instead.`
        : "Check the cited schedule: the slot is free; say so.",
      template: clash
        ? `That clashes: you already have ${target.content}. How about ${alt.day} at ${alt.time} instead?`
        : `Let me check your schedule: ${cites.map((m) => m.content).join("; ")}. ${slot.day} at ${slot.time} is free, so that works.`,
      required: cites.map((m) => m.key),
      cites,
    });
  }

  #proactive(statics: MemoryRec[], state: MemoryRec[], change: Change, turns: TurnPlan[], rng: Rng) {
    const cites = [
      ...rng.sample(statics, rng.int(1, Math.min(2, statics.length))),
      ...(rng.bool(0.4) ? state.slice(-1) : []),
    ];
    turns.push({
      speaker: "User",
      instruction: "Give vague, emotional feedback about how things are going, with no request.",
      template: rng.pick(VAGUE_FEEDBACK),
      required: [],
      query: "Implicit Preference",
    });
    const reasons = cites.filter((m) => m.type === "Static").map((m) => person(m.content, "you").replace(/\.$/, ""));
    turns.push({
      speaker: "Assistant",
      instruction:
        "Respond to the feeling, then propose the next step in a way that fits what the cited memories say about the user.",
      template: `I hear you. Since ${reasons.join(" and ")}, let's keep the next step manageable: ${
        cites.some((m) => m.type === "Dynamic")
          ? `we build on what we have (${toYou(cites.at(-1)?.content ?? "")}) and `
          : ""
      }look at the ${change.key} together.`,
      required: cites.map((m) => m.key),
      cites,
    });
  }
}
