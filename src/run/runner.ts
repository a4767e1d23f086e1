/**
 * The runner: plans work units (system × episode), replays each, stores every
 * probe record, and resumes after a crash without redoing or losing finished
 * units. All requested settings are assembled inside one replay, so default,
 * oracle and perfect always see the same written memory.
 */
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import PQueue from "p-queue";
import { BENCHMARKS, getBenchmark, protocolFor, scorerFor, unifiedBenchmark } from "../benchmarks/index.ts";
import type { Protocol } from "../benchmarks/shared/protocol.ts";
import type { BenchmarkDefinition } from "../benchmarks/types.ts";
import { unifiedSources } from "../benchmarks/unified/format.ts";
import { ConfigError, SystemError } from "../core/errors.ts";
import type { Dataset, Episode } from "../core/model.ts";
import { type ProbeRecord, SETTINGS, type Setting } from "../core/record.ts";
import { loadRunData } from "../data/run-data.ts";
import { type UsageSink, withUsageSink } from "../llm/accounting.ts";
import { type ManagedChatModel, modelConfigured } from "../llm/create.ts";
import { shareModelLimits } from "../llm/shared-limits.ts";
import type { QueueOptions } from "../pool/coordinator.ts";
import type { ProbeScore } from "../score/types.ts";
import type { AnySystemDefinition } from "../systems/options.ts";
import { disposeSystems, type MadeSystem, makeSystems, resolveSystems } from "../systems/resolve.ts";
import type { MemorySystem } from "../systems/types.ts";
import { log } from "../util/log.ts";
import { PACKAGE_ROOT, packageVersion } from "../util/paths.ts";
import { checkRedisUrl, redactRedisUrl } from "../util/redis.ts";
import { ModelStage } from "./model-stage.ts";
import { startProgress } from "./progress.ts";
import {
  checkScoreOptions,
  prepareScoring,
  type RunConfigLike,
  scoreKey,
  scoreRecord,
  scoreRun,
  summarizeRun,
} from "./score-run.ts";
import { formatShard } from "./shard.ts";
import {
  answerPromptHash,
  CONFIG_FILE,
  hashDataFiles,
  protocolOptions,
  type RunOptions,
  type RunSnapshot,
  readSnapshot,
} from "./snapshot.ts";
import { RunStore, STORE_FILE } from "./store.ts";
import type { Summary } from "./summary.ts";
import {
  createAnswerer,
  executeUnit,
  prepareRun,
  type RunContext,
  runContext,
  storeUnitResult,
  systemContextOf,
} from "./unit.ts";

// What callers imported from here before the run's snapshot and unit API had modules of their own.
export {
  CONFIG_FILE,
  type RecordedRunOptions,
  type RunOptions,
  type RunSnapshot,
  recordedSystems,
} from "./snapshot.ts";

export interface RunOutcome {
  dir: string;
  summary: Summary;
  failedUnits: number;
  stoppedForCost: boolean;
  /** A `--queue` run that stopped waiting (Ctrl-C) with units still queued: `--resume` collects them. */
  stoppedWaiting?: boolean;
}

export const SUMMARY_FILE = "summary.json";

