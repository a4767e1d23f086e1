/**
 * Builds the report model from loaded runs: runs of one benchmark share a
 * section, so their systems sit in the same paper-layout tables beside the
 * paper's reported rows.
 */
import { getBenchmark, scorerFor } from "../benchmarks/index.ts";
import { foreignMetric } from "../benchmarks/retrieval-columns.ts";
import { citationText } from "../benchmarks/shared/citation.ts";
import type { Setting } from "../core/record.ts";
import type { ScoredRow } from "../run/score-run.ts";
import { bootstrapMeanCI } from "../score/bootstrap.ts";
import { describeJudgeFailures } from "../score/judge.ts";
import {
  type BenchmarkScorer,
  type ByGroupLayout,
  callsJudge,
  type PaperTable,
  type ProbeScore,
  type ScoreContext,
  WORST_OUTCOME,
} from "../score/types.ts";
import { type CellCIOptions, tablesWithCIs } from "./cell-ci.ts";
import { CHART_LABEL, type Headline, headlineFor, retrievalHeadline, scoreValue } from "./headline.ts";
import type { BenchmarkSection, Cell, CostRow, LayoutTable, RunMeta, SkipLine, TableRow, UsageRow } from "./model.ts";
import { columnTitles, type ReportedTable, reportedRetrieval, reportedTables } from "./reported.ts";
import { type RunData, rowName } from "./run-data.ts";
import { type Outcome, type Waterfall, waterfallOf } from "./waterfall.ts";

export interface BuildOptions extends CellCIOptions {}

/** The scoring options the run was scored with, defaults filled in. */
export function scoreContext(run: RunData, scorer: BenchmarkScorer | undefined): ScoreContext {
  const options: Record<string, string> = {};
  for (const [key, spec] of Object.entries(scorer?.options ?? {})) options[key] = spec.default;
  return { options: { ...options, ...(run.scoring?.options ?? {}) } };
}

function benchmarkTitle(id: string): string {
  try {
    return getBenchmark(id).title;
  } catch {
    return id;
  }
}

/**
 * Whether the run's scoring called a judge: LoCoMo without J runs none, even
 * when an earlier version recorded the configured judge's name.
 */
export function judgeRan(benchmark: string, scoring: RunData["scoring"]): boolean {
  return Boolean(scoring?.judges.length && callsJudge(scorerFor(benchmark), scoring.options));
}

export function runMeta(run: RunData): RunMeta {
  const c = run.config;
  const model = c.model.configured ? (c.llm ?? "configured") : `none (${c.model.detail || "no model configured"})`;
  const judged = judgeRan(c.benchmark, run.scoring) ? `; judges ${run.scoring!.judges.join(", ")}` : "";
  const scoring = run.scoring
    ? `prompt set ${run.scoring.promptSet}${judged}${
        Object.keys(run.scoring.options).length
          ? `; options ${Object.entries(run.scoring.options)
              .map(([k, v]) => `${k}=${v}`)
              .join(", ")}`
          : ""
      }`
    : undefined;
  return {
    id: c.id,
    dir: run.dir,
    benchmark: c.benchmark,
    ...(c.variant ? { variant: c.variant } : {}),
    data: c.data,
    systems: c.systems,
    settings: c.settings,
    ...(c.createdAt ? { createdAt: c.createdAt } : {}),
    model,
    ...(scoring ? { scoring } : {}),
  };
}

const scoresOf = (run: RunData, system: string, setting: Setting) =>
  run.scores.filter((s) => s.system === system && s.setting === setting);

/** Decimal places a published number was written with (0.5539 → 4; 0.554 → 3). */
function decimals(value: number): number {
  const text = String(value);
  const dot = text.indexOf(".");
  return dot < 0 || /e/i.test(text) ? 0 : text.length - dot - 1;
}

/**
 * 2 decimals for 0–100 scales, 3 for 0–1, or more when a reported number was
 * published with more (MemConflict's and RealMem Table 3's four), so reported
 * rows print as published; never more than 4.
 */
