/**
 * MemoryAgentBench scoring (arXiv 2507.05257 Table 3, App. B; the released
 * HUST-AI-HYZ/MemoryAgentBench@455306d: `utils/eval_other_utils.py` and
 * `llm_based_eval/`): string metrics with SQuAD-style normalisation, strict
 * classification accuracy, movie recommendation Recall@k, the LongMemEval-style
 * yes/no judge, the three-call summary judge, and the paper's Table 3 roll-up
 * (unweighted means, checked against Table 3's own numbers).
 *
 * Per-probe metric keys: the probe's paper metric (`subem`, `em`, `recall@5`,
 * `accuracy` for the LongMemEval judge, `sum_f1` for the summary judge) plus
 * what else is computed for information (`f1`, `rougeL`, `em`/`subem` where
 * the paper reports the other one, `eventqa_recall`, `recall@1`/`recall@10`,
 * `sum_fluency`/`sum_recall`/`sum_precision`). Per-probe values are 0–1; the
 * aggregate and the tables are ×100, as the paper prints them.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";
import { ConfigError, DataError } from "../../core/errors.ts";
import type { Probe } from "../../core/model.ts";
import { type JudgeContext, judgeAll, majority, type VerdictRecord, verdictScores } from "../../score/judge.ts";
import { bestOver, exactMatch, parseAnswerLine, rougeL, substringMatch, tokenF1 } from "../../score/text-metrics.ts";
import type {
  BenchmarkScorer,
  PaperTable,
  ProbeOutcome,
  ProbeScore,
  ScoreContext,
  ScoreInput,
  ScorerOption,
} from "../../score/types.ts";
import { QaVerdict } from "../../score/verdicts.ts";
import { TABLE3_COLUMNS, TABLE7_COLUMNS, type Table3Column } from "./paper.ts";
import { BENCHMARK_ID } from "./row.ts";
import { AGGREGATION, type MabMetric, type MabSource, mabSource } from "./sources.ts";

// ---------------------------------------------------------------- options

export type IclParse = "strict" | "lenient";
export type AverageMode = "complete" | "available";

export const MAB_SCORE_OPTIONS: Record<string, ScorerOption> = {
  icl_parse: {
    values: ["strict", "lenient"],
    default: "strict",
    help:
      "classification answers: strict (paper) compares the first line of the output as is, so " +
      '"label: 43" against gold "43" is wrong; lenient drops a leading "label:" first',
  },
  averages: {
    values: ["complete", "available"],
    default: "complete",
    help:
      "Table 3 averages (MCC, AR, TTL, LRU, SF, Overall): complete (paper) needs every member dataset and " +
      "is null otherwise; available averages the members that were scored",
  },
  entity2id: {
    values: [],
    default: "",
    help:
      "path of the release's entity2id.json, which names the movies of the recommendation set (default: " +
      "entity2id.json beside the data, as `data pull` leaves it)",
  },
};

export const ENTITY2ID_OPTION = "entity2id";

/** The option's path, else an entity2id.json found beside the run's data. */
function entity2idPath(ctx: ScoreContext): string | undefined {
  const given = ctx.options[ENTITY2ID_OPTION];
  if (given) return given;
  if (!ctx.data) return undefined;
  const dir = statSync(ctx.data, { throwIfNoEntry: false })?.isDirectory() ? ctx.data : dirname(ctx.data);
  for (const candidate of [join(dir, "entity2id.json"), join(dir, "..", "entity2id.json")]) {
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}

function optionOf<T extends string>(ctx: ScoreContext, key: string, values: readonly T[], fallback: T): T {
  const value = ctx.options[key];
  return values.find((v) => v === value) ?? fallback;
}

const iclParse = (ctx: ScoreContext) => optionOf<IclParse>(ctx, "icl_parse", ["strict", "lenient"], "strict");
const averageMode = (ctx: ScoreContext) =>
  optionOf<AverageMode>(ctx, "averages", ["complete", "available"], "complete");

// ---------------------------------------------------------------- metric names

/** The per-probe key of each paper metric. */
export const METRIC_KEY: Record<MabMetric, string> = {
  subem: "subem",
  em: "em",
  "recall@5": "recall@5",
  llm_judge_lme: "accuracy",
  llm_judge_sum_f1: "sum_f1",
};

const STRING_KEYS = ["em", "subem", "f1", "rougeL"] as const;
const RECSYS_KS = [1, 5, 10] as const;
const SUMMARY_KEYS = ["sum_f1", "sum_fluency", "sum_recall", "sum_precision"] as const;

/** The key a sub-dataset's Table 3 cell is the mean of; undefined for a sub-dataset outside the registry. */
export function primaryMetric(sourceId: string): string | undefined {
  const source = mabSource(sourceId);
  return source ? METRIC_KEY[source.metric] : undefined;
}

/** Every key a probe of this source carries when it is scored. */
function keysOf(source: MabSource | undefined): string[] {
  switch (source?.family) {
    case "recsys_redial":
      return RECSYS_KS.map((k) => `recall@${k}`);
    case "longmemeval":
      return ["accuracy", ...STRING_KEYS];
    case "infbench_sum":
      return [...SUMMARY_KEYS, "f1", "rougeL"];
    case "eventqa":
      return [...STRING_KEYS, "eventqa_recall"];
    default:
      return [...STRING_KEYS];
  }
}

// ------------------------------ string metrics (`eval_other_utils.py`: `calculate_metrics`, `post_process`)

/** Each string metric over several readings of the output (raw, parsed), the best reading per metric. */
export function stringMetrics(readings: readonly string[], golds: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const metrics: Record<(typeof STRING_KEYS)[number], (pred: string, gold: string) => number> = {
    em: exactMatch,
    subem: substringMatch,
    f1: tokenF1,
    rougeL,
  };
  for (const [key, metric] of Object.entries(metrics)) {
    out[key] = Math.max(0, ...readings.map((text) => bestOver(golds, (g) => metric(text, g))));
  }
  return out;
}

/**
 * The label a classification answer gives. Strict (the paper) is the parsed
 * first line as is; lenient also drops a leading "label:", which the query
 * template itself asks the model to write.
 */
export function iclPrediction(output: string, mode: IclParse): string {
  const parsed = parseAnswerLine(output);
  if (mode === "strict") return parsed;
  return parsed.replace(/^(?:label\b\s*[:=]?\s*)+/i, "").trim();
}

/** EventQA's extra recall: every gold alias, lowercased, is inside the raw output. */
export function eventqaRecall(output: string, golds: readonly string[]): number {
  const raw = output.toLowerCase();
  return golds.length > 0 && golds.every((g) => raw.includes(g.toLowerCase())) ? 1 : 0;
}

// ------------------------------ movie recommendation (`eval_other_utils.py`: `_process_recsys_dataset`)

/** A movie name as the reference compares it: last path segment, separators to spaces, no parentheses, lowercased. */
export function cleanMovieName(raw: string): string {
  const last = raw.split("/").pop() ?? raw;
  return last
    .replace(/[_\->]/g, " ")
    .replace(/\([^)]*\)/g, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** One recommendation line: parentheses and leading numbering removed. */
export function cleanRecommendationLine(line: string): string {
  return line
    .replace(/\([^)]*\)/g, "")
    .trim()
    .replace(/^(?:\d+[.)、]?\s*[-—–]?\s*)?/, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** The recommendation lines of an output: after the first "1.", else comma-separated. */
export function recommendationLines(output: string): string[] {
  const at = output.indexOf("1.");
  const body = at >= 0 ? output.slice(at + 2) : output.replace(/,/g, "\n");
  return body
    .split("\n")
    .map(cleanRecommendationLine)
    .filter((line) => line.length > 0);
}

export function levenshtein(a: string, b: string, cap = Number.POSITIVE_INFINITY): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin >= cap) return cap;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The movie names of `entity2id.json`, by id, cleaned for matching. */
export interface MovieCatalog {
  file: string;
  nameOf: Map<string, string>;
  /** Unique cleaned names, in file order (the first of equally near names wins). */
  names: string[];
}

export function movieCatalog(entity2id: unknown, file: string): MovieCatalog {
  if (typeof entity2id !== "object" || entity2id === null || Array.isArray(entity2id)) {
    throw new DataError("expected an object mapping movie names to ids", { file });
  }
  const nameOf = new Map<string, string>();
  const names = new Set<string>();
  for (const [raw, id] of Object.entries(entity2id)) {
    if (typeof id !== "number" && typeof id !== "string") {
      throw new DataError(`expected a numeric id, got ${JSON.stringify(id)}`, { file, record: raw });
    }
    const name = cleanMovieName(raw);
    nameOf.set(String(id), name);
    if (name) names.add(name);
  }
  return { file, nameOf, names: [...names] };
}

const catalogs = new Map<string, MovieCatalog>();

export function loadMovieCatalog(path: string): MovieCatalog {
  const file = resolve(path);
  let catalog = catalogs.get(file);
  if (catalog) return catalog;
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`, ENTITY2ID_OPTION, "--score-option");
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DataError(`not valid JSON (${(error as Error).message})`, { file });
  }
  catalog = movieCatalog(json, file);
  catalogs.set(file, catalog);
  return catalog;
}

function nearestName(line: string, names: readonly string[]): string {
  const target = line.toLowerCase();
  let best = names[0] ?? "";
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const name of names) {
    const d = levenshtein(target, name, bestDistance);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
      if (d === 0) break;
    }
  }
  return best;
}

export type RecallOutcome = { ok: true; recall: Record<string, number> } | { ok: false; reason: string };

/**
 * Recall@1/5/10 of one recommendation output. With the catalog, every line
 * snaps to the nearest catalog name (the reference's rule). Without it, gold
 * movie ids cannot be named, so only gold given as titles can be scored, by
 * exact match of the cleaned names.
 */
export function recsysRecall(output: string, golds: readonly string[], catalog?: MovieCatalog): RecallOutcome {
  if (!golds.length) return { ok: false, reason: "no gold movies" };
  const numeric = (g: string) => /^\s*\d+\s*$/.test(g);
  const goldNames: string[] = [];
  for (const g of golds) {
    const name = catalog?.nameOf.get(g.trim()) ?? (numeric(g) ? undefined : cleanMovieName(g));
    if (name === undefined) {
      return {
        ok: false,
        reason: catalog
          ? `gold movie id ${g} is not in ${catalog.file}`
          : `gold movies are ids: needs entity2id.json to name them (--score-option ${ENTITY2ID_OPTION}=PATH)`,
      };
    }
    goldNames.push(name);
  }
  const lines = recommendationLines(output);
  const predicted = catalog
    ? lines.map((line) => nearestName(line, catalog.names))
    : lines.map((line) => cleanMovieName(line));
  const recall: Record<string, number> = {};
  for (const k of RECSYS_KS) {
    const top = new Set(predicted.slice(0, k));
    recall[`recall@${k}`] = goldNames.filter((g) => top.has(g)).length / goldNames.length;
  }
  return { ok: true, recall };
}

// ------------ judges (`llm_based_eval/longmem_qa_evaluate.py`, `summarization_evaluate.py`; paper App. B.3.2)

/** LongMemEval-style verdict: one yes/no decision on the answer. */

/** Summary call 1: is the summary fluent prose (1) or not (0). */
export const FluencyVerdict = z.object({ fluency: z.union([z.literal(0), z.literal(1)]), reason: z.string() });
export type FluencyVerdict = z.infer<typeof FluencyVerdict>;

/** Summary call 2: which expert key points (1-based) the summary supports. */
export function recallVerdict(keypointCount: number) {
  return z.object({
    supported_key_points: z.array(z.number().int().min(1).max(keypointCount)),
    reason: z.string(),
  });
}
export type RecallVerdict = z.infer<ReturnType<typeof recallVerdict>>;

/** Summary call 3: how many of the summary's sentences the expert summary supports. */
export const PrecisionVerdict = z
  .object({
    sentence_count: z.number().int().min(0),
    supported_sentences: z.number().int().min(0),
    reason: z.string(),
  })
  .refine((v) => v.supported_sentences <= v.sentence_count, {
    message: "supported_sentences exceeds sentence_count",
  });
export type PrecisionVerdict = z.infer<typeof PrecisionVerdict>;

/** Which judge template a LongMemEval question gets: abstention first, then its question type. */
export function lmeTemplate(questionType: string | undefined, questionId: string): string {
  if (questionId.includes("_abs")) return "lme-judge-abstention";
  switch (questionType) {
    case "temporal-reasoning":
      return "lme-judge-temporal";
    case "knowledge-update":
      return "lme-judge-knowledge-update";
    case "single-session-preference":
      return "lme-judge-preference";
    default:
      return "lme-judge";
  }
}

type Verdicts = Array<VerdictRecord & { value?: unknown }>;

function failures(verdicts: Verdicts): number {
  return verdicts.filter((v) => !v.ok).length;
}

async function judgeLme(
  probe: Probe,
  answer: string,
  judge: JudgeContext,
): Promise<{ accuracy: number; verdicts: Verdicts }> {
  const questionType = probe.labels.question_type;
  const questionId = String(probe.meta?.questionId ?? probe.id);
  const verdicts = await judgeAll(
    {
      bench: BENCHMARK_ID,
      template: lmeTemplate(questionType, questionId),
      vars: {
        question: probe.question,
        gold: probe.gold.answers.join(" / "),
        response: answer,
        question_type: questionType ?? "",
      },
      schema: QaVerdict,
      part: questionType ?? "qa",
    },
    judge,
  );
  const accuracy = majority(
    verdictScores(verdicts, (v) => (v.correct ? 1 : 0), 0),
    0,
  );
  return { accuracy, verdicts };
}

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export function f1Of(precision: number, recall: number): number {
  return precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
}

/**
 * The three summary calls. With several judges or samples, fluency is
 * majority-voted and recall and precision are averaged; a failed call counts
 * as 0 for its part.
 */
async function judgeSummary(
  summary: string,
  keypoints: readonly string[],
  expert: string,
  judge: JudgeContext,
): Promise<{ metrics: Record<string, number>; verdicts: Verdicts }> {
  const vars = {
    summary,
    keypoints: keypoints.map((k, i) => `${i + 1}. ${k}`).join("\n"),
    keypoint_count: keypoints.length,
    expert_summary: expert,
  };
  const base = { bench: BENCHMARK_ID, vars };
  const [fluency, recall, precision] = await Promise.all([
    judgeAll({ ...base, template: "summary-fluency", schema: FluencyVerdict, part: "fluency" }, judge),
    judgeAll({ ...base, template: "summary-recall", schema: recallVerdict(keypoints.length), part: "recall" }, judge),
    judgeAll({ ...base, template: "summary-precision", schema: PrecisionVerdict, part: "precision" }, judge),
  ]);
  const f = majority(
    verdictScores(fluency, (v) => v.fluency, 0),
    0,
  );
  const r = mean(verdictScores(recall, (v) => new Set(v.supported_key_points).size / keypoints.length, 0));
  const p = mean(verdictScores(precision, (v) => (v.sentence_count ? v.supported_sentences / v.sentence_count : 0), 0));
  return {
    metrics: { sum_f1: f * f1Of(p, r), sum_fluency: f, sum_recall: r, sum_precision: p },
    verdicts: [...fluency, ...recall, ...precision],
  };
}

// ---------------------------------------------------------------- per probe

function skipAll(keys: readonly string[], reason: string): ProbeOutcome {
  return { metrics: {}, verdicts: [], judgeFailures: 0, skipped: Object.fromEntries(keys.map((k) => [k, reason])) };
}

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) && value.every((v) => typeof v === "string") ? value : undefined;
}

export async function scoreMabProbe({ record, probe, episode }: ScoreInput, ctx: ScoreContext): Promise<ProbeOutcome> {
  const source = mabSource(probe.labels.sub_dataset ?? episode.labels.sub_dataset ?? "");
  const keys = keysOf(source);
  if (record.status !== "done") return skipAll(keys, record.skipReason ?? "probe did not run");
  if (record.answerError !== undefined) {
    // A failed answer call is a wrong answer, not a missing one.
    return {
      metrics: Object.fromEntries(keys.map((k) => [k, 0])),
      verdicts: [],
      judgeFailures: 0,
      skipped: { answer: `answer call failed, scored as wrong: ${record.answerError}` },
    };
  }
  if (record.answer === undefined) return skipAll(keys, record.answerSkipped ?? "no answer");

  const output = record.answer;
  const golds = probe.gold.answers;
  const metrics: Record<string, number> = {};
  const skipped: Record<string, string> = {};
  let verdicts: Verdicts = [];

  switch (source?.family) {
    case "in_context_learning": {
      Object.assign(metrics, stringMetrics([iclPrediction(output, iclParse(ctx))], golds));
      break;
    }
    case "eventqa":
      Object.assign(metrics, stringMetrics([parseAnswerLine(output)], golds));
      metrics.eventqa_recall = eventqaRecall(output, golds);
      break;
    case "recsys_redial": {
      const path = entity2idPath(ctx);
      const result = recsysRecall(output, golds, path ? loadMovieCatalog(path) : undefined);
      if (result.ok) Object.assign(metrics, result.recall);
      else for (const k of keys) skipped[k] = result.reason;
      break;
    }
    case "longmemeval": {
      Object.assign(metrics, stringMetrics([output, parseAnswerLine(output)], golds));
      if (!ctx.judge) skipped.accuracy = "no judge configured";
      else {
        const judged = await judgeLme(probe, output, ctx.judge);
        metrics.accuracy = judged.accuracy;
        verdicts = judged.verdicts;
      }
      break;
    }
    case "infbench_sum": {
      const { f1, rougeL: rl } = stringMetrics([output, parseAnswerLine(output)], golds);
      Object.assign(metrics, { f1, rougeL: rl });
      const keypoints = stringList(probe.meta?.keypoints) ?? [];
      const expert = golds[0];
      const missing = !ctx.judge
        ? "no judge configured"
        : !keypoints.length
          ? "no expert key points (metadata.keypoints) for this summary"
          : !expert
            ? "no expert summary (answers[0]) for this summary"
            : undefined;
      if (missing) for (const k of SUMMARY_KEYS) skipped[k] = missing;
      else {
        const judged = await judgeSummary(output, keypoints, expert!, ctx.judge!);
        Object.assign(metrics, judged.metrics);
        verdicts = judged.verdicts;
      }
      break;
    }
    default:
      // ruler_qa, factconsolidation, detective_qa and unknown sub-datasets: the better of raw and parsed output.
      Object.assign(metrics, stringMetrics([output, parseAnswerLine(output)], golds));
  }
  return {
    metrics,
    verdicts,
    judgeFailures: failures(verdicts),
    ...(Object.keys(skipped).length ? { skipped } : {}),
  };
}

// ---------------------------------------------------------------- aggregation (paper Table 3)

const TABLE7_OF: Record<string, (typeof TABLE7_COLUMNS)[number]> = {
  icl_banking77_5900shot_balance: "BANKING77",
  icl_clinic150_7050shot_balance: "CLINC150",
  icl_nlu_8296shot_balance: "NLU",
  icl_trec_coarse_6600shot_balance: "TREC-C",
  icl_trec_fine_6400shot_balance: "TREC-F",
};

type Competency = "AR" | "TTL" | "LRU" | "SF";
const COMPETENCIES: readonly Competency[] = ["AR", "TTL", "LRU", "SF"];

/** A member of an AGGREGATION group as a Table 3 column: a sub-dataset id becomes its column. */
const columnOf = (member: string): string => mabSource(member)?.column ?? member;

/** Table 3's dataset columns under each competency, from the source registry's AGGREGATION. */
export const COMPETENCY_COLUMNS: Record<Competency, string[]> = {
  AR: AGGREGATION.AR.map(columnOf),
  TTL: AGGREGATION.TTL.map(columnOf),
  LRU: AGGREGATION.LRU.map(columnOf),
  SF: AGGREGATION.SF.map(columnOf),
};

function average(values: ReadonlyArray<number | null | undefined>, mode: AverageMode): number | null {
  const present = values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));
  if (!present.length || (mode === "complete" && present.length < values.length)) return null;
  return mean(present);
}

/** Per-sub-dataset means ×100 of every metric, and how many probes carry each sub-dataset's paper metric. */
export function perSourceMeans(
  scores: readonly ProbeScore[],
): Map<string, { means: Record<string, number>; counts: Record<string, number> }> {
  const groups = new Map<string, Map<string, number[]>>();
  for (const s of scores) {
    const id = s.labels.sub_dataset ?? "unknown";
    const group = groups.get(id) ?? new Map<string, number[]>();
    groups.set(id, group);
    for (const [key, value] of Object.entries(s.metrics)) {
      if (!Number.isFinite(value)) continue;
      group.set(key, [...(group.get(key) ?? []), value]);
    }
  }
  const out = new Map<string, { means: Record<string, number>; counts: Record<string, number> }>();
  for (const [id, group] of groups) {
    const means: Record<string, number> = {};
    const counts: Record<string, number> = {};
    for (const [key, values] of group) {
      means[key] = mean(values) * 100;
      counts[key] = values.length;
    }
    out.set(id, { means, counts });
  }
  return out;
}

/**
 * Table 3's dataset columns from per-sub-dataset scores (×100, keyed by
 * `metadata.source`); MCC is the mean of the five classification sets.
 * Context-length variants outside the main results are ignored.
 */
export function datasetColumns(bySource: Readonly<Record<string, number>>, mode: AverageMode = "complete") {
  const cells: Record<string, number | null> = {};
  for (const column of Object.values(COMPETENCY_COLUMNS).flat()) cells[column] = null;
  for (const [id, value] of Object.entries(bySource)) {
    const source = mabSource(id);
    if (source?.main && source.column !== "MCC") cells[source.column] = value;
  }
  cells.MCC = average(
    AGGREGATION.MCC.map((id) => bySource[id]),
    mode,
  );
  return cells;
}

/** The competency averages and overall mean from Table 3's dataset columns: unweighted, as its numbers show. */
export function withAverages(
  columns: Readonly<Record<string, number | null | undefined>>,
  mode: AverageMode = "complete",
): Record<Table3Column, number | null> {
  const out = {} as Record<Table3Column, number | null>;
  for (const c of TABLE3_COLUMNS) out[c] = columns[c] ?? null;
  for (const competency of COMPETENCIES) {
    out[competency] = average(
      COMPETENCY_COLUMNS[competency].map((c) => columns[c]),
      mode,
    );
  }
  out.Overall = average(
    COMPETENCIES.map((c) => out[c]),
    mode,
  );
  return out;
}

function primaryBySource(scores: readonly ProbeScore[]) {
  const values: Record<string, number> = {};
  const counts: Record<string, number> = {};
  for (const [id, { means, counts: n }] of perSourceMeans(scores)) {
    const key = primaryMetric(id);
    if (key && means[key] !== undefined) {
      values[id] = means[key];
      counts[id] = n[key] ?? 0;
    }
  }
  return { values, counts };
}

export function aggregateMab(scores: readonly ProbeScore[], ctx: ScoreContext): Record<string, number> {
  const mode = averageMode(ctx);
  const out: Record<string, number> = {};
  for (const [id, { means, counts }] of perSourceMeans(scores)) {
    for (const [key, value] of Object.entries(means)) out[`${id}/${key}`] = value;
    const key = primaryMetric(id);
    if (key && counts[key] !== undefined) out[`${id}/n`] = counts[key];
  }
  const { values } = primaryBySource(scores);
  const row = withAverages(datasetColumns(values, mode), mode);
  for (const column of TABLE3_COLUMNS) {
    const value = row[column];
    if (value !== null) out[column === "Overall" ? "overall" : column] = value;
  }
  return out;
}

// ---------------------------------------------------------------- tables

function rowLabel(scores: readonly ProbeScore[]): string {
  const first = scores[0];
  if (!first) return "ours";
  return first.setting === "default" ? first.system : `${first.system} (${first.setting})`;
}

export function tablesMab(scores: readonly ProbeScore[], ctx: ScoreContext): PaperTable[] {
  const mode = averageMode(ctx);
  const { values, counts } = primaryBySource(scores);
  const label = rowLabel(scores);

  const cells = withAverages(datasetColumns(values, mode), mode);
  const n: Record<string, number> = {};
  for (const [id, count] of Object.entries(counts)) {
    const source = mabSource(id);
    if (source?.main) n[source.column] = (n[source.column] ?? 0) + count;
  }

  const t7: Record<string, number | null> = {};
  const n7: Record<string, number> = {};
  for (const column of TABLE7_COLUMNS) t7[column] = null;
  for (const [id, column] of Object.entries(TABLE7_OF)) {
    if (values[id] !== undefined) {
      t7[column] = values[id];
      n7[column] = counts[id] ?? 0;
    }
  }
  const averagesNote =
    mode === "complete"
      ? "an average is null unless every dataset it covers was scored (the paper's rule)"
      : "averages cover the datasets that were scored (averages=available), so they are not comparable with the paper's";
  return [
    {
      id: "table3",
      title: "MemoryAgentBench Table 3: accuracy per dataset, competency averages and overall (×100)",
      columns: [...TABLE3_COLUMNS],
      rows: [{ label, cells, n }],
      note: `Datasets not scored are null; ${averagesNote}. LME(S*) and Summ need a judge.`,
    },
    {
      id: "table7",
      title: "MemoryAgentBench Table 7: test-time learning, accuracy on each classification set (×100)",
      columns: [...TABLE7_COLUMNS],
      rows: [{ label, cells: t7, n: n7 }],
      note: `Exact match on the first line of the output (icl_parse=${iclParse(ctx)}).`,
    },
  ];
}

export const memoryagentbenchScorer: BenchmarkScorer = {
  bench: BENCHMARK_ID,
  needsJudge: true,
  options: MAB_SCORE_OPTIONS,
  stratifyBy: "sub_dataset",
  scoreProbe: scoreMabProbe,
  aggregate: aggregateMab,
  tables: tablesMab,
};
