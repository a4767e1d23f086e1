/**
 * The runner: plans work units (system × episode), replays each, stores every
 * probe record, and resumes after a crash without redoing or losing finished
 * units. All requested settings are assembled inside one replay, so default,
 * oracle and perfect always see the same written memory.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import PQueue from "p-queue";
import { BENCHMARKS, getBenchmark, unifiedBenchmark } from "../benchmarks/index.ts";
import type { BenchmarkDefinition } from "../benchmarks/types.ts";
import { ConfigError, SystemError } from "../core/errors.ts";
import type { Dataset, Episode } from "../core/model.ts";
import { loadRunData } from "../data/run-data.ts";
import { unifiedSources } from "../data/unified.ts";
import { type UsageSink, withUsageSink } from "../llm/accounting.ts";
import { type ManagedChatModel, modelConfigured, resolveModelSettings } from "../llm/create.ts";
import { checkScoreOptions, type ScoreRunOptions, scoreRun, summarizeRun } from "../score/score-run.ts";
import { scorerFor } from "../score/scorers.ts";
import type { AnySystemDefinition } from "../systems/options.ts";
import {
  disposeSystems,
  type MadeSystem,
  makeSystems,
  type ResolvedSystem,
  resolveRecorded,
  resolveSystems,
  type SystemInput,
  type SystemRecord,
} from "../systems/resolve.ts";
import { applySystemOptions } from "../systems/spec.ts";
import type { MemorySystem } from "../systems/types.ts";
import { log } from "../util/log.ts";
import { PACKAGE_ROOT, packageVersion } from "../util/paths.ts";
import { type LedgerFlags, legacyLedgerOptions } from "./ledger-config.ts";
import { startProgress } from "./progress.ts";
import type { Protocol, ProtocolOptions } from "./protocol.ts";
import { protocolFor } from "./protocols.ts";
import { type ProbeRecord, SETTINGS, type Setting, unitId } from "./record.ts";
import { askAnswerModel, replayUnit } from "./replay.ts";
import { RunStore, STORE_FILE } from "./store.ts";
import type { Summary } from "./summary.ts";
import { configuredChatModel, runSystemContext } from "./system-context.ts";

export interface RunOptions {
  benchmark: string;
  data: string;
  /**
   * The systems: `--system` specs (`bm25`, `ledger#{"extractor":"offline"}`,
   * `./my-system.js`, `pkg#export`, `http:URL`; docs/systems.md), SystemDefinitions,
   * or MemorySystem instances (an instance cannot be rebuilt from config.json:
   * resuming its run needs the same instance passed to resumeRun again).
   */
  systems: SystemInput[];
  /** `--system-option label.key=value`, applied in order over the specs' own options. */
  systemOptions?: string[];
  /** `--system-concurrency N`: `concurrency` for every system whose schema takes one. */
  systemConcurrency?: number;
  /** `--keep-remote`: remote systems leave their users/containers in place at close. */
  keepRemote?: boolean;
  settings?: Setting[];
  /** At most this many episodes (the first ones, in load order). */
  limit?: number;
  /** Only these episode ids. */
  episodes?: string[];
  /** Parent folder of run directories (default `runs`). */
  out?: string;
  /** Run id (default: benchmark and a timestamp). */
  id?: string;
  concurrency?: number;
  maxCost?: number;
  protocol?: ProtocolOptions;
  embedder?: string;
  /** `--embed-workers`: threads running the offline embedder (default MEMBENCH_EMBED_WORKERS, else 1); vectors do not depend on it. */
  embedWorkers?: number;
  /** `openai`, `openai:MODEL` or `scripted:FILE`; default from settings. */
  llm?: string;
  /** USD per million tokens, for the cost estimate and `--max-cost`. */
  price?: { inputPerMTok: number; outputPerMTok: number };
  /** `--token-budget`: given to every system's context (full-context's budget unless its own option says). */
  tokenBudget?: number;
  progress?: boolean;
  /** Judges, prompts and benchmark options for the scoring that follows the answers. */
  scoring?: ScoreRunOptions;
  /** Load the data leniently (`--lenient`): suspicious records are warnings, not errors. Kept for resume and score. */
  lenient?: boolean;
}

