/**
 * Turning SubtleMemory's skeleton into text (the paper's Stages 2–4,
 * arXiv 2606.05761 App. B.2–B.4): the variant sentences, one task-oriented
 * session per variant, and each query with its answers. Every item is a
 * request the realiser fills from our templates or with the model and our
 * prompts; the checks keep what the skeleton fixed: the value each variant
 * carries, that only its own session states it and not in the opening turn,
 * that a query names its condition without giving the answer away.
 */
import { z } from "zod";
import type { Rng } from "../rng.ts";
import type { JsonRequest } from "../types.ts";
import type { VariantSet } from "./plan.ts";

/** The ten conversation types of the paper's session diversity (App. B.3, Table 6). */
export const CONVERSATION_TYPES = [
  "decision_support",
  "planning_coordination",
  "troubleshooting",
  "learning_explanation",
  "resource_selection",
  "workflow_setup",
  "information_organization",
  "personal_reflection",
  "artifact_production",
  "artifact_review_or_localization",
] as const;
export type ConversationType = (typeof CONVERSATION_TYPES)[number];

const OPENERS: Readonly<Record<ConversationType, (about: string) => string>> = {
  decision_support: (a) => `I have to make a decision about ${a} this week. Can you help me think it through?`,
  planning_coordination: (a) => `I need to plan the next few steps for ${a}. Could you help me lay them out?`,
  troubleshooting: (a) => `Something about ${a} isn't working the way I want. Can you help me sort it out?`,
  learning_explanation: (a) => `Can you explain what I should keep in mind about ${a}?`,
  resource_selection: (a) => `I'm choosing a few resources for ${a}. What should I look for?`,
  workflow_setup: (a) => `I want to set up a simple routine around ${a}. Where should I start?`,
  information_organization: (a) => `Can you help me organise my notes on ${a}?`,
  personal_reflection: (a) => `I've been thinking about ${a} lately and want to talk it through.`,
  artifact_production: (a) => `Could you help me draft a short note about ${a}?`,
  artifact_review_or_localization: (a) => `Could you review a short paragraph I wrote about ${a}?`,
};

/** Three loose workflow rhythms; each session pairs its type with one of them. */
export const RHYTHMS: readonly string[] = [
  "Open with the task, clarify one detail at a time, then settle on a concrete next step.",
  "Start broad, let the assistant propose options, then narrow down through short corrections.",
  "Share a situation or draft, get feedback, and finish with a revised version.",
];

const CLARIFY = [
  "Happy to help. What matters most to you here?",
  "Sure. Before I suggest anything, is there a detail I should know?",
  "Of course. Tell me a bit more so I can tailor this.",
];
const BUILD = [
  "Thanks, that helps. I'll build around that and keep the rest flexible.",
  "Good to know. That narrows things down nicely.",
  "Understood. I'll keep that as a fixed point in the plan.",
];
const FOLLOW_UP = [
  "Can you turn that into a short checklist?",
  "What would the next step be?",
  "Could you summarise it in two lines?",
];
const WRAP = [
  "Here's a short version: confirm the fixed points, list the open questions, and set a date to review them.",
  "Next step: write down the decision, share it with whoever is involved, and revisit it next week.",
  "In two lines: keep what you told me as the anchor, and adjust the smaller details as you go.",
];

export interface SessionPlan {
  type: ConversationType;
  rhythm: string;
  signal?: "low" | "medium" | "high";
}

export interface Message {
  role: "user" | "assistant";
  content: string;
}

const has = (text: string, value: string) => text.toLowerCase().includes(value.toLowerCase());
const BANNED = /\b(benchmark|complementary|contradictory|nuanced|variant|memory item)\b/i;

const RELATION_RULES: Readonly<Record<string, string>> = {
  "K>1": "complementary, multi-evidence: the sentences are compatible details that must be combined to answer.",
  any_one: "complementary, any-one: the sentences state the same fact in different words; any one is enough.",
  Temporal: "nuanced, temporal: the value changed over time; each sentence keeps its stated time condition.",
  Context: "nuanced, contextual: each value holds under its own condition; each sentence keeps its condition.",
  contradictory:
    "contradictory: the sentences cannot both be true under the same condition; do not add anything that reconciles them.",
  a_user_vs_user: "contradictory: the sentences cannot both be true; do not add anything that reconciles them.",
  b_user_vs_non_user: "contradictory: the sentences cannot both be true; do not add anything that reconciles them.",
  c_non_user_vs_non_user: "contradictory: the sentences cannot both be true; do not add anything that reconciles them.",
};

const variantsReply = z.object({ case: z.string().min(1), facts: z.array(z.string().min(1)) });

/** Stage 2: the case description and one sentence per variant. */
export function variantRequest(set: VariantSet, item: string): JsonRequest<z.infer<typeof variantsReply>> {
  const keys = set.variants.map((v) => v.key);
  return {
    prompt: "subtlememory/variants",
    vars: {
      relation: RELATION_RULES[set.subtype] ?? set.subtype,
      subject: set.seed.source === "user-related" ? `${set.name}, the user` : set.seed.about,
      count: set.variants.length,
      sentences: set.variants.map((v, i) => `${i + 1}. ${v.fact} (must keep: "${v.key}")`).join("\n"),
    },
    schema: variantsReply,
    template: () => ({ case: set.caseText, facts: set.variants.map((v) => v.fact) }),
    check: (value) => {
      if (value.facts.length !== keys.length) return `expected ${keys.length} sentences, got ${value.facts.length}`;
      for (const [i, fact] of value.facts.entries()) {
        if (!has(fact, keys[i] as string)) return `sentence ${i + 1} must contain "${keys[i]}" verbatim`;
        if (!/[.!?]$/.test(fact.trim())) return `sentence ${i + 1} must end with punctuation`;
        if (BANNED.test(fact)) return `sentence ${i + 1} names the benchmark's own terms`;
      }
      return undefined;
    },
    item,
  };
}

