/**
 * The MemConflict generator: the paper's simulator (arXiv 2605.20926 §3,
 * Algorithm 1) as the released pipeline runs it (TaoZhen1110/MemConflict@17cbc14,
 * `Code/Step1_1.py` … `Code/Step4_4.py`), writing the release's final file
 * `Step4_4.jsonl` (and the implicit-query file `Step4_4_indirect.jsonl`). Stages, per persona, each from its own PRNG
 * stream: profile → timeline (reveals, monthly updates/chitchat, future
 * plan) → static conflicts → conditional groups → dynamic distractors →
 * event types, synopsis, dialogue → triggers and questions → ablations.
 */
import { z } from "zod";
import { ConfigError } from "../../core/errors.ts";
import { withUsageSink } from "../../llm/accounting.ts";
import { jsonLines } from "../output.ts";
import type { Generator, SynthContext } from "../types.ts";
import { injectConditional, injectDynamicDistractors, injectStatic } from "./conflicts.ts";
import { lengthenHistory } from "./long.ts";
import { sessionMentions } from "./mentions.ts";
import type { Persona, Question, Rec } from "./model.ts";
import { loadPools, type Pools } from "./pools.ts";
import { sampleProfile } from "./profile.ts";
import { type Draft, numberQuestions, sessionDrafts, triggerTypes } from "./questions.ts";
import { eventTypes, realiseSession, wordQuestions } from "./realise.ts";
import { FINAL_FILE, IMPLICIT_FILE, releaseRecord, STEPS_FOLDER, stepRecords, type Usage } from "./release.ts";
import { buildTimeline, parseMonth } from "./timeline.ts";
import { validateMemconflict } from "./validate.ts";

export const MEMCONFLICT_GENERATOR_VERSION = "1.0.0";

const month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, "expected YYYY-MM");
const pair = (d: [number, number], text: string) => z.array(z.int().min(0)).length(2).default(d).describe(text);

const knobs = z.object({
  personas: z.int().min(1).default(12).describe("virtual users, one JSONL line each (the paper has 12 instances)"),
  start: month.default("2022-01").describe("month of the initial-reveal sessions, YYYY-MM"),
  end: month.default("2025-12").describe("month of the last monthly session; a future_plan session follows"),
  revealSessions: pair([3, 6], "min,max initial-reveal sessions in the first month"),
  updateShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.65)
    .describe("share of monthly sessions that are updates (the rest chitchat)"),
  twoAttributeShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.35)
    .describe("chance that an update changes two attributes, not one"),
  staticConflicts: z.int().min(0).default(12).describe("static conflicts per persona (true Point_A, false Point_B)"),
  staticMinGap: z.int().min(1).default(10).describe("sessions at least between a static Point_A and its Point_B"),
  pointAWindow: z.int().min(1).default(10).describe("static and conditional Point_A go in the first N sessions"),
  implicitShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe("share of static contradictions stated implicitly (vs a plain replaced value)"),
  preferenceTypes: pair([6, 10], "min,max preference types per persona (one conditional group each)"),
  itemsPerType: pair([2, 4], "min,max items per preference type (conditional points per group)"),
  conditionalMinGap: z.int().min(1).default(5).describe("sessions at least between consecutive conditional points"),
  conditionalDistractors: z
    .int()
    .min(0)
    .default(2)
    .describe("at most this many other-people distractors per conditional group"),
  turns: pair([40, 50], "min,max dialogue turns (user+assistant pairs) per session"),
  distractors: z.boolean().default(true).describe("false: the no-distractor ablation (no facts about other people)"),
  queryStyle: z
    .enum(["direct", "implicit", "both"])
    .default("direct")
    .describe("direct: Step4_4.jsonl; implicit: the indirect-question ablation Step4_4_indirect.jsonl; both"),
  distance: z
    .enum(["all", "near", "far"])
    .default("all")
    .describe(
      "conflict-distance ablation: place and keep only questions whose evidence is nearRange / farRange sessions back",
    ),
  nearRange: pair([5, 10], "sessions back for distance=near (the paper's 5–10; upstream code uses 5–15)"),
  farRange: pair([20, 25], "sessions back for distance=far (the paper's 20–25; upstream code uses 20 and more)"),
  longHistory: z
    .boolean()
    .default(false)
    .describe("the long-history ablation: add unrelated QA until longTargetTokens per persona"),
  longTargetTokens: z.int().min(1).default(300000).describe("o200k dialogue tokens per persona for longHistory"),
  longNewSessionShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe("share of long-history filler that comes as new sessions"),
  steps: z
    .boolean()
    .default(false)
    .describe("also write the intermediate stage files Step1_1 … Step4_3 under pipeline/"),
  pools: z
    .string()
    .optional()
    .describe("attribute pools in the structure of the upstream Config.json (default: membench's own)"),
});

