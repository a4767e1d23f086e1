/**
 * A tiny generator for testing the synth infrastructure on its own: it writes
 * LongMemEval instances ("I moved to <city>") so the output loads with a real
 * membench loader, realises one turn per instance through the realiser, and
 * validates that each question's evidence session exists and says the answer.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { jsonText } from "../../src/synth/output.ts";
import type { Generator, ValidationIssue } from "../../src/synth/types.ts";

export const TOY_FILE = "longmemeval_s_cleaned.json";
export const CITIES = ["Lisbon", "Oslo", "Quito", "Hanoi", "Tunis", "Perth"];

const knobs = z.object({
  instances: z.int().min(1).default(2).describe("number of questions, one instance each"),
  fillers: z.int().min(0).default(1).describe("unrelated sessions per instance"),
  topics: z.array(z.string()).default(["basil", "trains"]).describe("filler topics"),
  uppercase: z.boolean().default(false).describe("shout the filler turns"),
  style: z.enum(["plain", "chatty"]).default("plain").describe("filler style"),
});
export type ToyKnobs = z.infer<typeof knobs>;

interface Turn {
  role: string;
  content: string;
  has_answer?: boolean;
}

export const toyGenerator: Generator<ToyKnobs> = {
  benchmark: "longmemeval",
  summary: "toy: one moved-to-a-city question per instance",
  version: "0.0.1",
  knobs,
  sizeKnob: "instances",
  async generate(k, ctx) {
    ctx.progress.stage("toy", k.instances, "instances");
    const instances = [];
    for (let i = 0; i < k.instances; i++) {
      const rng = ctx.rng.fork(`instance/${i}`);
      const city = rng.pick(CITIES);
      const said = await ctx.realiser.text({
        prompt: "longmemeval/toy-turn",
        vars: { city, n: i },
        template: () => `I moved to ${city} last spring.`,
        check: (t) => (t.includes(city) ? undefined : `does not mention ${city}`),
        item: `instance ${i}`,
      });
      const sessions: Turn[][] = [];
      const ids: string[] = [];
      for (let f = 0; f < k.fillers; f++) {
        const topic = rng.pick(k.topics);
        const text = `${k.style === "chatty" ? "Hey! " : ""}Tell me about ${topic}.`;
        sessions.push([
          { role: "user", content: k.uppercase ? text.toUpperCase() : text },
          { role: "assistant", content: `Here is something about ${topic}.` },
        ]);
        ids.push(`filler_${i}_${f}`);
      }
      const at = rng.int(0, sessions.length);
      sessions.splice(at, 0, [
        { role: "user", content: said, has_answer: true },
        { role: "assistant", content: "Noted." },
      ]);
      ids.splice(at, 0, `answer_${i}`);
      instances.push({
        question_id: `toy_${i}`,
        question_type: "single-session-user",
        question: "Which city did I move to?",
        answer: city,
        question_date: "2023/05/30 (Tue) 23:17",
        haystack_session_ids: ids,
        haystack_dates: ids.map((_, j) => `2023/05/${String(10 + j).padStart(2, "0")} (Wed) 10:00`),
        haystack_sessions: sessions,
        answer_session_ids: [`answer_${i}`],
      });
      ctx.progress.tick();
    }
    ctx.write(TOY_FILE, jsonText(instances, 1));
  },
  async validate(dir) {
    const issues: ValidationIssue[] = [];
    const data = JSON.parse(readFileSync(join(dir, TOY_FILE), "utf8")) as Array<{
      question_id: string;
      answer: string;
      haystack_session_ids: string[];
      haystack_sessions: Turn[][];
      answer_session_ids: string[];
    }>;
    data.forEach((q, i) => {
      for (const id of q.answer_session_ids) {
        const at = q.haystack_session_ids.indexOf(id);
        if (at < 0) {
          issues.push({
            file: TOY_FILE,
            record: `[${i}] (${q.question_id})`,
            field: "answer_session_ids",
            problem: `evidence session ${id} is not in the history`,
          });
        } else if (!q.haystack_sessions[at]?.some((t) => t.content.includes(q.answer))) {
          issues.push({
            file: TOY_FILE,
            record: `[${i}] (${q.question_id})`,
            field: "answer",
            problem: `evidence session ${id} does not say "${q.answer}"`,
          });
        }
      }
    });
    return issues;
  },
};
