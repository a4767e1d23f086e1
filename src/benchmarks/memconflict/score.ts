/**
 * MemConflict scoring (arXiv 2605.20926 §3.6, §4.5; the released scorer
 * TaoZhen1110/MemConflict@17cbc14:Evaluation/eval_scoring.py). One judge call per question
 * reads the answer and the numbered top-5 retrieved list and returns answer
 * accuracy, the first supporting rank and the type's diagnostic (UOCS for
 * dynamic, CRS for static). SEH@K and SRS@K for K = 2, 3, 5 all come from that
 * one rank, as in the released scorer; the answerer only ever saw the top 3.
 *
 * AA scale: the paper's Eq. (11) is binary, the released code gives 0 / 0.5 /
 * 1 for dynamic and static (`eval_scoring.py`'s prompts). The judge always grades on the code's
 * scale so a stored verdict serves both; option `aa=paper` (default) counts a
 * half-credit verdict as wrong, `aa=code` keeps 0.5. Conditional AA is binary
 * in both, so a stray 0.5 there is not credit.
 *
 * Everything is reported per conflict type and as the macro mean over the
 * types present ("Average" in the paper); EUG = SEH@3 − AA; each wrong answer
 * (AA = 0 after the scale is applied) is a retrieval failure when the judge
 * found no support in the top 3, else a utilisation failure (paper §4.5.2,
 * Fig. 8).
 */
import { z } from "zod";
import type { Probe } from "../../core/model.ts";
import type { ProbeRecord, RetrievedRecord } from "../../core/record.ts";
import { parseJsonReply } from "../../llm/structured.ts";
import { type JudgeCall, judgeAll, majority, type VerdictRecord } from "../../score/judge.ts";
import { firstSupportRank, rankUnits, sehFromRank, srsFromRank } from "../../score/retrieval.ts";
import {
  type BenchmarkScorer,
  type PaperTable,
  type ProbeOutcome,
  type ProbeScore,
  type ScoreContext,
  type ScoreInput,
  WORST_OUTCOME,
} from "../../score/types.ts";
import { BENCHMARK_ID, type ConflictKind } from "./format.ts";
import { fallbackVerdict, type ReleasedVerdict, releasedVerdict } from "./released-judge.ts";

export const CONFLICT_KINDS: readonly ConflictKind[] = ["dynamic", "static", "conditional"];
/** Depths of the K sweep (`eval_scoring.py`'s `WHITE_BOX_TOP_K_VALUES`); the judge sees the top 5 once. */
export const SUPPORT_KS = [2, 3, 5] as const;
export const JUDGE_DEPTH = 5;
/** The depth EUG and the failure split use (the answerer's context). */
const MAIN_K = 3;

const AaScale = z.union([z.literal(0), z.literal(0.5), z.literal(1)]);
const Binary = z.union([z.literal(0), z.literal(1)]);
const verdictBase = {
  aa: AaScale,
  first_support_rank: z.number().int().min(0).max(JUDGE_DEPTH),
  reason: z.string(),
};

/** Each type's verdict must carry its own diagnostic, so a missing one is a parse failure, not a silent 0. */
export const memconflictVerdictSchemas = {
  dynamic: z.object({ ...verdictBase, uocs: Binary }),
  static: z.object({ ...verdictBase, crs: Binary }),
  conditional: z.object(verdictBase),
} as const;

export interface MemconflictVerdict {
  aa: 0 | 0.5 | 1;
  first_support_rank: number;
  uocs?: 0 | 1;
  crs?: 0 | 1;
  reason: string;
}

export type AaMode = "paper" | "code";
/** `paper`: a rank past the listed items supports nothing (0); `code`: any rank 1..5 stands, as released. */
export type RankMode = "paper" | "code";
/** `worst`: an unusable verdict scores the worst outcome; `code`: it is read the released way (`released-judge.ts`). */
export type JudgeFailureMode = "worst" | "code";
/** `judge`: an empty answer is judged like any other; `code`: every metric 0 with no judge call, as released. */
export type EmptyAnswerMode = "judge" | "code";

/** AA of one verdict on the chosen scale. */
export function aaOnScale(raw: number, kind: ConflictKind, mode: AaMode): number {
  if (raw === 1) return 1;
  if (raw === 0.5 && kind !== "conditional" && mode === "code") return 0.5;
  return 0;
}

function conflictKind(probe: Probe): ConflictKind | undefined {
  const label = probe.labels.conflict_type;
  return CONFLICT_KINDS.find((k) => k === label);
}

