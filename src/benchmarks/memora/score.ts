/**
 * Memora scoring (arXiv 2604.20006 §4.2, App. C.1; the released
 * geniesinc/Memora@a6493188:evals/model_eval/model_based_evaluator.py).
 * Every rubric criterion of a question is put to every judge as its own
 * yes/no question about the answer; a majority
 * vote says whether the answer met it. Per question that gives MPA (presence
 * criteria met), FAA (forgetting criteria met) and FAMA, which takes MPA down
 * by the share of forgetting criteria the answer broke. The paper's tables are
 * means over a task × duration cell, ×100 (the paper's Tables 3–5).
 */
import { z } from "zod";
import { ConfigError } from "../../core/errors.ts";
import type { Criterion } from "../../core/model.ts";
import { type JudgeContext, judgeAll, type VerdictRecord } from "../../score/judge.ts";
import {
  type BenchmarkScorer,
  type PaperTable,
  type ProbeOutcome,
  type ProbeScore,
  type ScoreContext,
  type ScoreInput,
  WORST_OUTCOME,
} from "../../score/types.ts";
import { type ReleasedReading, releasedReading } from "./judge-reply.ts";
import { MEMORA_ID } from "./load.ts";
import { PAPER_TASKS, TABLE_IDS, TABLE3_COLUMNS, TABLE4_COLUMNS, TABLE5_COLUMNS } from "./paper.ts";

/** The judge's verdict on one criterion. */
export const CriterionVerdict = z.object({
  answer: z.enum(["yes", "no"]),
  reason: z.string(),
});
export type CriterionVerdict = z.infer<typeof CriterionVerdict>;

export const CRITERION_TEMPLATE = "criterion";

export interface Tally {
  satisfied: number;
  total: number;
}

export interface FamaScore {
  mpa: number;
  faa: number;
  /** Weight of the forgetting penalty: N_forget / (N_presence + N_forget). */
  lambda: number;
  fama: number;
}

/**
 * FAMA of one question (paper §4.2), with the released code's edge cases (`fama_score`): no
 * presence criteria → MPA 0 (so FAMA 0); no forgetting criteria → FAA 1 and
 * λ 0 (so FAMA = MPA); no criteria at all → 0.
 */
export function famaScore(presence: Tally, absence: Tally): FamaScore {
  const np = presence.total;
  const nf = absence.total;
  const mpa = np > 0 ? presence.satisfied / np : 0;
  const faa = nf > 0 ? absence.satisfied / nf : 1;
  const lambda = np + nf > 0 ? nf / (np + nf) : 0;
  return { mpa, faa, lambda, fama: Math.max(0, mpa - lambda * (1 - faa)) };
}

/**
 * How a verdict that could not be used votes.
 * - `worst` (default, membench's rule): a vote for "not met".
 * - `drop` (membench's alternative): left out; the other judges decide, and
 *   with none left the criterion is not met.
 * - `code` (the released evaluator): a judge is left out only when its call
 *   failed; every reply, usable or not, votes as the released parser reads it
 *   (`judge-reply.ts`), which may be "unclear", a vote for neither answer.
 */
export type FailedVerdicts = "worst" | "drop" | "code";
const FAILED_VERDICTS: readonly FailedVerdicts[] = ["worst", "drop", "code"];

/** The answer a judge must give for the criterion to count as met. */
export function expectedAnswer(criterion: Criterion): "yes" | "no" {
  return criterion.expected ?? (criterion.kind === "presence" ? "yes" : "no");
}

type MemoraVerdict = VerdictRecord & { value?: CriterionVerdict };

/**
 * One verdict's vote under the rule: the answer it gives, "unclear" (a vote
 * for neither answer), or undefined when it is left out of the vote.
 */
