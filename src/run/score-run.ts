/**
 * Scores a stored run: every probe record through its benchmark's scorer,
 * with the judges, prompts and options given, then folds the scores into
 * summary.json. Re-scoring never redoes retrieval or answers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import PQueue from "p-queue";
import { scorerFor } from "../benchmarks/index.ts";
import { ConfigError } from "../core/errors.ts";
import type { Dataset, Episode, Probe } from "../core/model.ts";
import { type ProbeRecord, type Setting, type UnitInfo, unitId } from "../core/record.ts";
import { loadRunData } from "../data/run-data.ts";
import { type UsageSink, withUsageSink } from "../llm/accounting.ts";
import {
  createChatModel,
  type ManagedChatModel,
  modelConfigured,
  resolveModelSettings,
  withModelName,
} from "../llm/create.ts";
import { DEFAULT_CONCURRENCY } from "../llm/limits.ts";
import { bootstrapStatCI } from "../score/bootstrap.ts";
import {
  failureCauseOf,
  type JudgeContext,
  type JudgeFailureCause,
  keptVerdicts,
  type NamedJudge,
} from "../score/judge.ts";
import { PromptSet } from "../score/prompts.ts";
import {
  type BenchmarkScorer,
  callsJudge,
  meanMetrics,
  type PaperTable,
  type ProbeScore,
  type ScoreContext,
  WORST_OUTCOME,
} from "../score/types.ts";
import { log } from "../util/log.ts";
import { type Override, RunStore, STORE_FILE } from "./store.ts";
import { type ResultRow, type Summary, SummaryBuilder } from "./summary.ts";

export interface ScoreRunOptions {
  /** Judge names (`--judges a,b,c`): model names, or the `model` field of scripted rules. */
  judges?: string[];
  /** Model spec for judges (`openai`, `openai:MODEL`, `scripted:FILE`); default: settings, then the run's `--llm`. */
  judgeLlm?: string;
  judgeRuns?: number;
  /** A folder with the user's own prompt templates. */
  prompts?: string;
  /** Benchmark options, e.g. `{ aa: "code" }`. */
  options?: Record<string, string>;
  concurrency?: number;
  /** Load the data leniently (`--lenient`); a run started with `--lenient` keeps it without asking. */
  lenient?: boolean;
  /**
   * Keep every stored verdict that succeeded for the same judge, sample and prompt,
   * and ask only the failed and the new judge calls (`run --resume` / `--retry-failed`).
   * Default: every judge call is made again (a re-score).
   */
  keepVerdicts?: boolean;
}

export interface ScoreOutcome {
  summary: Summary;
  scores: ProbeScore[];
}

/** Extra fields scoring adds to a summary row. */
export interface ScoredRow extends ResultRow {
  ci?: Record<string, [number, number]>;
  promptSet?: string;
  judges?: string[];
  judge_failures?: number;
  /** How those failures were counted (the scorer's rule under the options used), when there are any. */
  judgeFailureRule?: string;
  /** Every failed verdict, with its cause (absent in runs scored before causes were recorded). */
  judgeFailureList?: Array<{
    episodeId: string;
    probeId: string;
    judge: string;
    reason: string;
    cause?: JudgeFailureCause;
  }>;
  tables?: PaperTable[];
}

export interface RunConfigLike {
  variant?: string | null;
  options: {
    benchmark: string;
    data: string;
    systems: string[];
    settings: Setting[];
    llm?: string;
    variant?: string;
  } & Record<string, unknown>;
}

export function readConfig(dir: string): RunConfigLike {
  try {
    return JSON.parse(readFileSync(join(dir, "config.json"), "utf8")) as RunConfigLike;
  } catch (error) {
    throw new ConfigError(`cannot read ${join(dir, "config.json")}: ${(error as Error).message}`, "runDir");
  }
}

