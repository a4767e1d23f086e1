/**
 * Judge plumbing shared by every benchmark: a judge is a named model; each call
 * renders a prompt, asks for a structured verdict (zod), and records the
 * verdict with the judge's name, the sample index and the template hash.
 * A verdict that cannot be parsed after the model layer's repair retry, or a
 * call that failed at the endpoint, is a failure with its cause and reason,
 * never a default pass; how a failure votes is the scorer's rule (by default
 * the worst outcome of its scale).
 */
import { createHash } from "node:crypto";
import type { z } from "zod";
import { ModelError } from "../core/errors.ts";
import { StructuredOutputError, structured } from "../llm/structured.ts";
import type { ChatModel } from "../llm/types.ts";
import type { JudgeFailureCause } from "./judge-failures.ts";
import type { PromptSet } from "./prompts.ts";

export { describeJudgeFailures, failureCauseOf, type JudgeFailureCause } from "./judge-failures.ts";

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
  /** What kind of failure (absent in verdicts stored before causes were recorded: see `failureCauseOf`). */
  failureCause?: JudgeFailureCause;
  /**
   * The judge's reply text: always when the judge replied but the reply could
   * not be used (absent when the call itself failed), and for every verdict
   * when the call asked for it (`keepReply`), so a scorer can read replies the
   * way a benchmark's released code does.
   */
  reply?: string;
  /** Which part of the probe it judged (a criterion index, a sub-question). */
  part?: string;
  /**
   * Identifies the call: judge name, sample, template and the rendered prompt. A
   * retry keeps a stored verdict with the same key instead of asking again.
   */
  key?: string;
}

export interface JudgeContext {
  judges: NamedJudge[];
  /** Samples per judge (`--judge-runs`). */
  runs: number;
  prompts: PromptSet;
  /**
   * Verdicts that succeeded in an earlier scoring, by `key`: a call with the same
   * key reuses its verdict and asks no model (how a retry keeps what succeeded).
   */
  kept?: ReadonlyMap<string, VerdictRecord>;
}

/** The key of one judge call (see `VerdictRecord.key`). */
export function verdictKey(judge: string, sample: number, template: string, prompt: string): string {
  return createHash("sha256")
    .update(JSON.stringify([judge, sample, template, prompt]))
    .digest("hex")
    .slice(0, 32);
}

/** The successful verdicts of stored scores, by key, for `JudgeContext.kept`. */
export function keptVerdicts(
  scores: ReadonlyArray<{ verdicts: readonly VerdictRecord[] }>,
): Map<string, VerdictRecord> {
  const kept = new Map<string, VerdictRecord>();
  for (const s of scores) for (const v of s.verdicts) if (v.ok && v.key) kept.set(v.key, v);
  return kept;
}

export interface JudgeCall<T> {
  bench: string;
  template: string;
  vars: Record<string, string | number>;
  schema: z.ZodType<T>;
  part?: string;
  /** Keep the reply text of usable verdicts too (see `VerdictRecord.reply`). */
  keepReply?: boolean;
  /**
   * false: one reply per call, no repair request after an unusable one, as a
   * released judge parser that reads a single reply sees it (default true).
   */
  repair?: boolean;
}

/** One call of one judge for one sample. */
export async function judgeOnce<T>(
  judge: NamedJudge,
  call: JudgeCall<T>,
  prompts: PromptSet,
  sample: number,
  kept?: ReadonlyMap<string, VerdictRecord>,
): Promise<VerdictRecord & { value?: T }> {
  const prompt = prompts.render(call.bench, call.template, call.vars);
  const base = {
    judge: judge.name,
    sample,
    template: prompt.template,
    templateHash: prompt.templateHash,
    promptSet: prompt.promptSet,
    ...(call.part !== undefined ? { part: call.part } : {}),
    key: verdictKey(judge.name, sample, prompt.template, prompt.text),
  };
  const earlier = kept?.get(base.key);
  if (earlier?.ok) {
    // A kept verdict must still fit the schema (a newer membench may have changed it).
    const checked = call.schema.safeParse(earlier.value);
    if (checked.success) return { ...earlier, value: checked.data };
  }
  try {
    const { value, result } = await structured(
      judge.model,
      { role: "judge", messages: [{ role: "user", content: prompt.text }], temperature: 0, sample },
      call.schema,
      { name: call.template.replace(/[^a-zA-Z0-9_-]/g, "_"), ...(call.repair === false ? { repair: false } : {}) },
    );
    return { ...base, ok: true, value, ...(call.keepReply ? { reply: result.text } : {}) };
  } catch (error) {
    const failure = (error as Error).message ?? String(error);
    if (error instanceof StructuredOutputError) {
      return { ...base, ok: false, failure, failureCause: "unparsable", reply: error.raw };
    }
    return { ...base, ok: false, failure, failureCause: error instanceof ModelError ? "endpoint" : "error" };
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
      calls.push(judgeOnce(judge, call, ctx.prompts, sample, ctx.kept));
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