/** How a run's options are recorded: `systems` holds the row labels; each system's spec, options and info are in `RunSnapshot.systems`. */
export type RecordedRunOptions = Required<Pick<RunOptions, "benchmark" | "data" | "settings">> & {
  systems: string[];
} & Omit<RunOptions, "progress" | "systems" | "systemOptions" | "systemConcurrency"> &
  LedgerFlags;

export interface RunSnapshot {
  id: string;
  variant?: string;
  createdAt: string;
  membench: string;
  gitCommit?: string;
  node: string;
  /** `options.systems` is the row labels; runs before systems took options also hold `ledgerExtractor`, `ledgerRetrieval`, `ledgerQueryRewrite`. */
  options: RecordedRunOptions;
  /** Every system as made: spec, source (absolute module path, package version), options, caps, info(). Absent in older runs. */
  systems?: SystemRecord[];
  dataFiles: Array<{ path: string; bytes: number; sha256: string }>;
  protocol: Omit<Protocol, "prepare" | "oracle" | "buildContext" | "answerMessages"> & { answerPromptHash: string };
  model: { configured: boolean; detail: string; spec?: string };
  embedder?: string;
}

export interface RunOutcome {
  dir: string;
  summary: Summary;
  failedUnits: number;
  stoppedForCost: boolean;
}

export const CONFIG_FILE = "config.json";
export const SUMMARY_FILE = "summary.json";

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

