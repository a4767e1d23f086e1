/**
 * Realisation (paper §3.4, Algorithm 1 step 9; upstream Step4_1, Step4_2 and
 * the question rewrite of Step4_4): event types per session, a synopsis, the
 * user–assistant dialogue that states every fact the session carries
 * (attributed to the right person), and the wording of the questions. With
 * templates every step is our own deterministic text; with a model the
 * prompts in `prompts/` ask for it, and each reply is checked (a dialogue
 * must state every fact, a rewrite must keep every question id) before it
 * is used.
 */
import { z } from "zod";
import { ModelError } from "../../core/errors.ts";
import type { Rng } from "../rng.ts";
import type { Realiser } from "../types.ts";
import { coverageProblem, type Mention } from "./mentions.ts";
import type { Dialogue, Message, Profile, Session } from "./model.ts";
import type { Pools } from "./pools.ts";
import type { Draft } from "./questions.ts";

export const CHITCHAT_EVENTS = [
  "Casual_Catch_Up",
  "Sharing_a_Small_Daily_Story",
  "Talking_About_Food_and_Mood",
  "Weekend_Plan_Chat",
  "Weather_and_Daily_Life_Chat",
  "Remembering_an_Old_Experience",
  "Talking_About_a_Hobby",
  "Light_Complaint_or_Funny_Incident",
  "Reflecting_on_Life_Lately",
  "Talking_About_a_Recent_Show_or_Movie",
];

const UPDATE_EVENTS: Record<string, string> = {
  Residence: "Relocation_Update",
  Career_Status: "Career_Change_Update",
  Marital_Status: "Relationship_Status_Change",
  Work_Status: "Workload_Change_Update",
  Health_Status: "Health_Condition_Update",
  Social_Status: "Social_Life_Change_Update",
  Children_Status: "Family_Expansion_Update",
};

const REVEAL_EVENTS: Record<string, string> = {
  Residence: "Talking_About_Current_Residence",
  Marital_Status: "Talking_About_Current_Relationship",
  Children_Status: "Talking_About_Current_Family_Life",
  Career_Status: "Talking_About_Current_Career",
  Work_Status: "Talking_About_Current_Work_Rhythm",
  Health_Status: "Talking_About_Current_Health",
  Social_Relationships: "Talking_About_Current_Social_Life",
};

export function eventTypes(rng: Rng, session: Session): string[] {
  switch (session.Session_Type) {
    case "initial_reveal":
      return Object.keys(session.Revealed_Attributes ?? {}).map((a) => REVEAL_EVENTS[a] ?? "Initial_Life_Update");
    case "update":
      return [...new Set((session.Updated_Attributes ?? []).map((u) => UPDATE_EVENTS[u.Attribute] ?? "Life_Update"))];
    case "chitchat":
      return [rng.pick(CHITCHAT_EVENTS)];
    default:
      return ["Future_Planning_Conversation"];
  }
}

const words = (event: string) =>
  event
    .replace(/_/g, " ")
    .toLowerCase()
    .replace(/^talking about (a |the )?|^sharing a /, "");

function factList(mentions: readonly Mention[]): string {
  if (!mentions.length) return "- (nothing specific: no new facts)";
  return mentions
    .map((m) =>
      m.other
        ? `- about the user's ${m.other.relationship.toLowerCase()} ${m.other.name} (not about the user): ${m.fact}`
        : `- about the user: ${m.fact}`,
    )
    .join("\n");
}

function templateOutline(session: Session, events: string[], mentions: readonly Mention[], profile: Profile): string {
  const facts = mentions.map((m) => m.fact).join("; ");
  switch (session.Session_Type) {
    case "initial_reveal":
      return `The user casually talks about ${events.map(words).join(" and ")}: ${facts}. The assistant listens, asks friendly follow-up questions and offers light, practical help.`;
    case "update":
      return `The user shares what has changed: ${facts}. The assistant acknowledges the news, asks about timing and impact, and suggests a few concrete next steps.`;
    case "chitchat":
      return `A relaxed conversation (${words(events[0] ?? "casual catch up")}) with no major life changes.${facts ? ` Along the way the user mentions: ${facts}.` : ""}`;
    default:
      return `The user looks ahead to the coming years and their goal (${profile.Life_Goal.Description}); the assistant helps turn it into first concrete steps. Plans only, nothing has happened yet.`;
  }
}

export interface SessionText {
  outline: string;
  dialogue: Dialogue;
}

const dialogueSchema = z.object({
  turns: z.array(z.object({ user: z.string().min(1), assistant: z.string().min(1) })).min(1),
});

function toDialogue(turns: ReadonlyArray<{ user: string; assistant: string }>): Dialogue {
  const out: Dialogue = {};
  turns.forEach((t, i) => {
    out[`dialogue_turn_${i + 1}`] = [
      { role: "user", content: t.user },
      { role: "assistant", content: t.assistant },
    ];
  });
  return out;
}

export function dialogueMessages(d: Dialogue): Message[] {
  return Object.values(d).flat();
}

