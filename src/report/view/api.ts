/**
 * The viewer's JSON API. Every answer is data only; the front end renders it
 * as text, never as markup.
 *
 *   GET    /api/runs                      runs with their headline numbers
 *   GET    /api/runs/:id                  one run: config, summary, label values
 *   GET    /api/runs/:id/tables           the report's paper-layout and retrieval tables, laid out
 *   GET    /api/runs/:id/probes?filters   probe rows (see parseFilter), `sort` (+ `order=desc`), `limit` / `offset`
 *   GET    /api/runs/:id/probes/:key      one probe in full, with gold and evidence
 *   POST   /api/runs/:id/overrides        {key, value, comment}: override its verdict (409 on a read-only run)
 *   DELETE /api/runs/:id/overrides?key=   remove the overrides of a probe
 *   GET    /api/diff?a=:id&b=:id          two runs side by side (`systemA`, `systemB`, `setting`)
 */
import { ConfigError } from "../../core/errors.ts";
import type { ScoredRow } from "../../run/score-run.ts";
import type { Summary } from "../../run/summary.ts";
import { buildSections, judgeRan } from "../build.ts";
import { tableGrid } from "../format.ts";
import { type Headline, headlineFor } from "../headline.ts";
import type { BenchmarkSection } from "../model.ts";
import { loadRun as loadReportRun, readScoringInfo } from "../run-data.ts";
import { diffRuns } from "./diff.ts";
import { clearVerdictOverride, OverrideError, overridesUnavailable, setVerdictOverride } from "./override.ts";
import {
  answerDepthOf,
  filterRows,
  findRecord,
  labelValues,
  parseFilter,
  probeDetail,
  probeRows,
  sortRows,
} from "./probes.ts";
import { findRun, listRuns, loadRun, parseProbeKey, type RunData, readRunHead } from "./runs.ts";
import { FAILURE_STAGES, retrievalK, VERDICT_METRICS } from "./verdict.ts";

export interface ApiResponse {
  status: number;
  body: unknown;
}

const ok = (body: unknown): ApiResponse => ({ status: 200, body });
const fail = (status: number, error: string): ApiResponse => ({ status, body: { error } });

const MAX_ROWS = 2000;

/**
 * The one number a row is known by: the benchmark's headline (headline.ts),
 * the same metric the report and `membench compare` use for these rows —
 * RealMem QA/3, LoCoMo F1 of categories 1–4, …, or its retrieval fallback
 * (`recall_all@10`, …) while nothing is scored.
 */
export function runHeadline(row: Summary["results"][number], headline: Headline | undefined) {
  if (!headline) return undefined;
  const value = row.metrics[headline.metric];
  if (value === undefined || !Number.isFinite(value)) return undefined;
  return { metric: headline.metric, label: headline.label, kind: headline.kind, value, max: 100 / headline.toPercent };
}

function runsList(runsDir: string) {
  return listRuns(runsDir).map((entry) => {
    const { config, summary } = readRunHead(entry);
    const results = summary?.results ?? [];
    const headline = config ? headlineFor(config.options.benchmark, results) : undefined;
    return {
      id: entry.id,
      benchmark: config?.options.benchmark,
      variant: config?.variant,
      createdAt: config?.createdAt,
      systems: config?.options.systems ?? [],
      settings: config?.options.settings ?? [],
      model: config?.model?.detail,
      rows: results.map((r) => ({
        system: r.system,
        setting: r.setting,
        n: r.n,
        headline: runHeadline(r, headline),
        judgeFailures: (r as ScoredRow).judge_failures ?? 0,
      })),
    };
  });
}

/** The report's view of a run (paper tables merged with reported rows, CIs), built once per state of the run. */
const reports = new WeakMap<RunData, BenchmarkSection[]>();

function reportOf(run: RunData): BenchmarkSection[] {
  const known = reports.get(run);
  if (known) return known;
  const sections = buildSections([loadReportRun(run.dir)]);
  reports.set(run, sections);
  return sections;
}

/** The paper-layout tables and the retrieval tables of the report, laid out as the report prints them. */
function runTables(run: RunData) {
  const [section] = reportOf(run);
  return {
    tables: (section?.tables ?? []).map(tableGrid),
    retrieval: (section?.retrieval ?? []).map(tableGrid),
  };
}

/** Why a run shows no verdicts: no model to answer, or answers not scored yet. */
function missingScores(run: RunData): string | undefined {
  if (run.scores.length) return undefined;
  if (!run.config.model?.configured) {
    return `No answer model was configured for this run (${run.config.model?.detail || "none"}), so it has no answers and no verdicts; retrieval metrics only. Run again with a model (--llm) to answer.`;
  }
  return `The answers are stored but not scored yet: run \`membench score ${run.dir}\` for verdicts.`;
}

