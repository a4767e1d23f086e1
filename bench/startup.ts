/**
 * Cold start of the CLI: the compiled bin answering `--version` and `--help`
 * against `node -e 0` (the floor: Node itself), each a fresh process, measured
 * in the same run and interleaved so load on the machine hits all alike.
 * Prints medians and the ratio to Node's, and writes bench/results/startup.json.
 *
 *   npm run bench startup            (STARTUP_BENCH_RUNS runs of each, default 15)
 */
import { spawnSync } from "node:child_process";
import { membenchBin, ROOT } from "../test/support/bin.ts";
import { percentile } from "./ledger.ts";
import { header, type ResultHeader, writeResult } from "./support.ts";

/** What the issue asks of `membench --version` on the project's machine. */
export const STARTUP_TARGET_MS = 500;

interface Timing {
  medianMs: number;
  minMs: number;
  maxMs: number;
}

export interface StartupResult extends ResultHeader {
  bench: "startup";
  runs: number;
  commands: Record<string, Timing>;
  /** median of `membench --version` / median of `node -e 0`. */
  ratio: number;
  targetMs: number;
  withinTarget: boolean;
}

function timeOnce(args: string[]): number {
  const started = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  const ms = performance.now() - started;
  if (r.status !== 0) throw new Error(`node ${args.join(" ")} exited ${r.status}: ${r.stderr}`);
  return ms;
}

const timing = (xs: number[]): Timing => ({
  medianMs: Number(percentile(xs, 50).toFixed(1)),
  minMs: Number(Math.min(...xs).toFixed(1)),
  maxMs: Number(Math.max(...xs).toFixed(1)),
});

export async function runStartupBench(
  runs = Number(process.env.STARTUP_BENCH_RUNS ?? 15),
  resultsDir?: string,
): Promise<StartupResult> {
  const bin = membenchBin();
  const commands: Record<string, string[]> = {
    "node -e 0": ["-e", "0"],
    "membench --version": [bin, "--version"],
    "membench --help": [bin, "--help"],
  };
  const samples: Record<string, number[]> = Object.fromEntries(Object.keys(commands).map((k) => [k, []]));
  for (let i = 0; i < runs; i++)
    for (const [name, args] of Object.entries(commands)) samples[name]!.push(timeOnce(args));

  const result: StartupResult = {
    ...header("startup"),
    bench: "startup",
    runs,
    commands: Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, timing(xs)])),
    ratio: 0,
    targetMs: STARTUP_TARGET_MS,
    withinTarget: false,
  };
  const version = result.commands["membench --version"]!.medianMs;
  const floor = result.commands["node -e 0"]!.medianMs;
  result.ratio = Number((version / floor).toFixed(2));
  result.withinTarget = version < STARTUP_TARGET_MS;

  console.log(`\n## CLI cold start (${runs} runs each, wall clock, ${result.machine.cores} cores)\n`);
  console.log("| command | median | min | max | ratio to node -e 0 |");
  console.log("|---|---:|---:|---:|---:|");
  for (const [name, t] of Object.entries(result.commands)) {
    console.log(
      `| \`${name}\` | ${t.medianMs.toFixed(0)} ms | ${t.minMs.toFixed(0)} ms | ${t.maxMs.toFixed(0)} ms | ${(t.medianMs / floor).toFixed(2)} |`,
    );
  }
  console.log(
    `\n\`membench --version\`: ${version.toFixed(0)} ms median, ${result.ratio}× node -e 0 (target under ${STARTUP_TARGET_MS} ms: ${result.withinTarget ? "met" : "NOT met"})`,
  );
  writeResult("startup", result, resultsDir);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) await runStartupBench();