export function criterionVote(verdict: MemoraVerdict, failed: FailedVerdicts = "worst"): ReleasedReading | undefined {
  if (failed === "code") {
    if (verdict.reply !== undefined) {
      const reading = releasedReading(verdict.reply);
      return reading === "error" ? undefined : reading;
    }
    // Verdicts scored before replies were kept: the parsed answer is what the released parser reads too.
    return verdict.ok && verdict.value ? verdict.value.answer : undefined;
  }
  if (verdict.ok && verdict.value) return verdict.value.answer;
  return failed === "drop" ? undefined : "unclear";
}

/**
 * Whether the answer met a criterion: a strict majority of the votes must
 * give the expected answer (`correct_votes > valid_judges / 2`), so a tie
 * fails, and so does a criterion no vote is left for. Under membench's rules
 * a failed verdict never votes for the expected answer, even when that answer
 * is "no"; under `code` an unusable reply votes as the released parser reads it.
 */
export function criterionSatisfied(
  verdicts: readonly MemoraVerdict[],
  expected: "yes" | "no",
  failed: FailedVerdicts = "worst",
): boolean {
  const votes = verdicts.map((v) => criterionVote(v, failed)).filter((v) => v !== undefined);
  const correct = votes.filter((v) => v === expected).length;
  return correct > votes.length / 2;
}

const FAILURE_RULES: Record<FailedVerdicts, string> = {
  worst: WORST_OUTCOME,
  drop: "left out of the vote (the other judges decide; none left: not met)",
  code:
    "left out of the vote when the call failed, and read as the released code reads them when the judge " +
    'replied (yes/no from the reply\'s wording, else "unclear", a vote for neither)',
};

export function failedVerdictsOption(options: Record<string, string>): FailedVerdicts {
  const value = options.failed_verdicts ?? "worst";
  if (!(FAILED_VERDICTS as readonly string[]).includes(value)) {
    throw new ConfigError(
      `expected one of ${FAILED_VERDICTS.join(", ")}, got "${value}"`,
      "failed_verdicts",
      "--score-option",
    );
  }
  return value as FailedVerdicts;
}

const NO_FORGETTING = "no forgetting criteria (FAMA takes FAA as 1)";

function skipAll(reason: string, criteria: readonly Criterion[]): ProbeOutcome {
  return { metrics: {}, verdicts: [], judgeFailures: 0, skipped: metricSkips(reason, criteria) };
}

/** `faa` has no value without forgetting criteria; say so rather than report the 1 FAMA assumes. */
function metricSkips(reason: string, criteria: readonly Criterion[]): Record<string, string> {
  const skipped: Record<string, string> = { mpa: reason, fama: reason };
  skipped.faa = criteria.some((c) => c.kind === "absence") ? reason : NO_FORGETTING;
  return skipped;
}

/** Metrics from per-criterion outcomes. */
function outcomeMetrics(criteria: readonly Criterion[], satisfied: readonly boolean[]) {
  const tally = (kind: Criterion["kind"]): Tally => {
    const idx = criteria.flatMap((c, i) => (c.kind === kind ? [i] : []));
    return { satisfied: idx.filter((i) => satisfied[i]).length, total: idx.length };
  };
  const absence = tally("absence");
  const score = famaScore(tally("presence"), absence);
  const metrics: Record<string, number> = { mpa: score.mpa, fama: score.fama };
  const skipped: Record<string, string> = {};
  if (absence.total > 0) metrics.faa = score.faa;
  else skipped.faa = NO_FORGETTING;
  return { metrics, skipped };
}