/**
 * Builds the named judges, or none (with the reason) when no model is configured.
 * `limiter`: the concurrency budget to share (a run's answer model's), so answer
 * and judge calls wait in one queue; otherwise the judges get one of their own.
 */
export function buildJudges(
  options: ScoreRunOptions,
  fallbackLlm?: string,
  limiter?: PQueue,
): { judges: NamedJudge[]; models: ManagedChatModel[]; reason?: string } {
  const spec = options.judgeLlm ?? fallbackLlm;
  const status = modelConfigured({ flags: { llm: spec } });
  if (!status.configured) return { judges: [], models: [], reason: `no judge configured (${status.reason})` };
  const s = resolveModelSettings({ flags: { llm: spec } });
  const names = options.judges?.length
    ? options.judges
    : [s.judgeModel ?? (s.spec.kind === "openai" ? (s.spec.model ?? s.model ?? "judge") : (s.spec.name ?? "judge"))];
  const models: ManagedChatModel[] = [];
  let shared: ManagedChatModel | undefined;
  const judges = names.map((name) => {
    const model = createChatModel({
      spec: withModelName(s.spec, name),
      baseUrl: s.baseUrl,
      apiKey: s.apiKey,
      cacheDir: s.cacheDir,
      timeoutMs: s.timeoutMs,
      maxRetries: s.maxRetries,
      concurrency: s.concurrency,
      rps: s.rps,
      // One endpoint budget and one ledger for all judges.
      limiter: shared?.limiter ?? limiter,
      accounting: shared?.accounting,
      cache: shared?.cache,
    });
    shared ??= model;
    models.push(model);
    return { name, model };
  });
  return { judges, models };
}

/**
 * The options a scoring uses: each given value checked against the scorer's,
 * defaults filled in. An option that shapes answers (`stage: "answer"`) keeps
 * the value the run answered with (`answered`); another value is refused,
 * since only a new run can change it.
 */
function scorerOptions(
  scorer: BenchmarkScorer,
  given: Record<string, string> = {},
  answered: Record<string, string> = {},
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, spec] of Object.entries(scorer.options ?? {})) {
    const fixed = spec.stage === "answer" ? (answered[key] ?? spec.default) : undefined;
    const value = given[key] ?? fixed ?? spec.default;
    if (spec.values.length && !spec.values.includes(value)) {
      throw new ConfigError(`expected one of ${spec.values.join(", ")}, got "${value}"`, key, "--score-option");
    }
    if (fixed !== undefined && value !== fixed) {
      throw new ConfigError(
        `this run answered with ${key}=${fixed}; the option shapes what the answerer was given, so only a new ` +
          "`membench run` can change it",
        key,
        "--score-option",
      );
    }
    out[key] = value;
  }
  for (const key of Object.keys(given)) {
    if (!(key in out)) {
      const known = Object.keys(scorer.options ?? {});
      throw new ConfigError(
        `${scorer.bench} has no option "${key}"${known.length ? ` (known: ${known.join(", ")})` : ""}`,
        key,
        "--score-option",
      );
    }
  }
  return out;
}

/** Refuses unknown scoring options and values of a benchmark before a run spends anything. */
export function checkScoreOptions(bench: string, given: Record<string, string> = {}): void {
  const scorer = scorerFor(bench);
  if (scorer) scorerOptions(scorer, given, given);
}

/** Probes scored at once when the caller does not say: the judges' own concurrency sets the pace. */
function judgeConcurrency(ctx: ScoreContext): number {
  const limits = (ctx.judge?.judges ?? []).map((j) => (j.model as Partial<ManagedChatModel>).limiter?.concurrency);
  const known = limits.filter((n): n is number => typeof n === "number" && Number.isFinite(n) && n > 0);
  return known.length ? Math.max(...known) : DEFAULT_CONCURRENCY;
}

/** Which record a score is of: unit, probe and setting. */
export function scoreKey(record: Pick<ProbeRecord, "unitId" | "probeId" | "setting">): string {
  return `${record.unitId}\u0000${record.probeId}\u0000${record.setting}`;
}

