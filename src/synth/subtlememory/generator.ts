/**
 * `membench synth subtlememory`: relation-controlled variant sets built from
 * seed facts, one session per variant scattered through a persona's
 * history, and the release's two files per persona folder
 * (`persona_<k>/history_sessions.json`, `persona_<k>/bench_instances.json`).
 */
import { z } from "zod";
import { jsonText } from "../output.ts";
import type { Rng } from "../rng.ts";
import type { Generator, SynthContext } from "../types.ts";
import { interleave, parseStart, timestamps } from "./assemble.ts";
import { PROFILES, personaString } from "./personas.ts";
import { assignPlans, buildSet, type Plan, planCounts, type Subtype, type VariantSet } from "./plan.ts";
import {
  CONVERSATION_TYPES,
  queryRequest,
  RHYTHMS,
  type SessionPlan,
  sessionRequest,
  variantRequest,
} from "./realise.ts";
import { readSeedFile, SEEDS, type Seed } from "./seeds.ts";
import { HISTORY, INSTANCES, validateSubtleMemory } from "./validate.ts";

export const SUBTLEMEMORY_SYNTH_VERSION = "1.0.0";

export const subtleMemoryKnobs = z.object({
  personas: z.number().int().min(1).max(PROFILES.length).default(1).describe("persona histories (splits) to build"),
  sets: z
    .number()
    .int()
    .min(1)
    .default(16)
    .describe("variant sets per persona (each one seed); capped by the seeds available"),
  seeds: z
    .string()
    .default("")
    .describe(
      "a JSON file of your own seed facts (docs/synth.md gives the shape); empty = our 20 seeds (12 user-related, 8 world-knowledge)",
    ),
  complementary: z.number().min(0).default(361).describe("weight of complementary sets (the paper: 361 of 1,090)"),
  nuanced: z.number().min(0).default(352).describe("weight of nuanced sets (the paper: 352)"),
  contradictory: z.number().min(0).default(377).describe("weight of contradictory sets (the paper: 377)"),
  multiEvidenceShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.584)
    .describe("share of complementary sets that are Multi-evidence, the rest Any-one (the paper: 211 of 361)"),
  temporalShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.505)
    .describe("share of nuanced sets that are Temporal, the rest Contextual (the paper: 396 of 784 questions)"),
  userRelatedShare: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe("share of sets from user-related (preference) seeds; the rest are world-knowledge seeds"),
  start: z
    .string()
    .default("2025-04-01T08:00:00+08:00")
    .refine((s) => {
      try {
        parseStart(s);
        return true;
      } catch {
        return false;
      }
    }, "expected YYYY-MM-DDTHH:MM:SS+HH:MM")
    .describe("time of the earliest possible session (the release's fallback range starts here)"),
  spanDays: z.number().positive().default(30).describe("days the history is spread over"),
});

export type SubtleMemoryKnobs = z.infer<typeof subtleMemoryKnobs>;

const json = (value: unknown) => jsonText(value, 2);

const UNRELATED_CODES: Readonly<Record<Subtype, string>> = {
  "K>1": "comp-multi",
  any_one: "comp-any",
  Temporal: "nu-temp",
  Context: "nu-ctx",
  contradictory: "ctr",
  a_user_vs_user: "ctr-a",
  b_user_vs_non_user: "ctr-b",
  c_non_user_vs_non_user: "ctr-c",
};

interface Built {
  set: VariantSet;
  caseId: string;
  instanceId: string;
  facts: string[];
  caseText: string;
  sessions: Array<{ id: string; plan: SessionPlan; messages: Array<{ role: string; content: string }> }>;
  qas: Array<{ query: string; correct_answers: string[]; incorrect_answers: string[] }>;
}

function seedsOf(knobs: SubtleMemoryKnobs): readonly Seed[] {
  return knobs.seeds ? readSeedFile(knobs.seeds) : SEEDS;
}

