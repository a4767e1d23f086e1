/**
 * SubtleMemory's relation assignment and variant creation (the paper's
 * Stages 1–2 and 4, arXiv 2606.05761 §2.3, App. B.2 and B.4): each seed gets
 * one relation type and subtype under target counts, becomes a set of
 * one-sentence variants whose relation is that one, and gets its evaluation
 * queries with three correct and three relation-specific incorrect answers.
 * Everything here is the deterministic skeleton and our template wording; a
 * model may rephrase facts, sessions and queries (realise.ts) but keeps the
 * values, conditions and relation fixed here.
 */
import type { RelationType } from "../../benchmarks/subtlememory/labels.ts";
import type { Rng } from "../rng.ts";
import type { Seed } from "./seeds.ts";

/** The release's `relation_subtype` spellings. */
export type Subtype =
  | "K>1"
  | "any_one"
  | "Temporal"
  | "Context"
  | "contradictory"
  | "a_user_vs_user"
  | "b_user_vs_non_user"
  | "c_non_user_vs_non_user";

export type Plan = "multi" | "any" | "temporal" | "context" | "contradictory";

export const PLAN_RELATION: Readonly<Record<Plan, RelationType>> = {
  multi: "complementary",
  any: "complementary",
  temporal: "nuanced",
  context: "nuanced",
  contradictory: "contradictory",
};

export interface Variant {
  /** The hidden variant as the release's `facts` list states it. */
  fact: string;
  /** How the session states it, in the speaker's words. */
  says: string;
  /** Who states it in its session. */
  speaker: "user" | "assistant";
  /** The value the session must carry verbatim. */
  key: string;
}

export interface QaPlan {
  query: string;
  correct: string[];
  incorrect: string[];
  /** The condition the query names (nuanced), which it must carry. */
  condition?: string;
  /** The answer value, which the query must not reveal. */
  answerKey?: string;
}

export interface VariantSet {
  seed: Seed;
  plan: Plan;
  relation: RelationType;
  subtype: Subtype;
  /** The case description: the resolution target in words. */
  caseText: string;
  variants: Variant[];
  qas: QaPlan[];
  /** The persona's name, for user-related sets. */
  name?: string;
}

/** What a seed has material for. */
export function supports(seed: Seed, plan: Plan): boolean {
  switch (plan) {
    case "multi":
      return seed.facets.length >= 2;
    case "any":
      return seed.paraphrases.length >= 1;
    case "temporal":
      return seed.periods.length >= 2;
    case "context":
      return seed.contexts.length >= 2;
    case "contradictory":
      return seed.rival !== undefined;
  }
}

export interface MixWeights {
  complementary: number;
  nuanced: number;
  contradictory: number;
  /** Share of complementary sets that are Multi-evidence (the rest Any-one). */
  multiEvidenceShare: number;
  /** Share of nuanced sets that are Temporal (the rest Contextual). */
  temporalShare: number;
}

/** Integer counts in proportion to weights (largest remainder; ties to the earlier item). */
export function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + Math.max(0, b), 0);
  if (!sum) return weights.map(() => 0);
  const exact = weights.map((w) => (Math.max(0, w) / sum) * total);
  const counts = exact.map(Math.floor);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (let k = 0; counts.reduce((a, b) => a + b, 0) < total; k++)
    counts[(order[k % order.length] as { i: number }).i]! += 1;
  return counts;
}

/** How many sets of each plan, for `total` sets. */
export function planCounts(total: number, mix: MixWeights): Record<Plan, number> {
  const [comp, nu, con] = apportion(total, [mix.complementary, mix.nuanced, mix.contradictory]) as [
    number,
    number,
    number,
  ];
  const [multi, any] = apportion(comp, [mix.multiEvidenceShare, 1 - mix.multiEvidenceShare]) as [number, number];
  const [temporal, context] = apportion(nu, [mix.temporalShare, 1 - mix.temporalShare]) as [number, number];
  return { multi, any, temporal, context, contradictory: con };
}

/**
 * The planner: gives each seed one plan so the counts are met, filling the
 * plans fewest seeds support first. A seed that supports no plan left goes to
 * any plan it supports (the counts then drift, and `shortfall` says by how much).
 */