async function judgeCriteria(
  answer: string,
  input: ScoreInput,
  judge: JudgeContext,
  failed: FailedVerdicts,
): Promise<ProbeOutcome> {
  const { probe } = input;
  const criteria = probe.gold.criteria;
  const perCriterion = await Promise.all(
    criteria.map((criterion, i) =>
      judgeAll(
        {
          bench: MEMORA_ID,
          template: CRITERION_TEMPLATE,
          // Only `response` and `criterion` are in our template; the rest serve users' own wordings (--prompts).
          vars: {
            response: answer,
            criterion: criterion.text,
            question: probe.question,
            question_date: probe.time ?? "",
            evaluation_type: criterion.kind === "presence" ? "memory_presence" : "forgetting_absence",
          },
          schema: CriterionVerdict,
          part: `criterion:${i}`,
          // The released parser reads the one reply's text, not our parse of it.
          ...(failed === "code" ? { keepReply: true, repair: false } : {}),
        },
        judge,
      ),
    ),
  );
  const satisfied = perCriterion.map((verdicts, i) =>
    criterionSatisfied(verdicts, expectedAnswer(criteria[i]!), failed),
  );
  const verdicts = perCriterion.flat();
  const { metrics, skipped } = outcomeMetrics(criteria, satisfied);
  return {
    metrics,
    verdicts,
    judgeFailures: verdicts.filter((v) => !v.ok).length,
    ...(Object.keys(skipped).length ? { skipped } : {}),
  };
}

async function scoreProbe(input: ScoreInput, ctx: ScoreContext): Promise<ProbeOutcome> {
  const { record, probe } = input;
  const criteria = probe.gold.criteria;
  const failed = failedVerdictsOption(ctx.options);
  if (record.status === "skipped")
    return skipAll(`setting skipped: ${record.skipReason ?? "no reason given"}`, criteria);
  if (record.answerSkipped !== undefined) return skipAll(`no answer: ${record.answerSkipped}`, criteria);
  if (record.answerError !== undefined) {
    // A failed answer call is a wrong answer: no criterion met, forgetting ones included.
    const { metrics, skipped } = outcomeMetrics(
      criteria,
      criteria.map(() => false),
    );
    return {
      metrics,
      verdicts: [],
      judgeFailures: 0,
      skipped: { ...skipped, answer: `answer call failed, scored as wrong: ${record.answerError}` },
    };
  }
  if (record.answer === undefined) return skipAll("no answer stored", criteria);
  // Nothing to ask a judge: the released code scores such a question 0.
  if (criteria.length === 0) return { ...outcomeMetrics(criteria, []), verdicts: [], judgeFailures: 0 };
  if (!ctx.judge?.judges.length) return skipAll("no judge configured", criteria);
  return judgeCriteria(record.answer, input, ctx.judge, failed);
}

interface Cell {
  sum: number;
  n: number;
}

/** Mean of `metric` per task × duration, over the probes that have it. */
function cellMeans(scores: readonly ProbeScore[], metric: string): Map<string, Cell> {
  const cells = new Map<string, Cell>();
  for (const s of scores) {
    const v = s.metrics[metric];
    if (v === undefined || !Number.isFinite(v)) continue;
    const key = `${s.labels.task}|${s.labels.duration}`;
    const cell = cells.get(key) ?? { sum: 0, n: 0 };
    cell.sum += v;
    cell.n++;
    cells.set(key, cell);
  }
  return cells;
}

/** A cell's mean ×100, or null when no probe of it was scored. */
function pct(cells: Map<string, Cell>, task: string, duration: string): { value: number | null; n: number } {
  const cell = cells.get(`${task}|${duration}`);
  return cell && cell.n > 0 ? { value: (100 * cell.sum) / cell.n, n: cell.n } : { value: null, n: 0 };
}

/** Sum of cells; null if any is missing, since a partial sum is not the paper's number. */
function total(parts: ReadonlyArray<{ value: number | null; n: number }>): { value: number | null; n: number } {
  const n = parts.reduce((acc, p) => acc + p.n, 0);
  if (parts.some((p) => p.value === null)) return { value: null, n };
  return { value: parts.reduce((acc, p) => acc + (p.value ?? 0), 0), n };
}

function rowLabel(scores: readonly ProbeScore[]): string {
  const first = scores[0];
  if (!first) return "ours";
  return first.setting === "default" ? first.system : `${first.system} (${first.setting})`;
}

