/**
 * A cached re-run: a finished run (answers and judges against the stub at
 * 200 ms per call) done again with the same model cache, first as a new run of
 * the same command, then as `--resume` of the finished run. Every model reply is
 * in the cache, so neither may make a model call; what they cost is the
 * harness's own work, shown as a ratio of the first run's wall time.
 *
 *   npm run bench rerun
 */
import { join } from "node:path";
import { startBenchStub, stubEnv } from "./model-stub.ts";
import {
  type BenchData,
  benchData,
  header,
  machineNote,
  type ResultHeader,
  round,
  runDirIn,
  runMembench,
  withTempDir,
  writeResult,
} from "./support.ts";

export interface RerunRow {
  run: "first" | "same command again" | "--resume of the finished run";
  /** Chat calls that reached the endpoint. */
  modelCalls: number;
  wallMs: number;
  /** wall / the first run's wall. */
  ratio: number;
}

export interface RerunResult extends ResultHeader {
  data: string;
  system: string;
  latencyMs: number;
  concurrency: number;
  rows: RerunRow[];
  /** Both re-runs made no model call. */
  noCallsOnRerun: boolean;
}

export interface RerunOptions {
  bench?: string;
  data?: BenchData;
  system?: string;
  latencyMs?: number;
  concurrency?: number;
  resultsDir?: string;
}

export async function runRerunBench(options: RerunOptions = {}): Promise<RerunResult> {
  const bench = options.bench ?? "realmem";
  const data = options.data ?? benchData("realmem", "realmem");
  const system = options.system ?? "bm25-session";
  const latencyMs = options.latencyMs ?? 200;
  const concurrency = options.concurrency ?? 32;
  const stub = await startBenchStub(latencyMs);
  const rows: RerunRow[] = [];
  try {
    await withTempDir("mb-rerun-", async (dir) => {
      const env = stubEnv(stub, concurrency, join(dir, "cache"));
      const timed = async (run: RerunRow["run"], args: string[]) => {
        stub.resetRecords();
        const child = await runMembench([...args, "--no-progress"], { env });
        const first = rows[0]?.wallMs ?? child.wallMs;
        rows.push({
          run,
          modelCalls: stub.chatRequests.length,
          wallMs: round(child.wallMs, 0),
          ratio: round(child.wallMs / first),
        });
      };
      const command = (out: string) => ["run", bench, "--data", data.path, "--system", system, "--out", join(dir, out)];
      await timed("first", command("first"));
      await timed("same command again", command("again"));
      await timed("--resume of the finished run", ["run", "--resume", runDirIn(join(dir, "first"))]);
    });
  } finally {
    await stub.close();
  }
  console.log(
    `\n## cached re-run (${bench}, ${data.label}, ${system}; stub at ${latencyMs} ms per call, MEMBENCH_CONCURRENCY ${concurrency}, one model cache; ${machineNote()})\n`,
  );
  console.log("| run | model calls made | wall | ratio to the first run |");
  console.log("|---|---:|---:|---:|");
  for (const r of rows) {
    console.log(`| ${r.run} | ${r.modelCalls} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.ratio.toFixed(3)} |`);
  }
  const noCallsOnRerun = rows.slice(1).every((r) => r.modelCalls === 0);
  console.log(`\nre-runs made ${noCallsOnRerun ? "no model call (target 0: met)" : "model calls (target 0: NOT met)"}`);
  const result: RerunResult = {
    ...header("rerun"),
    data: data.label,
    system,
    latencyMs,
    concurrency,
    rows,
    noCallsOnRerun,
  };
  writeResult("rerun", result, options.resultsDir);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await runRerunBench();
