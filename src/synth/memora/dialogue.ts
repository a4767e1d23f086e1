/**
 * Memora's conversation realisation (the paper's Stage 2, arXiv 2604.20006
 * App. B): an intent flow per session in four phases (opening → exploration →
 * memory → closing), the memory phase skipped for memory-neutral sessions and
 * written field by field for documents. Each turn of the flow carries the
 * instruction a model gets, our own template text, whether it shares the
 * session's memory (`share_memory`), and the values it must state verbatim —
 * the grounding check of the paper's auto-evaluation loop, reduced to what can
 * be checked without a judge.
 */
import { z } from "zod";
import type { Rng } from "../rng.ts";
import type { JsonRequest } from "../types.ts";
import type { Persona } from "./catalogue.ts";
import { fieldLabel } from "./documents.ts";
import {
  CLOSINGS_AI,
  CLOSINGS_USER,
  GREETINGS_AI,
  GREETINGS_USER,
  NEUTRAL_TOPICS,
  SMALL_TALK_USER,
} from "./neutral-topics.ts";
import { addDays, type Share, type SimSession } from "./simulate.ts";

export type Speaker = "user_agent" | "ai_agent";
export type Phase = "opening" | "exploration" | "memory" | "closing";

export interface FlowTurn {
  speaker: Speaker;
  phase: Phase;
  shareMemory: boolean;
  /** What the turn must do, for a model. */
  instruction: string;
  /** Our own text for the turn. */
  template: string;
  /** Values the turn must contain verbatim (memory turns only). */
  required: string[];
}

export interface ReleaseTurn {
  turn: number;
  speaker: Speaker;
  message: string;
  share_memory: boolean;
}

const num = (n: number) => n.toLocaleString("en-US");
const usd = (n: number) => `$${n.toFixed(2)}`;
const label = (s: string) => s.replace(/_/g, " ");
const spendWord = (t: string) => (t === "grocery" ? "groceries" : t);
const longDate = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString("en-US", { month: "long", day: "numeric", timeZone: "UTC" });

const DOC_NAMES: Readonly<Record<string, string>> = {
  project_proposal: "project proposal",
  email_writeup: "email",
  meeting_notes: "meeting notes",
  social_media_post: "social media post",
};

function user(phase: Phase, instruction: string, template: string, required: string[] = []): FlowTurn {
  return { speaker: "user_agent", phase, shareMemory: required.length > 0, instruction, template, required };
}

function ai(phase: Phase, instruction: string, template: string): FlowTurn {
  return { speaker: "ai_agent", phase, shareMemory: false, instruction, template, required: [] };
}