export type MemconflictKnobs = z.infer<typeof knobs>;

function checkKnobs(k: MemconflictKnobs): void {
  for (const name of ["revealSessions", "preferenceTypes", "itemsPerType", "turns", "nearRange", "farRange"] as const) {
    const [lo, hi] = k[name] as [number, number];
    if (lo > hi) throw new ConfigError(`min ${lo} is above max ${hi}`, `knob ${name}`, "--knob");
  }
  const [turnsMin = 1] = k.turns;
  const [revealMin = 1, revealMax = 1] = k.revealSessions;
  if (turnsMin < 1) throw new ConfigError("a session needs at least one turn", "knob turns", "--knob");
  if (revealMin < 1 || revealMax > 7) {
    throw new ConfigError("between 1 and 7 reveal sessions (7 attributes to reveal)", "knob revealSessions", "--knob");
  }
  const months = (() => {
    const a = parseMonth(k.start);
    const b = parseMonth(k.end);
    return b.year * 12 + b.month - (a.year * 12 + a.month);
  })();
  if (months < 1) throw new ConfigError(`end ${k.end} must come after start ${k.start}`, "knob end", "--knob");
}

interface Built {
  persona: Persona;
  drafts: Map<number, Draft[]>;
  usage: Usage;
}

async function buildPersona(k: MemconflictKnobs, pools: Pools, ctx: SynthContext, index: number): Promise<Built> {
  const rng = ctx.rng.fork(`persona/${index}`);
  const profile = sampleProfile(rng.fork("profile"), pools, {
    startYear: parseMonth(k.start).year,
    preferenceTypes: k.preferenceTypes as [number, number],
    itemsPerType: k.itemsPerType as [number, number],
  });
  const chain = buildTimeline(rng.fork("timeline"), pools, profile, {
    start: k.start,
    end: k.end,
    updateShare: k.updateShare,
    twoAttributeShare: k.twoAttributeShare,
    revealSessions: k.revealSessions as [number, number],
  });
  const persona: Persona = { profile, chain, staticLines: new Map() };
  const distance = k.distance === "near" ? k.nearRange : k.distance === "far" ? k.farRange : undefined;
  const conflictKnobs = {
    staticConflicts: k.staticConflicts,
    staticMinGap: k.staticMinGap,
    pointAWindow: k.pointAWindow,
    implicitShare: k.implicitShare,
    conditionalMinGap: k.conditionalMinGap,
    conditionalDistractors: k.conditionalDistractors,
    distractors: k.distractors,
    ...(distance ? { distance: distance as [number, number] } : {}),
  };
  injectStatic(rng.fork("static"), pools, persona, conflictKnobs);
  injectConditional(rng.fork("conditional"), persona, conflictKnobs);
  if (k.distractors) injectDynamicDistractors(rng.fork("others-dynamic"), persona);

  ctx.progress.stage(`memconflict persona ${index + 1}/${k.personas}`, chain.length, "sessions");
  // Tokens of every call that wrote this persona, replayed or not, so a resumed generation writes the same bytes;
  // what was actually spent is in membench-synth.json.
  const usage: Usage = { inputTokens: 0, outputTokens: 0, costUsd: null, model: ctx.realiser.id };
  const drafts = new Map<number, Draft[]>();
  await withUsageSink(
    (call) => {
      if (!call.ok) return;
      usage.inputTokens += call.inputTokens;
      usage.outputTokens += call.outputTokens;
    },
    () =>
      Promise.all(
        chain.map(async (session) => {
          const srng = rng.fork(`session/${session.Session_ID}`);
          const item = `persona ${index}, session ${session.Session_ID}`;
          session.Event_Types = eventTypes(srng.fork("events"), session);
          const mentions = sessionMentions(session, profile, persona.staticLines);
          const text = await realiseSession({
            rng: srng,
            pools,
            realiser: ctx.realiser,
            profile,
            session,
            mentions,
            events: session.Event_Types,
            turns: srng.fork("turns").int(k.turns[0] as number, k.turns[1] as number),
            item,
          });
          session.Session_Outline = text.outline;
          session.Session_Dialogue = text.dialogue;
          const d = sessionDrafts(session, chain, profile.Fixed_Profile);
          session.Question_Trigger_Types = triggerTypes(d);
          drafts.set(session.Session_ID, d);
          ctx.progress.tick();
        }),
      ),
  );
  return { persona, drafts, usage };
}