/** The numbered list the judge reads: `n. [time] text`. */
export function formatRetrieved(items: readonly RetrievedRecord[], depth = JUDGE_DEPTH): string {
  const top = items.slice(0, depth);
  if (!top.length) return "(no memories were retrieved)";
  return top.map((item, i) => `${i + 1}. ${item.time ? `[${item.time}] ` : ""}${item.text}`).join("\n");
}

/**
 * First supporting rank by provenance: the same positions as the runner's
 * `seh_prov@k` (distinct sessions in order of first appearance), so the two
 * agree. Undefined when the probe has no evidence sessions or when items came
 * back but none names its source (e.g. the oracle's memory texts).
 */
export function provenanceRank(record: ProbeRecord, probe: Probe): number | undefined {
  const gold = new Set(probe.gold.evidenceSessionIds);
  if (!gold.size) return undefined;
  // An empty list found nothing (rank 0); a list whose items name no source cannot be judged this way.
  if (record.retrieved.length && !record.retrieved.some((r) => r.sessionIds?.length)) return undefined;
  return firstSupportRank(rankUnits(record.retrieved, "session"), gold);
}

const list = (value: unknown): string => {
  const items = Array.isArray(value) ? value.filter((v) => typeof v === "string" && v.trim()) : [];
  return items.length ? items.join("\n") : "(none recorded)";
};

function answerText(record: ProbeRecord): string {
  if (record.answer !== undefined) return record.answer.trim() || "(empty answer)";
  if (record.answerError !== undefined) return "(no answer: the answer call failed)";
  return "(no answer: the answer stage did not run)";
}

function judgeCall(kind: ConflictKind, probe: Probe, record: ProbeRecord): JudgeCall<MemconflictVerdict> {
  const meta = probe.meta ?? {};
  return {
    bench: BENCHMARK_ID,
    template: `judge-${kind}`,
    schema: memconflictVerdictSchemas[kind] as z.ZodType<MemconflictVerdict>,
    vars: {
      conflict_type: kind,
      question: probe.question,
      gold_answer: probe.gold.answers.join(" / ") || "(none)",
      supporting_memory: list(probe.gold.evidenceMemories),
      outdated_values: list(meta.outdatedValues),
      conflicting_claims: list(meta.conflictingClaims),
      competing_rules: list(meta.competingRules),
      answer: answerText(record),
      retrieved: formatRetrieved(record.retrieved),
      k: Math.min(JUDGE_DEPTH, record.retrieved.length),
    },
  };
}

type Verdicts = ReadonlyArray<VerdictRecord & { value?: MemconflictVerdict }>;
/** What each verdict says once the `judge_failure` rule is applied; undefined scores the worst outcome. */
type Readings = ReadonlyArray<ReleasedVerdict | undefined>;

/**
 * Each verdict's values. A usable verdict as parsed. An unusable one is the
 * worst outcome (`worst`), or under `code` what the released scorer makes of
 * it: its JSON object read leniently, else the rule-based fallback from the
 * gold and the answer (also when the call itself failed).
 */
export function readVerdicts(
  verdicts: Verdicts,
  kind: ConflictKind,
  mode: JudgeFailureMode,
  gold: string,
  answer: string,
): Readings {
  return verdicts.map((v) => {
    if (v.ok && v.value) return v.value;
    if (mode !== "code") return undefined;
    const parsed = v.reply === undefined ? undefined : parseJsonReply(v.reply);
    const json = parsed?.ok ? parsed.value : undefined;
    if (json !== null && typeof json === "object" && !Array.isArray(json)) {
      return releasedVerdict(json as Record<string, unknown>, kind, JUDGE_DEPTH);
    }
    return fallbackVerdict(kind, gold, answer);
  });
}

/** Majority over judges × samples of one field; the worst outcome where there is no reading, ties to the worse value. */
function vote(readings: Readings, field: (v: ReleasedVerdict) => number, worst: number): number {
  return majority(
    readings.map((v) => (v ? field(v) : worst)),
    worst,
  );
}

/**
 * The voted first-support rank. Rank 0 (not found) is the worst and a deeper
 * rank is worse than a shallower one, so ranks are voted as 1 + depth − r and
 * mapped back. Under `rank=paper` a rank past the listed items points at
 * nothing and becomes 0; under `rank=code` any rank 1..5 stands, as the
 * released `parse_support_rank` keeps it.
 */