export function assignPlans(seeds: readonly Seed[], counts: Record<Plan, number>, rng: Rng) {
  const left = { ...counts };
  const plans = Object.keys(counts) as Plan[];
  const out: Array<{ seed: Seed; plan: Plan }> = [];
  let pool = rng.shuffle(seeds);
  const bySupport = [...plans].sort(
    (a, b) =>
      pool.filter((s) => supports(s, a)).length - pool.filter((s) => supports(s, b)).length ||
      plans.indexOf(a) - plans.indexOf(b),
  );
  for (const plan of bySupport) {
    while (left[plan] > 0) {
      const seed = pool.find((s) => supports(s, plan));
      if (!seed) break;
      out.push({ seed, plan });
      pool = pool.filter((s) => s !== seed);
      left[plan]--;
    }
  }
  for (const seed of pool) {
    const plan = plans.find((p) => supports(seed, p));
    if (plan) out.push({ seed, plan });
  }
  return { assigned: out, shortfall: Object.fromEntries(plans.filter((p) => left[p] > 0).map((p) => [p, left[p]])) };
}

// ---------------------------------------------------------------- wording

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const verb = (past?: boolean) => (past ? "was" : "is");

function third(set: { seed: Seed; name?: string }, value: string, qualifier?: string, past?: boolean): string {
  const subject =
    set.seed.source === "user-related" ? `${set.name}'s ${set.seed.attribute}` : `The ${set.seed.attribute}`;
  return `${subject}${qualifier ? ` ${qualifier}` : ""} ${verb(past)} ${value}.`;
}

function spoken(
  set: { seed: Seed },
  speaker: "user" | "assistant",
  value: string,
  qualifier?: string,
  past?: boolean,
): string {
  const q = qualifier ? ` ${qualifier}` : "";
  if (set.seed.source === "user-related") return `My ${set.seed.attribute}${q} ${verb(past)} ${value}.`;
  return speaker === "user"
    ? `From my notes: the ${set.seed.attribute}${q} ${verb(past)} ${value}.`
    : `According to the reference I checked, the ${set.seed.attribute}${q} ${verb(past)} ${value}.`;
}

const FORM_PURPOSES = ["a short planning card", "a one-page brief", "a quick reference note", "an intake form"];

function structuredQuery(seed: Seed, rng: Rng, fields: string[], conflict: boolean, condition?: string): string {
  const safe = conflict
    ? ' If a field cannot be completed safely, write "needs confirmation" and say what is unclear.'
    : "";
  return `I'm filling ${rng.pick(FORM_PURPOSES)} for ${seed.about}${condition ? ` (${condition})` : ""}. Use the available working form and fill each field with a short phrase. Do not add fields.${safe}\n\nAvailable working form:\n${fields.map((f) => `- ${f}:`).join("\n")}`;
}

function optionsQuery(seed: Seed, options: string[], many: boolean, conflict: boolean, condition?: string): string {
  const how = many
    ? "Pick every option that applies and give one short reason."
    : "Pick exactly one option and give one short reason.";
  const safe = conflict ? " If you cannot choose safely, say so and ask me what to confirm." : "";
  return `I need to settle the ${cap(seed.attribute).toLowerCase()} for ${seed.about}${condition ? ` (${condition})` : ""}. ${how}${safe}\n\nAvailable options:\n${options.map((o) => `- ${o}`).join("\n")}`;
}

function knowledgeQuery(seed: Seed, condition?: string, past?: boolean): string {
  return `For the fact sheet on ${seed.about}: what ${verb(past)} the ${seed.attribute}${condition ? ` ${condition}` : ""}?`;
}

/** Three ways of giving one value. */
function phrasings(seed: Seed, value: string, past?: boolean): string[] {
  return [value, `${cap(seed.attribute)}: ${value}.`, `It ${verb(past)} ${value}.`];
}

function formAnswer(seed: Seed, value: string, reason: string): string {
  return `- ${cap(seed.attribute)}: ${value}\n- Why it fits: ${reason}`;
}

const REASONS = ["it matches what I told you before", "that is what I settled on", "it is the one that applies here"];

// ---------------------------------------------------------------- sets

function distractors(seed: Seed, exclude: string[], n: number, rng: Rng): string[] {
  const pool = [...seed.distractors, ...(seed.rival ? [seed.rival] : [])].filter((d) => !exclude.includes(d));
  return rng.sample(pool, n);
}

