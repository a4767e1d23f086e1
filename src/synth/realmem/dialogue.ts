/**
 * Writing a RealMem session's turns: our templates, or the model playing
 * both agents from the session's plan (the paper's user agent sees only the
 * task at hand; the assistant sees the memories it cites). The check keeps
 * every value a memory point or a citation depends on in the turn that must
 * carry it, so the extracted memories stay true to the dialogue.
 */
import { z } from "zod";
import { coverage } from "../text-overlap.ts";
import type { JsonRequest } from "../types.ts";
import type { UserProfile } from "./catalogue.ts";
import type { SessionSkeleton } from "./sessions.ts";
import { MIN_SOURCE_COVERAGE } from "./validate.ts";

const reply = z.object({ turns: z.array(z.string().min(1)) });

const has = (text: string, value: string) => text.toLowerCase().includes(value.toLowerCase());

export function dialogueRequest(
  session: SessionSkeleton,
  user: UserProfile,
  item: string,
): JsonRequest<{ turns: string[] }> {
  const cited = [...new Map(session.turns.flatMap((t) => t.cites ?? []).map((m) => [m.index, m])).values()];
  const flow = session.turns.map(
    (t, i) =>
      `${i + 1}. ${t.speaker.toUpperCase()}: ${t.instruction}${t.cites?.length ? ` Cite: ${t.cites.map((m) => `[${m.index}]`).join(", ")}.` : ""}${t.required.length ? ` Must contain verbatim: ${t.required.map((r) => JSON.stringify(r)).join(", ")}.` : ""}`,
  );
  return {
    prompt: "realmem/session",
    vars: {
      user: `${user.name}, ${user.role} (${user.demographics.age}, ${user.demographics.location})`,
      date: session.date,
      purpose: session.filler ? "An everyday chat unrelated to the user's projects." : session.summary,
      memories: cited.length ? cited.map((m) => `[${m.index}] ${m.content}`).join("\n") : "(none)",
      turn_count: session.turns.length,
      flow: flow.join("\n"),
    },
    schema: reply,
    template: () => ({ turns: session.turns.map((t) => t.template) }),
    check: ({ turns }) => {
      if (turns.length !== session.turns.length) return `expected ${session.turns.length} turns, got ${turns.length}`;
      for (const [i, t] of session.turns.entries()) {
        const missing = t.required.filter((r) => !has(turns[i] as string, r));
        if (missing.length)
          return `turn ${i + 1} must contain verbatim: ${missing.map((m) => JSON.stringify(m)).join(", ")}`;
      }
      // A memory point is extracted from its turn: the turn must say it, not just carry its value.
      for (const m of session.memories) {
        if (m.turn < 0) continue;
        const point = m.content.replace(/^【[^】]*】/, "");
        if (coverage(point, turns[m.turn] as string) < MIN_SOURCE_COVERAGE)
          return `turn ${m.turn + 1} must state: ${point}`;
      }
      return undefined;
    },
    maxTokens: 300 + session.turns.length * 150,
    item,
  };
}
