/**
 * A whole RealMem release through `membench run realmem --system bm25-session`
 * (offline, no model) against a bare BM25-over-sessions loop written in the
 * bench itself (bench/bm25-bare.mjs: load the JSON, tokenise, score, rank,
 * compute recall_all@k), both as child processes on the same data, timed from
 * outside with their peak RSS. Targets (issue 19 §5): membench within 1.5× the
 * loop's wall time and under 400 MB peak RSS, and the two agreeing on every
 * recall_all@k within 0.01.
 *
 * Data: every persona in ../shared/datasets/realmem (a sample of the release:
 * the count is printed) or the project's fixture; then, with `--full` or by
 * default, the same personas replicated to ten (`×10 replicated`: as much data
 * as the release's ten personas, though not the release's other personas).
 *
 *   npm run bench release
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { STOPWORDS } from "../src/text/tokenize.ts";
import { realmemPersonaFiles, replicateRealMem } from "./realmem-data.ts";
import {
  type BenchData,
  benchData,
  header,
  machineNote,
  mib,
  type ResultHeader,
  ROOT,
  round,
  runDirIn,
  runMembench,
  runNode,
  withTempDir,
  writeResult,
} from "./support.ts";

export const RELEASE_WALL_TARGET = 1.5;
export const RELEASE_RSS_TARGET_BYTES = 400 * 1024 * 1024;
export const AGREEMENT_TOLERANCE = 0.01;
const METRICS = ["recall_all@5", "recall_all@10", "recall_all@20"];

export interface ReleaseRow {
  data: string;
  personas: number;
  queries: number;
  membench: { wallMs: number; maxRssBytes?: number; metrics: Record<string, number> };
  bare: { wallMs: number; maxRssBytes?: number; metrics: Record<string, number> };
  rssBy?: string;
  /** membench wall / bare loop wall. */
  wallRatio: number;
  /** Largest |membench − bare| over the recall_all@k. */
  maxMetricDiff: number;
  withinWallTarget: boolean;
  withinRssTarget: boolean | null;
  metricsAgree: boolean;
}

export interface ReleaseResult extends ResultHeader {
  system: "bm25-session";
  targets: { wallRatio: number; maxRssBytes: number; metricTolerance: number };
  rows: ReleaseRow[];
}

async function compare(path: string, label: string, personas: number): Promise<ReleaseRow> {
  return withTempDir("mb-release-", async (dir) => {
    const out = join(dir, "runs");
    const run = await runMembench(
      ["run", "realmem", "--data", path, "--system", "bm25-session", "--out", out, "--no-progress"],
      { env: { MEMBENCH_CACHE_DIR: join(dir, "cache") } },
    );
    const summary = JSON.parse(readFileSync(join(runDirIn(out), "summary.json"), "utf8")) as {
      results: Array<{ metrics: Record<string, number>; n?: number }>;
    };
    const mbMetrics = Object.fromEntries(METRICS.map((m) => [m, summary.results[0]?.metrics[m] ?? Number.NaN]));
    const bare = await runNode([join(ROOT, "bench/bm25-bare.mjs"), path, "--stopwords", [...STOPWORDS].join(" ")]);
    const bareOut = JSON.parse(bare.stdout.trim()) as { queries: number; metrics: Record<string, number> };
    const maxMetricDiff = Math.max(...METRICS.map((m) => Math.abs(mbMetrics[m]! - bareOut.metrics[m]!)));
    const wallRatio = run.wallMs / bare.wallMs;
    return {
      data: label,
      personas,
      queries: bareOut.queries,
      membench: { wallMs: round(run.wallMs, 1), maxRssBytes: run.maxRssBytes, metrics: roundAll(mbMetrics) },
      bare: { wallMs: round(bare.wallMs, 1), maxRssBytes: bare.maxRssBytes, metrics: roundAll(bareOut.metrics) },
      rssBy: run.rssBy,
      wallRatio: round(wallRatio, 2),
      maxMetricDiff: round(maxMetricDiff, 4),
      withinWallTarget: wallRatio <= RELEASE_WALL_TARGET,
      withinRssTarget: run.maxRssBytes === undefined ? null : run.maxRssBytes < RELEASE_RSS_TARGET_BYTES,
      metricsAgree: maxMetricDiff <= AGREEMENT_TOLERANCE,
    };
  });
}

const roundAll = (m: Record<string, number>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, round(v, 4)]));

export async function runReleaseBench(
  options: { replicas?: number[]; source?: BenchData; resultsDir?: string } = {},
): Promise<ReleaseResult> {
  const data = options.source ?? benchData("realmem", "realmem");
  const personas = realmemPersonaFiles(data.path).length;
  const rows: ReleaseRow[] = [];
  rows.push(await compare(data.path, `${data.label} (${personas} persona${personas === 1 ? "" : "s"})`, personas));
  for (const copies of options.replicas ?? [10]) {
    const dir = mkdtempSync(join(tmpdir(), "mb-release-data-"));
    try {
      const written = replicateRealMem(data.path, copies, dir);
      rows.push(await compare(dir, `${data.label} ×${copies} replicated (${written.length} personas)`, written.length));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  console.log(
    `\n## whole release: membench bm25-session vs a bare BM25-over-sessions loop (child processes, wall time and peak RSS; offline; ${machineNote()})\n`,
  );
  console.log(
    "| data | queries | membench | bare loop | ratio (target ≤ 1.5) | membench peak RSS (target < 400 MB) | bare peak RSS | recall_all@5/10/20 membench | bare | max diff (≤ 0.01) |",
  );
  console.log("|---|---:|---:|---:|---:|---:|---:|---|---|---:|");
  for (const r of rows) {
    const m = (x: Record<string, number>) => METRICS.map((k) => x[k]!.toFixed(3)).join(" / ");
    console.log(
      `| ${r.data} | ${r.queries} | ${(r.membench.wallMs / 1000).toFixed(2)} s | ${(r.bare.wallMs / 1000).toFixed(2)} s | ${r.wallRatio.toFixed(2)} ${r.withinWallTarget ? "" : "(NOT met)"} | ${mib(r.membench.maxRssBytes)} ${r.withinRssTarget === false ? "(NOT met)" : ""} | ${mib(r.bare.maxRssBytes)} | ${m(r.membench.metrics)} | ${m(r.bare.metrics)} | ${r.maxMetricDiff.toFixed(4)} ${r.metricsAgree ? "" : "(disagree)"} |`,
    );
  }
  console.log(`peak RSS by ${rows[0]?.rssBy ?? "n/a"}`);
  const result: ReleaseResult = {
    ...header("release"),
    system: "bm25-session",
    targets: {
      wallRatio: RELEASE_WALL_TARGET,
      maxRssBytes: RELEASE_RSS_TARGET_BYTES,
      metricTolerance: AGREEMENT_TOLERANCE,
    },
    rows,
  };
  writeResult("release", result, options.resultsDir);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await runReleaseBench();
