/**
 * Model-bound throughput: a whole `membench run` (answers and judges) against
 * the local OpenAI stub answering every call after a fixed latency (200 ms), at
 * several model concurrencies (MEMBENCH_CONCURRENCY). With nothing but the
 * model's latency to wait on, N calls at concurrency c take N × latency / c at
 * best; efficiency is that ideal over the measured wall time:
 *
 *   efficiency = calls × 0.2 s / concurrency / wall time        (target ≥ 0.8 at 32)
 *
 * Each run is a `membench run` child process with a fresh model cache, so every
 * call reaches the stub; the stub counts the calls and the most ever in flight.
 * Cases: a RealMem persona and a LoCoMo conversation (the ../shared samples when
 * present, else the project's fixtures), system `bm25-session`. Concurrency 1
 * on the RealMem persona takes its calls × 0.2 s (about 100 s for the sample)
 * and says least, so it runs with `--full` only.
 *
 *   npm run bench throughput [-- --full]     (THROUGHPUT_CONCURRENCY=1,8 chooses for every case)
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
  runMembench,
  withTempDir,
  writeResult,
} from "./support.ts";

export const THROUGHPUT_TARGET = 0.8;
export const TARGET_CONCURRENCY = 32;
export const DEFAULT_CONCURRENCIES = [1, 8, 32, 64];

export interface ThroughputCase {
  name: string;
  bench: string;
  data: BenchData;
  system: string;
  /** Concurrencies run without `--full` (default all of DEFAULT_CONCURRENCIES). */
  quick?: number[];
}

export function throughputCases(): ThroughputCase[] {
  return [
    {
      name: "realmem persona",
      bench: "realmem",
      data: benchData("realmem", "realmem"),
      system: "bm25-session",
      quick: [8, 32, 64],
    },
    {
      name: "locomo conversation",
      bench: "locomo",
      data: benchData("locomo", "locomo/locomo10-mini.json"),
      system: "bm25-session",
    },
  ];
}

export interface ThroughputRow {
  case: string;
  data: string;
  system: string;
  concurrency: number;
  /** Chat calls the stub answered (answers and judges). */
  calls: number;
  wallMs: number;
  /** calls × latency / concurrency. */
  idealMs: number;
  efficiency: number;
  maxInFlight: number;
}

export interface ThroughputResult extends ResultHeader {
  latencyMs: number;
  target: { concurrency: number; efficiency: number };
  rows: ThroughputRow[];
  /** Per case, whether efficiency at the target concurrency reached the target (absent when it was not run). */
  withinTarget: Record<string, boolean>;
}

export interface ThroughputOptions {
  /** Every case at these (default: THROUGHPUT_CONCURRENCY, else each case's, all of them with `full`). */
  concurrencies?: number[];
  full?: boolean;
  cases?: ThroughputCase[];
  latencyMs?: number;
  resultsDir?: string;
}

export function concurrenciesFromEnv(): number[] | undefined {
  const raw = process.env.THROUGHPUT_CONCURRENCY;
  if (!raw) return undefined;
  const values = raw.split(",").map((v) => Number(v.trim()));
  if (values.some((v) => !Number.isInteger(v) || v < 1)) {
    throw new Error(`THROUGHPUT_CONCURRENCY: expected positive integers separated by commas, got "${raw}"`);
  }
  return values;
}

export async function runThroughputBench(options: ThroughputOptions = {}): Promise<ThroughputResult> {
  const latencyMs = options.latencyMs ?? 200;
  const chosen = options.concurrencies ?? concurrenciesFromEnv();
  const concurrenciesOf = (c: ThroughputCase) =>
    chosen ?? (options.full ? DEFAULT_CONCURRENCIES : (c.quick ?? DEFAULT_CONCURRENCIES));
  const cases = options.cases ?? throughputCases();
  const stub = await startBenchStub(latencyMs);
  const rows: ThroughputRow[] = [];
  console.log(
    `\n## model-bound throughput (stub endpoint, ${latencyMs} ms per call; efficiency = calls × ${latencyMs / 1000} s / concurrency / wall time; ${machineNote()})\n`,
  );
  console.log("| case | data | concurrency | calls | wall | ideal | efficiency | max in flight |");
  console.log("|---|---|---:|---:|---:|---:|---:|---:|");
  try {
    for (const c of cases) {
      for (const concurrency of concurrenciesOf(c)) {
        stub.resetRecords();
        const run = await withTempDir("mb-throughput-", (dir) =>
          runMembench(
            ["run", c.bench, "--data", c.data.path, "--system", c.system, "--out", join(dir, "runs"), "--no-progress"],
            { env: stubEnv(stub, concurrency, join(dir, "cache")) },
          ),
        );
        const calls = stub.chatRequests.length;
        const idealMs = (calls * latencyMs) / concurrency;
        const row: ThroughputRow = {
          case: c.name,
          data: c.data.label,
          system: c.system,
          concurrency,
          calls,
          wallMs: round(run.wallMs, 0),
          idealMs: round(idealMs, 0),
          efficiency: round(idealMs / run.wallMs),
          maxInFlight: stub.maxInFlight,
        };
        rows.push(row);
        console.log(
          `| ${c.name} | ${c.data.kind} | ${concurrency} | ${calls} | ${(run.wallMs / 1000).toFixed(1)} s | ${(idealMs / 1000).toFixed(1)} s | ${row.efficiency.toFixed(2)} | ${row.maxInFlight} |`,
        );
      }
    }
  } finally {
    await stub.close();
  }
  const withinTarget: Record<string, boolean> = {};
  for (const row of rows) {
    if (row.concurrency === TARGET_CONCURRENCY) withinTarget[row.case] = row.efficiency >= THROUGHPUT_TARGET;
  }
  const left = cases.filter((c) => !concurrenciesOf(c).includes(1)).map((c) => c.name);
  if (left.length) console.log(`concurrency 1 on the ${left.join(", ")}: with --full`);
  for (const [name, met] of Object.entries(withinTarget)) {
    console.log(
      `${name}: efficiency at ${TARGET_CONCURRENCY} ${met ? "meets" : "does NOT meet"} the target ≥ ${THROUGHPUT_TARGET}`,
    );
  }
  const result: ThroughputResult = {
    ...header("throughput"),
    latencyMs,
    target: { concurrency: TARGET_CONCURRENCY, efficiency: THROUGHPUT_TARGET },
    rows,
    withinTarget,
  };
  writeResult("throughput", result, options.resultsDir);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await runThroughputBench();