function voteRank(readings: Readings, listed: number, mode: RankMode): number {
  const depth = mode === "code" ? JUDGE_DEPTH : Math.min(JUDGE_DEPTH, listed);
  const toScore = (r: number) => (r >= 1 && r <= depth ? 1 + depth - r : 0);
  const score = vote(readings, (v) => toScore(v.first_support_rank), 0);
  return score === 0 ? 0 : 1 + depth - score;
}

const JUDGED = ["aa", "support_rank", ...SUPPORT_KS.flatMap((k) => [`seh@${k}`, `srs@${k}`]), "eug", "rf", "uf"];
const ANSWERED = ["aa", "eug", "rf", "uf"];

function diagnosticKey(kind: ConflictKind): "uocs" | "crs" | undefined {
  return kind === "dynamic" ? "uocs" : kind === "static" ? "crs" : undefined;
}

function option<T extends string>(ctx: ScoreContext, key: string, code: T, fallback: T): T {
  return ctx.options[key] === code ? code : fallback;
}

/** Every metric of the question 0, with no judge call: the released scorer's `missing_answer`. */
function emptyAnswerOutcome(kind: ConflictKind, metrics: Record<string, number>): ProbeOutcome {
  metrics.support_rank = 0;
  for (const k of SUPPORT_KS) {
    metrics[`seh@${k}`] = 0;
    metrics[`srs@${k}`] = 0;
  }
  metrics.aa = 0;
  const diagnostic = diagnosticKey(kind);
  if (diagnostic) metrics[diagnostic] = 0;
  Object.assign(metrics, diagnosticsOf(0, 0));
  return {
    metrics,
    verdicts: [],
    judgeFailures: 0,
    skipped: {
      answer: "empty answer: every metric 0 and no judge call, as the released scorer does (empty_answer=code)",
    },
  };
}

export async function scoreMemconflictProbe(input: ScoreInput, ctx: ScoreContext): Promise<ProbeOutcome> {
  const { record, probe } = input;
  const metrics: Record<string, number> = {};
  const skipped: Record<string, string> = {};
  const provRank = provenanceRank(record, probe);
  if (provRank !== undefined) metrics.support_rank_prov = provRank;

  const kind = conflictKind(probe);
  if (!kind) {
    for (const key of JUDGED) skipped[key] = `unknown conflict type "${probe.labels.conflict_type ?? ""}"`;
    return { metrics, verdicts: [], judgeFailures: 0, skipped };
  }
  const diagnostic = diagnosticKey(kind);
  const judged = diagnostic ? [...JUDGED, diagnostic] : JUDGED;
  if (record.answer === "" && option<EmptyAnswerMode>(ctx, "empty_answer", "code", "judge") === "code") {
    return emptyAnswerOutcome(kind, metrics);
  }
  if (!ctx.judge) {
    for (const key of judged) skipped[key] = "no judge configured";
    return { metrics, verdicts: [], judgeFailures: 0, skipped };
  }

  const failureMode = option<JudgeFailureMode>(ctx, "judge_failure", "code", "worst");
  // The released scorer reads a single reply, with no repair request after an unusable one.
  const call = { ...judgeCall(kind, probe, record), ...(failureMode === "code" ? { repair: false } : {}) };
  const verdicts = await judgeAll(call, ctx.judge);
  const judgeFailures = verdicts.filter((v) => !v.ok).length;
  const readings = readVerdicts(verdicts, kind, failureMode, probe.gold.answers[0] ?? "", record.answer ?? "");
  const rank = voteRank(readings, record.retrieved.length, option<RankMode>(ctx, "rank", "code", "paper"));
  metrics.support_rank = rank;
  for (const k of SUPPORT_KS) {
    metrics[`seh@${k}`] = sehFromRank(rank, k);
    metrics[`srs@${k}`] = srsFromRank(rank, k);
  }

  const answered = record.answer !== undefined && record.answerError === undefined;
  if (!answered && record.answerError === undefined) {
    // No answer was produced (no answer model): retrieval support stands, answer metrics do not exist.
    const why = record.answerSkipped ?? "no answer recorded";
    for (const key of diagnostic ? [...ANSWERED, diagnostic] : ANSWERED) skipped[key] = `no answer: ${why}`;
    return { metrics, verdicts, judgeFailures, skipped };
  }
  if (record.answerError !== undefined) {
    skipped.answer = `the answer call failed (${record.answerError}); scored as a wrong answer`;
  }

  const mode = option<AaMode>(ctx, "aa", "code", "paper");
  const aa = answered ? vote(readings, (v) => aaOnScale(v.aa, kind, mode), 0) : 0;
  metrics.aa = aa;
  if (diagnostic) metrics[diagnostic] = answered ? vote(readings, (v) => v[diagnostic] ?? 0, 0) : 0;
  Object.assign(metrics, diagnosticsOf(aa, metrics[`seh@${MAIN_K}`] as number));
  return { metrics, verdicts, judgeFailures, ...(Object.keys(skipped).length ? { skipped } : {}) };
}