/** The questions of every session in one wording, after the distance filter. */
async function wordAll(
  built: Built,
  ctx: SynthContext,
  style: "direct" | "indirect",
  keep: (d: Draft) => boolean,
  index: number,
): Promise<{ byId: Map<number, Question[]>; methods: string[] }> {
  const byId = new Map<number, Question[]>();
  const methods: string[] = [];
  await Promise.all(
    [...built.drafts.entries()].map(async ([id, drafts]) => {
      const worded = await wordQuestions(ctx.realiser, drafts, style, `persona ${index}, session ${id} questions`);
      if (drafts.length) methods.push(worded.method);
      const questions = numberQuestions(drafts, (_, i) => worded.texts[i] ?? "").map((q, i) => {
        const d = drafts[i] as Draft;
        if (style === "direct") return q;
        return {
          ...q,
          Original_Question: d.question,
          Question_Style: "indirect",
          Rewrite_Method: worded.method,
        } as Question;
      });
      // Ids keep their template slot even when the distance filter drops questions: the loader ties by slot.
      byId.set(
        id,
        questions.filter((_, i) => keep(drafts[i] as Draft)),
      );
    }),
  );
  return { byId, methods };
}

function styleMetadata(byId: Map<number, Question[]>, methods: string[], realiser: string): Rec {
  const all = [...byId.values()].flat();
  const rewritten = all.filter((q) => q.question !== q.Original_Question).length;
  return {
    Source_Style: "direct",
    Target_Style: "indirect",
    Rewritten_Question_Count: rewritten,
    Unchanged_Question_Count: all.length - rewritten,
    LLM_Session_Success_Count: methods.filter((m) => m === "llm").length,
    LLM_Session_Fallback_Count: methods.filter((m) => m === "fallback_template").length,
    Answer_Unchanged: true,
    Conflict_Type_Unchanged: true,
    Ability_Target_Unchanged: true,
    Difficulty_Unchanged: true,
    Rewrite_Method: realiser === "templates" ? "template" : "llm",
  };
}

export const memconflictGenerator: Generator<MemconflictKnobs> = {
  benchmark: "memconflict",
  summary:
    "the MemConflict simulator: personas, monthly timelines with updates and cooldowns, static/conditional conflicts, distractors, dialogues and questions, in the release format Step4_4.jsonl; ablations as knobs",
  version: MEMCONFLICT_GENERATOR_VERSION,
  knobs,
  sizeKnob: "personas",
  async generate(k, ctx) {
    checkKnobs(k);
    const pools = loadPools(k.pools);
    const range = k.distance === "near" ? k.nearRange : k.distance === "far" ? k.farRange : undefined;
    const keep = (d: Draft) =>
      !range || (d.distance !== undefined && d.distance >= (range[0] as number) && d.distance <= (range[1] as number));
    const direct: Rec[] = [];
    const indirect: Rec[] = [];
    const steps: Record<string, Rec[]> = {};
    for (let p = 0; p < k.personas; p++) {
      const built = await buildPersona(k, pools, ctx, p);
      const styles =
        k.queryStyle === "both"
          ? (["direct", "indirect"] as const)
          : k.queryStyle === "direct"
            ? (["direct"] as const)
            : (["indirect"] as const);
      const worded = await Promise.all(styles.map((style) => wordAll(built, ctx, style, keep, p)));
      let byStyle = worded.map((w) => w.byId);
      if (k.longHistory) {
        byStyle = lengthenHistory(ctx.rng.fork(`persona/${p}`).fork("long"), pools, built.persona, byStyle, {
          targetTokens: k.longTargetTokens,
          newSessionShare: k.longNewSessionShare,
          turns: k.turns as [number, number],
        });
      }
      const synth: Rec = {
        generator: "memconflict",
        generator_version: MEMCONFLICT_GENERATOR_VERSION,
        seed: ctx.seed,
        persona_index: p,
        realised_by: ctx.realiser.id,
        distractors: k.distractors,
        distance: k.distance,
        long_history: k.longHistory,
      };
      styles.forEach((style, i) => {
        const questions = byStyle[i] as Map<number, Question[]>;
        if (style === "direct") {
          direct.push(
            releaseRecord(built.persona, { usage: built.usage, synth: { ...synth, query_style: "direct" }, questions }),
          );
        } else {
          indirect.push(
            releaseRecord(built.persona, {
              usage: built.usage,
              synth: { ...synth, query_style: "implicit" },
              questions,
              styleMetadata: styleMetadata(questions, (worded[i] as { methods: string[] }).methods, ctx.realiser.id),
            }),
          );
        }
      });
      if (k.steps) {
        for (const [name, record] of Object.entries(stepRecords(built.persona, built.usage))) {
          steps[name] = [...(steps[name] ?? []), record];
        }
      }
    }
    ctx.progress.done();
    if (direct.length) ctx.write(FINAL_FILE, jsonLines(direct));
    if (indirect.length) ctx.write(IMPLICIT_FILE, jsonLines(indirect));
    for (const [name, records] of Object.entries(steps)) ctx.write(`${STEPS_FOLDER}/${name}.jsonl`, jsonLines(records));
  },
  validate: validateMemconflict,
};