/** One record scored, or undefined (with a warning) when its probe is no longer in the data. */
export async function scoreRecord(
  scorer: BenchmarkScorer,
  record: ProbeRecord,
  episodes: ReadonlyMap<string, Episode>,
  ctx: ScoreContext,
  sink?: UsageSink,
): Promise<ProbeScore | undefined> {
  const episode = episodes.get(record.episodeId);
  const probe: Probe | undefined = episode?.probes.find((p) => p.id === record.probeId);
  if (!episode || !probe) {
    log.warn(`no probe ${record.episodeId}/${record.probeId} in the data any more: not scored`);
    return undefined;
  }
  const score = () => scorer.scoreProbe({ record, probe, episode }, ctx);
  const outcome = await (sink ? withUsageSink(sink, score) : score());
  return {
    ...outcome,
    system: record.system,
    setting: record.setting,
    episodeId: record.episodeId,
    probeId: record.probeId,
    labels: record.labels,
  };
}

/**
 * Scores records; probes are looked up by episode and probe id. `concurrency`
 * (probes scored at once) defaults to the judges' model concurrency
 * (MEMBENCH_CONCURRENCY), whose limiter bounds the calls themselves.
 */
export async function scoreRecords(
  scorer: BenchmarkScorer,
  records: readonly ProbeRecord[],
  episodes: ReadonlyMap<string, Episode>,
  ctx: ScoreContext,
  concurrency?: number,
  /** Where each record's judge calls are accounted (the run store's per-unit usage). */
  sinkFor?: (record: ProbeRecord) => UsageSink,
  /** Scores already computed in this process (judged inside the run), by scoreKey: used as they are. */
  scored?: ReadonlyMap<string, ProbeScore>,
): Promise<ProbeScore[]> {
  const queue = new PQueue({ concurrency: concurrency ?? judgeConcurrency(ctx) });
  const out: Array<ProbeScore | undefined> = new Array(records.length);
  records.forEach((record, i) => {
    if (record.status !== "done") return;
    const ready = scored?.get(scoreKey(record));
    if (ready) {
      out[i] = ready;
      return;
    }
    queue.add(async () => {
      out[i] = await scoreRecord(scorer, record, episodes, ctx, sinkFor?.(record));
    });
  });
  await queue.onIdle();
  return out.filter((s): s is ProbeScore => s !== undefined);
}

function headline(scorer: BenchmarkScorer, scores: readonly ProbeScore[], ctx: ScoreContext): Record<string, number> {
  return scorer.aggregate ? scorer.aggregate(scores, ctx) : meanMetrics(scores);
}