/** The user turns (and assistant acknowledgements) that carry the session's operation. */
function memoryTurns(share: Share, date: string, rng: Rng): FlowTurn[] {
  const ack = (what: string) =>
    ai(
      "memory",
      `Acknowledge briefly that ${what}, without repeating other memories.`,
      rng.pick([`Got it, I've noted that.`, `Noted. Thanks for letting me know.`, `Okay, I'll keep that in mind.`]),
    );
  switch (share.kind) {
    case "expense": {
      const amount = usd(share.amount);
      const what = spendWord(share.expenseType);
      return [
        user(
          "memory",
          `Mention that you just spent ${amount} on ${what}.`,
          rng.pick([
            `By the way, I just spent ${amount} on ${what}.`,
            `Quick note: ${what} cost me ${amount} today.`,
            `I paid ${amount} for ${what} a little while ago.`,
          ]),
          [amount],
        ),
        ack(`the ${what} expense was logged`),
      ];
    }
    case "steps": {
      const steps = num(share.count);
      return [
        user(
          "memory",
          `Mention that your step count today was ${steps} steps.`,
          rng.pick([
            `My tracker says I walked ${steps} steps today.`,
            `I got ${steps} steps in today.`,
            `Today's step count came to ${steps}.`,
          ]),
          [steps],
        ),
        ack("the step count was recorded"),
      ];
    }
    case "todo":
      return share.op === "add"
        ? [
            ai(
              "memory",
              "Ask whether there is anything the user needs to get done.",
              "Anything on your plate you want me to keep track of?",
            ),
            user(
              "memory",
              `Say you need to add the task "${share.description}" to your todo list.`,
              rng.pick([
                `Yes, please add "${share.description}" to my todo list.`,
                `I still need to handle this: ${share.description}.`,
                `Put "${share.description}" on my list, please.`,
              ]),
              [share.description],
            ),
            ack("the task was added"),
          ]
        : [
            user(
              "memory",
              `Say the task "${share.description}" is done and can come off your todo list.`,
              rng.pick([
                `I finished "${share.description}", so you can take it off my list.`,
                `"${share.description}" is done now. Please remove it.`,
                `You can cross off ${share.description}; it's taken care of.`,
              ]),
              [share.description],
            ),
            ack("the task was removed"),
          ];
    case "calendar": {
      if (share.op === "delete") {
        return [
          user(
            "memory",
            `Say that "${share.name}" is cancelled and should come off your calendar.`,
            `${share.name} is cancelled, so please take it off my calendar.`,
            [share.name],
          ),
          ack("the event was removed"),
        ];
      }
      const on = longDate(addDays(date, share.op === "add" ? share.inDays : 0));
      if (share.op === "add") {
        return [
          user(
            "memory",
            `Ask to put "${share.name}" on your calendar for ${on} (in ${share.inDays} days).`,
            rng.pick([
              `Can you put ${share.name} on my calendar for ${on}?`,
              `I have ${share.name} coming up on ${on}; please add it.`,
            ]),
            [share.name],
          ),
          ack("the event was added"),
        ];
      }
      return [
        user(
          "memory",
          `Say that "${share.name}" has been moved to a new date, ${share.inDays} days after it was first scheduled.`,
          `${share.name} got moved; it's now ${share.inDays} days after the date I first set it up.`,
          [share.name],
        ),
        ack("the event was rescheduled"),
      ];
    }
    case "preference": {
      const what = `${label(share.subcategory)} in ${share.domain}`;
      if (share.op === "add") {
        const text =
          share.preference === "like"
            ? rng.pick([
                `When it comes to ${what}, I've really been into ${share.item} lately.`,
                `I really like ${share.item}.`,
                `${share.item} is a favourite of mine these days.`,
              ])
            : rng.pick([
                `I'm honestly not a fan of ${share.item}.`,
                `When it comes to ${what}, I don't enjoy ${share.item} at all.`,
                `${share.item} just isn't for me.`,
              ]);
        return [
          ai(
            "memory",
            `Ask the user, in passing, about their taste in ${share.domain}.`,
            `Out of curiosity, what's your taste in ${share.domain} like these days?`,
          ),
          user("memory", `State that you ${share.preference} ${share.item} (${what}).`, text, [share.item]),
          ack(`their ${share.preference} of ${share.item} was noted`),
        ];
      }
      if (share.op === "delete") {
        return [
          user(
            "memory",
            `Say that your ${share.preference} of ${share.item} no longer holds; it should be forgotten.`,
            rng.pick([
              `I don't really have feelings about ${share.item} anymore; you can forget that.`,
              `Please drop ${share.item} from what you know about my taste; it no longer applies.`,
            ]),
            [share.item],
          ),
          ack("the preference was removed"),
        ];
      }
      if (share.oldItem) {
        return [
          user(
            "memory",
            `Say you've moved on from ${share.oldItem} and now ${share.preference} ${share.item} instead (${what}).`,
            `I've moved on from ${share.oldItem}; these days I ${share.preference === "like" ? "prefer" : "can't stand"} ${share.item} instead.`,
            [share.item, share.oldItem],
          ),
          ack("the preference was updated"),
        ];
      }
      return [
        user(
          "memory",
          `Say your feeling about ${share.item} has reversed: you used to ${share.oldPreference} it and now you ${share.preference} it.`,
          `Funny thing: I used to ${share.oldPreference} ${share.item}, but now I ${share.preference} it.`,
          [share.item],
        ),
        ack("the change of taste was noted"),
      ];
    }
    case "goal": {
      if (share.target === "daily_steps") {
        const v = num(share.value);
        return [
          user(
            "memory",
            `Set your daily step goal to ${v} steps${share.oldValue ? ` (it was ${num(share.oldValue)})` : ""}.`,
            share.oldValue
              ? `Let's change my daily step goal from ${num(share.oldValue)} to ${v} steps.`
              : `I want to aim for ${v} steps a day from now on.`,
            [v],
          ),
          ack("the step goal was set"),
        ];
      }
      const v = usd(share.value);
      return [
        user(
          "memory",
          `Set a weekly ${share.target} budget of ${v}${share.oldValue ? ` (it was ${usd(share.oldValue)})` : ""}.`,
          share.oldValue
            ? `Please change my weekly ${share.target} budget from ${usd(share.oldValue)} to ${v}.`
            : `I want to keep my ${share.target} spending under ${v} a week.`,
          [v],
        ),
        ack("the budget was set"),
      ];
    }
    case "content": {
      const doc = DOC_NAMES[share.docType] ?? label(share.docType);
      const turns: FlowTurn[] = [];
      if (share.op === "add") {
        turns.push(
          ai(
            "memory",
            `Offer to help draft a ${doc} and ask for its details.`,
            `Want to start that ${doc}? Walk me through the details.`,
          ),
        );
        share.fields.forEach((f, i) => {
          if (i > 0) turns.push(ai("memory", `Ask for the ${fieldLabel(f.field)}.`, `And the ${fieldLabel(f.field)}?`));
          turns.push(
            user(
              "memory",
              `Give the ${fieldLabel(f.field)} of the ${doc}: ${f.value}`,
              `The ${fieldLabel(f.field)} is: ${f.value}`,
              [f.value],
            ),
          );
        });
        turns.push(ack(`the ${doc} draft was saved`));
        return turns;
      }
      const items = share.op === "update" ? share.fields : (share.removed ?? []);
      turns.push(
        ai(
          "memory",
          `Ask whether there are changes to the ${doc} "${share.title}".`,
          `Any changes for the ${doc} "${share.title}"?`,
        ),
      );
      items.forEach((f, i) => {
        if (i > 0) turns.push(ai("memory", "Ask whether there is anything else to change.", "Anything else?"));
        turns.push(
          share.op === "update"
            ? user(
                "memory",
                `Add to the ${fieldLabel(f.field)}: ${f.value}`,
                `Yes, add this to the ${fieldLabel(f.field)}: ${f.value}`,
                [f.value],
              )
            : user(
                "memory",
                `Ask to remove this from the ${fieldLabel(f.field)}: ${f.value}`,
                `Please remove this from the ${fieldLabel(f.field)}: ${f.value}`,
                [f.value],
              ),
        );
      });
      turns.push(ack(`the ${doc} was updated`));
      return turns;
    }
  }
}