function runOverview(run: RunData) {
  const rows = probeRows(run);
  const { options } = run.config;
  const sample = run.records.find((r) => r.retrieval);
  const headline = headlineFor(options.benchmark, run.summary?.results ?? []);
  return {
    id: run.id,
    benchmark: options.benchmark,
    variant: run.config.variant,
    data: options.data,
    createdAt: run.config.createdAt,
    systems: options.systems,
    settings: options.settings,
    model: run.config.model,
    protocol: run.config.protocol,
    retrievalK: sample ? retrievalK(sample, answerDepthOf(run)) : undefined,
    summary: run.summary,
    scored: run.scores.length > 0,
    /** What is missing when nothing is scored. */
    missing: missingScores(run),
    /** The benchmark's headline for this run (headline.ts), as the report and compare use it. */
    headline,
    /** Whether a judge was called, so judge failures mean something. */
    judged: run.scores.length > 0 && judgeRan(options.benchmark, readScoringInfo(run.dir)),
    verdictMetrics: VERDICT_METRICS.filter((v) => rows.some((r) => r.metric === v.metric)),
    labels: labelValues(rows),
    stages: FAILURE_STAGES,
    probes: rows.length,
    overrides: run.overrides.length,
    /** Why verdict overrides cannot be saved (a read-only run), when they cannot. */
    readOnly: overridesUnavailable(run.dir),
  };
}

export type RunListItem = ReturnType<typeof runsList>[number];
export type RunOverview = ReturnType<typeof runOverview>;

async function overrideAction(run: RunData, method: string, url: URL, body: unknown): Promise<ApiResponse> {
  const input = (body && typeof body === "object" ? body : {}) as Record<string, unknown>;
  const rawKey = method === "DELETE" ? (url.searchParams.get("key") ?? input.key) : input.key;
  const key = typeof rawKey === "string" ? parseProbeKey(rawKey) : undefined;
  if (!key) return fail(400, "expected the probe's key");
  try {
    if (method === "POST") setVerdictOverride(run, key, input.value, input.comment);
    else clearVerdictOverride(run, key);
  } catch (error) {
    if (error instanceof OverrideError) return fail(error.status, error.message);
    throw error;
  }
  const fresh = loadRun(run);
  const record = findRecord(fresh, key)!;
  return ok({ probe: await probeDetail(fresh, record), summary: fresh.summary, overrides: fresh.overrides.length });
}

export async function handleApi(runsDir: string, method: string, url: URL, body?: unknown): Promise<ApiResponse> {
  const parts = url.pathname
    .split("/")
    .filter(Boolean)
    .map((p) => decodeURIComponent(p));
  if (parts[0] !== "api") return fail(404, "not found");
  const [, resource, id, sub, key, ...rest] = parts;

  if (resource === "runs" && id === undefined) return method === "GET" ? ok(runsList(runsDir)) : fail(405, "GET only");
  if (resource === "diff" && id === undefined) {
    if (method !== "GET") return fail(405, "GET only");
    const a = findRun(runsDir, url.searchParams.get("a") ?? "");
    const b = findRun(runsDir, url.searchParams.get("b") ?? "");
    if (!a || !b) return fail(404, "give two runs of this folder: ?a=<run id>&b=<run id>");
    const get = (name: string) => url.searchParams.get(name) ?? undefined;
    try {
      return ok({
        comparisons: diffRuns(a, b, { systemA: get("systemA"), systemB: get("systemB"), setting: get("setting") }),
      });
    } catch (error) {
      if (error instanceof ConfigError) return fail(400, error.message);
      throw error;
    }
  }
  if (resource !== "runs" || id === undefined || rest.length) return fail(404, "not found");

  const entry = findRun(runsDir, id);
  if (!entry) return fail(404, `no run "${id}" in this folder`);
  const run = loadRun(entry);

  if (sub === undefined) return method === "GET" ? ok(runOverview(run)) : fail(405, "GET only");
  if (sub === "tables" && key === undefined) return method === "GET" ? ok(runTables(run)) : fail(405, "GET only");
  if (sub === "probes" && key === undefined) {
    if (method !== "GET") return fail(405, "GET only");
    const params = url.searchParams;
    const rows = sortRows(
      filterRows(probeRows(run), parseFilter(params)),
      params.get("sort") || undefined,
      params.get("order") === "desc",
    );
    const offset = Math.max(0, Number(params.get("offset")) || 0);
    const limit = Math.min(MAX_ROWS, Math.max(1, Number(params.get("limit")) || MAX_ROWS));
    return ok({ total: rows.length, offset, rows: rows.slice(offset, offset + limit) });
  }
  if (sub === "probes") {
    if (method !== "GET") return fail(405, "GET only");
    const parsed = parseProbeKey(key!);
    const record = parsed && findRecord(run, parsed);
    if (!record) return fail(404, "no such probe in this run");
    return ok(await probeDetail(run, record));
  }
  if (sub === "overrides" && key === undefined) {
    if (method !== "POST" && method !== "DELETE") return fail(405, "POST or DELETE");
    return overrideAction(run, method, url, body);
  }
  return fail(404, "not found");
}
