/**
 * LoCoMo scoring. The default is the paper's own metric, token F1 per
 * category as the reference script computes it (arXiv 2402.17753;
 * snap-research/locomo@9228632, branch `code`: `task_eval/evaluation.py`);
 * no judge is needed:
 *
 * - multi-hop (1): the answer and the gold are both split on commas; each gold
 *   part takes its best F1 against any answer part; the parts are averaged.
 * - temporal (2), single-hop (4): F1 against the gold answer.
 * - open-domain (3): F1 against the gold's first `;`-separated part.
 * - adversarial (5): 1 when the answer says "no information available" or
 *   "not mentioned", else 0.
 *
 * Tokens are normalised as the reference does (commas and ASCII punctuation
 * dropped, lower-cased, "a", "an", "the" and "and" removed) and Porter-stemmed.
 * `f1` averages categories 1–4 and `f1_adversarial` category 5, kept apart
 * because one is overlap and the other abstention; `f1_all` is the mean over
 * all five, the reference script's overall figure.
 *
 * Option `j=on` adds "J", the later papers' LLM-judge accuracy (mem0's
 * harness): a lenient correct/wrong verdict on categories 1–4 only.
 */
import { judgeAll, majority, verdictScores } from "../../score/judge.ts";
import { porterStem } from "../../score/porter-stemmer.ts";
import type {
  BenchmarkScorer,
  PaperTable,
  ProbeOutcome,
  ProbeScore,
  ScoreContext,
  ScoreInput,
} from "../../score/types.ts";
import { QaVerdict as JVerdict } from "../../score/verdicts.ts";
import { ADVERSARIAL, CATEGORY_NAMES, type CategoryId, type CategoryName, categoryId } from "./categories.ts";

const BENCH = "locomo";
export const J_TEMPLATE = "judge-j";

// ---------------------------------------------------------------------------
// Token F1 as the reference computes it

const ASCII_PUNCT = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
// Unicode-aware word boundaries, as the reference's regular expression has.
const DROPPED_WORDS = /(?<![\p{L}\p{N}_])(?:a|an|the|and)(?![\p{L}\p{N}_])/gu;

/** Normalised, stemmed tokens of a text. */
export function locomoTokens(text: string): string[] {
  const normalised = text.replace(/,/g, "").toLowerCase().replace(ASCII_PUNCT, "").replace(DROPPED_WORDS, " ");
  return normalised
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => porterStem(w));
}

/** F1 of token overlap (multiset), after normalisation and stemming. */
export function locomoTokenF1(prediction: string, gold: string): number {
  const pred = locomoTokens(prediction);
  const ref = locomoTokens(gold);
  const counts = new Map<string, number>();
  for (const t of ref) counts.set(t, (counts.get(t) ?? 0) + 1);
  let same = 0;
  for (const t of pred) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      same++;
      counts.set(t, c - 1);
    }
  }
  if (same === 0) return 0;
  const precision = same / pred.length;
  const recall = same / ref.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Multi-hop F1: each comma-separated gold part is matched by its best answer part; the parts are averaged. */
export function locomoMultiAnswerF1(prediction: string, gold: string): number {
  const preds = prediction.split(",").map((p) => p.trim());
  const golds = gold.split(",").map((g) => g.trim());
  const best = golds.map((g) => Math.max(...preds.map((p) => locomoTokenF1(p, g))));
  return best.reduce((a, b) => a + b, 0) / best.length;
}

/** The reference's abstention test for adversarial questions. */
export function saysNotAvailable(output: string): boolean {
  const lower = output.toLowerCase();
  return lower.includes("no information available") || lower.includes("not mentioned");
}

/** The reference score of one answer in its category. */
export function locomoF1(category: CategoryId, output: string, gold: string): number {
  switch (category) {
    case 1:
      return locomoMultiAnswerF1(output, gold);
    case 3:
      return locomoTokenF1(output, (gold.split(";")[0] ?? "").trim());
    case 5:
      return saysNotAvailable(output) ? 1 : 0;
    default:
      return locomoTokenF1(output, gold);
  }
}

// ---------------------------------------------------------------------------
// Per probe

const BY_NAME = new Map<string, CategoryId>(
  Object.entries(CATEGORY_NAMES).map(([id, name]) => [name, Number(id) as CategoryId]),
);

function probeCategory(input: ScoreInput): CategoryId | undefined {
  return categoryId(input.probe.meta?.categoryId) ?? BY_NAME.get(input.probe.labels.category ?? "");
}

function f1Key(category: CategoryId): "f1" | "f1_adversarial" {
  return category === ADVERSARIAL ? "f1_adversarial" : "f1";
}

const J_SKIP_ADVERSARIAL = "J covers categories 1–4; adversarial questions are left out, as in mem0's harness";

function skipAll(reason: string, category: CategoryId | undefined, withJ: boolean): ProbeOutcome {
  const skipped: Record<string, string> = { f1_all: reason };
  if (category === undefined || category !== ADVERSARIAL) skipped.f1 = reason;
  if (category === undefined || category === ADVERSARIAL) skipped.f1_adversarial = reason;
  if (withJ) skipped.j = category === ADVERSARIAL ? J_SKIP_ADVERSARIAL : reason;
  return { metrics: {}, verdicts: [], judgeFailures: 0, skipped };
}

