/**
 * `membench synth realmem`: users with several interleaved long-running
 * projects, in the release's per-user dialogue file
 * (`<Person>_dialogues.json`: `_metadata` + `dialogues`), with the
 * generator's inputs beside it in `all_persona_topic/` as the release has
 * them (our loader skips that folder).
 */
import { z } from "zod";
import { countTokens } from "../../tokens/count.ts";
import { jsonText } from "../output.ts";
import type { Generator, SynthContext } from "../types.ts";
import { buildProject, interleaveProjects, type Project, type Step } from "./blueprint.ts";
import { TOPICS, type Topic, USERS, type UserProfile } from "./catalogue.ts";
import { dialogueRequest } from "./dialogue.ts";
import { type Category, currentTime, MemoryLoop, type SessionSkeleton } from "./sessions.ts";
import { validateRealMem } from "./validate.ts";

export const REALMEM_SYNTH_VERSION = "1.0.0";

const share = (what: string, paper: number, of: string) =>
  z.number().min(0).default(paper).describe(`weight of ${what} queries (the paper: ${paper} of ${of})`);

export const realMemKnobs = z.object({
  users: z.number().int().min(1).max(USERS.length).default(1).describe("users (one dialogue file each)"),
  projects: z
    .number()
    .int()
    .min(1)
    .max(8)
    .default(5)
    .describe("projects per user, interleaved on one timeline (the release: 5–6)"),
  fillerShare: z
    .number()
    .min(0)
    .max(0.9)
    .default(0.48)
    .describe("share of sessions that are unrelated chats with no memory (the release: 985 of 2,055)"),
  queriesPerSession: z
    .number()
    .min(0)
    .max(3)
    .default(1.3)
    .describe("mean queries per project session, where the memory allows (the release: 1,415 over 1,070)"),
  staticRetrieval: share("Static Retrieval", 1075, "1,415"),
  dynamicUpdating: share("Dynamic Updating", 156, "1,415"),
  proactiveAlignment: share("Proactive Alignment", 160, "1,415"),
  temporalReasoning: share("Temporal Reasoning", 24, "1,415"),
  start: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD")
    .default("2025-12-15")
    .describe("date of the first session (the release starts on 2025-12-15)"),
});

export type RealMemKnobs = z.infer<typeof realMemKnobs>;

const json = (value: unknown) => jsonText(value, 2);

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** The user's projects: distinct topics first, a second project of a topic only when topics run out. */
function projectsOf(knobs: RealMemKnobs, rng: SynthContext["rng"]): Project[] {
  const topics = rng.shuffle(TOPICS);
  const out: Project[] = [];
  for (let i = 0; i < knobs.projects; i++) {
    const topic = topics[i % topics.length] as Topic;
    const goal = topic.projects[Math.floor(i / topics.length) % topic.projects.length] as Topic["projects"][number];
    const id = `${topic.id}_${rng.fork(`id-${i}`).int(1, 999)}`;
    out.push(buildProject(id, topic, goal, rng.fork(`project-${i}`)));
  }
  return out;
}

interface Placed {
  step?: Step;
  date: string;
}

/** Project sessions in interleaved order, one to three days apart, with filler chats between them. */
function timeline(steps: Step[], knobs: RealMemKnobs, rng: SynthContext["rng"]): Placed[] {
  const dated: Placed[] = [];
  let date = knobs.start;
  steps.forEach((step, i) => {
    if (i > 0) date = addDays(date, rng.int(1, 3));
    dated.push({ step, date });
  });
  const fillers = Math.round((steps.length * knobs.fillerShare) / (1 - knobs.fillerShare));
  const out = [...dated];
  for (let f = 0; f < fillers; f++) {
    // A filler takes the date of the session before it, so dates never run backwards.
    const at = rng.int(1, out.length);
    out.splice(at, 0, { date: (out[at - 1] as Placed).date });
  }
  return out;
}

const CATEGORY_OF: Readonly<Record<string, Category>> = {
  staticRetrieval: "Dynamic Incremental",
  dynamicUpdating: "Dynamic Updating",
  proactiveAlignment: "Implicit Preference",
  temporalReasoning: "Temporal-reasoning",
};