/** Folds scores into the summary rows: metrics, per-label metrics, CIs, failures, tables. */
export function applyScores(
  summary: Summary,
  scores: readonly ProbeScore[],
  scorer: BenchmarkScorer,
  ctx: ScoreContext,
  judgeInfo: Pick<ScoringInfo, "promptSet" | "judges" | "reason">,
): Summary {
  const rows = summary.results as ScoredRow[];
  for (const row of rows) {
    const mine = scores.filter((s) => s.system === row.system && s.setting === row.setting);
    if (!mine.length) continue;
    const metrics = headline(scorer, mine, ctx);
    Object.assign(row.metrics, metrics);
    for (const [label, groups] of Object.entries(row.byLabel)) {
      for (const [value, cell] of Object.entries(groups)) {
        Object.assign(
          cell,
          headline(
            scorer,
            mine.filter((s) => s.labels[label] === value),
            ctx,
          ),
        );
      }
    }
    // The CI of each headline number is bootstrapped through the scorer's own
    // aggregation, so macro averages and ×100 tables get intervals of the same statistic.
    const strata = scorer.stratifyBy;
    const ci = bootstrapStatCI(
      mine,
      strata ? mine.map((s) => s.labels[strata] ?? "") : undefined,
      (sample) => headline(scorer, sample, ctx),
      { iterations: 500 },
    );
    row.ci = ci;
    row.promptSet = judgeInfo.promptSet;
    row.judges = judgeInfo.judges;
    row.judge_failures = mine.reduce((n, s) => n + s.judgeFailures, 0);
    if (row.judge_failures) row.judgeFailureRule = scorer.failedVerdictRule?.(ctx.options) ?? WORST_OUTCOME;
    else delete row.judgeFailureRule;
    row.judgeFailureList = mine.flatMap((s) =>
      s.verdicts
        .filter((v) => !v.ok)
        .map((v) => ({
          episodeId: s.episodeId,
          probeId: s.probeId,
          judge: v.judge,
          reason: v.failure ?? "",
          cause: failureCauseOf({ cause: v.failureCause, reason: v.failure ?? "" }),
        })),
    );
    row.tables = scorer.tables?.(mine, ctx) ?? [];
    const judged = mine.some((s) => s.verdicts.length > 0);
    row.skipped = row.skipped.filter((stage) => stage !== "judge");
    delete row.skipReasons.judge;
    if (scorer.needsJudge && !judged) {
      row.skipped.push("judge");
      row.skipReasons.judge = judgeInfo.reason ?? "no judge verdicts";
    }
  }
  if (scorer.crossSetting) {
    const cross = scorer.crossSetting.bind(scorer);
    for (const system of new Set(rows.map((r) => r.system))) {
      const bySetting = (keep: (s: ProbeScore) => boolean) => {
        const out: Partial<Record<Setting, ProbeScore[]>> = {};
        for (const s of scores.filter((x) => x.system === system && keep(x))) {
          out[s.setting] = [...(out[s.setting] ?? []), s];
        }
        return out;
      };
      const row = rows.find((r) => r.system === system && r.setting === "default");
      if (!row) continue;
      Object.assign(row.metrics, cross(bySetting(() => true)));
      // The same cross-setting figures per category (e.g. the waterfall per relation type).
      for (const [label, groups] of Object.entries(row.byLabel)) {
        for (const [value, cell] of Object.entries(groups)) {
          Object.assign(cell, cross(bySetting((s) => s.labels[label] === value)));
        }
      }
    }
  }
  return summary;
}

/** How a run was last scored, so summaries can be rebuilt (after an override) without judges. */
export interface ScoringInfo {
  promptSet: string;
  judges: string[];
  options: Record<string, string>;
  reason?: string;
}

export const SCORING_FILE = "scoring.json";

/** A run's summary rebuilt from its store, with what it was built from. */
export interface ComputedSummary {
  summary: Summary;
  scores: ProbeScore[];
  records: ProbeRecord[];
  units: UnitInfo[];
}

/**
 * Rebuilds summary.json from what the run stored — records, scores, manual
 * overrides — with no model call. Used after every scoring and every override.
 */
export function summarizeRun(dir: string): { summary: Summary; scores: ProbeScore[] } {
  const { summary, scores } = computeSummary(dir, { records: false });
  writeFileSync(join(dir, "summary.json"), `${JSON.stringify(summary, null, 2)}\n`);
  return { summary, scores };
}

/**
 * The summary summarizeRun writes, computed in memory: reads the run (its store
 * opened read-only) and writes nothing, so reports work on read-only runs. The
 * records are read one unit at a time and only their figures kept; with
 * `records: false` they are not returned either, and no text is read.
 */