function singleValueQa(
  set: VariantSet,
  value: string,
  wrong: string[],
  rng: Rng,
  condition?: string,
  past?: boolean,
): QaPlan {
  const { seed } = set;
  if (seed.source === "user-unrelated") {
    return {
      query: knowledgeQuery(seed, condition, past),
      correct: phrasings(seed, value, past),
      incorrect: wrong.slice(0, 3).map((w, i) => phrasings(seed, w, past)[i % 3] as string),
      condition,
      answerKey: value,
    };
  }
  if (rng.bool(0.5)) {
    return {
      query: structuredQuery(seed, rng, [cap(seed.attribute), "Why it fits"], false, condition),
      correct: REASONS.map((r) => formAnswer(seed, value, r)),
      incorrect: wrong.slice(0, 3).map((w, i) => formAnswer(seed, w, REASONS[i] as string)),
      condition,
      answerKey: value,
    };
  }
  const options = rng.shuffle([value, ...wrong.slice(0, 3)]);
  return {
    query: optionsQuery(seed, options, false, false, condition),
    correct: REASONS.map((r) => `${value} — ${r}.`),
    incorrect: wrong.slice(0, 3).map((w, i) => `${w} — ${REASONS[i]}.`),
    condition,
  };
}

/** The variant set of one seed under one plan, with its queries. */
export function buildSet(seed: Seed, plan: Plan, name: string | undefined, rng: Rng): VariantSet {
  const set: VariantSet = {
    seed,
    plan,
    relation: PLAN_RELATION[plan],
    subtype: "K>1",
    caseText: "",
    variants: [],
    qas: [],
    ...(seed.source === "user-related" ? { name } : {}),
  };
  const who = seed.source === "user-related" ? (name as string) : seed.about;
  const speakerOf = () => "user" as const;
  switch (plan) {
    case "multi": {
      const facets = rng.sample(seed.facets, Math.min(seed.facets.length, rng.int(2, 3)));
      set.subtype = "K>1";
      set.caseText = `Details about ${seed.about} that only together give the full picture: ${facets.map((x) => x.key).join("; ")}.`;
      set.variants = facets.map((x) => ({
        fact: x.fact.replaceAll("{name}", name ?? ""),
        says: x.says.replaceAll("{name}", name ?? ""),
        speaker: speakerOf(),
        key: x.key,
      }));
      const keys = facets.map((x) => x.key);
      const wrong = distractors(seed, [], 2, rng);
      const list = keys.join("; ");
      if (seed.source === "user-related") {
        set.qas.push({
          query: structuredQuery(seed, rng, ["Details to include", "Why they matter"], false),
          correct: REASONS.map((r) => `- Details to include: ${list}\n- Why they matter: ${r}`),
          incorrect: [
            `- Details to include: ${keys[0]}\n- Why they matter: ${REASONS[0]}`,
            `- Details to include: ${keys.slice(0, -1).join("; ")}; ${wrong[0] ?? "nothing else"}\n- Why they matter: ${REASONS[1]}`,
            `- Details to include: ${keys.slice(1).join("; ")}\n- Why they matter: ${REASONS[2]}`,
          ],
        });
      } else {
        set.qas.push({
          query: `For a short fact box on ${seed.about}, list every detail we have noted about it.`,
          correct: [list, `The fact box should say: ${list}.`, `All of these: ${list}.`],
          incorrect: [
            `Only this: ${keys[0]}.`,
            `${keys.slice(0, -1).join("; ")}; ${wrong[0] ?? "nothing else"}.`,
            `${keys.slice(1).join("; ")}.`,
          ],
        });
      }
      break;
    }
    case "any": {
      const forms = [seed.value, ...rng.sample(seed.paraphrases, Math.min(seed.paraphrases.length, rng.int(1, 2)))];
      set.subtype = "any_one";
      set.caseText = `The ${seed.attribute} for ${who}, stated more than once in different words.`;
      set.variants = forms.map((v) => ({
        fact: third(set, v),
        says: spoken(set, "user", v),
        speaker: speakerOf(),
        key: v,
      }));
      set.qas.push(singleValueQa(set, seed.value, distractors(seed, forms, 3, rng), rng));
      break;
    }
    case "temporal": {
      const current = seed.periods.filter((p) => !p.past);
      const past = seed.periods.filter((p) => p.past);
      const n = seed.source === "user-unrelated" && seed.periods.length >= 3 && rng.bool(0.5) ? 3 : 2;
      const chosen = [...rng.sample(current.length ? current : seed.periods, 1)];
      chosen.push(
        ...rng.sample(
          past.filter((p) => !chosen.includes(p)),
          n - 1,
        ),
      );
      const periods = rng.shuffle(chosen);
      set.subtype = "Temporal";
      set.caseText = `The ${seed.attribute} for ${who} changed over time: ${periods.map((p) => `${p.when}, ${p.value}`).join("; ")}.`;
      set.variants = periods.map((p) => ({
        fact: third(set, p.value, p.when, p.past),
        says: spoken(set, "user", p.value, p.when, p.past),
        speaker: speakerOf(),
        key: p.value,
      }));
      for (const p of periods) {
        const others = periods.filter((o) => o !== p).map((o) => o.value);
        const wrong = [...others, ...distractors(seed, [p.value, ...others], 3, rng)];
        set.qas.push(singleValueQa(set, p.value, wrong, rng.fork(p.when), p.when, p.past));
      }
      break;
    }
    case "context": {
      const contexts = rng.sample(seed.contexts, 2);
      set.subtype = "Context";
      set.caseText = `The ${seed.attribute} for ${who} depends on the situation: ${contexts.map((c) => `${c.condition}, ${c.value}`).join("; ")}.`;
      set.variants = contexts.map((c) => ({
        fact: third(set, c.value, c.condition),
        says: spoken(set, "user", c.value, c.condition),
        speaker: speakerOf(),
        key: c.value,
      }));
      for (const c of contexts) {
        const others = contexts.filter((o) => o !== c).map((o) => o.value);
        const wrong = [...others, ...distractors(seed, [c.value, ...others], 3, rng)];
        set.qas.push(singleValueQa(set, c.value, wrong, rng.fork(c.condition), c.condition));
      }
      break;
    }
    case "contradictory": {
      const rival = seed.rival as string;
      const claims = rng.shuffle([seed.value, rival]);
      const speakers: Array<"user" | "assistant"> = ["user", "user"];
      if (seed.source === "user-related") set.subtype = "contradictory";
      else {
        set.subtype = rng.pick(["a_user_vs_user", "b_user_vs_non_user", "c_non_user_vs_non_user"] as const);
        if (set.subtype === "b_user_vs_non_user") speakers[1] = "assistant";
        if (set.subtype === "c_non_user_vs_non_user") speakers.fill("assistant");
      }
      set.caseText = `Two claims about the ${seed.attribute} for ${who} that cannot both hold: ${claims.join(" versus ")}.`;
      set.variants = claims.map((v, i) => ({
        fact: third(set, v),
        says: spoken(set, speakers[i] as "user" | "assistant", v),
        speaker: speakers[i] as "user" | "assistant",
        key: v,
      }));
      const [a, b] = claims as [string, string];
      const other = distractors(seed, claims, 1, rng)[0] ?? "something else";
      const conflict = [
        `needs confirmation — my notes give both ${a} and ${b}, so which one holds now?`,
        `needs confirmation: ${a} or ${b}? The two records disagree.`,
        `needs confirmation, because one note says ${a} and another says ${b}.`,
      ];
      if (seed.source === "user-unrelated") {
        set.qas.push({
          query: knowledgeQuery(seed),
          correct: [
            `The notes conflict: one says ${a}, another says ${b}; it needs checking before I state it.`,
            `It is unclear: ${a} according to one record, ${b} according to another.`,
            `Two sources disagree (${a} vs ${b}), so I can't give one answer without confirming.`,
          ],
          incorrect: [
            `${cap(seed.attribute)}: ${a}.`,
            `${cap(seed.attribute)}: ${b}.`,
            `${cap(seed.attribute)}: ${other}.`,
          ],
        });
      } else if (rng.bool(0.5)) {
        set.qas.push({
          query: structuredQuery(seed, rng, [cap(seed.attribute), "Why it fits"], true),
          correct: conflict.map((c) => `- ${cap(seed.attribute)}: ${c}\n- Why it fits: two of my statements disagree`),
          incorrect: [a, b, other].map((v, i) => formAnswer(seed, v, REASONS[i] as string)),
        });
      } else {
        const options = rng.shuffle([a, b, other]);
        set.qas.push({
          query: optionsQuery(seed, options, false, true),
          correct: conflict.map((c) => `I can't pick safely: ${c}`),
          incorrect: [a, b, other].map((v, i) => `${v} — ${REASONS[i]}.`),
        });
      }
      break;
    }
  }
  return set;
}