async function generateUser(user: UserProfile, k: number, knobs: RealMemKnobs, ctx: SynthContext) {
  const rng = ctx.rng.fork(`user-${k}`);
  const projects = projectsOf(knobs, rng.fork("projects"));
  const placed = timeline(interleaveProjects(projects, rng.fork("interleave")), knobs, rng.fork("timeline"));
  const weights = {} as Record<Category, number>;
  for (const [knob, category] of Object.entries(CATEGORY_OF))
    weights[category] = knobs[knob as keyof RealMemKnobs] as number;
  const loop = new MemoryLoop(user, { weights, perSession: knobs.queriesPerSession });
  const uuids = rng.fork("uuids");
  const seen = new Set<string>();
  const uuid = () => {
    for (;;) {
      const id = uuids.hex(8);
      if (!seen.has(id)) {
        seen.add(id);
        return id;
      }
    }
  };
  let fillers = 0;
  const skeletons: SessionSkeleton[] = placed.map((p, pos) =>
    p.step
      ? loop.session(pos, p.date, p.step, uuid(), rng.fork(`session-${pos}`))
      : loop.filler(p.date, `Enhanced:S${10000 + fillers++}`, uuid(), rng.fork(`session-${pos}`)),
  );

  ctx.progress.stage(`realmem ${user.key}`, skeletons.length, "sessions");
  let queryNo = 0;
  let tokens = 0;
  const dialogues = [];
  for (const [pos, s] of skeletons.entries()) {
    const { turns } = await ctx.realiser.json(dialogueRequest(s, user, `${user.key} session ${pos} (${s.identifier})`));
    tokens += turns.reduce((n, t) => n + countTokens(t), 0);
    const dialogueTurns = s.turns.map((plan, i) => {
      const content = turns[i] as string;
      if (plan.query) {
        const cites = s.turns[i + 1]?.cites ?? [];
        const sessions = new Set(cites.map((m) => m.uuid));
        return {
          speaker: plan.speaker,
          is_query: true,
          content,
          query_id: `Q-${String(++queryNo).padStart(4, "0")}`,
          topic: s.topic,
          category_name: plan.query,
          session_type: sessions.size === 1 ? "single_session" : "multi_session",
        };
      }
      if (plan.cites?.length) {
        return {
          speaker: plan.speaker,
          is_query: false,
          content,
          memory_used: plan.cites.map((m) => ({ session_uuid: m.uuid, content: m.content })),
          memory_session_uuids: [...new Set(plan.cites.map((m) => m.uuid))],
          query_id: null,
        };
      }
      return { speaker: plan.speaker, is_query: false, content, query_id: null };
    });
    dialogues.push({
      session_identifier: s.identifier,
      session_uuid: s.uuid,
      current_time: currentTime(s.date),
      dialogue_turns: dialogueTurns,
      extracted_memory: s.memories.map((m) => ({
        index: m.index,
        type: m.type,
        content: m.content,
        source_turn: m.turn < 0 ? -1 : m.turn + 1,
        source_content_snapshot: m.turn < 0 ? "" : (turns[m.turn] as string),
        source_role_snapshot: m.role,
        session_uuid: m.uuid,
      })),
    });
    ctx.progress.tick();
  }
  ctx.write(
    `${user.key}_dialogues.json`,
    json({
      _metadata: {
        person_name: user.key,
        total_sessions: dialogues.length,
        total_tokens: tokens,
        // Not in the release: says that this file was generated, and how its dialogue was written.
        synthetic: {
          generator: "membench synth realmem",
          version: REALMEM_SYNTH_VERSION,
          realised_by: ctx.realiser.id,
        },
      },
      dialogues,
    }),
  );
  return { user, projects };
}

/** The release's generator inputs, for the users and projects generated. */
function writeInputs(done: Array<{ user: UserProfile; projects: Project[] }>, ctx: SynthContext) {
  ctx.write(
    "all_persona_topic/persona_all.json",
    json(
      done.map(({ user }) => ({
        name: user.name,
        role: user.role,
        demographics: user.demographics,
        context: user.context,
      })),
    ),
  );
  ctx.write(
    "all_persona_topic/person&goal.json",
    json(
      done.map(({ user, projects }) => ({
        persona_name: user.name,
        role: user.role,
        assigned_tasks: projects.map((p) => ({
          topic_id: p.topic.id.toLowerCase(),
          task_id: Number(p.id.slice(p.id.lastIndexOf("_") + 1)),
          title: p.goal.title,
          description: p.goal.goal,
        })),
      })),
    ),
  );
  ctx.write(
    "all_persona_topic/topic&goal&attr.json",
    json({
      topics: TOPICS.map((t) => ({
        topic_name: t.id.replace(/_/g, " "),
        topic_id: t.id.toLowerCase(),
        project_attributes: t.attributes,
      })),
    }),
  );
}

export const realMemGenerator: Generator<RealMemKnobs> = {
  benchmark: "realmem",
  summary: "interleaved long-term projects with in-session queries citing extracted memory, persona and schedule",
  version: REALMEM_SYNTH_VERSION,
  knobs: realMemKnobs,
  sizeKnob: "users",
  async generate(knobs, ctx) {
    const done = [];
    for (let k = 0; k < knobs.users; k++) done.push(await generateUser(USERS[k] as UserProfile, k, knobs, ctx));
    writeInputs(done, ctx);
    ctx.progress.done();
  },
  validate: validateRealMem,
};