function templateTurns(
  rng: Rng,
  pools: Pools,
  session: Session,
  events: string[],
  mentions: readonly Mention[],
  n: number,
): Array<{ user: string; assistant: string }> {
  const talk = pools.Membench_Extras.Small_Talk;
  const opener =
    session.Session_Type === "initial_reveal"
      ? talk.Reveal
      : session.Session_Type === "update"
        ? talk.Update
        : undefined;
  const filler = [...(talk[events[0] ?? ""] ?? []), ...(talk.Casual_Catch_Up ?? ["Not much else to report."])];
  const replies = pools.Membench_Extras.Assistant_Lines;
  // Spread the facts over the dialogue, one per turn while there is room, in a random order of turns.
  const slots = rng
    .sample(
      Array.from({ length: n }, (_, i) => i),
      Math.min(n, mentions.length),
    )
    .sort((a, b) => a - b);
  const byTurn = new Map<number, Mention[]>();
  mentions.forEach((m, i) => {
    const turn = slots[i % Math.max(1, slots.length)] ?? 0;
    byTurn.set(turn, [...(byTurn.get(turn) ?? []), m]);
  });
  return Array.from({ length: n }, (_, i) => {
    const said = byTurn.get(i);
    const lead = i === 0 && opener ? `${rng.pick(opener)} ` : "";
    if (said) {
      return {
        user: `${lead}${said.map((m) => m.line).join(" ")}`,
        assistant: rng.pick(replies),
      };
    }
    const follow = rng.bool(0.5) ? ` ${rng.pick(pools.Membench_Extras.User_Follow_Ups)}` : "";
    return { user: `${lead}${rng.pick(filler)}${follow}`, assistant: rng.pick(replies) };
  });
}

export interface RealiseInput {
  rng: Rng;
  pools: Pools;
  realiser: Realiser;
  profile: Profile;
  session: Session;
  mentions: readonly Mention[];
  events: string[];
  turns: number;
  /** `persona 2, session 14`, for errors. */
  item: string;
}

/** The synopsis and the dialogue of one session. */
export async function realiseSession(input: RealiseInput): Promise<SessionText> {
  const { rng, pools, realiser, profile, session, mentions, events, turns, item } = input;
  const common = {
    name: String(profile.Fixed_Profile.Name),
    persona_seed: profile.metadata.persona_seed,
    session_type: session.Session_Type,
    event_types: events.map(words).join(", "),
    date: session.Date,
    facts: factList(mentions),
    life_goal: profile.Life_Goal.Description,
  };
  const outline = await realiser.text({
    prompt: "memconflict/outline",
    vars: common,
    template: () => templateOutline(session, events, mentions, profile),
    check: (t) => (/^\s*([-*•]|\d+\.)\s/m.test(t) ? "the synopsis must be prose, not a list" : undefined),
    maxTokens: 600,
    item,
  });
  const min = Math.max(1, Math.ceil(turns * 0.8));
  const reply = await realiser.json({
    prompt: "memconflict/dialogue",
    vars: { ...common, outline, turns },
    schema: dialogueSchema,
    template: () => ({ turns: templateTurns(rng.fork("dialogue"), pools, session, events, mentions, turns) }),
    check: (v) => {
      if (v.turns.length < min || v.turns.length > turns + 3) return `${v.turns.length} turns, expected about ${turns}`;
      return coverageProblem(dialogueMessages(toDialogue(v.turns)), mentions);
    },
    maxTokens: Math.max(4000, turns * 220),
    item,
  });
  return { outline, dialogue: toDialogue(reply.turns) };
}

const rewriteSchema = z.object({
  rewritten_questions: z.array(z.object({ question_id: z.string(), question: z.string().min(1) })),
});

export type RewriteMethod = "template" | "llm" | "fallback_template";

/**
 * The wording of one session's questions: `direct` (a model polishes the
 * templates; templates keep them) or `indirect` (the implicit-query ablation).
 * A model reply must keep every id in order; one that does not, after the
 * realiser's attempts, leaves the template wording, as upstream's
 * structural check does.
 */
export async function wordQuestions(
  realiser: Realiser,
  drafts: readonly Draft[],
  style: "direct" | "indirect",
  item: string,
): Promise<{ texts: string[]; method: RewriteMethod }> {
  const ids = drafts.map((_, i) => `Q_${String(i + 1).padStart(3, "0")}`);
  const template = drafts.map((d) => (style === "direct" ? d.question : d.indirect));
  if (!drafts.length) return { texts: [], method: "template" };
  const listing = drafts
    .map((d, i) => JSON.stringify({ question_id: ids[i], question: d.question, answer: d.answer }))
    .join("\n");
  try {
    const reply = await realiser.json({
      prompt: style === "direct" ? "memconflict/rewrite" : "memconflict/indirect",
      vars: { questions: listing, count: drafts.length },
      schema: rewriteSchema,
      template: () => ({
        rewritten_questions: template.map((question, i) => ({ question_id: ids[i] as string, question })),
      }),
      check: (v) => {
        const got = v.rewritten_questions.map((q) => q.question_id);
        return got.length === ids.length && got.every((id, i) => id === ids[i])
          ? undefined
          : `question ids ${got.join(", ")} do not match ${ids.join(", ")}`;
      },
      maxTokens: 200 + drafts.length * 80,
      item,
    });
    return {
      texts: reply.rewritten_questions.map((q) => q.question),
      method: realiser.kind === "llm" ? "llm" : "template",
    };
  } catch (error) {
    if (!(error instanceof ModelError) || realiser.kind !== "llm") throw error;
    return { texts: template, method: "fallback_template" };
  }
}
