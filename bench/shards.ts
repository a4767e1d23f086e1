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
 * single-process run's. Without it, shards print "not available". With the
 * worker pool (`run --queue`, `membench worker`) and a redis-server, the same
 * units also go through a coordinator and n workers. In every case the units
 * are split by hand with `--episodes` too (n independent runs, nothing merged):
 * what process parallelism alone gives on this machine.
 *
 *   npm run bench shards
 */
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { replicateRealMem } from "./realmem-data.ts";
import { redisServerPath, startRedis } from "./redis.ts";
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
  startMembench,
  withTempDir,
  writeResult,
} from "./support.ts";

export const SHARD_COUNTS = [1, 2, 4];
const SYSTEM = "bm25-session";

export interface ShardRow {
  /**
   * `episodes partition`: n independent runs over disjoint `--episodes` lists (nothing merged;
   * n = 1 is the plain run every speed-up is measured against); `shard+merge`: n `run --shard i/n`
   * processes, then `membench merge`; `queue workers`: one `run --queue` coordinator and n
   * `membench worker`s on a private redis-server (workers started before the clock).
   */
  method: "episodes partition" | "shard+merge" | "queue workers";
  processes: number;
  wallMs: number;
  /** The merge's share of the wall time (shard+merge only). */
  mergeMs?: number;
  /** The one-process wall time of the same method over this one. */
  speedup: number;
  /** The run's metrics equal the one-process run's (shard+merge and queue rows). */
  metricsEqual?: boolean;
}

export interface ShardResult extends ResultHeader {
  data: string;
  units: number;
  system: string;
  shardAvailable: boolean;
  mergeAvailable: boolean;
  /** `available`, or why the worker-pool rows were not run. */
  queue: string;
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

/** Whether the build has the worker pool (`run --queue`, `membench worker`) and this machine a redis-server. */
async function queueStatus(): Promise<string> {
  if (!(await runHasFlag("--queue")) || !(await hasCommand("worker"))) {
    return "`membench run --queue` and `membench worker` not in this build";
  }
  return redisServerPath() ? "available" : "no redis-server (REDIS_SERVER_PATH, PATH)";
}

/**
 * The metrics of a run directory's summary, by system/setting, to compare runs:
 * every metric but the timings (`*_ms_*`), which no two runs share.
 */
export function summaryMetrics(runDir: string): unknown {
  const summary = JSON.parse(readFileSync(join(runDir, "summary.json"), "utf8")) as {
    results: Array<{ system: string; setting: string; n: number; metrics: Record<string, number> }>;
  };
  return summary.results.map((r) => ({
    system: r.system,
    setting: r.setting,
    n: r.n,
    metrics: Object.fromEntries(Object.entries(r.metrics).filter(([k]) => !/_ms_/.test(k))),
  }));
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
  const queue = await queueStatus();
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

    // By hand: n independent runs over disjoint episode lists. The one-process run
    // (every episode) is the reference for every method's speed-up and metrics.
    let singleMs = 0;
    let reference: unknown;
    for (const n of counts) {
      const parts = Array.from({ length: n }, (_, i) => personas.filter((_, j) => j % n === i));
      const outs = parts.map((_, i) => join(dir, `episodes-${n}-${i}`));
      const started = performance.now();
      await all(parts.map((ids, i) => run(outs[i]!, ["--episodes", ids.join(",")])));
      const wallMs = performance.now() - started;
      if (n === 1) {
        singleMs = wallMs;
        reference = summaryMetrics(runDirIn(outs[0]!));
      }
      rows.push({
        method: "episodes partition",
        processes: n,
        wallMs: round(wallMs, 0),
        speedup: round((singleMs || wallMs) / wallMs, 2),
      });
    }
    const sameMetrics = (runDir: string) =>
      reference === undefined ? undefined : JSON.stringify(summaryMetrics(runDir)) === JSON.stringify(reference);

    if (shardAvailable && mergeAvailable) {
      base = await shardBase(dir);
      for (const n of counts.filter((c) => c > 1)) {
        const outs = Array.from({ length: n }, (_, i) => join(dir, `shard-${n}-${i}`));
        const started = performance.now();
        await all(outs.map((out, i) => run(out, ["--shard", `${i + base!}/${n}`])));
        const mergeStart = performance.now();
        const merged = join(dir, `merged-${n}`);
        await runMembench(["merge", ...outs.map((o) => runDirIn(o)), "--out", merged]);
        const ended = performance.now();
        const equal = sameMetrics(mergedRunDir(merged));
        rows.push({
          method: "shard+merge",
          processes: n,
          wallMs: round(ended - started, 0),
          mergeMs: round(ended - mergeStart, 0),
          speedup: round((singleMs || ended - started) / (ended - started), 2),
          ...(equal === undefined ? {} : { metricsEqual: equal }),
        });
      }
    }

    if (queue === "available") {
      const redis = await startRedis(redisServerPath()!);
      try {
        for (const n of counts) {
          const name = `bench-${n}`;
          const pool = ["--queue", redis.url, "--queue-name", name];
          const workers = Array.from({ length: n }, () =>
            startMembench(["worker", ...pool], { env: { MEMBENCH_CACHE_DIR: join(dir, "cache") } }),
          );
          try {
            const out = join(dir, `queue-${n}`);
            const started = performance.now();
            await run(out, pool);
            const wallMs = performance.now() - started;
            const equal = sameMetrics(runDirIn(out));
            rows.push({
              method: "queue workers",
              processes: n,
              wallMs: round(wallMs, 0),
              speedup: round((singleMs || wallMs) / wallMs, 2),
              ...(equal === undefined ? {} : { metricsEqual: equal }),
            });
          } finally {
            await Promise.all(workers.map((w) => w.stop()));
          }
        }
      } finally {
        await redis.stop();
      }
    }
  });

  console.log(
    `\n## shard scaling (${personas.length} units: ${source.label} ×${personas.length} replicated, ${SYSTEM}, offline; ${machineNote()})\n`,
  );
  if (queue !== "available") console.log(`queue workers: not available (${queue})\n`);
  if (!shardAvailable || !mergeAvailable) {
    const missing = [shardAvailable ? "" : "`membench run --shard`", mergeAvailable ? "" : "`membench merge`"]
      .filter(Boolean)
      .join(" and ");
    console.log(`shard+merge: not available (${missing} not in this build)\n`);
  }
  console.log("| method | processes | wall | speed-up over 1 process | merge | metrics = one-process run |");
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
    queue,
    ...(base === undefined ? {} : { shardBase: base }),
    rows,
  };
  writeResult("shards", result, options.resultsDir);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await runShardsBench();