export function computeSummary(dir: string, options: { records?: boolean } = {}): ComputedSummary {
  const config = readConfig(dir);
  const store = RunStore.readOnly(join(dir, STORE_FILE));
  const records: ProbeRecord[] = [];
  const builder = new SummaryBuilder();
  const keep = options.records !== false;
  let units: UnitInfo[];
  let scores: ProbeScore[];
  let overrides: Override[];
  let usage: Pick<Summary, "usage" | "judgeUsage">;
  try {
    store.eachRecord(
      (r) => {
        builder.add(r);
        if (keep) records.push(r);
      },
      { texts: keep },
    );
    units = store.units();
    scores = store.scores<ProbeScore>();
    overrides = store.overrides();
    usage = { usage: store.usage("run"), judgeUsage: store.usage("score") };
  } finally {
    store.close();
  }
  const previous = readPreviousSummary(dir);
  let summary = builder.build(
    { benchmark: config.options.benchmark, variant: config.variant ?? undefined, data: config.options.data },
    units,
    config.options.systems,
    config.options.settings,
  );
  // Runs from before usage was stored per unit keep what their summary last said.
  const usageNow = usage.usage ?? previous?.usage;
  const judgeUsageNow = usage.judgeUsage ?? previous?.judgeUsage;
  if (usageNow) summary.usage = usageNow;
  if (judgeUsageNow) summary.judgeUsage = judgeUsageNow;
  const scorer = scorerFor(config.options.benchmark);
  const info = readScoringInfo(dir);
  if (scorer && info && scores.length) {
    applyOverrides(scores, overrides);
    summary = applyScores(summary, scores, scorer, { options: info.options, data: config.options.data }, info);
    summary.failures = {
      ...(summary.failures ?? { units: 0, answers: 0 }),
      judgeCalls: scores.reduce((n, s) => n + s.verdicts.filter((v) => !v.ok).length, 0),
    };
  }
  return { summary, scores, records, units };
}

/** Replaces scored metric values by a person's overrides, keeping the scorer's value beside. */
export function applyOverrides(scores: ProbeScore[], overrides: readonly Override[]): void {
  for (const o of overrides) {
    const s = scores.find(
      (x) => unitId(x.system, x.episodeId) === o.unitId && x.probeId === o.probeId && x.setting === o.setting,
    );
    if (!s) continue;
    s.overrides = {
      ...s.overrides,
      [o.metric]: { value: o.value, previous: s.metrics[o.metric], comment: o.comment, at: o.at },
    };
    s.metrics[o.metric] = o.value;
  }
}

function readPreviousSummary(dir: string): Summary | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;
  } catch {
    return undefined;
  }
}

function readScoringInfo(dir: string): ScoringInfo | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, SCORING_FILE), "utf8")) as ScoringInfo;
  } catch {
    return undefined;
  }
}

/** What scoring a run needs ready before any record is scored: the scorer, its options, the judges. */
export interface PreparedScoring {
  scorer: BenchmarkScorer;
  ctx: ScoreContext;
  info: ScoringInfo;
  /** Closes the judges' models. */
  close(): void;
}

/**
 * Sets up the scoring of a run: the scorer's options (from the run's protocol,
 * the answer-stage options it ran with, and `options`), the judges, the prompts,
 * and the verdicts to keep (`earlier`, with `keepVerdicts`). Undefined when the
 * benchmark has no scorer. `limiter`: the budget the judges share (see buildJudges).
 */
export function prepareScoring(
  config: RunConfigLike,
  options: ScoreRunOptions,
  earlier: readonly ProbeScore[] = [],
  limiter?: PQueue,
): PreparedScoring | undefined {
  const scorer = scorerFor(config.options.benchmark);
  if (!scorer) return undefined;
  const prompts = new PromptSet(options.prompts);
  // A protocol setting that is also a scoring option (RealMem's memory/session
  // context) carries over from the run, unless given explicitly.
  const protocol = (config.options.protocol ?? {}) as Record<string, unknown>;
  const inherited = Object.fromEntries(
    Object.keys(scorer.options ?? {})
      .filter((k) => typeof protocol[k] === "string")
      .map((k) => [k, protocol[k] as string]),
  );
  const answered = (config.options.scoring as { options?: Record<string, string> } | undefined)?.options ?? {};
  const scoring = scorerOptions(scorer, { ...inherited, ...options.options }, answered);
  // No judge is built when these options call none (LoCoMo without J), so the run names none.
  const { judges, models, reason } = callsJudge(scorer, scoring)
    ? buildJudges(options, config.options.llm, limiter)
    : { judges: [], models: [], reason: "these scoring options call no judge" };
  const kept = options.keepVerdicts ? keptVerdicts(earlier) : undefined;
  const judge: JudgeContext | undefined = judges.length
    ? { judges, runs: Math.max(1, options.judgeRuns ?? 1), prompts, ...(kept ? { kept } : {}) }
    : undefined;
  const ctx: ScoreContext = { judge, options: scoring, data: config.options.data };
  const info: ScoringInfo = {
    promptSet: prompts.name,
    judges: judges.map((j) => j.name),
    options: ctx.options,
    reason,
  };
  return {
    scorer,
    ctx,
    info,
    close: () => {
      for (const m of models) m.close();
    },
  };
}

