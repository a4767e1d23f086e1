/**
 * `membench synth memora`: persona timelines in Memora's release layout
 * (`<duration>/<persona>/conversations/session_NNNN.json` and
 * `evaluation_questions_<persona>.json`), from the simulator, the dialogue
 * flows and the question generator of this folder.
 */
import { z } from "zod";
import { DURATIONS, type Duration } from "../../benchmarks/memora/labels.ts";
import { jsonText } from "../output.ts";
import type { Generator, SynthContext } from "../types.ts";
import { PERSONAS, type Persona } from "./catalogue.ts";
import { releaseTurns, sessionFlow, sessionRequest } from "./dialogue.ts";
import { candidateQuestions, selectQuestions, TASK_KEYS, type TaskKey } from "./questions.ts";
import { QUESTIONS_PER_TASK, TIMELINES } from "./schedule-config.ts";
import { type Simulation, simulate } from "./simulate.ts";
import { validateMemora } from "./validate.ts";

export const MEMORA_SYNTH_VERSION = "1.0.0";
/** Whole-timeline attempts before settling for fewer questions than asked. */
const SIMULATION_ATTEMPTS = 5;

const taskCount = (task: string) =>
  z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe(`${task} questions per persona and duration; 0 = the paper's count (5, or 10 for quarterly)`);

export const memoraKnobs = z.object({
  personas: z
    .number()
    .int()
    .min(1)
    .max(PERSONAS.length)
    .default(1)
    .describe("how many of the paper's ten personas (Table 6 order: academic_researcher first)"),
  persona: z
    .array(z.enum(PERSONAS.map((p) => p.key) as [string, ...string[]]))
    .default([])
    .describe("persona keys to generate instead of the first N (e.g. software_engineer,sales_manager)"),
  durations: z
    .array(z.enum(DURATIONS))
    .min(1)
    .default(["weekly"])
    .describe("timelines to simulate: weekly (7 days), monthly (28), quarterly (92)"),
  startDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "expected YYYY-MM-DD")
    .default("2025-06-01")
    .describe("first day of every timeline (the release starts on 2025-06-01)"),
  sessionScale: z
    .number()
    .positive()
    .max(4)
    .default(1)
    .describe("multiplies every session frequency of the paper's configuration (0.25 gives a quarter of the sessions)"),
  remembering: taskCount("Remembering"),
  reasoning: taskCount("Reasoning"),
  recommending: taskCount("Recommending"),
});

export type MemoraKnobs = z.infer<typeof memoraKnobs>;

const json = (value: unknown) => jsonText(value, 2);

function personasOf(knobs: MemoraKnobs): Persona[] {
  if (knobs.persona.length) return knobs.persona.map((k) => PERSONAS.find((p) => p.key === k) as Persona);
  return PERSONAS.slice(0, knobs.personas);
}

/** Simulates, retrying with a fresh stream when too few questions qualify (the release regenerates a persona up to 3 times; we allow a few more). */
function simulateWithQuestions(persona: Persona, duration: Duration, knobs: MemoraKnobs, ctx: SynthContext) {
  const counts = {} as Record<TaskKey, number>;
  for (const task of TASK_KEYS) counts[task] = knobs[task] || QUESTIONS_PER_TASK[duration];
  const base = ctx.rng.fork(`${duration}/${persona.key}`);
  let best: { sim: Simulation; chosen: ReturnType<typeof selectQuestions> } | undefined;
  for (let attempt = 0; attempt < SIMULATION_ATTEMPTS; attempt++) {
    const rng = attempt === 0 ? base : base.fork(`retry-${attempt}`);
    const sim = simulate(
      { persona, config: TIMELINES[duration], startDate: knobs.startDate, sessionScale: knobs.sessionScale },
      rng.fork("simulate"),
    );
    const chosen = selectQuestions(candidateQuestions(sim, duration, rng.fork("phrasing").int(0, 2)), counts);
    const missing = Object.values(chosen.shortfall).reduce((a, b) => a + (b ?? 0), 0);
    const prior = best
      ? Object.values(best.chosen.shortfall).reduce((a, b) => a + (b ?? 0), 0)
      : Number.POSITIVE_INFINITY;
    if (missing < prior) best = { sim, chosen };
    if (!missing) break;
  }
  const result = best as NonNullable<typeof best>;
  for (const [task, n] of Object.entries(result.chosen.shortfall)) {
    ctx.log.warn(
      `memora ${duration}/${persona.key}: ${n} ${task} question(s) short; the timeline has too few qualifying memories`,
    );
  }
  return result;
}

async function generatePersona(persona: Persona, duration: Duration, knobs: MemoraKnobs, ctx: SynthContext) {
  const { sim, chosen } = simulateWithQuestions(persona, duration, knobs, ctx);
  const folder = `${duration}/${persona.key}`;
  ctx.progress.stage(`memora ${folder}`, sim.sessions.length, "sessions");
  const flows = ctx.rng.fork(`${duration}/${persona.key}/flows`);
  for (const session of sim.sessions) {
    const flow = sessionFlow(session, flows.fork(session.id));
    const { turns } = await ctx.realiser.json(sessionRequest(session, persona, flow));
    const record = {
      session_id: session.id,
      session_type: session.sessionType,
      operation: session.operation,
      operation_details: session.details,
      date: session.date,
      persona: persona.key,
      conversation: releaseTurns(flow, turns),
    };
    ctx.write(`${folder}/conversations/session_${String(session.id).padStart(4, "0")}.json`, json(record));
    ctx.progress.tick();
  }
  ctx.write(
    `${folder}/evaluation_questions_${persona.key}.json`,
    json({
      persona: persona.key,
      date_range: { start_date: sim.startDate, end_date: sim.endDate },
      questions: chosen.chosen,
      // Not in the release: says that this file was generated, and how its dialogue was written.
      synthetic: { generator: "membench synth memora", version: MEMORA_SYNTH_VERSION, realised_by: ctx.realiser.id },
    }),
  );
}

export const memoraGenerator: Generator<MemoraKnobs> = {
  benchmark: "memora",
  summary: "persona memory timelines (preferences, activities, goals, documents) with presence/forgetting rubrics",
  version: MEMORA_SYNTH_VERSION,
  knobs: memoraKnobs,
  sizeKnob: "personas",
  async generate(knobs, ctx) {
    for (const duration of knobs.durations) {
      for (const persona of personasOf(knobs)) await generatePersona(persona, duration, knobs, ctx);
    }
    ctx.progress.done();
  },
  validate: validateMemora,
};