/**
 * One question's share of EUG (SEH@3 − AA) and its failure class: a wrong
 * answer (AA = 0; half credit counts as answered) is a retrieval failure when
 * the support was not in the top 3, else a utilisation failure.
 */
export function diagnosticsOf(aa: number, hitAt3: number): { eug: number; rf: number; uf: number } {
  return { eug: hitAt3 - aa, rf: aa === 0 && hitAt3 === 0 ? 1 : 0, uf: aa === 0 && hitAt3 > 0 ? 1 : 0 };
}

function meanOf(scores: readonly ProbeScore[], key: string): { mean: number; n: number } | undefined {
  const values = scores.map((s) => s.metrics[key]).filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (!values.length) return undefined;
  return { mean: values.reduce((a, b) => a + b, 0) / values.length, n: values.length };
}

/** Per-type means, failure split and question counts, keyed `<type>_<metric>`. */
function typeMetrics(kind: ConflictKind, scores: readonly ProbeScore[]): Record<string, number> {
  const out: Record<string, number> = { [`${kind}_n`]: scores.length };
  const keys = [
    "aa",
    ...SUPPORT_KS.flatMap((k) => [`seh@${k}`, `srs@${k}`]),
    "eug",
    ...(kind === "dynamic" ? ["uocs"] : kind === "static" ? ["crs"] : []),
  ];
  for (const key of keys) {
    const m = meanOf(scores, key);
    if (m) out[`${kind}_${key}`] = m.mean;
  }
  for (const k of SUPPORT_KS) {
    const ranks = scores.map((s) => s.metrics.support_rank_prov).filter((r): r is number => r !== undefined);
    if (!ranks.length) break;
    out[`${kind}_seh_prov@${k}`] = ranks.reduce((a, r) => a + sehFromRank(r, k), 0) / ranks.length;
    out[`${kind}_srs_prov@${k}`] = ranks.reduce((a, r) => a + srsFromRank(r, k), 0) / ranks.length;
  }
  Object.assign(out, failureSplit(scores, `${kind}_`));
  return out;
}

/** Retrieval vs utilisation failures as counts, shares of the failures and shares of all answered questions. */
function failureSplit(scores: readonly ProbeScore[], prefix: string): Record<string, number> {
  const split = scores.filter((s) => s.metrics.rf !== undefined && s.metrics.uf !== undefined);
  if (!split.length) return {};
  const rf = split.filter((s) => s.metrics.rf === 1).length;
  const uf = split.filter((s) => s.metrics.uf === 1).length;
  const out: Record<string, number> = {
    [`${prefix}failures`]: rf + uf,
    [`${prefix}rf_count`]: rf,
    [`${prefix}uf_count`]: uf,
    [`${prefix}rf_over_all`]: rf / split.length,
    [`${prefix}uf_over_all`]: uf / split.length,
  };
  if (rf + uf > 0) {
    out[`${prefix}rf_over_failures`] = rf / (rf + uf);
    out[`${prefix}uf_over_failures`] = uf / (rf + uf);
  }
  return out;
}

function macro(perType: Record<string, number>, key: string): number | undefined {
  const values = CONFLICT_KINDS.map((k) => perType[`${k}_${key}`]).filter((v): v is number => v !== undefined);
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : undefined;
}

/** Headline metrics of one system × setting (or of any subset, e.g. one label value). */
export function aggregateMemconflict(scores: readonly ProbeScore[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const kind of CONFLICT_KINDS) {
    const mine = scores.filter((s) => s.labels.conflict_type === kind);
    if (mine.length) Object.assign(out, typeMetrics(kind, mine));
  }
  const averaged = new Map<string, string>([
    ["aa", "aa"],
    ["eug", "eug"],
    ...SUPPORT_KS.flatMap(
      (k): Array<[string, string]> => [
        [`seh@${k}`, `seh@${k}`],
        [`srs@${k}`, `srs@${k}`],
        [`seh_prov@${k}`, `seh_prov_macro@${k}`],
        [`srs_prov@${k}`, `srs_prov_macro@${k}`],
      ],
    ),
  ]);
  for (const [key, name] of averaged) {
    const m = macro(out, key);
    if (m !== undefined) out[name] = m;
  }
  if (out.dynamic_uocs !== undefined) out.uocs = out.dynamic_uocs;
  if (out.static_crs !== undefined) out.crs = out.static_crs;
  Object.assign(
    out,
    failureSplit(
      scores.filter((s) => CONFLICT_KINDS.some((k) => k === s.labels.conflict_type)),
      "",
    ),
  );
  return out;
}