const sessionReply = z.object({
  messages: z.array(z.object({ role: z.enum(["user", "assistant"]), content: z.string().min(1) })),
});

/** The template session: six messages, the variant stated in the third (user) or fourth (assistant). */
function templateSession(set: VariantSet, index: number, plan: SessionPlan, rng: Rng): Message[] {
  const v = set.variants[index];
  if (!v) throw new Error(`no variant ${index}`);
  const open = OPENERS[plan.type](set.seed.about);
  if (v.speaker === "user") {
    return [
      { role: "user", content: open },
      { role: "assistant", content: rng.pick(CLARIFY) },
      {
        role: "user",
        content: `One thing to keep in mind: ${/^I\b/.test(v.says) ? v.says : v.says.charAt(0).toLowerCase() + v.says.slice(1)}`,
      },
      { role: "assistant", content: rng.pick(BUILD) },
      { role: "user", content: rng.pick(FOLLOW_UP) },
      { role: "assistant", content: rng.pick(WRAP) },
    ];
  }
  return [
    { role: "user", content: open },
    { role: "assistant", content: rng.pick(CLARIFY) },
    { role: "user", content: `Do you have a reference for the ${set.seed.attribute}?` },
    { role: "assistant", content: v.says },
    { role: "user", content: rng.pick(FOLLOW_UP) },
    { role: "assistant", content: rng.pick(WRAP) },
  ];
}

/** Stage 3: one task-oriented session that carries one variant and nothing of its siblings. */
export function sessionRequest(
  set: VariantSet,
  index: number,
  fact: string,
  plan: SessionPlan,
  persona: string,
  rng: Rng,
  item: string,
): JsonRequest<z.infer<typeof sessionReply>> {
  const v = set.variants[index];
  if (!v) throw new Error(`no variant ${index}`);
  const siblings = set.variants
    .filter((_, i) => i !== index)
    .map((s) => s.key)
    .filter((k) => !has(v.key, k) && !has(k, v.key));
  return {
    prompt: "subtlememory/session",
    vars: {
      conversation_type: plan.type.replace(/_/g, " "),
      rhythm: plan.rhythm,
      about: set.seed.about,
      persona:
        set.seed.source === "user-related"
          ? `${persona} Let their background show ${plan.signal ?? "medium"}ly.`
          : "Not relevant: the user is working on a general-knowledge task.",
      fact,
      key: v.key,
      speaker: v.speaker === "user" ? "the user" : "the assistant (quoting a reference it consulted)",
      avoid: siblings.length ? siblings.map((s) => `"${s}"`).join(", ") : "(nothing)",
    },
    schema: sessionReply,
    template: () => ({ messages: templateSession(set, index, plan, rng) }),
    check: ({ messages }) => {
      if (messages.length < 6) return `expected at least 6 messages, got ${messages.length}`;
      for (const [i, m] of messages.entries()) {
        if (m.role !== (i % 2 === 0 ? "user" : "assistant"))
          return `message ${i + 1} should be from the ${i % 2 === 0 ? "user" : "assistant"}: the session must start with the user and alternate`;
      }
      if (has(messages[0]?.content ?? "", v.key)) return `the opening message must not state "${v.key}" yet`;
      if (!messages.some((m) => m.role === v.speaker && has(m.content, v.key)))
        return `a ${v.speaker} message must state "${v.key}" verbatim`;
      const leaked = siblings.find((s) => messages.some((m) => has(m.content, s)));
      if (leaked) return `the session must not mention "${leaked}", which belongs to another session`;
      return undefined;
    },
    maxTokens: 1500,
    item,
  };
}

const queryReply = z.object({
  query: z.string().min(1),
  correct_answers: z.array(z.string().min(1)),
  incorrect_answers: z.array(z.string().min(1)),
});

/** Stage 4: the query with three correct and three relation-specific incorrect answers. */
export function queryRequest(
  set: VariantSet,
  qaIndex: number,
  facts: string[],
  item: string,
): JsonRequest<z.infer<typeof queryReply>> {
  const qa = set.qas[qaIndex];
  if (!qa) throw new Error(`no query ${qaIndex}`);
  return {
    prompt: "subtlememory/query",
    vars: {
      relation: RELATION_RULES[set.subtype] ?? set.subtype,
      kind:
        set.seed.source === "user-related"
          ? "an assistant task the user asks for (a form to fill or options to choose from)"
          : "a knowledge question",
      about: set.seed.about,
      facts: facts.map((f, i) => `${i + 1}. ${f}`).join("\n"),
      draft_query: qa.query,
      correct: qa.correct.map((c) => `- ${c}`).join("\n"),
      incorrect: qa.incorrect.map((c) => `- ${c}`).join("\n"),
      condition: qa.condition ?? "(none)",
    },
    schema: queryReply,
    template: () => ({ query: qa.query, correct_answers: qa.correct, incorrect_answers: qa.incorrect }),
    check: (value) => {
      if (value.correct_answers.length !== 3 || value.incorrect_answers.length !== 3) {
        return `expected 3 correct and 3 incorrect answers, got ${value.correct_answers.length} and ${value.incorrect_answers.length}`;
      }
      if (qa.condition && !has(value.query, qa.condition))
        return `the query must name its condition "${qa.condition}" verbatim`;
      if (qa.answerKey && has(value.query, qa.answerKey)) return `the query gives the answer "${qa.answerKey}" away`;
      return undefined;
    },
    maxTokens: 1200,
    item,
  };
}