function digitsFor(rows: readonly TableRow[]): number {
  const values = rows.flatMap((r) => Object.values(r.cells).map((c) => c.value));
  const base = values.some((v) => v !== null && Math.abs(v) > 1.5) ? 2 : 3;
  const published = rows
    .filter((r) => r.kind === "reported")
    .flatMap((r) => Object.values(r.cells).map((c) => c.value))
    .filter((v): v is number => v !== null && Number.isFinite(v))
    .map(decimals);
  return Math.min(4, Math.max(base, ...published));
}

function reportedRow(t: ReportedTable, r: ReportedTable["rows"][number]): TableRow {
  // A row published somewhere else than the table's source names it in its note.
  const note = [r.note, r.ownSource ? `source: ${citationText(r.source)}` : undefined].filter(Boolean).join("; ");
  return {
    kind: "reported",
    system: r.system,
    ...(r.group ? { group: r.group } : {}),
    ...(t.tag ? { tag: t.tag } : {}),
    cells: Object.fromEntries(Object.entries(r.cells).map(([k, v]) => [k, { value: v }])),
    ...(note ? { note } : {}),
  };
}

/** Why a row has no scored numbers, from what the run recorded. */
function notScoredReason(row: ScoredRow | undefined): string {
  if (!row) return "no records";
  for (const stage of ["answer", "judge"]) {
    if (row.skipped.includes(stage)) return `not scored: ${stage} skipped (${row.skipReasons[stage] || "no reason"})`;
  }
  return "no scored probe falls in these columns";
}

interface OurTable {
  run: RunData;
  system: string;
  setting: Setting;
  table: PaperTable;
  ci: Map<string, Record<string, [number, number]>>;
}

/**
 * Our rows of one scorer table. Most have one row named after the system; a
 * breakdown table (by source, by topic) has one per label value, which goes
 * into the group column.
 */
function ourRows(t: OurTable, tag: string | undefined, emptyNote: string): TableRow[] {
  const name = rowName(t.system, t.setting);
  return t.table.rows.map((row) => {
    const cells: Record<string, Cell> = {};
    const ci = t.ci.get(row.label) ?? {};
    for (const column of t.table.columns) {
      const value = row.cells[column] ?? null;
      const n = row.n?.[column];
      const interval = value !== null && (n === undefined || n >= 2) ? ci[column] : undefined;
      cells[column] = { value, ...(n !== undefined ? { n } : {}), ...(interval ? { ci: interval } : {}) };
    }
    const empty = Object.values(cells).every((c) => c.value === null);
    return {
      kind: "ours" as const,
      system: name,
      ...(row.label !== name ? { group: row.label } : {}),
      setting: t.setting,
      ...(tag ? { tag } : {}),
      cells,
      ...(empty ? { note: emptyNote } : {}),
    };
  });
}

/** A scorer's title may name the system its rows came from; the layout is shared by all systems. */
function sharedTitle(title: string, system: string, setting: Setting): string {
  const suffix = `, ${rowName(system, setting)}`;
  return title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
}

function tablesOf(scorer: BenchmarkScorer | undefined, ctx: ScoreContext): PaperTable[] {
  try {
    return scorer?.tables?.([], ctx) ?? [];
  } catch {
    return [];
  }
}

/**
 * The scorer's table layouts with no rows: those of the run's options, plus
 * those another option value would produce when the paper reports that table
 * (LoCoMo's J table exists only with j=on), so reported rows get the scorer's
 * own title and columns.
 */
function emptyLayouts(scorer: BenchmarkScorer | undefined, ctx: ScoreContext, reportedIds: ReadonlySet<string>) {
  const out = tablesOf(scorer, ctx);
  for (const [key, spec] of Object.entries(scorer?.options ?? {})) {
    for (const value of spec.values) {
      for (const t of tablesOf(scorer, { options: { ...ctx.options, [key]: value } })) {
        if (reportedIds.has(t.id) && !out.some((o) => o.id === t.id)) out.push(t);
      }
    }
  }
  return out;
}

