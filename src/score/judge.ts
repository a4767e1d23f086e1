/**
 * Judge plumbing shared by every benchmark: a judge is a named model; each call
 * renders a prompt, asks for a structured verdict (zod), and records the
 * verdict with the judge's name, the sample index and the template hash.
 * A verdict that cannot be parsed after the model layer's repair retry is a
 * failure with its reason — the scorer then counts the worst outcome of its
 * scale, never a default pass.
 */
import type { z } from "zod";
import { structured } from "../llm/structured.ts";
import type { ChatModel } from "../llm/types.ts";
import type { PromptSet } from "./prompts.ts";

export interface NamedJudge {
  /** The judge's name in reports: its model name (several scripted judges differ by name). */
  name: string;
  model: ChatModel;
}

export interface VerdictRecord {
  judge: string;
  sample: number;
  template: string;
  templateHash: string;
  promptSet: string;
  ok: boolean;
  /** The parsed verdict when ok. */
  value?: unknown;
  /** Why it failed: unparseable reply, schema mismatch, model error. */
  failure?: string;
  /** Which part of the probe it judged (a criterion index, a sub-question). */
  part?: string;
}

export interface JudgeContext {
  judges: NamedJudge[];
  /** Samples per judge (`--judge-runs`). */
  runs: number;
  prompts: PromptSet;
}

export interface JudgeCall<T> {
  bench: string;
  template: string;
  vars: Record<string, string | number>;
  schema: z.ZodType<T>;
  part?: string;
}

/** One call of one judge for one sample. */
export async function judgeOnce<T>(
  judge: NamedJudge,
  call: JudgeCall<T>,
  prompts: PromptSet,
  sample: number,
): Promise<VerdictRecord & { value?: T }> {
  const prompt = prompts.render(call.bench, call.template, call.vars);
  const base = {
    judge: judge.name,
    sample,
    template: prompt.template,
    templateHash: prompt.templateHash,
    promptSet: prompt.promptSet,
    ...(call.part !== undefined ? { part: call.part } : {}),
  };
  try {
    const { value } = await structured(
      judge.model,
      { role: "judge", messages: [{ role: "user", content: prompt.text }], temperature: 0, sample },
      call.schema,
      { name: call.template.replace(/[^a-zA-Z0-9_-]/g, "_") },
    );
    return { ...base, ok: true, value };
  } catch (error) {
    return { ...base, ok: false, failure: (error as Error).message ?? String(error) };
  }
}

/** Every judge × every sample for one call. */
export async function judgeAll<T>(
  call: JudgeCall<T>,
  ctx: JudgeContext,
): Promise<Array<VerdictRecord & { value?: T }>> {
  const calls: Array<Promise<VerdictRecord & { value?: T }>> = [];
  for (const judge of ctx.judges) {
    for (let sample = 0; sample < Math.max(1, ctx.runs); sample++)
      calls.push(judgeOnce(judge, call, ctx.prompts, sample));
  }
  return Promise.all(calls);
}

/**
 * Majority vote over verdicts, each mapped to a score where failures count as
 * `worst`. Ties go to the worse outcome, so disagreement never inflates a score.
 */
export function majority(scores: readonly number[], worst: number): number {
  if (!scores.length) return worst;
  const counts = new Map<number, number>();
  for (const s of scores) counts.set(s, (counts.get(s) ?? 0) + 1);
  let best: number | undefined;
  let bestCount = -1;
  for (const [score, count] of counts) {
    const worse = best === undefined || Math.abs(score - worst) < Math.abs(best - worst);
    if (count > bestCount || (count === bestCount && worse)) {
      best = score;
      bestCount = count;
    }
  }
  return best ?? worst;
}

/** Scores of verdicts, each failure replaced by the worst outcome of the scale. */
export function verdictScores<T>(
  verdicts: ReadonlyArray<VerdictRecord & { value?: T }>,
  toScore: (value: T) => number,
  worst: number,
): number[] {
  return verdicts.map((v) => (v.ok && v.value !== undefined ? toScore(v.value) : worst));
}