/** Asked while the data loads: a child process takes tens of milliseconds. */
async function gitCommit(): Promise<string | undefined> {
  // Only membench's own checkout: installed under a user's repository, git would answer with theirs.
  if (!existsSync(join(PACKAGE_ROOT, ".git"))) return undefined;
  return new Promise((done) =>
    execFile("git", ["rev-parse", "HEAD"], { cwd: PACKAGE_ROOT }, (error, stdout) =>
      done(error ? undefined : stdout.toString().trim()),
    ),
  );
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
  warn: (message: string) => void = log.warn,
): void {
  const minSessions = Math.min(...episodes.map((e) => e.sessions.length));
  const minTurns = Math.min(...episodes.map((e) => e.sessions.reduce((n, s) => n + s.turns.length, 0)));
  for (const { system, record } of systems) {
    const unit = record.info?.unit;
    if (!system.caps.ranked || unit === "none") continue;
    const sessionUnit = unit === "session";
    const haystack = sessionUnit ? minSessions : minTurns;
    if (protocol.depth >= haystack) {
      warn(
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
  const shard = options.shard ? `-shard-${options.shard.index}of${options.shard.count}` : "";
  let id = options.id ?? `${bench.id}-${stamp}${shard}`;
  let dir = resolve(options.out ?? "runs", id);
  // Two runs started within the same second get the stamp apart by a count; an id given is never changed.
  for (let n = 2; options.id === undefined && existsSync(dir); n++) {
    id = `${bench.id}-${stamp}-${n}${shard}`;
    dir = resolve(options.out ?? "runs", id);
  }
  if (existsSync(join(dir, CONFIG_FILE))) {
    throw new ConfigError(`${dir} already holds a run; use --resume ${dir} to finish it`, "out", "--out");
  }
  const commit = gitCommit();
  const dataset = await loadRunData(bench.id, options.data, { lenient: options.lenient, variant: options.variant });
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
    gitCommit: await commit,
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
      stop: undefined,
      onStart: undefined,
      onHaystackWarning: undefined,
      ...(options.queue ? { queue: { ...options.queue, url: redactRedisUrl(options.queue.url) } } : {}),
    } as RunSnapshot["options"],
    dataFiles: await hashDataFiles(dataset.source.files.map((f) => f.path)).then((hashes) =>
      dataset.source.files.map((f, i) => ({ path: f.path, bytes: f.bytes, sha256: hashes[i]! })),
    ),
    protocol: { ...protocolInfo, answerPromptHash: answerPromptHash(protocol) },
    model: llm,
    embedder: options.embedder,
  };
  // With a pool, this process's model calls (failed answers asked again, judges) share its limits.
  if (options.queue) shareModelLimits(checkRedisUrl(options.queue.url));
  // Systems are made before the run directory exists: one that refuses its options
  // (a model it needs, a server that does not answer) leaves nothing behind.
  const answerer = createAnswerer(snapshot);
  let made: MadeSystem[];
  try {
    made = await makeSystems(resolved, systemContextOf(snapshot, answerer));
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
  options.onStart?.(dir);
  try {
    return await executeRun(runContext({ dir, snapshot, dataset, answerer, made }), options.progress, options);
  } catch (error) {
    if (created) discardUnstarted(dir);
    throw error;
  } finally {
    if (options.queue) shareModelLimits(undefined);
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
  /**
   * The worker pool to finish on: default the one the run was started with (re-attached:
   * results workers finished meanwhile are collected); `false` runs what is left here.
   */
  queue?: QueueOptions | false;
  /** Resolves when a `--queue` run should stop waiting (default: Ctrl-C). */
  stop?: Promise<void>;
}

/** Finishes a run whose process died or was stopped: finished units are kept, the rest redone. */
export async function resumeRun(dir: string, options: boolean | ResumeOptions = {}): Promise<RunOutcome> {
  const { progress, systems: given, ...rest } = typeof options === "boolean" ? { progress: options } : options;
  const queue = rest.queue === false ? undefined : (rest.queue ?? readSnapshot(dir).options.queue);
  // The answerer is made with the context: with a pool, its calls share the pool's limits.
  if (queue) shareModelLimits(checkRedisUrl(queue.url));
  try {
    // Systems are made again from the snapshot only if a unit is left: asking failed answers again needs none.
    const ctx = await prepareRun(dir, { systems: given ?? [] });
    return await executeRun(ctx, progress, { queue, stop: rest.stop });
  } finally {
    if (queue) shareModelLimits(undefined);
  }
}

function llmStatus(options: RunOptions): RunSnapshot["model"] {
  const status = modelConfigured({ flags: { llm: options.llm } });
  return { configured: status.configured, detail: status.reason, spec: options.llm };
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

/** Runs the pending units of a run; its systems are disposed, and its answerer closed, at the end. */
async function executeRun(
  ctx: RunContext,
  progressOn = true,
  pool: Pick<RunOptions, "queue" | "stop" | "onHaystackWarning"> = {},
): Promise<RunOutcome> {
  try {
    return await executeUnits(ctx, progressOn, pool);
  } finally {
    await ctx.close();
  }
}

async function executeUnits(
  ctx: RunContext,
  progressOn: boolean,
  pool: Pick<RunOptions, "queue" | "stop" | "onHaystackWarning">,
): Promise<RunOutcome> {
  const { snapshot, dataset, protocol, answerer } = ctx;
  const dir = ctx.dir!;
  const options = snapshot.options;
  const store = new RunStore(join(dir, STORE_FILE));
  // Every model call is stored with the unit it served as it ends; calls outside any unit go under "".
  const usageOf =
    (unit: string): UsageSink =>
    (call) =>
      store.addUsage(unit, "run", call);
  try {
    store.plan(ctx.units);
    const reask = failedAnswers(store);
    const pending = store.units().filter((u) => u.state !== "done");
    const byId = ctx.episodes;
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
      `${dataset.benchmark}${ctx.shard ? ` shard ${formatShard(ctx.shard)}` : ""}: ${pending.length} units to run${done ? ` (${done} already done)` : ""}, ${total} probes × ${options.settings.length} settings → ${dir}`,
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
    let stoppedWaiting = false;
    // Units whose records are in the store: an answer that ends before its unit is
    // stored is written with the unit; one that ends after updates its record.
    const stored = new Set(store.units().flatMap((u) => (u.state === "done" ? [u.id] : [])));
    const failedUnits = new Set<string>();
    const scoring = answerer ? streamedScoring(ctx, store, answerer) : undefined;
    // A queue run reports units as workers finish them (the coordinator's lines), not probes.
    const progress = startProgress(total, dataset.benchmark, progressOn && pending.length > 0 && !pool.queue);
    const costNow = () => {
      const c = spent();
      return c ? (c.known ? `$${c.usd.toFixed(2)}` : "n/a") : "-";
    };
    // A probe ticks once all its answers are in (those still pending when it fired).
    const waiting = new Map<ProbeRecord, { left: number }>();
    const stage = answerer
      ? new ModelStage({
          answerer,
          protocol,
          usage: (record) => usageOf(record.unitId),
          skip: (record) => stoppedForCost || failedUnits.has(record.unitId),
          answered: (record) => {
            if (stored.has(record.unitId)) store.updateRecord(record);
            const group = waiting.get(record);
            waiting.delete(record);
            if (group && --group.left === 0) progress.tick(1, costNow());
            checkCost();
          },
          ...(scoring ? { judge: scoring.judge } : {}),
        })
      : undefined;
    try {
      await withUsageSink(usageOf(""), async () => {
        if (reask.length && !stage) {
          log.warn(
            `${reask.length} failed or pending answers not asked again: no model configured (${snapshot.model.detail})`,
          );
        } else if (reask.length && stage) {
          const left = reask.filter((r) => r.answerPending).length;
          const failedNow = reask.length - left;
          const what = [failedNow ? `${failedNow} failed` : "", left ? `${left} pending` : ""].filter(Boolean);
          log.info(`asking ${what.join(" and ")} answers again, each with the context its probe saw`);
          for (const record of reask) {
            const probe = byId.get(record.episodeId)?.probes.find((p) => p.id === record.probeId);
            if (!probe) {
              log.warn(
                `no probe ${record.episodeId}/${record.probeId} in the data any more: its answer is not asked again`,
              );
              continue;
            }
            stage.ask(record, probe);
          }
        }
        if (pending.length && pool.queue) {
          // The units run in the pool's workers, answers included; this process stores
          // what they return (one writer) and judges the records as they arrive.
          const { coordinateUnits } = await import("../pool/coordinator.ts");
          const { jobConfig, runKey } = await import("../pool/jobs.ts");
          const result = await coordinateUnits({
            queue: pool.queue,
            run: runKey(snapshot),
            config: jobConfig(snapshot),
            store,
            units: store.units(),
            storeResult: (r) => {
              const outcome = storeUnitResult(store, r);
              if (outcome === "stored") {
                stored.add(r.unitId);
                for (const record of r.records) if (record.answeredBy && !record.answerPending) stage?.judge(record);
              }
              return outcome;
            },
            afterUnit: checkCost,
            withdraw: () => stoppedForCost,
            ...(pool.stop ? { stop: pool.stop } : {}),
            progress: progressOn,
          });
          failed += result.deadLettered;
          stoppedWaiting = result.stopped;
        } else if (pending.length) {
          const made = await ctx.systems();
          logSystems(made);
          warnIfWholeHaystack(protocol, [...byId.values()], made, pool.onHaystackWarning);
          const crash = crashHook();
          const queue = new PQueue({ concurrency: Math.max(1, options.concurrency ?? 2) });
          for (const unit of pending) {
            if (!byId.has(unit.episodeId) || !made.some((m) => m.record.label === unit.system)) continue;
            queue.add(async () => {
              if (stoppedForCost) return;
              store.start(unit.id);
              try {
                const result = await executeUnit(ctx, unit.id, {
                  onUsage: usageOf(unit.id),
                  onIngest: (done, of) => progress.ingest(unit.id, done, of),
                  onProbe: (records) => {
                    const left = records.filter((r) => r.answerPending);
                    if (left.length) {
                      const group = { left: left.length };
                      for (const r of left) waiting.set(r, group);
                    } else progress.tick(1, costNow());
                    crash?.();
                  },
                  ...(stage ? { deferAnswer: (record, probe) => stage.ask(record, probe) } : {}),
                });
                storeUnitResult(store, result);
                stored.add(unit.id);
                // Answers the system gave itself were asked in the replay: judged now.
                for (const r of result.records) if (r.answeredBy === "system") stage?.judge(r);
              } catch (error) {
                failed++;
                failedUnits.add(unit.id);
                const message = (error as Error).message ?? String(error);
                store.fail(unit.id, message);
                log.error(`unit ${unit.id} failed: ${message}`);
                if (!(error instanceof SystemError)) log.debug((error as Error).stack ?? "");
              }
              checkCost();
            });
          }
          await queue.onIdle();
        }
        await stage?.drain();
      });
    } finally {
      progress.stop();
      scoring?.close();
    }
    answerer?.close();
    store.close();
    if (stoppedWaiting) {
      return { dir, summary: summarizeRun(dir).summary, failedUnits: failed, stoppedForCost, stoppedWaiting };
    }
    if (!answerer) return { dir, summary: summarizeRun(dir).summary, failedUnits: failed, stoppedForCost };
    log.info("scoring the answers");
    const scored = await scoreRun(
      dir,
      { judgeLlm: options.llm, ...options.scoring, keepVerdicts: true },
      { dataset, limiter: answerer.limiter, ...(scoring ? { scored: scoring.scored } : {}) },
    );
    return { dir, summary: scored.summary, failedUnits: failed, stoppedForCost };
  } finally {
    store.close();
  }
}

/**
 * Scoring inside the run: each record is scored as soon as its answer is in, by
 * judges that share the answer model's limiter, and its score is stored at once.
 * The scoring that ends the run uses these scores as they are, so it makes no
 * call for them and is left with the aggregation; a run stopped midway keeps the
 * verdicts already stored (keepVerdicts). Undefined when the benchmark has no scorer.
 */
function streamedScoring(
  ctx: RunContext,
  store: RunStore,
  answerer: ManagedChatModel,
): { judge(record: ProbeRecord): Promise<void>; scored: Map<string, ProbeScore>; close(): void } | undefined {
  const options = ctx.snapshot.options;
  const prepared = prepareScoring(
    ctx.snapshot as unknown as RunConfigLike,
    { judgeLlm: options.llm, ...options.scoring, keepVerdicts: true },
    store.scores<ProbeScore>(),
    answerer.limiter,
  );
  if (!prepared) return undefined;
  const episodes = new Map(ctx.dataset.episodes.map((e) => [e.id, e]));
  const scored = new Map<string, ProbeScore>();
  return {
    scored,
    judge: async (record) => {
      const score = await scoreRecord(prepared.scorer, record, episodes, prepared.ctx, (call) =>
        store.addUsage(record.unitId, "score", call),
      );
      if (!score) return;
      scored.set(scoreKey(record), score);
      store.putScore({ unitId: record.unitId, probeId: record.probeId, setting: record.setting, record: score });
    },
    close: () => prepared.close(),
  };
}

/**
 * Answers that failed, or were still pending when the run stopped, in finished
 * units. One the answer model gave is asked again from its stored record; one a system gave itself needs the system's memory, so
 * its unit is put back in the queue and replayed.
 */
function failedAnswers(store: RunStore): ProbeRecord[] {
  const done = new Set(store.units().flatMap((u) => (u.state === "done" ? [u.id] : [])));
  // Found among the records read without their texts; only those are read whole.
  const failed = store
    .records({ texts: false })
    .filter((r) => done.has(r.unitId) && (r.answerError !== undefined || r.answerPending))
    .map((r) => store.record(r.unitId, r.probeId, r.setting)!);
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
