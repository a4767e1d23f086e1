/**
 * What the benches share: the machine they ran on, where their data comes from
 * (the ../shared samples when present, else the project's fixtures, always
 * labelled), `membench` runs as child processes timed from outside with their
 * peak RSS, and the results file each bench writes (`bench/results/<name>.json`).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, loadavg, tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { membenchBin, ROOT } from "../test/support/bin.ts";

export { ROOT };
export const SHARED = resolve(ROOT, "../shared/datasets");
export const RESULTS_DIR = join(ROOT, "bench/results");

export interface Machine {
  cpu: string;
  cores: number;
  /** The 1-minute load average when the bench wrote its results: other work on a shared machine moves every figure. */
  loadAvg?: number;
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model ?? "unknown",
    cores: availableParallelism(),
    loadAvg: Number(loadavg()[0]!.toFixed(2)),
  };
}

/** The fields every results file starts with. */
export interface ResultHeader {
  bench: string;
  date: string;
  node: string;
  machine: Machine;
}

/** What a bench's heading says about the machine: "2 cores, load avg 1.3". */
export function machineNote(): string {
  const m = machine();
  return `${m.cores} cores, load avg ${m.loadAvg}`;
}

export function header(bench: string): ResultHeader {
  return { bench, date: new Date().toISOString(), node: process.version, machine: machine() };
}

/**
 * Writes `<dir>/<name>.json` (default bench/results) and says where. Benches take
 * the folder as an option so their tests write to a temporary one.
 */