function gitCommit(): string | undefined {
  // Only membench's own checkout: installed under a user's repository, git would answer with theirs.
  if (!existsSync(join(PACKAGE_ROOT, ".git"))) return undefined;
  try {
    return execFileSync("git", ["rev-parse", "HEAD"], { cwd: PACKAGE_ROOT, stdio: ["ignore", "pipe", "ignore"] })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}

function selectEpisodes(dataset: Dataset, options: RunOptions): Episode[] {
  let episodes = dataset.episodes;
  if (options.episodes?.length) {
    const wanted = new Set(options.episodes);
    const unknown = options.episodes.filter((id) => !episodes.some((e) => e.id === id));
    if (unknown.length) throw new ConfigError(`no such episode: ${unknown.join(", ")}`, "episodes", "--episodes");
    episodes = episodes.filter((e) => wanted.has(e.id));
  }
  if (options.limit !== undefined) episodes = episodes.slice(0, options.limit);
  return episodes;
}

/**
 * Warns when a ranked system's depth reaches every unit of the smallest episode:
 * then retrieval is not being tested. A system tells what one result is through
 * `info().unit` (`session` compares with sessions; `none` returns nothing);
 * otherwise turns, the finest unit, are counted.
 */
function warnIfWholeHaystack(
  protocol: Protocol,
  episodes: readonly Episode[],
  systems: readonly Pick<MadeSystem, "system" | "record">[],
): void {
  const minSessions = Math.min(...episodes.map((e) => e.sessions.length));
  const minTurns = Math.min(...episodes.map((e) => e.sessions.reduce((n, s) => n + s.turns.length, 0)));
  for (const { system, record } of systems) {
    const unit = record.info?.unit;
    if (!system.caps.ranked || unit === "none") continue;
    const sessionUnit = unit === "session";
    const haystack = sessionUnit ? minSessions : minTurns;
    if (protocol.depth >= haystack) {
      log.warn(
        `${record.label}: retrieval depth ${protocol.depth} reaches the whole haystack (${haystack} ${sessionUnit ? "sessions" : "turns"} in the smallest episode); retrieval is not being tested there`,
      );
    }
  }
}

/** A rough upper bound of answer-model calls and input tokens for the pending work. */
function estimate(episodes: readonly Episode[], protocol: Protocol, systems: number, settings: number) {
  const probes = episodes.reduce((n, e) => n + e.probes.length, 0);
  const calls = probes * systems * settings;
  const perCall = protocol.contextTokens + 300;
  return { probes, calls, inputTokens: calls * perCall, outputTokens: calls * 200 };
}

/** Hash of the answer prompt as rendered for a placeholder probe: changes whenever the wording does. */
function answerPromptHash(protocol: Protocol): string {
  const probe = {
    id: "p",
    question: "{question}",
    time: "{time}",
    position: { at: "end" as const },
    labels: {},
    gold: {
      answers: [],
      wrongAnswers: [],
      criteria: [],
      evidenceSessionIds: [],
      evidenceTurnIds: [],
      evidenceMemories: [],
      staleSessionIds: [],
    },
  };
  const messages = protocol.answerMessages(probe, { text: "{context}", tokens: 0, used: 0 });
  return createHash("sha256").update(JSON.stringify(messages)).digest("hex").slice(0, 16);
}

/** The protocol's options, with the benchmark options that shape answers (`stage: "answer"`). */
function protocolOptions(options: Pick<RunOptions, "protocol" | "scoring">): ProtocolOptions {
  return { ...options.protocol, benchmark: options.scoring?.options ?? {} };
}

/** Creates a new run directory with its config snapshot, then executes it. */
export async function startRun(options: RunOptions): Promise<RunOutcome> {
  const settings = options.settings?.length ? options.settings : (["default"] as Setting[]);
  for (const s of settings) {
    if (!SETTINGS.includes(s))
      throw new ConfigError(`unknown setting "${s}"; known: ${SETTINGS.join(", ")}`, "setting");
  }
  if (!options.systems?.length) throw new ConfigError("name at least one system", "system", "--system");
  // Specs, modules and every system's options are checked before the data is read.
  const resolved = await resolveSystems(options.systems, {
    systemOptions: options.systemOptions,
    concurrency: options.systemConcurrency,
  });
  let bench = getBenchmark(options.benchmark);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
  const id = options.id ?? `${bench.id}-${stamp}`;
  const dir = resolve(options.out ?? "runs", id);
  if (existsSync(join(dir, CONFIG_FILE))) {
    throw new ConfigError(`${dir} already holds a run; use --resume ${dir} to finish it`, "out", "--out");
  }
  const dataset = await loadRunData(bench.id, options.data, { lenient: options.lenient });
  const llm = llmStatus(options);
  if (bench.id === unifiedBenchmark.id) bench = unifiedScoredAs(dataset, options.data, llm.configured);
  // A mistyped scoring option would otherwise surface only after every answer was paid for.
  checkScoreOptions(bench.id, options.scoring?.options);
  const protocol = protocolFor(dataset.benchmark)(protocolOptions(options));
  const { prepare: _p, oracle: _o, buildContext: _b, answerMessages: _a, ...protocolInfo } = protocol;
  const snapshot: RunSnapshot = {
    id,
    variant: dataset.variant,
    createdAt: new Date().toISOString(),
    membench: packageVersion(),
    gitCommit: gitCommit(),
    node: process.versions.node,
    options: {
      ...options,
      benchmark: bench.id,
      data: resolve(options.data),
      settings,
      systems: resolved.map((r) => r.label),
      systemOptions: undefined,
      systemConcurrency: undefined,
      progress: undefined,
    } as RunSnapshot["options"],
    dataFiles: await Promise.all(
      dataset.source.files.map(async (f) => ({ path: f.path, bytes: f.bytes, sha256: await sha256File(f.path) })),
    ),
    protocol: { ...protocolInfo, answerPromptHash: answerPromptHash(protocol) },
    model: llm,
    embedder: options.embedder,
  };
  // Systems are made before the run directory exists: one that refuses its options
  // (a model it needs, a server that does not answer) leaves nothing behind.
  const answerer = createAnswerer(snapshot);
  let made: MadeSystem[];
  try {
    made = await makeSystems(resolved, contextOf(snapshot, answerer));
  } catch (error) {
    answerer?.close();
    throw error;
  }
  snapshot.systems = made.map((m) => m.record);
  const created = !existsSync(dir);
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, CONFIG_FILE), `${JSON.stringify(snapshot, null, 2)}\n`);
  } catch (error) {
    answerer?.close();
    await disposeSystems(made);
    throw error;
  }
  try {
    return await executeRun(dir, snapshot, dataset, options.progress, { answerer, made });
  } catch (error) {
    if (created) discardUnstarted(dir);
    throw error;
  }
}