function countFor(scores: readonly ProbeScore[], column: string): number {
  const kind = CONFLICT_KINDS.find((k) => column.startsWith(`${k}_`));
  const key = kind ? column.slice(kind.length + 1) : column;
  const pool = kind ? scores.filter((s) => s.labels.conflict_type === kind) : scores;
  return pool.filter((s) => s.metrics[key] !== undefined).length;
}

const TABLES: ReadonlyArray<{ id: string; title: string; columns: string[] }> = [
  {
    id: "table3",
    title: "Table 3: black-box results by conflict type",
    columns: ["dynamic_aa", "dynamic_uocs", "static_aa", "static_crs", "conditional_aa", "aa"],
  },
  {
    id: "table4",
    title: "Table 4: white-box retrieval and ranking, K = 3",
    columns: [
      "dynamic_seh@3",
      "dynamic_srs@3",
      "static_seh@3",
      "static_srs@3",
      "conditional_seh@3",
      "conditional_srs@3",
      "seh@3",
      "srs@3",
    ],
  },
  {
    id: "table7",
    title: "Table 7: Evidence Utilization Gap (SEH@3 − AA)",
    columns: ["dynamic_eug", "static_eug", "conditional_eug", "eug"],
  },
];

/** Our numbers in the layouts of the paper's Tables 3, 4 and 7 (one row: this system × setting). */
export function memconflictTables(scores: readonly ProbeScore[], ctx: ScoreContext): PaperTable[] {
  const first = scores[0];
  if (!first) return [];
  const label = first.setting === "default" ? first.system : `${first.system} (${first.setting})`;
  const metrics = aggregateMemconflict(scores);
  const scale = ctx.options.aa === "code" ? "0 / 0.5 / 1 (released code)" : "binary (paper Eq. 11)";
  return TABLES.map((t) => ({
    id: t.id,
    title: t.title,
    columns: t.columns,
    rows: [
      {
        label,
        cells: Object.fromEntries(t.columns.map((c) => [c, metrics[c] ?? null])),
        n: Object.fromEntries(t.columns.map((c) => [c, countFor(scores, c)])),
      },
    ],
    note: `AA scale: ${scale}. SEH and SRS from the judge's first supporting rank over the top ${JUDGE_DEPTH}; averages are macro means over the conflict types present.`,
  }));
}

const FAILURE_RULES: Record<JudgeFailureMode, string> = {
  worst: `${WORST_OUTCOME} (AA 0, rank 0 = not found, UOCS/CRS 0)`,
  code:
    "read as the released scorer reads them: a JSON object in the reply leniently (AA snapped, ranks past 5 " +
    "as 0), else its rule-based fallback (AA from token overlap, UOCS/CRS from marker words, rank 0)",
};

export const memconflictScorer: BenchmarkScorer = {
  bench: BENCHMARK_ID,
  needsJudge: true,
  options: {
    aa: {
      values: ["paper", "code"],
      default: "paper",
      help: "paper: binary answer accuracy (Eq. 11), a half-credit verdict counts as wrong; code: the released scorer's 0 / 0.5 / 1 for dynamic and static questions",
    },
    rank: {
      values: ["paper", "code"],
      default: "paper",
      help: "paper: a judged support rank past the listed items supports nothing (not found); code: any rank 1..5 stands, as the released parse_support_rank keeps it",
    },
    judge_failure: {
      values: ["worst", "code"],
      default: "worst",
      help: "worst: a verdict that cannot be used scores AA 0, rank 0, UOCS/CRS 0; code: the released scorer's handling (its JSON read leniently with AA snapped ≥0.75 → 1, ≥0.25 → 0.5; else the rule-based fallback: token overlap, marker words, SEH 0)",
    },
    empty_answer: {
      values: ["judge", "code"],
      default: "judge",
      help: "judge: an empty answer is judged like any other; code: every metric 0 and no judge call, as the released scorer does",
    },
  },
  failedVerdictRule: (options) => FAILURE_RULES[options.judge_failure === "code" ? "code" : "worst"],
  stratifyBy: "conflict_type",
  scoreProbe: scoreMemconflictProbe,
  aggregate: (scores) => aggregateMemconflict(scores),
  tables: memconflictTables,
};