export function writeResult(name: string, result: object, dir = RESULTS_DIR): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${name}.json`);
  writeFileSync(path, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`written to ${relative(ROOT, path) || path}`);
  return path;
}

/** Data a bench runs on: its path and what it is, for the printed tables and the results file. */
export interface BenchData {
  path: string;
  /** `sample ../shared/datasets/<rel>` or `fixture test/fixtures/<rel>`. */
  label: string;
  kind: "sample" | "fixture";
}

/** The ../shared sample `sharedRel` when it is there, else the project's fixture `fixtureRel`. */
export function benchData(sharedRel: string, fixtureRel: string): BenchData {
  const shared = join(SHARED, sharedRel);
  if (existsSync(shared)) return { path: shared, label: `sample ../shared/datasets/${sharedRel}`, kind: "sample" };
  return fixtureData(fixtureRel);
}

/** The project's own fixture `rel` (under test/fixtures), whatever ../shared holds. */
export function fixtureData(rel: string): BenchData {
  return { path: join(ROOT, "test/fixtures", rel), label: `fixture test/fixtures/${rel}`, kind: "fixture" };
}

/** Rounds for the results file: figures keep what was measured, not float noise. */
export const round = (x: number, digits = 3): number => (Number.isFinite(x) ? Number(x.toFixed(digits)) : x);

/**
 * The environment for a membench child: the bench's own without any model or
 * embedder settings (so a developer's endpoint is never reached), plus `env`.
 */
export function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(MEMBENCH_|OPENAI_)/.test(k)) out[k] = v;
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  return out;
}

export interface ChildRun {
  wallMs: number;
  /** Peak resident set of the child, bytes; undefined when it could not be measured. */
  maxRssBytes?: number;
  /** How the peak was measured. */
  rssBy?: "/usr/bin/time -v" | "process.resourceUsage";
  code: number | null;
  stdout: string;
  stderr: string;
}

const TIME = "/usr/bin/time";
/** Loaded with `--import` into a child when /usr/bin/time is absent: writes its own peak RSS (KiB) on exit. */
const RSS_REPORTER = join(ROOT, "bench/rss-report.mjs");

export interface ChildOptions {
  env?: Record<string, string | undefined>;
  /** Working directory (default: an empty temporary one, so no membench.config.json is picked up). */
  cwd?: string;
  allowFailure?: boolean;
  /** Node flags before the script (`--import X`). */
  nodeArgs?: string[];
}

/**
 * Runs `membench <args>` (the compiled bin) as a child process, timed from
 * outside: the wall time includes Node's start (about 0.1 s here), as a user's
 * command does. Rejects when it exits non-zero unless `allowFailure`.
 */
export function runMembench(args: readonly string[], options: ChildOptions = {}): Promise<ChildRun> {
  return runNode([...(options.nodeArgs ?? []), membenchBin(), ...args], options);
}

/** Runs `node <args>` as a child process, timed from outside, with its peak RSS. */
export async function runNode(args: readonly string[], options: ChildOptions = {}): Promise<ChildRun> {
  const scratch = mkdtempSync(join(tmpdir(), "mb-bench-child-"));
  const rssFile = join(scratch, "rss");
  const useTime = existsSync(TIME);
  const command = useTime ? TIME : process.execPath;
  const argv = useTime ? ["-v", "-o", rssFile, process.execPath, ...args] : ["--import", RSS_REPORTER, ...args];
  const env = childEnv({ ...options.env, ...(useTime ? {} : { MEMBENCH_BENCH_RSS_FILE: rssFile }) });
  try {
    const started = performance.now();
    const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (done, fail) => {
        const child = spawn(command, argv, { cwd: options.cwd ?? scratch, env, stdio: ["ignore", "pipe", "pipe"] });
        let out = "";
        let err = "";
        child.stdout.on("data", (c: Buffer) => {
          out += c.toString();
        });
        child.stderr.on("data", (c: Buffer) => {
          err += c.toString();
        });
        child.on("error", fail);
        child.on("close", (exit) => done({ code: exit, stdout: out, stderr: err }));
      },
    );
    const wallMs = performance.now() - started;
    const result: ChildRun = { wallMs, code, stdout, stderr, ...readRss(rssFile, useTime) };
    if (code !== 0 && !options.allowFailure) {
      throw new Error(`node ${args.join(" ")} exited ${code}:\n${stderr.slice(-2000)}`);
    }
    return result;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** A membench child left running (a pool worker): stopped with SIGTERM, as Ctrl-C would, and awaited. */
export interface Background {
  stop(): Promise<number | null>;
  /** What it wrote to stderr so far, for an error message. */
  stderr(): string;
}

export function startMembench(args: readonly string[], options: ChildOptions = {}): Background {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), membenchBin(), ...args], {
    cwd: options.cwd ?? tmpdir(),
    env: childEnv(options.env ?? {}),
    stdio: ["ignore", "ignore", "pipe"],
  });
  let err = "";
  child.stderr.on("data", (c: Buffer) => {
    err += c.toString();
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return {
    stderr: () => err,
    stop: async () => {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

function readRss(file: string, byTime: boolean): Pick<ChildRun, "maxRssBytes" | "rssBy"> {
  if (!existsSync(file)) return {};
  const text = readFileSync(file, "utf8");
  const kib = byTime ? /Maximum resident set size \(kbytes\): (\d+)/.exec(text)?.[1] : text.trim();
  if (!kib || !Number.isFinite(Number(kib))) return {};
  return { maxRssBytes: Number(kib) * 1024, rssBy: byTime ? "/usr/bin/time -v" : "process.resourceUsage" };
}

let helpText: string | undefined;

/** Whether `membench run --help` lists `flag` (`--shard`, `--queue`, `--embed-workers`): features other branches add. */
export async function runHasFlag(flag: string): Promise<boolean> {
  helpText ??= (await runMembench(["run", "--help"])).stdout;
  return new RegExp(`(^|\\s)${flag.replace(/[-]/g, "\\-")}[\\s=<,]`, "m").test(helpText);
}

/** Whether the CLI has `command` (e.g. `merge`), from `membench --help`. */
export async function hasCommand(command: string): Promise<boolean> {
  const top = (await runMembench(["--help"])).stdout;
  return new RegExp(`^\\s+${command}\\b`, "m").test(top);
}

/** The run directory a `membench run --out <out>` made: the one folder in `out` holding a config.json. */
export function runDirIn(out: string): string {
  const dirs = readdirSync(out).filter((d) => existsSync(join(out, d, "config.json")));
  if (dirs.length !== 1) throw new Error(`expected one run in ${out}, found ${dirs.length}`);
  return join(out, dirs[0]!);
}

/** A temporary folder removed when `fn` ends. */
export async function withTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export const mib = (bytes: number | undefined): string =>
  bytes === undefined ? "n/a" : `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/**
 * Below this a phase is not timed reliably enough to divide by: timer
 * resolution is fine (performance.now() has sub-microsecond steps), but a GC
 * pause or a scheduling hiccup is as long. Rates and per-item times from a
 * shorter phase print as bounds ("> N/s", "< x ms"), never as a figure.
 */
export const MIN_MEASURABLE_MS = 50;

/** `count` per second over `ms`, or a lower bound when `ms` is too short to measure. */
export function formatRate(count: number, ms: number, unit = "/s"): string {
  if (ms < MIN_MEASURABLE_MS) return `> ${(count / (MIN_MEASURABLE_MS / 1000)).toFixed(0)}${unit}`;
  return `${(count / (ms / 1000)).toFixed(0)}${unit}`;
}

/** `ms` per item, or an upper bound when `ms` is too short to measure. */
export function formatPerItem(ms: number, count: number, digits = 3): string {
  if (!count) return "n/a";
  if (ms < MIN_MEASURABLE_MS) return `< ${(MIN_MEASURABLE_MS / count).toFixed(digits)} ms`;
  return `${(ms / count).toFixed(digits)} ms`;
}