async function scoreProbe(input: ScoreInput, ctx: ScoreContext): Promise<ProbeOutcome> {
  const { record, probe } = input;
  const withJ = ctx.options.j === "on";
  const category = probeCategory(input);
  if (record.status === "skipped") {
    return skipAll(`setting skipped: ${record.skipReason ?? "no reason given"}`, category, withJ);
  }
  if (record.answerSkipped !== undefined) return skipAll(`no answer: ${record.answerSkipped}`, category, withJ);
  if (category === undefined) {
    return skipAll(
      `unknown category ${JSON.stringify(probe.meta?.categoryId ?? probe.labels.category)}`,
      category,
      withJ,
    );
  }
  const gold = probe.gold.answers[0] ?? "";
  if (category !== ADVERSARIAL && gold === "") return skipAll("no gold answer", category, withJ);

  const skipped: Record<string, string> = {};
  const metrics: Record<string, number> = {};
  const failed = record.answerError !== undefined;
  if (failed) skipped.answer = `answer call failed, scored as wrong: ${record.answerError}`;
  else if (record.answer === undefined) return skipAll("no answer stored", category, withJ);
  const answer = record.answer ?? "";

  const f1 = failed ? 0 : locomoF1(category, answer, gold);
  metrics[f1Key(category)] = f1;
  metrics.f1_all = f1;

  if (!withJ) return { metrics, verdicts: [], judgeFailures: 0, ...(failed ? { skipped } : {}) };
  if (category === ADVERSARIAL)
    return { metrics, verdicts: [], judgeFailures: 0, skipped: { ...skipped, j: J_SKIP_ADVERSARIAL } };
  if (failed) return { metrics: { ...metrics, j: 0 }, verdicts: [], judgeFailures: 0, skipped };
  if (!ctx.judge?.judges.length)
    return { metrics, verdicts: [], judgeFailures: 0, skipped: { j: "no judge configured" } };
  const verdicts = await judgeAll(
    {
      bench: BENCH,
      template: J_TEMPLATE,
      vars: {
        question: probe.question,
        gold_answer: gold,
        generated_answer: answer,
        category: CATEGORY_NAMES[category],
      },
      schema: JVerdict,
    },
    ctx.judge,
  );
  metrics.j = majority(
    verdictScores(verdicts, (v) => (v.correct ? 1 : 0), 0),
    0,
  );
  return { metrics, verdicts, judgeFailures: verdicts.filter((v) => !v.ok).length };
}

// ---------------------------------------------------------------------------
// Tables

/** Category columns in the order the reference script prints them (4, 1, 2, 3). */
export const CATEGORY_COLUMNS: readonly CategoryName[] = ["single-hop", "multi-hop", "temporal", "open-domain"];
export const F1_COLUMNS: readonly string[] = [...CATEGORY_COLUMNS, "overall", "adversarial", "all"];
export const J_COLUMNS: readonly string[] = [...CATEGORY_COLUMNS, "overall"];
export const TABLE_IDS = { f1: "locomo-f1", j: "locomo-j" } as const;

function meanOf(scores: readonly ProbeScore[], metric: string): { value: number | null; n: number } {
  const values = scores.map((s) => s.metrics[metric]).filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (!values.length) return { value: null, n: 0 };
  return { value: (100 * values.reduce((a, b) => a + b, 0)) / values.length, n: values.length };
}

function rowLabel(scores: readonly ProbeScore[]): string {
  const first = scores[0];
  if (!first) return "ours";
  return first.setting === "default" ? first.system : `${first.system} (${first.setting})`;
}

function row(scores: readonly ProbeScore[], cellsOf: Array<[string, readonly ProbeScore[], string]>) {
  const cells: Record<string, number | null> = {};
  const n: Record<string, number> = {};
  for (const [key, subset, metric] of cellsOf) {
    const m = meanOf(subset, metric);
    cells[key] = m.value;
    n[key] = m.n;
  }
  return { label: rowLabel(scores), cells, n };
}

function tables(scores: readonly ProbeScore[], ctx: ScoreContext): PaperTable[] {
  const inCategory = (name: string) => scores.filter((s) => s.labels.category === name);
  const perCategory = (metric: string) =>
    CATEGORY_COLUMNS.map((c): [string, readonly ProbeScore[], string] => [c, inCategory(c), metric]);
  const out: PaperTable[] = [
    {
      id: TABLE_IDS.f1,
      title: "LoCoMo question answering: token F1 ×100 by category",
      columns: [...F1_COLUMNS],
      rows: [
        row(scores, [
          ...perCategory("f1"),
          ["overall", scores, "f1"],
          ["adversarial", inCategory("adversarial"), "f1_adversarial"],
          ["all", scores, "f1_all"],
        ]),
      ],
      note:
        "overall = categories 1–4; adversarial = share of category-5 answers that say the information is not " +
        "available; all = mean over all five categories, as the reference script's overall line.",
    },
  ];
  if (ctx.options.j === "on") {
    out.push({
      id: TABLE_IDS.j,
      title: "LoCoMo LLM-judge accuracy J (%) by category, categories 1–4",
      columns: [...J_COLUMNS],
      rows: [row(scores, [...perCategory("j"), ["overall", scores, "j"]])],
      note: "Lenient correct/wrong judge in the style of mem0's harness; majority over judges and samples.",
    });
  }
  return out;
}

export const locomoScorer: BenchmarkScorer = {
  bench: BENCH,
  // F1, the default, needs no model; J asks for a judge only when switched on.
  needsJudge: false,
  usesJudge: (options) => options.j === "on",
  options: {
    j: {
      values: ["off", "on"],
      default: "off",
      help:
        "on = also score J, the LLM-judge accuracy later papers report (mem0-style lenient correct/wrong judge, " +
        "categories 1–4); off = the paper's token F1 only",
    },
  },
  stratifyBy: "category",
  scoreProbe,
  tables,
};
