/**
 * `membench worker`: takes unit jobs from the queue, builds the run's systems
 * and model from the config a job carries (once per run, kept for the run's
 * next units), executes the unit and returns its outcome through the job. It
 * writes nothing of the run itself: the coordinator stores results, so the run
 * store has one writer. Each model call's usage is left in Redis as the call
 * ends, so calls of an attempt that dies still count.
 *
 * A worker killed mid-unit stops renewing the job's lock; when the lock runs out
 * another worker's stalled check puts the job back in the queue (up to
 * `maxStalled` times, then it fails and is dead-lettered).
 */
import { hostname } from "node:os";
import type { Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { type CallUsage, withUsageSink } from "../llm/accounting.ts";
import { shareModelLimits } from "../llm/shared-limits.ts";
import { executeUnit, type RunContext } from "../run/unit.ts";
import { log } from "../util/log.ts";
import { packageVersion } from "../util/paths.ts";
import { checkRedisReachable, connectRedis, redactRedisUrl } from "../util/redis.ts";
import { prepareWorkerRun } from "./engine.ts";
import { DEFAULT_QUEUE_NAME, encodeResult, type UnitJobData, type UnitJobResult, usageKey } from "./jobs.ts";

export interface WorkerOptions {
  /** `redis://host:port` of the pool. */
  url: string;
  /** BullMQ queue name (default `membench`). */
  queueName?: string;
  /** Units executed at once by this worker (default 1). */
  concurrency?: number;
  /** How long a job's lock lives without renewal, ms (default 60 000): a killed worker's unit is retried after it. */
  lockMs?: number;
  /** How often this worker looks for stalled jobs, ms (default 30 000). */
  stalledMs?: number;
  /** Times a job may stall (its worker died) before it fails (default 2). */
  maxStalled?: number;
  /** Runs whose systems stay built while no unit of theirs is running (default 2). */
  keepRuns?: number;
  /** Resolves when the worker should stop: it finishes its running units, then returns. */
  stop: Promise<void>;
}

export interface WorkerSummary {
  completed: number;
  failed: number;
}

/** Test hook: SIGKILL this process after N probes, to prove a unit is retried elsewhere. */
function crashHook(): (() => void) | undefined {
  const n = Number(process.env.MEMBENCH_TEST_KILL_AFTER_PROBES);
  if (!Number.isFinite(n) || n <= 0) return undefined;
  let seen = 0;
  return () => {
    if (++seen >= n) process.kill(process.pid, "SIGKILL");
  };
}

interface CachedRun {
  run: Promise<RunContext>;
  active: number;
  used: number;
}

/** Prepared runs by queue key, the idle ones beyond `keep` disposed, least recently used first. */
class RunCache {
  private readonly runs = new Map<string, CachedRun>();
  constructor(
    private readonly keep: number,
    private readonly worker: string,
  ) {}

  async use<T>(key: string, data: UnitJobData, fn: (run: RunContext) => Promise<T>): Promise<T> {
    let entry = this.runs.get(key);
    if (!entry) {
      log.info(
        `preparing run ${data.config.id}: ${data.config.options.systems.join(", ")} on ${data.config.options.data}`,
      );
      entry = { run: prepareWorkerRun(data.config, this.worker), active: 0, used: 0 };
      this.runs.set(key, entry);
      // A run that cannot be prepared here (data missing) is tried again by its next job.
      entry.run.catch(() => {
        if (this.runs.get(key) === entry) this.runs.delete(key);
      });
    }
    entry.active++;
    entry.used = Date.now();
    try {
      return await fn(await entry.run);
    } finally {
      entry.active--;
      await this.trim();
    }
  }

  private async trim(): Promise<void> {
    const idle = [...this.runs].filter(([, e]) => e.active === 0).sort((a, b) => a[1].used - b[1].used);
    for (const [key, entry] of idle.slice(0, Math.max(0, this.runs.size - this.keep))) {
      this.runs.delete(key);
      await entry.run.then(
        (ctx) => ctx.close(),
        () => {},
      );
    }
  }

  async close(): Promise<void> {
    const all = [...this.runs.values()];
    this.runs.clear();
    for (const entry of all)
      await entry.run.then(
        (ctx) => ctx.close(),
        () => {},
      );
  }
}

export async function runWorker(options: WorkerOptions): Promise<WorkerSummary> {
  await checkRedisReachable(options.url);
  const { UnrecoverableError, Worker } = await import("bullmq");
  const warned = new Set<string>();
  const me = `${hostname()}:${process.pid}`;
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  // Every model stack this worker builds waits in the pool's global slots.
  shareModelLimits(options.url);
  const relay: Redis = await connectRedis(options.url, { name: `membench-worker-usage:${me}` });
  const runs = new RunCache(options.keepRuns ?? 2, me);
  const crash = crashHook();
  const summary: WorkerSummary = { completed: 0, failed: 0 };

  const processor = async (job: Job<UnitJobData, UnitJobResult>): Promise<UnitJobResult> => {
    const data = job.data;
    if (data.v !== 1) {
      throw new UnrecoverableError(
        `${me}: job ${job.id} has format ${JSON.stringify(data.v)}, which this membench (${packageVersion()}) cannot read`,
      );
    }
    if (data.config.membench !== packageVersion() && !warned.has(data.run)) {
      warned.add(data.run);
      log.warn(
        `run ${data.config.id} was started by membench ${data.config.membench}, this worker is ${packageVersion()}: its records may differ from a single-process run's`,
      );
    }
    const started = performance.now();
    const pushes: Promise<unknown>[] = [];
    const onUsage = (call: CallUsage) => {
      const key = usageKey(data.run);
      pushes.push(
        relay
          .multi()
          .rpush(key, JSON.stringify({ unit: data.unit.id, call }))
          .expire(key, 7 * 24 * 3600)
          .exec(),
      );
    };
    log.info(`unit ${data.unit.id} of run ${data.config.id}: attempt ${job.attemptsMade + 1}`);
    try {
      // Calls made while the run is prepared (a system's set-up) count under the unit that needed it.
      const result = await withUsageSink(onUsage, () =>
        runs.use(data.run, data, (ctx) => executeUnit(ctx, data.unit.id, { onUsage, onProbe: crash })),
      );
      log.info(
        `unit ${data.unit.id} of run ${data.config.id}: ${result.records.length} records in ${Math.round(performance.now() - started)} ms`,
      );
      return encodeResult(result, me);
    } catch (error) {
      // BullMQ keeps only the message: say where it happened.
      throw new Error(`${me}: ${(error as Error).message ?? String(error)}`);
    } finally {
      // The usage of this attempt is in Redis before its result or failure is.
      await Promise.allSettled(pushes);
    }
  };

  const worker: Worker<UnitJobData, UnitJobResult> = new Worker(queueName, processor, {
    connection: { url: options.url },
    name: me,
    concurrency: Math.max(1, Math.floor(options.concurrency ?? 1)),
    lockDuration: options.lockMs ?? 60_000,
    stalledInterval: options.stalledMs ?? 30_000,
    maxStalledCount: options.maxStalled ?? 2,
  });
  worker.on("completed", () => summary.completed++);
  worker.on("failed", (job, error) => {
    summary.failed++;
    log.warn(`unit ${job?.data.unit.id ?? "?"}: ${error.message}`);
  });
  worker.on("error", (error) => log.warn(`worker: ${error.message}`));
  await worker.waitUntilReady();
  log.info(
    `worker ${me} taking units from queue "${queueName}" at ${redactRedisUrl(options.url)} (${worker.opts.concurrency} at once); Ctrl-C finishes the running units and stops`,
  );

  await options.stop;
  log.info(`worker ${me}: finishing running units, then stopping`);
  try {
    await worker.close();
  } finally {
    await runs.close();
    relay.disconnect();
    shareModelLimits(undefined);
  }
  log.info(`worker ${me}: stopped (${summary.completed} units done, ${summary.failed} attempts failed)`);
  return summary;
}