/** Extra inputs of a scoring that follows a run in the same process. */
export interface ScoreRunInternals {
  /** The run's dataset, already loaded. */
  dataset?: Dataset;
  /** The budget the judges share with the run's answer model. */
  limiter?: PQueue;
  /** Records judged inside the run, by scoreKey: their scores are used as they are, with no call. */
  scored?: ReadonlyMap<string, ProbeScore>;
}

/** Re-scores a stored run with the given judges, prompts and options, and rewrites summary.json. */
export async function scoreRun(
  dir: string,
  options: ScoreRunOptions = {},
  internals: ScoreRunInternals = {},
): Promise<ScoreOutcome> {
  const config = readConfig(dir);
  const bench = config.options.benchmark;
  if (!scorerFor(bench)) {
    log.warn(`${bench} has no scorer: only retrieval metrics are reported`);
    return summarizeRun(dir);
  }
  const store = new RunStore(join(dir, STORE_FILE));
  let records: ProbeRecord[];
  let earlier: ProbeScore[] = [];
  try {
    // Records scored inside the run need no text: only the others are read whole.
    const scored = internals.scored;
    records = scored
      ? store
          .records({ texts: false })
          .map((r) =>
            r.status !== "done" || scored.has(scoreKey(r)) ? r : store.record(r.unitId, r.probeId, r.setting)!,
          )
      : store.records();
    if (options.keepVerdicts) earlier = store.scores<ProbeScore>();
  } finally {
    store.close();
  }
  const dataset =
    internals.dataset ??
    (await loadRunData(bench, config.options.data, {
      lenient: options.lenient ?? config.options.lenient === true,
      variant: config.options.variant,
    }));
  const prepared = prepareScoring(config, options, earlier, internals.limiter)!;
  const { scorer, ctx, info } = prepared;
  const kept = ctx.judge?.kept;
  if (kept?.size) log.info(`keeping ${kept.size} judge verdicts that succeeded; failed and new judge calls are asked`);
  if (!ctx.judge && scorer.needsJudge) log.info(`${info.reason}: judged metrics will be skipped`);
  const episodes = new Map(dataset.episodes.map((e) => [e.id, e]));
  try {
    const reopened = new RunStore(join(dir, STORE_FILE));
    try {
      // Judge calls are stored per unit as they end, so a killed scoring's spend still counts.
      const scores = await scoreRecords(
        scorer,
        records,
        episodes,
        ctx,
        options.concurrency,
        (record) => (call) => reopened.addUsage(record.unitId, "score", call),
        internals.scored,
      );
      reopened.replaceScores(
        scores.map((s) => ({
          unitId: unitId(s.system, s.episodeId),
          probeId: s.probeId,
          setting: s.setting,
          record: s,
        })),
      );
    } finally {
      reopened.close();
    }
    writeFileSync(join(dir, SCORING_FILE), `${JSON.stringify(info, null, 2)}\n`);
    return summarizeRun(dir);
  } finally {
    prepared.close();
  }
}
