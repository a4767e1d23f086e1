/**
 * Shard scaling: the same work units run by 1, 2 and 4 worker processes at
 * once, offline (no model: the units are CPU-bound, so on a machine with C cores
 * the speed-up can reach about min(n, C)). Units: the RealMem persona(s) at hand
 * replicated to four episodes (labelled), system `bm25-session`, so each unit is
 * the same size.
 *
 * With `membench run --shard i/n` (detected from `membench run --help`), n shard
 * processes run at once and `membench merge` combines their run stores; the
 * wall time covers both, and the merged metrics are checked against the
 * single-process run's. Without it, shards print "not available". In both cases
 * the same units are also split by hand with `--episodes` (n independent runs,
 * nothing merged): what process parallelism alone gives on this machine.
 *
 *   npm run bench shards
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { replicateRealMem } from "./realmem-data.ts";
import {
  type BenchData,
  benchData,
  type ChildRun,
  hasCommand,
  header,
  machineNote,
  type ResultHeader,
  ROOT,
  round,
  runDirIn,
  runHasFlag,
  runMembench,
  withTempDir,
  writeResult,
} from "./support.ts";

export const SHARD_COUNTS = [1, 2, 4];
const SYSTEM = "bm25-session";

export interface ShardRow {
  /** `--shard i/n + merge`, or `--episodes partition` (split by hand, no merge). */
  method: "shard+merge" | "episodes partition";
  processes: number;
  wallMs: number;
  /** The merge's share of the wall time (shard+merge only). */
  mergeMs?: number;
  /** The one-process wall time of the same method over this one. */
  speedup: number;
  /** Merged metrics equal the single-process run's (shard+merge with n > 1; the one-process run is the reference). */
  metricsEqual?: boolean;
}

export interface ShardResult extends ResultHeader {
  data: string;
  units: number;
  system: string;
  shardAvailable: boolean;
  mergeAvailable: boolean;
  /** How shard indexes are numbered, as found: 0 (`0/n` … `n-1/n`) or 1 (`1/n` … `n/n`). */
  shardBase?: 0 | 1;
  rows: ShardRow[];
}

const all = (runs: Array<Promise<ChildRun>>) => Promise.all(runs);

/** Whether `--shard 0/n` is accepted (tried on the tiny fixture): a usage error (exit 2) means shards count from 1. */
async function shardBase(dir: string): Promise<0 | 1> {
  const probe = await runMembench(
    [
      "run",
      "realmem",
      "--data",
      join(ROOT, "test/fixtures/realmem"),
      "--system",
      "none",
      "--shard",
      "0/2",
      "--out",
      join(dir, "probe"),
      "--no-progress",
    ],
    { allowFailure: true },
  );
  return probe.code === 2 ? 1 : 0;
}

/** Metrics of a run directory's summary, by system/setting, to compare runs. */
function summaryMetrics(runDir: string): unknown {
  const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8")) as {
    results: Array<{ system: string; setting: string; metrics: Record<string, number> }>;
  };
  return summary.results.map((r) => ({ system: r.system, setting: r.setting, metrics: r.metrics }));
}

/** The merged run: `out` itself when merge wrote the run there, else the one run folder inside it. */
function mergedRunDir(out: string): string {
  return readdirSync(out).includes("summary.json") ? out : runDirIn(out);
}

export async function runShardsBench(
  options: { counts?: number[]; copies?: number; source?: BenchData; resultsDir?: string } = {},
): Promise<ShardResult> {
  const counts = options.counts ?? SHARD_COUNTS;
  const source = options.source ?? benchData("realmem", "realmem");
  const shardAvailable = await runHasFlag("--shard");
  const mergeAvailable = await hasCommand("merge");
  const rows: ShardRow[] = [];
  let personas: string[] = [];
  let base: 0 | 1 | undefined;
  await withTempDir("mb-shards-", async (dir) => {
    const data = join(dir, "data");
    mkdirSync(data);
    personas = replicateRealMem(source.path, options.copies ?? 4, data);
    const run = (out: string, extra: string[]) =>
      runMembench(["run", "realmem", "--data", data, "--system", SYSTEM, "--out", out, "--no-progress", ...extra], {
        env: { MEMBENCH_CACHE_DIR: join(dir, "cache") },
      });

    // By hand: n independent runs over disjoint episode lists.
    let single: number | undefined;
    for (const n of counts) {
      const parts = Array.from({ length: n }, (_, i) => personas.filter((_, j) => j % n === i));
      const started = performance.now();
      await all(parts.map((ids, i) => run(join(dir, `episodes-${n}-${i}`), ["--episodes", ids.join(",")])));
      const wallMs = performance.now() - started;
      single ??= wallMs;
      rows.push({
        method: "episodes partition",
        processes: n,
        wallMs: round(wallMs, 0),
        speedup: round(single / wallMs, 2),
      });
    }

    if (shardAvailable && mergeAvailable) {
      base = await shardBase(dir);
      let singleMs: number | undefined;
      let reference: unknown;
      for (const n of counts) {
        const started = performance.now();
        if (n === 1) {
          await run(join(dir, "shard-1"), []);
          reference = summaryMetrics(runDirIn(join(dir, "shard-1")));
          singleMs = performance.now() - started;
          rows.push({ method: "shard+merge", processes: 1, wallMs: round(singleMs, 0), speedup: 1 });
          continue;
        }
        const outs = Array.from({ length: n }, (_, i) => join(dir, `shard-${n}-${i}`));
        await all(outs.map((out, i) => run(out, ["--shard", `${i + base!}/${n}`])));
        const mergeStart = performance.now();
        const merged = join(dir, `merged-${n}`);
        await runMembench(["merge", ...outs.map((o) => runDirIn(o)), "--out", merged]);
        const ended = performance.now();
        const equal =
          reference === undefined
            ? undefined
            : JSON.stringify(summaryMetrics(mergedRunDir(merged))) === JSON.stringify(reference);
        rows.push({
          method: "shard+merge",
          processes: n,
          wallMs: round(ended - started, 0),
          mergeMs: round(ended - mergeStart, 0),
          speedup: round((singleMs ?? ended - started) / (ended - started), 2),
          ...(equal === undefined ? {} : { metricsEqual: equal }),
        });
      }
    }
  });

  console.log(
    `\n## shard scaling (${personas.length} units: ${source.label} ×${personas.length} replicated, ${SYSTEM}, offline; ${machineNote()})\n`,
  );
  if (!shardAvailable || !mergeAvailable) {
    const missing = [shardAvailable ? "" : "`membench run --shard`", mergeAvailable ? "" : "`membench merge`"]
      .filter(Boolean)
      .join(" and ");
    console.log(`shard+merge: not available (${missing} not in this build)\n`);
  }
  console.log("| method | processes | wall | speed-up over 1 process | merge | merged metrics = single run |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const r of rows) {
    console.log(
      `| ${r.method} | ${r.processes} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.speedup.toFixed(2)} | ${r.mergeMs === undefined ? "–" : `${(r.mergeMs / 1000).toFixed(1)} s`} | ${r.metricsEqual === undefined ? "–" : r.metricsEqual ? "yes" : "NO"} |`,
    );
  }
  const result: ShardResult = {
    ...header("shards"),
    data: `${source.label} ×${personas.length} replicated`,
    units: personas.length,
    system: SYSTEM,
    shardAvailable,
    mergeAvailable,
    ...(base === undefined ? {} : { shardBase: base }),
    rows,
  };
  writeResult("shards", result, options.resultsDir);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await runShardsBench();