/**
 * Starts a run and returns its outcome with every probe record: the library's
 * one call (no progress bar unless asked). `systems` takes specs, definitions
 * and MemorySystem instances alike.
 */
export async function runBenchmark(options: RunOptions): Promise<RunOutcome & { records: ProbeRecord[] }> {
  const outcome = await startRun({ ...options, progress: options.progress ?? false });
  return { ...outcome, records: readRecords(outcome.dir) };
}

/** The systems a snapshot records; a run started before systems took options recorded only ids and the ledger's flags. */
export function recordedSystems(snapshot: Pick<RunSnapshot, "options" | "systems">): SystemRecord[] {
  if (snapshot.systems) return snapshot.systems;
  const ids = snapshot.options.systems;
  const specs = ids.map((id) => ({ label: id, id, options: {} as Record<string, unknown> }));
  return applySystemOptions(specs, legacyLedgerOptions(ids, snapshot.options)).map((s) => ({
    label: s.label,
    spec: s.label,
    source: { kind: "registered", id: s.id },
    options: s.options,
  }));
}

/**
 * The benchmark a unified file runs as. `data convert` records in every episode
 * the benchmark it came from: a file from one benchmark runs, is scored and
 * resumes as that benchmark. A file no scorer fits could not have its answers
 * scored, so with a model configured it is refused before any call; without one,
 * its retrieval half runs as `unified`.
 */
function unifiedScoredAs(dataset: Dataset, data: string, modelConfigured: boolean): BenchmarkDefinition {
  const sources = unifiedSources(dataset);
  const source = sources.length === 1 ? BENCHMARKS.find((b) => b.id === sources[0]) : undefined;
  if (source && source.id !== unifiedBenchmark.id && scorerFor(source.id)) {
    log.info(`${data}: episodes converted from ${source.id}; run and scored as ${source.id}`);
    return source;
  }
  if (modelConfigured) {
    const from =
      sources.length === 1
        ? `episodes come from "${sources[0]}", which has no scorer`
        : `episodes come from several benchmarks (${sources.join(", ")}), and one run is scored by one benchmark's scorer`;
    throw new ConfigError(
      `${data}: ${from}, so its answers could not be scored; no model was called. Run it without a model for the retrieval metrics, or give each benchmark's episodes a file of their own`,
      "benchmark",
      "run unified",
    );
  }
  return unifiedBenchmark;
}

/**
 * Removes the directory of a run that failed before any unit started (a bad
 * model script, an estimate over --max-cost), so reports do not list an empty
 * run. A directory with anything recorded is kept for --resume.
 */
function discardUnstarted(dir: string): void {
  try {
    const path = join(dir, STORE_FILE);
    if (existsSync(path)) {
      const store = new RunStore(path);
      let untouched: boolean;
      try {
        untouched = store.untouched();
      } finally {
        store.close();
      }
      if (!untouched) return;
    }
    rmSync(dir, { recursive: true, force: true });
    log.debug(`removed ${dir}: the run failed before any unit started`);
  } catch (error) {
    // The start's own error is the one to report; a failed clean-up only leaves the directory.
    log.debug(`could not remove ${dir}: ${(error as Error).message}`);
  }
}

export interface ResumeOptions {
  progress?: boolean;
  /** The definitions and MemorySystem instances the run was started with, where config.json cannot rebuild them. */
  systems?: Array<AnySystemDefinition | MemorySystem>;
}