export const subtleMemoryGenerator: Generator<SubtleMemoryKnobs> = {
  benchmark: "subtlememory",
  summary: "relation-controlled memory variants (complementary / nuanced / contradictory) hidden in task sessions",
  version: SUBTLEMEMORY_SYNTH_VERSION,
  knobs: subtleMemoryKnobs,
  sizeKnob: "personas",
  async generate(knobs, ctx) {
    const seeds = seedsOf(knobs);
    const userSeeds = seeds.filter((s) => s.source === "user-related");
    // World-knowledge seeds are given to personas without reuse (the paper's assembly stage).
    const worldSeeds = seeds.filter((s) => s.source === "user-unrelated");
    const worldPool = ctx.rng.fork("world-seeds").shuffle(worldSeeds);
    let unrelatedCount = 0;
    for (let k = 0; k < knobs.personas; k++) {
      const profile = PROFILES[k] as (typeof PROFILES)[number];
      const rng = ctx.rng.fork(`persona-${k}`);
      const wantUser = Math.round(knobs.sets * knobs.userRelatedShare);
      const chosenUser = rng.fork("user-seeds").sample(userSeeds, wantUser);
      // A small seed list runs dry: refill it (reshuffled) rather than leave a persona without world-knowledge sets.
      if (worldPool.length < knobs.sets - wantUser) worldPool.push(...rng.fork("world-refill").shuffle(worldSeeds));
      const chosenWorld = [...new Set(worldPool.splice(0, knobs.sets - wantUser))];
      const chosen = [...chosenUser, ...chosenWorld];
      if (chosen.length < knobs.sets) {
        ctx.log.warn(
          `subtlememory persona_${k}: ${chosen.length} of ${knobs.sets} sets (not enough seeds of each source)`,
        );
      }
      const { assigned, shortfall } = assignPlans(chosen, planCounts(chosen.length, knobs), rng.fork("plans"));
      for (const [plan, n] of Object.entries(shortfall)) {
        ctx.log.warn(`subtlememory persona_${k}: ${n} ${plan} set(s) short; no seed left supports them`);
      }
      ctx.progress.stage(`subtlememory persona_${k}`, assigned.length, "sets");
      const built: Built[] = [];
      for (const [i, a] of assigned.entries()) {
        built.push(await buildOne(a.seed, a.plan, i, k, profile, rng.fork(`set-${i}`), ctx, () => ++unrelatedCount));
        ctx.progress.tick();
      }
      writePersona(k, profile, built, knobs, rng, ctx);
    }
    ctx.progress.done();
  },
  validate: validateSubtleMemory,
};

async function buildOne(
  seed: Seed,
  plan: Plan,
  index: number,
  k: number,
  profile: (typeof PROFILES)[number],
  rng: Rng,
  ctx: SynthContext,
  nextUnrelated: () => number,
): Promise<Built> {
  const set = buildSet(seed, plan, profile.name, rng.fork("skeleton"));
  const related = seed.source === "user-related";
  const caseId = related
    ? `related-export-${rng.fork("case").hex(12)}`
    : `unrelated-${UNRELATED_CODES[set.subtype]}-${String(nextUnrelated()).padStart(5, "0")}`;
  const instanceId = `${related ? "related" : "unrelated"}-${rng.fork("instance").hex(12)}`;
  const item = `persona_${k} set ${index} (${seed.id}, ${set.subtype})`;
  const variants = await ctx.realiser.json(variantRequest(set, item));
  const persona = `${profile.name}: ${profile.short_persona}.`;
  const sessionPrefix = related
    ? `related-persona_${k}-${caseId}`
    : `unrelated-persona_${k}-${caseId.slice("unrelated-".length)}`;
  const sessions: Built["sessions"] = [];
  for (const [j, fact] of variants.facts.entries()) {
    const srng = rng.fork(`session-${j}`);
    const plan: SessionPlan = {
      type: srng.pick(CONVERSATION_TYPES),
      rhythm: srng.pick(RHYTHMS),
      ...(related ? { signal: srng.pick(["low", "medium", "high"] as const) } : {}),
    };
    const { messages } = await ctx.realiser.json(
      sessionRequest(set, j, fact, plan, persona, srng.fork("text"), `${item} session ${j + 1}`),
    );
    sessions.push({ id: `${sessionPrefix}-s${j + 1}`, plan, messages });
  }
  const qas: Built["qas"] = [];
  for (const q of set.qas.keys())
    qas.push(await ctx.realiser.json(queryRequest(set, q, variants.facts, `${item} query ${q + 1}`)));
  return { set, caseId, instanceId, facts: variants.facts, caseText: variants.case, sessions, qas };
}

function writePersona(
  k: number,
  profile: (typeof PROFILES)[number],
  built: Built[],
  knobs: SubtleMemoryKnobs,
  rng: Rng,
  ctx: SynthContext,
) {
  const queues = built.map((b) => b.sessions.map((s) => ({ b, s })));
  const ordered = interleave(queues, rng.fork("interleave"));
  const times = timestamps(ordered.length, knobs.start, knobs.spanDays, rng.fork("times"));
  // Keys in alphabetical order, as the release writes them.
  const history = ordered.map(({ b, s }, order) => ({
    case_id: b.caseId,
    conversation_flow: s.plan.rhythm,
    conversation_type: s.plan.type,
    history: s.messages.map((m) => ({ content: m.content, role: m.role })),
    order,
    persona_id: profile.id,
    persona_signal_level: s.plan.signal ?? null,
    session_id: s.id,
    source: b.set.seed.source,
    timestamp: times[order],
  }));
  const instances = built.map((b) => ({
    case: b.caseText,
    case_id: b.caseId,
    facts: b.facts,
    instance_id: b.instanceId,
    persona_id: profile.id,
    persona_str: personaString(profile),
    qas: b.qas.map((q) => ({
      correct_answers: q.correct_answers,
      incorrect_answers: q.incorrect_answers,
      query: q.query,
    })),
    relation_subtype: b.set.subtype,
    relation_type: b.set.relation,
    session_ids: b.sessions.map((s) => s.id),
    source: b.set.seed.source,
    topic: b.set.seed.topic,
  }));
  ctx.write(`persona_${k}/${HISTORY}`, json(history));
  ctx.write(`persona_${k}/${INSTANCES}`, json(instances));
}