function tables(scores: readonly ProbeScore[]): PaperTable[] {
  const label = rowLabel(scores);
  const fama = cellMeans(scores, "fama");
  const mpa = cellMeans(scores, "mpa");

  const t3 = { cells: {} as Record<string, number | null>, n: {} as Record<string, number> };
  for (const col of TABLE3_COLUMNS) {
    const { value, n } = pct(fama, col.task, col.duration);
    t3.cells[col.key] = value;
    t3.n[col.key] = n;
  }

  const t4 = { cells: {} as Record<string, number | null>, n: {} as Record<string, number> };
  for (const task of TABLE4_COLUMNS) {
    const { value, n } = total(TABLE5_COLUMNS.map((d) => pct(fama, task, d.duration)));
    t4.cells[task] = value;
    t4.n[task] = n;
  }

  const t5 = { cells: {} as Record<string, number | null>, n: {} as Record<string, number> };
  for (const col of TABLE5_COLUMNS) {
    const presence = total(PAPER_TASKS.map((task) => pct(mpa, task, col.duration)));
    const forgetting = total(PAPER_TASKS.map((task) => pct(fama, task, col.duration)));
    t5.cells[col.mpa] = presence.value;
    t5.n[col.mpa] = presence.n;
    t5.cells[col.reduction] =
      presence.value === null || forgetting.value === null ? null : forgetting.value - presence.value;
    t5.n[col.reduction] = forgetting.n;
  }

  return [
    {
      id: TABLE_IDS.taskFama,
      title: "Memora Table 3: task-level FAMA (0–100) per duration",
      columns: TABLE3_COLUMNS.map((c) => c.key),
      rows: [{ label, ...t3 }],
      note: "Mean FAMA ×100 over the questions of each task × duration; empty where no question was scored.",
    },
    {
      id: TABLE_IDS.aggregatedFama,
      title: "Memora Table 4: aggregated FAMA, weekly + monthly + quarterly (0–300)",
      columns: [...TABLE4_COLUMNS],
      rows: [{ label, ...t4 }],
      note: "Sum of the task's three Table 3 cells; empty unless all three durations were scored.",
    },
    {
      id: TABLE_IDS.presenceVsFama,
      title: "Memora Table 5: aggregated memory-presence accuracy over the 3 tasks (0–300), with the FAMA reduction",
      columns: TABLE5_COLUMNS.flatMap((c) => [c.mpa, c.reduction]),
      rows: [{ label, ...t5 }],
      note:
        "MPA column: sum over the three tasks of mean MPA ×100. Reduction: aggregated FAMA minus aggregated MPA " +
        "(negative, as the paper prints it). Empty unless all three tasks of the duration were scored.",
    },
  ];
}

export const memoraScorer: BenchmarkScorer = {
  bench: MEMORA_ID,
  needsJudge: true,
  options: {
    failed_verdicts: {
      values: [...FAILED_VERDICTS],
      default: "worst",
      help:
        "how a judge verdict that cannot be used votes on a criterion: worst = a vote for 'not met' (default); " +
        "drop = left out, the other judges decide (all failed → not met); code = the released evaluator: a failed " +
        "call is left out, every reply votes as its parser reads it (yes/no inferred from the wording, else " +
        "'unclear', a vote for neither)",
    },
    user_agent: {
      values: ["keep", "drop"],
      default: "keep",
      stage: "answer",
      help:
        "keep = the user's turns are part of the history (default); drop = the released Track 1 harness: " +
        "user_agent turns never reach the context, only the assistant's (takes effect in `membench run`)",
    },
    question_date: {
      values: ["pass", "omit"],
      default: "pass",
      stage: "answer",
      help:
        "pass = the answerer and the system are told the question's date (default); omit = the released harness, " +
        "which never passes it (takes effect in `membench run`)",
    },
  },
  failedVerdictRule: (options) => FAILURE_RULES[failedVerdictsOption(options)],
  stratifyBy: "task",
  scoreProbe,
  tables,
};
