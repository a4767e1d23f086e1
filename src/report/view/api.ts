/**
 * The viewer's JSON API. Every answer is data only; the front end renders it
 * as text, never as markup.
 *
 *   GET    /api/runs                      runs with their headline numbers
 *   GET    /api/runs/:id                  one run: config, summary, label values
 *   GET    /api/runs/:id/probes?filters   probe rows (see parseFilter), `limit` / `offset`
 *   GET    /api/runs/:id/probes/:key      one probe in full, with gold and evidence
 *   POST   /api/runs/:id/overrides        {key, value, comment}: override its verdict (409 on a read-only run)
 *   DELETE /api/runs/:id/overrides?key=   remove the overrides of a probe
 *   GET    /api/diff?a=:id&b=:id          two runs side by side (`systemA`, `systemB`, `setting`)
 */
import { ConfigError } from "../../core/errors.ts";
import type { ScoredRow } from "../../run/score-run.ts";
import type { Summary } from "../../run/summary.ts";
import { SCORED_HEADLINES } from "../headline.ts";
import { diffRuns } from "./diff.ts";
import { clearVerdictOverride, OverrideError, overridesUnavailable, setVerdictOverride } from "./override.ts";
import { answerDepthOf, filterRows, findRecord, labelValues, parseFilter, probeDetail, probeRows } from "./probes.ts";
import { findRun, listRuns, loadRun, parseProbeKey, type RunData, readRunHead } from "./runs.ts";
import { FAILURE_STAGES, retrievalK, VERDICT_METRICS, verdictMetricOf } from "./verdict.ts";

export interface ApiResponse {
  status: number;
  body: unknown;
}

const ok = (body: unknown): ApiResponse => ({ status: 200, body });
const fail = (status: number, error: string): ApiResponse => ({ status, body: { error } });

const MAX_ROWS = 2000;

/**
 * The one number a row is known by: the benchmark's headline as the report
 * gives it (RealMem QA/3, LoCoMo F1 of categories 1–4, …), else its verdict
 * metric when scored, else retrieval at the answer depth.
 */
export function runHeadline(
  row: Summary["results"][number],
  answerDepth: number | undefined,
  benchmark: string | undefined,
) {
  const paper = benchmark ? SCORED_HEADLINES[benchmark] : undefined;
  if (paper && Number.isFinite(row.metrics[paper.metric])) {
    return { metric: paper.metric, value: row.metrics[paper.metric], max: 100 / paper.toPercent };
  }
  const verdict = verdictMetricOf(row.metrics);
  if (verdict) return { metric: verdict.metric, value: row.metrics[verdict.metric], max: verdict.max };
  const k = retrievalK({ retrieval: row.metrics }, answerDepth);
  if (k !== undefined) return { metric: `recall_any@${k}`, value: row.metrics[`recall_any@${k}`], max: 1 };
  return undefined;
}

function runsList(runsDir: string) {
  return listRuns(runsDir).map((entry) => {
    const { config, summary } = readRunHead(entry);
    const depth = config?.protocol?.answerDepth ?? config?.protocol?.depth;
    return {
      id: entry.id,
      benchmark: config?.options.benchmark,
      variant: config?.variant,
      createdAt: config?.createdAt,
      systems: config?.options.systems ?? [],
      settings: config?.options.settings ?? [],
      model: config?.model?.detail,
      rows: (summary?.results ?? []).map((r) => ({
        system: r.system,
        setting: r.setting,
        n: r.n,
        headline: runHeadline(r, depth, config?.options.benchmark),
        judgeFailures: (r as ScoredRow).judge_failures ?? 0,
      })),
    };
  });
}

function runOverview(run: RunData) {
  const rows = probeRows(run);
  const { options } = run.config;
  const sample = run.records.find((r) => r.retrieval);
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
  if (sub === "probes" && key === undefined) {
    if (method !== "GET") return fail(405, "GET only");
    const rows = filterRows(probeRows(run), parseFilter(url.searchParams));
    const offset = Math.max(0, Number(url.searchParams.get("offset")) || 0);
    const limit = Math.min(MAX_ROWS, Math.max(1, Number(url.searchParams.get("limit")) || MAX_ROWS));
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