/** Finishes a run whose process died or was stopped: finished units are kept, the rest redone. */
export async function resumeRun(dir: string, options: boolean | ResumeOptions = {}): Promise<RunOutcome> {
  const { progress, systems: given } =
    typeof options === "boolean" ? { progress: options, systems: undefined } : options;
  const path = join(dir, CONFIG_FILE);
  if (!existsSync(path))
    throw new ConfigError(`no ${CONFIG_FILE} in ${dir}: not a run directory`, "resume", "--resume");
  let snapshot: RunSnapshot;
  try {
    snapshot = JSON.parse(readFileSync(path, "utf8")) as RunSnapshot;
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`, "resume", "--resume");
  }
  const { benchmark, data, lenient } = snapshot.options;
  const dataset = await loadRunData(benchmark, data, { lenient });
  for (const f of snapshot.dataFiles) {
    if (!existsSync(f.path) || (await sha256File(f.path)) !== f.sha256) {
      throw new ConfigError(
        `data file ${f.path} changed since the run started; start a new run instead of resuming`,
        "resume",
        dir,
      );
    }
  }
  // Answers asked now (unfinished units, failed answers asked again) must see the prompt the others saw.
  const hash = answerPromptHash(protocolFor(dataset.benchmark)(protocolOptions(snapshot.options)));
  if (snapshot.protocol?.answerPromptHash && snapshot.protocol.answerPromptHash !== hash) {
    throw new ConfigError(
      `the answer prompt changed since the run started (${snapshot.protocol.answerPromptHash} → ${hash}, a newer membench?); start a new run instead of resuming`,
      "resume",
      dir,
    );
  }
  // Systems are made again from the snapshot only if a unit is left: asking failed answers again needs none.
  const again = () => resolveRecorded(recordedSystems(snapshot), given ?? []);
  return executeRun(resolve(dir), snapshot, dataset, progress, undefined, again);
}

function llmStatus(options: RunOptions): RunSnapshot["model"] {
  const status = modelConfigured({ flags: { llm: options.llm } });
  return { configured: status.configured, detail: status.reason, spec: options.llm };
}

function createAnswerer(snapshot: RunSnapshot): ManagedChatModel | undefined {
  if (!snapshot.model.configured) return undefined;
  const s = resolveModelSettings({ flags: { llm: snapshot.options.llm } });
  const price = snapshot.options.price;
  return configuredChatModel(snapshot.options.llm, {
    prices: price ? { [s.spec.kind === "openai" ? (s.spec.model ?? s.model ?? "") : "scripted"]: price } : undefined,
  });
}

/** The context every system of the run gets. */
function contextOf(snapshot: RunSnapshot, answerer: ManagedChatModel | undefined) {
  return runSystemContext({
    embedder: snapshot.options.embedder,
    embedWorkers: snapshot.options.embedWorkers,
    llm: snapshot.options.llm,
    ...(answerer ? { model: answerer } : {}),
    modelStatus: snapshot.model,
    tokenBudget: snapshot.options.tokenBudget,
    keepRemote: snapshot.options.keepRemote,
  });
}

/** One line per system that says what it is (its info()), for the log. */
function logSystems(made: readonly MadeSystem[]): void {
  for (const { record } of made) {
    const { unit: _unit, ...info } = record.info ?? {};
    const parts = Object.entries(info).map(([k, v]) => `${k} ${typeof v === "string" ? v : JSON.stringify(v)}`);
    if (parts.length) log.info(`${record.label}: ${parts.join("; ")}`);
  }
}

/** Test hook: SIGKILL this process after N probes, to prove resumability at a fixed checkpoint. */
function crashHook(): (() => void) | undefined {
  const n = Number(process.env.MEMBENCH_TEST_KILL_AFTER_PROBES);
  if (!Number.isFinite(n) || n <= 0) return undefined;
  let seen = 0;
  return () => {
    seen++;
    if (seen >= n) process.kill(process.pid, "SIGKILL");
  };
}

/**
 * Runs the pending units of a run. A new run comes with its answerer and systems
 * made (`prepared`); a resumed one resolves and makes them here, and only if a
 * unit is left. Systems made are disposed, and the answerer closed, at the end.
 */
async function executeRun(
  dir: string,
  snapshot: RunSnapshot,
  dataset: Dataset,
  progressOn = true,
  prepared?: { answerer: ManagedChatModel | undefined; made: MadeSystem[] },
  resolveAgain?: () => Promise<ResolvedSystem[]>,
): Promise<RunOutcome> {
  let made = prepared?.made;
  const answerer = prepared ? prepared.answerer : createAnswerer(snapshot);
  try {
    return await executeUnits(dir, snapshot, dataset, progressOn, answerer, async () => {
      made ??= await makeSystems((await resolveAgain?.()) ?? [], contextOf(snapshot, answerer));
      return made;
    });
  } finally {
    answerer?.close();
    await disposeSystems(made ?? []);
  }
}

async function executeUnits(
  dir: string,
  snapshot: RunSnapshot,
  dataset: Dataset,
  progressOn: boolean,
  answerer: ManagedChatModel | undefined,
  makeAll: () => Promise<MadeSystem[]>,
): Promise<RunOutcome> {
  const options = snapshot.options;
  const protocol = protocolFor(dataset.benchmark)(protocolOptions(options));
  const episodes = selectEpisodes(dataset, options).map((e) => protocol.prepare(e));
  if (!episodes.length) throw new ConfigError("no episodes selected", "episodes");
  const store = new RunStore(join(dir, STORE_FILE));
  // Every model call is stored with the unit it served as it ends; calls outside any unit go under "".
  const usageOf =
    (unit: string): UsageSink =>
    (call) =>
      store.addUsage(unit, "run", call);
  try {
    store.plan(
      options.systems.flatMap((system) => episodes.map((e) => ({ id: unitId(system, e.id), system, episodeId: e.id }))),
    );
    const reask = failedAnswers(store);
    const pending = store.units().filter((u) => u.state !== "done");
    const byId = new Map(episodes.map((e) => [e.id, e]));
    const pendingEpisodes = pending.map((u) => byId.get(u.episodeId)).filter((e): e is Episode => Boolean(e));
    const est = estimate(pendingEpisodes, protocol, 1, options.settings.length);
    est.calls += reask.length;
    est.inputTokens += reask.length * (protocol.contextTokens + 300);
    est.outputTokens += reask.length * 200;
    if (answerer) {
      const price = options.price;
      const cost = price
        ? (est.inputTokens * price.inputPerMTok + est.outputTokens * price.outputPerMTok) / 1e6
        : undefined;
      log.info(
        `estimate: at most ${est.calls} answer calls, ~${(est.inputTokens / 1e6).toFixed(1)}M input tokens${cost !== undefined ? `, ≤ $${cost.toFixed(2)}` : " (no price given: --price-in/--price-out to estimate cost)"}`,
      );
      if (options.maxCost !== undefined && cost !== undefined && cost > options.maxCost) {
        throw new ConfigError(
          `the estimated cost $${cost.toFixed(2)} exceeds --max-cost $${options.maxCost}; raise it or run fewer episodes`,
          "max-cost",
          "--max-cost",
        );
      }
    } else {
      log.info(`no model configured (${snapshot.model.detail}): answer and judge stages will be skipped`);
    }
    const total = pendingEpisodes.reduce((n, e) => n + e.probes.length, 0);
    const done = store.units().length - pending.length;
    log.info(
      `${dataset.benchmark}: ${pending.length} units to run${done ? ` (${done} already done)` : ""}, ${total} probes × ${options.settings.length} settings → ${dir}`,
    );
    const spent = () => {
      const c = store.usage("run")?.total;
      return c ? { known: c.costKnown && c.costUsd !== null, usd: c.costUsd ?? 0 } : undefined;
    };
    let failed = 0;
    let stoppedForCost = false;
    const checkCost = () => {
      const c = spent();
      if (options.maxCost !== undefined && c?.known && c.usd > options.maxCost && !stoppedForCost) {
        stoppedForCost = true;
        log.warn(`spent $${c.usd.toFixed(2)} > --max-cost $${options.maxCost}: stopping; --resume ${dir} continues`);
      }
    };
    await withUsageSink(usageOf(""), async () => {
      if (pending.length) {
        const made = await makeAll();
        logSystems(made);
        warnIfWholeHaystack(protocol, episodes, made);
        const systems = new Map(made.map((m) => [m.record.label, m.system]));
        const progress = startProgress(total, dataset.benchmark, progressOn);
        const costNow = () => {
          const c = spent();
          return c ? (c.known ? `$${c.usd.toFixed(2)}` : "n/a") : "-";
        };
        const crash = crashHook();
        const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 2) });
        for (const unit of pending) {
          const episode = byId.get(unit.episodeId);
          const system = systems.get(unit.system);
          if (!episode || !system) continue;
          queue.add(async () => {
            if (stoppedForCost) return;
            store.start(unit.id);
            try {
              const result = await withUsageSink(usageOf(unit.id), () =>
                replayUnit({
                  unitId: unit.id,
                  systemId: unit.system,
                  system,
                  episode,
                  protocol,
                  settings: options.settings,
                  answerer,
                  onProbe: () => {
                    progress.tick(1, costNow());
                    crash?.();
                  },
                }),
              );
              store.finish(unit.id, result.records, result.ingestMs);
            } catch (error) {
              failed++;
              const message = (error as Error).message ?? String(error);
              store.fail(unit.id, message);
              log.error(`unit ${unit.id} failed: ${message}`);
              if (!(error instanceof SystemError)) log.debug((error as Error).stack ?? "");
            }
            checkCost();
          });
        }
        await queue.onIdle();
        progress.stop();
      }
      if (reask.length && !answerer) {
        log.warn(`${reask.length} failed answers not asked again: no model configured (${snapshot.model.detail})`);
      } else if (reask.length && answerer) {
        log.info(`asking ${reask.length} failed answers again, each with the context its probe saw`);
        const queue = new PQueue({ concurrency: Math.max(1, answerer.limiter.concurrency) });
        for (const record of reask) {
          const probe = byId.get(record.episodeId)?.probes.find((p) => p.id === record.probeId);
          if (!probe) {
            log.warn(
              `no probe ${record.episodeId}/${record.probeId} in the data any more: its answer is not asked again`,
            );
            continue;
          }
          queue.add(async () => {
            if (stoppedForCost) return;
            await withUsageSink(usageOf(record.unitId), () => askAnswerModel(answerer, protocol, probe, record));
            store.updateRecord(record);
            checkCost();
          });
        }
        await queue.onIdle();
      }
    });
    answerer?.close();
    store.close();
    if (!answerer) return { dir, summary: summarizeRun(dir).summary, failedUnits: failed, stoppedForCost };
    log.info("scoring the answers");
    const scored = await scoreRun(dir, { judgeLlm: options.llm, ...options.scoring, keepVerdicts: true });
    return { dir, summary: scored.summary, failedUnits: failed, stoppedForCost };
  } finally {
    store.close();
  }
}

/**
 * Answers that failed in finished units. One the answer model gave is asked again
 * from its stored record; one a system gave itself needs the system's memory, so
 * its unit is put back in the queue and replayed.
 */
function failedAnswers(store: RunStore): ProbeRecord[] {
  const done = new Set(store.units().flatMap((u) => (u.state === "done" ? [u.id] : [])));
  const failed = store.records().filter((r) => done.has(r.unitId) && r.answerError !== undefined);
  const replay = [...new Set(failed.filter((r) => r.answeredBy === "system").map((r) => r.unitId))];
  if (replay.length) {
    log.info(`${replay.length} units whose system failed to answer are replayed`);
    store.requeue(replay);
  }
  return failed.filter((r) => r.answeredBy !== "system");
}

/** Records of a finished run, for reports and tests. */
export function readRecords(dir: string): ProbeRecord[] {
  const store = new RunStore(join(dir, STORE_FILE));
  try {
    return store.records();
  } finally {
    store.close();
  }
}