/** The session's intent flow: opening, neutral exploration, memory phase, closing. */
export function sessionFlow(session: SimSession, rng: Rng): FlowTurn[] {
  const flow: FlowTurn[] = [
    user("opening", "Greet the assistant casually.", rng.pick(GREETINGS_USER)),
    ai("opening", "Greet the user back and invite them to talk.", rng.pick(GREETINGS_AI)),
  ];
  if (rng.bool(0.5))
    flow.push(
      user("opening", "Make brief small talk before asking something.", rng.pick(SMALL_TALK_USER)),
      ai("opening", "Reply briefly and warmly.", "Sure, ask away."),
    );
  const topics = rng.sample(NEUTRAL_TOPICS, session.share ? rng.int(1, 2) : rng.int(2, 3));
  for (const topic of topics) {
    flow.push(
      user("exploration", `Ask a general-knowledge question about ${topic.topic}.`, topic.question),
      ai("exploration", `Answer the question about ${topic.topic} in one or two sentences.`, topic.answer),
      user("exploration", `Ask a short follow-up about ${topic.topic}.`, topic.followUp),
      ai("exploration", "Answer the follow-up briefly.", topic.followAnswer),
    );
  }
  if (session.share) flow.push(...memoryTurns(session.share, session.date, rng.fork("memory")));
  flow.push(user("closing", "Wrap up the conversation.", rng.pick(CLOSINGS_USER)));
  if (rng.bool(0.7)) flow.push(ai("closing", "Say goodbye and offer future help.", rng.pick(CLOSINGS_AI)));
  return flow;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/(\d),(?=\d{3}\b)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();

/** Whether `text` states `value` (case, spacing, quotes and thousands separators aside). */
export function mentions(text: string, value: string): boolean {
  return norm(text).includes(norm(value));
}

const reply = z.object({ turns: z.array(z.string().min(1)) });

/** The request that realises one session: our templates, or the model following the flow. */
export function sessionRequest(
  session: SimSession,
  persona: Persona,
  flow: FlowTurn[],
): JsonRequest<{ turns: string[] }> {
  const lines = flow.map(
    (t, i) =>
      `${i + 1}. ${t.speaker === "user_agent" ? "USER" : "ASSISTANT"} (${t.phase}): ${t.instruction}${t.required.length ? ` Must contain verbatim: ${t.required.map((r) => JSON.stringify(r)).join(", ")}.` : ""}`,
  );
  return {
    prompt: "memora/session",
    vars: {
      persona: `${/^[aeiou]/i.test(persona.title) ? "an" : "a"} ${persona.title.toLowerCase()}`,
      date: session.date,
      turn_count: flow.length,
      flow: lines.join("\n"),
    },
    schema: reply,
    template: () => ({ turns: flow.map((t) => t.template) }),
    check: (value) => {
      if (value.turns.length !== flow.length) return `expected ${flow.length} turns, got ${value.turns.length}`;
      for (const [i, t] of flow.entries()) {
        const missing = t.required.filter((r) => !mentions(value.turns[i] as string, r));
        if (missing.length)
          return `turn ${i + 1} must contain verbatim: ${missing.map((m) => JSON.stringify(m)).join(", ")}`;
      }
      return undefined;
    },
    maxTokens: 200 + flow.length * 80,
    item: `session ${session.id}`,
  };
}

/** The release's `conversation` array from a flow and its texts. */
export function releaseTurns(flow: FlowTurn[], texts: string[]): ReleaseTurn[] {
  return flow.map((t, i) => ({
    turn: i + 1,
    speaker: t.speaker,
    message: texts[i] ?? t.template,
    share_memory: t.shareMemory,
  }));
}