function paperTables(bench: string, runs: readonly RunData[], options: BuildOptions): LayoutTable[] {
  const scorer = scorerFor(bench);
  const reported = reportedTables(bench);
  const titles = columnTitles(bench);
  const several = runs.length > 1;
  const ours: OurTable[] = [];
  const layouts = new Map<string, { title: string; columns: string[]; notes: string[]; byGroup?: ByGroupLayout }>();
  const addLayout = (t: {
    id: string;
    title?: string;
    columns: readonly string[];
    note?: string;
    byGroup?: ByGroupLayout;
  }) => {
    const known = layouts.get(t.id);
    if (known) {
      if (t.note && !known.notes.includes(t.note)) known.notes.push(t.note);
      known.byGroup ??= t.byGroup;
      return;
    }
    layouts.set(t.id, {
      title: t.title ?? t.id,
      columns: [...t.columns],
      notes: t.note ? [t.note] : [],
      ...(t.byGroup ? { byGroup: t.byGroup } : {}),
    });
  };
  for (const run of runs) {
    const ctx = scoreContext(run, scorer);
    if (scorer) {
      for (const row of run.summary.results) {
        const mine = scoresOf(run, row.system, row.setting);
        for (const { table, ci } of tablesWithCIs(scorer, mine, ctx, options)) {
          addLayout({ ...table, title: sharedTitle(table.title, row.system, row.setting) });
          ours.push({ run, system: row.system, setting: row.setting, table, ci });
        }
      }
    }
    for (const t of emptyLayouts(scorer, ctx, new Set(reported.map((r) => r.id)))) {
      addLayout({ ...t, title: t.title.replace(/, (ours|this system)$/, ""), note: undefined });
    }
  }
  for (const t of reported) addLayout({ id: t.id, title: t.title, columns: t.columns });
  const waterfall = waterfallTable(bench, runs, options, reported);
  if (waterfall) layouts.set(waterfall.id, { title: waterfall.title, columns: waterfall.columns, notes: [] });

  const out: LayoutTable[] = [];
  for (const [id, layout] of layouts) {
    if (waterfall && id === waterfall.id) {
      out.push(waterfall);
      continue;
    }
    const rows: TableRow[] = [];
    const sources: string[] = [];
    const notes = [...layout.notes];
    for (const t of reported.filter((r) => r.id === id)) {
      sources.push(t.source);
      for (const note of t.notes) if (!notes.includes(note)) notes.push(note);
      rows.push(...t.rows.map((r) => reportedRow(t, r)));
    }
    for (const run of runs) {
      for (const result of run.summary.results) {
        const mine = ours.find(
          (o) => o.run === run && o.system === result.system && o.setting === result.setting && o.table.id === id,
        );
        const tag = several ? run.config.id : undefined;
        if (mine) {
          rows.push(...ourRows(mine, tag, notScoredReason(result)));
        } else if (result.setting === "default") {
          const scored = scoresOf(run, result.system, result.setting).length > 0;
          rows.push({
            kind: "ours",
            system: result.system,
            setting: result.setting,
            ...(tag ? { tag } : {}),
            cells: Object.fromEntries(layout.columns.map((c) => [c, { value: null }])),
            note: scored
              ? "membench did not compute this table for this run (see its score options)"
              : notScoredReason(result),
          });
        }
      }
    }
    out.push({
      id,
      title: layout.title,
      columns: layout.columns,
      ...(layout.byGroup ? { byGroup: layout.byGroup } : {}),
      columnTitles: { ...titles },
      rows,
      notes,
      sources,
      digits: digitsFor(rows),
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Waterfall

const waterfallId = (bench: string) => `${bench}-waterfall`;

/** Per-probe outcomes of one system in every setting, on the headline's per-probe scale. */
export function outcomesOf(run: RunData, headline: Headline, system: string): Outcome[] {
  const out: Outcome[] = [];
  for (const s of run.scores) {
    if (s.system !== system) continue;
    const value = scoreValue(run.config.benchmark, headline, s);
    if (value !== undefined) out.push({ ...pick(s), value });
  }
  return out;
}

function pick(s: ProbeScore) {
  return { episodeId: s.episodeId, probeId: s.probeId, setting: s.setting, labels: s.labels };
}

/** The waterfall of every system of every run that ran all three settings with scores. */
export function waterfalls(
  bench: string,
  runs: readonly RunData[],
  options: BuildOptions,
): Array<{ run: RunData; system: string; waterfall: Waterfall }> {
  const out: Array<{ run: RunData; system: string; waterfall: Waterfall }> = [];
  for (const run of runs) {
    const headline = headlineFor(bench, run.summary.results);
    if (headline?.kind !== "scored") continue;
    for (const system of run.config.systems) {
      const w = waterfallOf(outcomesOf(run, headline, system), CHART_LABEL[bench], options);
      if (w) out.push({ run, system, waterfall: w });
    }
  }
  return out;
}

const WATERFALL_SETTINGS: readonly Setting[] = ["default", "oracle", "perfect"];

/**
 * Why no waterfall can be drawn, with what produces one: the settings the runs
 * lack (`--setting default,oracle,perfect`) or the scores they lack.
 */
export function waterfallMissing(runs: readonly RunData[]): string {
  const have = new Set(runs.flatMap((r) => r.config.settings));
  const lacking = WATERFALL_SETTINGS.filter((s) => !have.has(s));
  const need = "needs the default, oracle and perfect settings of one system, with right/wrong scores";
  if (lacking.length) {
    return `${need}: these runs lack ${lacking.join(" and ")}; run with \`--setting default,oracle,perfect\` and a model (\`--llm\`), then \`membench score\``;
  }
  if (!runs.some((r) => r.scores.length)) return `${need}: the answers are not scored; run \`membench score\``;
  return `${need}: no system has scored answers in all three settings`;
}

function waterfallTable(
  bench: string,
  runs: readonly RunData[],
  options: BuildOptions,
  reported: readonly ReportedTable[],
): LayoutTable | undefined {
  const id = waterfallId(bench);
  const paper = reported.find((t) => t.id === id);
  const ours = waterfalls(bench, runs, options).filter((w) => w.waterfall.chained);
  if (!paper && !ours.length) return undefined;
  const groups = [...new Set(ours.flatMap((w) => Object.keys(w.waterfall.byGroup)))].sort();
  const columns = paper
    ? paper.columns
    : [...groups.map((g) => `p_preserve_${g}`), "p_preserve", ...groups.map((g) => `p_retrieve_${g}`), "p_retrieve"];
  const rows: TableRow[] = paper ? paper.rows.map((r) => reportedRow(paper, r)) : [];
  const several = runs.length > 1;
  for (const { run, system, waterfall } of ours) {
    const cells: Record<string, Cell> = {};
    for (const column of columns) {
      const m = /^p_(preserve|retrieve)(?:_(.+))?$/.exec(column);
      const counts = m?.[2] ? waterfall.byGroup[m[2]] : waterfall.overall;
      const value = m?.[1] === "preserve" ? counts?.pPreserve : counts?.pRetrieve;
      const n = m?.[1] === "preserve" ? counts?.sO : counts?.sP;
      const ci = waterfall.ci[column];
      cells[column] =
        value === undefined
          ? { value: null, ...(n !== undefined ? { n } : {}) }
          : {
              value: 100 * value,
              ...(n !== undefined ? { n } : {}),
              ...(ci && (n ?? 0) >= 2 ? { ci: [100 * ci[0], 100 * ci[1]] as [number, number] } : {}),
            };
    }
    rows.push({
      kind: "ours",
      system,
      ...(several ? { tag: run.config.id } : {}),
      cells,
      note: `|S_O| = ${waterfall.overall.sO}, |S_P| = ${waterfall.overall.sP}, |S_D| = ${waterfall.overall.sD} of ${waterfall.n} questions`,
    });
  }
  if (!ours.length) {
    for (const run of runs) {
      for (const system of run.config.systems) {
        rows.push({
          kind: "ours",
          system,
          ...(several ? { tag: run.config.id } : {}),
          cells: Object.fromEntries(columns.map((c) => [c, { value: null }])),
          note: waterfallMissing(runs),
        });
      }
    }
  }
  return {
    id,
    title: "Diagnostic waterfall: P_preserve = |S_P|/|S_O|, P_retrieve = |S_D|/|S_P| (%)",
    columns,
    columnTitles: {},
    rows,
    notes: [
      "S_O: right under oracle evidence; S_P: of those, right under perfect retrieval (readback of what the system wrote); " +
        "S_D: of those, right by default. n of P_preserve is |S_O|, of P_retrieve |S_P|.",
    ],
    sources: paper ? [paper.source] : [],
    digits: 2,
  };
}

// ---------------------------------------------------------------------------
// Retrieval

const FAMILY_ORDER = ["recall_any", "recall_all", "recall", "ndcg", "ndcg_realmem", "seh_prov", "srs_prov", "stale"];

/** Retrieval metric keys in a stable, readable order: by family, then k. */
export function orderRetrievalKeys(keys: Iterable<string>): string[] {
  const rank = (key: string) => {
    const m = /^(.+)@(\d+)$/.exec(key);
    const family = m?.[1] ?? key;
    const i = FAMILY_ORDER.indexOf(family);
    return { family: i < 0 ? FAMILY_ORDER.length : i, name: family, k: m ? Number(m[2]) : 0 };
  };
  return [...new Set(keys)].sort((a, b) => {
    const x = rank(a);
    const y = rank(b);
    return x.family - y.family || x.name.localeCompare(y.name) || x.k - y.k;
  });
}

/**
 * The retrieval families, each printed as a table of its own so a row stays
 * narrow enough for print and PDF (15 columns of one table lost the nDCG ones).
 */
const RETRIEVAL_FAMILIES: ReadonlyArray<{ id: string; title: string; has: (family: string) => boolean }> = [
  { id: "retrieval-recall", title: "recall", has: (f) => f.startsWith("recall") },
  { id: "retrieval-ndcg", title: "nDCG", has: (f) => f.startsWith("ndcg") },
  { id: "retrieval-provenance", title: "provenance hits and staleness", has: () => true },
];

function familyOf(key: string): string {
  const family = /^(.+)@\d+$/.exec(key)?.[1] ?? key;
  return RETRIEVAL_FAMILIES.find((f) => f.has(family))!.id;
}

/** Retrieval from provenance, one table per family (recall, nDCG, the rest), the paper's rows beside ours. */
function retrievalTables(bench: string, runs: readonly RunData[]): LayoutTable[] {
  const stratify = scorerFor(bench)?.stratifyBy;
  const keys = orderRetrievalKeys(
    runs.flatMap((run) => run.records.flatMap((r) => (r.setting === "default" ? Object.keys(r.retrieval ?? {}) : []))),
  ).filter((key) => !foreignMetric(bench, key));
  const paper = reportedRetrieval(bench);
  if (!keys.length && !paper) return [];
  const allColumns = keys.length ? keys : (paper?.columns ?? []);
  const several = runs.length > 1;
  const ours: TableRow[] = [];
  for (const run of runs) {
    for (const system of run.config.systems) {
      const records = run.records.filter((r) => r.system === system && r.setting === "default" && r.retrieval);
      const cells: Record<string, Cell> = {};
      for (const key of allColumns) {
        const have = records.filter((r) => Number.isFinite(r.retrieval?.[key]));
        const values = have.map((r) => r.retrieval![key]!);
        if (!values.length) {
          cells[key] = { value: null, n: 0 };
          continue;
        }
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        const ci =
          values.length >= 2
            ? bootstrapMeanCI(values, stratify ? have.map((r) => r.labels[stratify] ?? "") : undefined)
            : undefined;
        cells[key] = { value: mean, n: values.length, ...(ci ? { ci } : {}) };
      }
      ours.push({
        kind: "ours",
        system,
        setting: "default",
        ...(several ? { tag: run.config.id } : {}),
        cells,
        ...(records.length ? {} : { note: "no probe with gold evidence ran in the default setting" }),
      });
    }
  }
  const out: LayoutTable[] = [];
  for (const family of RETRIEVAL_FAMILIES) {
    const columns = allColumns.filter((k) => familyOf(k) === family.id);
    if (!columns.length) continue;
    const pick = (row: TableRow): TableRow => ({
      ...row,
      cells: Object.fromEntries(columns.map((c) => [c, row.cells[c] ?? { value: null }])),
    });
    const reported = (paper?.rows ?? []).map((r) => reportedRow(paper!, r)).map(pick);
    const rows = [...reported.filter((r) => columns.some((c) => r.cells[c]!.value !== null)), ...ours.map(pick)];
    const withPaper = reported.length > 0 && rows.length > ours.length;
    out.push({
      id: family.id,
      title: `Retrieval from provenance: ${family.title} (default setting, probes with gold evidence; no LLM involved)`,
      columns,
      columnTitles: {},
      rows,
      notes: withPaper ? [...(paper?.notes ?? [])] : [],
      sources: withPaper ? [paper!.source] : [],
      digits: 3,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------
// Cost, latency, usage, skipped

function costRows(run: RunData): CostRow[] {
  const price = run.config.price;
  return run.summary.results
    .filter((row) => row.n > 0)
    .map((row) => {
      const records = run.records.filter(
        (r) => r.system === row.system && r.setting === row.setting && r.status === "done",
      );
      const ingest = run.units.filter((u) => u.system === row.system).flatMap((u) => u.ingestMs);
      const uncached = records.filter((r) => r.usage && !r.usage.cached);
      const inTok = uncached.reduce((t, r) => t + (r.usage?.inputTokens ?? 0), 0);
      const outTok = uncached.reduce((t, r) => t + (r.usage?.outputTokens ?? 0), 0);
      const stage = (name: string) => {
        const l = row.latency?.[name];
        return l && l.n > 0 ? { p50: l.p50, p95: l.p95, n: l.n } : undefined;
      };
      const search = stage("search");
      const answer = stage("answer");
      const ingestLatency = stage("ingest");
      return {
        run: run.config.id,
        system: row.system,
        setting: row.setting,
        n: row.n,
        ...(search ? { search } : {}),
        ...(answer ? { answer } : {}),
        ...(ingestLatency ? { ingest: ingestLatency } : {}),
        ...(ingest.length ? { ingestSeconds: ingest.reduce((a, b) => a + b, 0) / 1000 } : {}),
        ...(Number.isFinite(row.metrics.context_tokens_mean) ? { contextTokens: row.metrics.context_tokens_mean } : {}),
        answerCalls: row.cost?.calls ?? records.filter((r) => r.usage).length,
        inputTokens: row.cost?.inputTokens ?? 0,
        outputTokens: row.cost?.outputTokens ?? 0,
        costUsd: price ? (inTok * price.inputPerMTok + outTok * price.outputPerMTok) / 1e6 : null,
      };
    });
}

function usageRows(run: RunData): UsageRow[] {
  const out: UsageRow[] = [];
  for (const [phase, snapshot] of [
    ["answers", run.summary.usage],
    ["judging", run.summary.judgeUsage],
  ] as const) {
    for (const [role, u] of Object.entries(snapshot?.roles ?? {})) {
      if (!u.calls && !u.errors) continue;
      out.push({
        run: run.config.id,
        phase,
        role,
        calls: u.calls,
        cachedCalls: u.cachedCalls,
        errors: u.errors,
        inputTokens: u.inputTokens,
        outputTokens: u.outputTokens,
        costUsd: u.costUsd,
        unpricedModels: u.unpricedModels,
      });
    }
  }
  return out;
}

/** The distinct probes (`episode/probe`) with an unparseable verdict. */
function failedProbes(list: ReadonlyArray<{ episodeId: string; probeId: string }>): string[] {
  return [...new Set(list.map((f) => `${f.episodeId}/${f.probeId}`))];
}

export function skipLines(run: RunData): SkipLine[] {
  const id = run.config.id;
  const out: SkipLine[] = [];
  for (const row of run.summary.results) {
    for (const stage of row.skipped) {
      out.push({
        run: id,
        system: row.system,
        setting: row.setting,
        stage,
        reason: row.skipReasons[stage] || "no reason given",
      });
    }
    if (row.judge_failures) {
      // judge_failures counts verdicts (judges × samples × calls); the line's count is of probes.
      const probes = failedProbes(row.judgeFailureList ?? []);
      const shown = probes.slice(0, 5).join(", ");
      const more = probes.length > 5 ? ` and ${probes.length - 5} more` : "";
      out.push({
        run: id,
        system: row.system,
        setting: row.setting,
        stage: "judge verdicts",
        reason:
          `${row.judge_failures} verdict${row.judge_failures === 1 ? "" : "s"} failed` +
          `${row.judgeFailureList?.length ? ` (${describeJudgeFailures(row.judgeFailureList)})` : ""} and ` +
          `were ${row.judgeFailureRule ?? WORST_OUTCOME}${shown ? `: ${shown}${more}` : ""}`,
        ...(probes.length ? { count: probes.length } : {}),
      });
    }
  }
  for (const unit of run.units.filter((u) => u.state !== "done")) {
    const dead = unit.deadLetter;
    const state = dead
      ? `dead-lettered after ${dead.attempts} attempt${dead.attempts === 1 ? "" : "s"} (queue job ${dead.job})`
      : unit.state;
    out.push({
      run: id,
      system: unit.system,
      stage: `unit ${unit.episodeId}`,
      reason: `${state}${unit.error ? `: ${unit.error}` : ""} (its probes are missing from every table)`,
    });
  }
  const counts = new Map<string, SkipLine>();
  for (const s of run.scores) {
    for (const [metric, reason] of Object.entries(s.skipped ?? {})) {
      const key = [s.system, s.setting, metric, reason].join("\u0000");
      const line = counts.get(key) ?? {
        run: id,
        system: s.system,
        setting: s.setting,
        stage: `metric ${metric}`,
        reason,
        count: 0,
      };
      line.count = (line.count ?? 0) + 1;
      counts.set(key, line);
    }
  }
  out.push(...counts.values());
  return mergeSkipLines(out);
}

/**
 * One line per run, stage and reason: "answer skipped (no model configured)"
 * for six system × setting rows is printed once, naming the rows and their
 * number; probe counts add up.
 */
export function mergeSkipLines(lines: readonly SkipLine[]): SkipLine[] {
  const merged = new Map<string, SkipLine>();
  for (const line of lines) {
    const key = [line.run, line.stage, line.reason].join("\u0000");
    const who = line.system ? `${line.system}${line.setting ? `/${line.setting}` : ""}` : undefined;
    const known = merged.get(key);
    if (!known) {
      merged.set(key, { ...line, ...(who ? { rows: [who] } : {}) });
      continue;
    }
    if (who && !known.rows?.includes(who)) known.rows = [...(known.rows ?? []), who];
    if (line.count !== undefined) known.count = (known.count ?? 0) + line.count;
    if (known.system !== line.system) delete known.system;
    if (known.setting !== line.setting) delete known.setting;
  }
  return [...merged.values()];
}

// ---------------------------------------------------------------------------

/** One section per benchmark, in the order the runs were given. */
export function buildSections(runs: readonly RunData[], options: BuildOptions = {}): BenchmarkSection[] {
  const benches = [...new Set(runs.map((r) => r.config.benchmark))];
  return benches.map((bench) => {
    const mine = runs.filter((r) => r.config.benchmark === bench);
    const retrieval = retrievalTables(bench, mine);
    const rows = mine.flatMap((r) => r.summary.results);
    const headline = headlineFor(bench, rows);
    // Rows without the scored headline (an unscored run combined with a scored one) are shown on retrieval.
    const lacking =
      headline?.kind === "scored" &&
      rows.some((r) => r.setting === "default" && !Number.isFinite(r.metrics[headline.metric]));
    const fallback = lacking ? retrievalHeadline(rows) : undefined;
    return {
      benchmark: bench,
      title: benchmarkTitle(bench),
      runs: mine.map(runMeta),
      ...(headline ? { headline } : {}),
      ...(fallback ? { retrievalHeadline: fallback } : {}),
      tables: paperTables(bench, mine, options),
      retrieval,
      cost: mine.flatMap(costRows),
      usage: mine.flatMap(usageRows),
      skipped: mine.flatMap(skipLines),
    };
  });
}
