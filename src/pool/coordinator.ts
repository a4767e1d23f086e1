/**
 * The coordinator of `membench run --queue`: enqueues one job per unit left,
 * waits while workers execute them, and writes each result into the run store
 * as its job completes, so the store keeps one writer. A job that fails is
 * retried with exponential backoff up to its attempts; then it stays in the
 * queue's failed list (the dead letters) and its unit is stored as failed and
 * dead-lettered. Model usage reported by workers is stored as it arrives.
 *
 * Stopping (Ctrl-C) only stops waiting: the jobs stay queued and workers keep
 * going, their results wait in Redis, and `run --resume DIR` attaches again
 * and collects them.
 */
import type { Job, Queue, QueueEvents } from "bullmq";
import type { Redis } from "ioredis";
import type { UnitInfo } from "../core/record.ts";
import type { CallUsage } from "../llm/accounting.ts";
import type { RunSnapshot } from "../run/snapshot.ts";
import type { RunStore } from "../run/store.ts";
import type { UnitResult } from "../run/unit.ts";
import { log } from "../util/log.ts";
import { checkRedisReachable, connectRedis, redactRedisUrl } from "../util/redis.ts";
import { DEFAULT_QUEUE_NAME, decodeResult, jobId, type UnitJobData, type UnitJobResult, usageKey } from "./jobs.ts";

export interface QueueOptions {
  /** `redis://host:port` of the pool. */
  url: string;
  /** BullMQ queue name (default `membench`). */
  name?: string;
  /** Attempts per unit before it is dead-lettered (default 3). */
  attempts?: number;
  /** First retry delay, ms, doubled at each retry (default 5000). */
  backoffMs?: number;
}

export const DEFAULT_ATTEMPTS = 3;
export const DEFAULT_BACKOFF_MS = 5000;

export interface CoordinateOptions {
  queue: QueueOptions;
  /** The run's queue key (jobs.ts runKey). */
  run: string;
  /** The config jobs carry (jobs.ts jobConfig). */
  config: RunSnapshot;
  store: RunStore;
  /** The run's units: those not done are run; a done one's job left in the queue is removed. */
  units: readonly UnitInfo[];
  /** Stores a unit's result (the run engine's storeUnitResult): "duplicate" when the unit was stored already. */
  storeResult: (result: UnitResult) => "stored" | "duplicate";
  /** Called after each stored result or dead letter (cost checks). */
  afterUnit?: () => void;
  /** Resolves when the coordinator should stop waiting; default: the first SIGINT (Ctrl-C) or SIGTERM while it waits. */
  stop?: Promise<void>;
  /** Whether to stop taking new units (spent over --max-cost): the waiting ones are withdrawn. */
  withdraw?: () => boolean;
  progress?: boolean;
  /** How often jobs are looked at without an event (default 5000 ms); events wake the coordinator sooner. */
  reconcileMs?: number;
}

export interface CoordinateOutcome {
  done: number;
  deadLettered: number;
  /** Units withdrawn from the queue before they ran (over --max-cost). */
  withdrawn: number;
  /** True when stopped before every unit ended: the rest is still queued. */
  stopped: boolean;
}

interface Tracked {
  unit: UnitInfo;
  id: string;
}

export async function coordinateUnits(options: CoordinateOptions): Promise<CoordinateOutcome> {
  await checkRedisReachable(options.queue.url);
  const { Queue, QueueEvents, Job } = await import("bullmq");
  const { store, run, config } = options;
  const name = options.queue.name ?? DEFAULT_QUEUE_NAME;
  const connection = { url: options.queue.url };
  const queue: Queue<UnitJobData, UnitJobResult> = new Queue(name, { connection });
  const redis: Redis = await connectRedis(options.queue.url, { name: "membench-coordinator" });
  // Events are read from the stream's last entry as of now, so none emitted while the
  // reader starts (a worker taking the first job at once) is missed.
  const last = (await redis.xrevrange(queue.toKey("events"), "+", "-", "COUNT", 1).catch(() => []))[0]?.[0] ?? "0-0";
  const events: QueueEvents = new QueueEvents(name, { connection, lastEventId: last });
  const where = `queue "${name}" at ${redactRedisUrl(options.queue.url)}`;
  const outcome: CoordinateOutcome = { done: 0, deadLettered: 0, withdrawn: 0, stopped: false };
  const outstanding = new Map<string, Tracked>();
  const dirty = new Set<string>();
  let retried = 0;
  let wake: (() => void) | undefined;
  let removeSignals = () => {};
  const poke = () => wake?.();

  try {
    await Promise.all([queue.waitUntilReady(), events.waitUntilReady()]);
    for (const event of ["completed", "failed", "removed"] as const) {
      events.on(event, ({ jobId: id }: { jobId: string }) => {
        if (outstanding.has(id)) {
          dirty.add(id);
          poke();
        }
      });
    }
    events.on("active", ({ jobId: id }) => {
      const t = outstanding.get(id);
      if (t) store.start(t.unit.id);
    });
    events.on("delayed", ({ jobId: id }) => {
      if (outstanding.has(id)) retried++;
    });
    events.on("stalled", ({ jobId: id }) => {
      if (outstanding.has(id)) {
        retried++;
        log.warn(`unit ${outstanding.get(id)?.unit.id}: its worker stopped answering; the unit goes back in the queue`);
      }
    });

    await enqueue();
    log.info(
      `${outstanding.size} units on ${where}${outcome.done ? ` (${outcome.done} results already there)` : ""}; waiting for workers (membench worker --queue …)`,
    );

    const stopNow = () => {
      outcome.stopped = true;
      poke();
    };
    if (options.stop) void options.stop.then(stopNow);
    else {
      process.once("SIGINT", stopNow);
      process.once("SIGTERM", stopNow);
      removeSignals = () => {
        process.off("SIGINT", stopNow);
        process.off("SIGTERM", stopNow);
      };
    }
    let lastFull = Date.now();
    let lastReport = 0;
    const reconcileMs = options.reconcileMs ?? 5000;
    while (outstanding.size && !outcome.stopped) {
      let timer: NodeJS.Timeout | undefined;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, Math.min(1000, reconcileMs));
      });
      clearTimeout(timer);
      wake = undefined;
      if (Date.now() - lastFull >= reconcileMs) {
        for (const id of outstanding.keys()) dirty.add(id);
        lastFull = Date.now();
      }
      await drainUsage();
      await settle();
      if (options.withdraw?.()) await withdraw();
      if (Date.now() - lastReport >= 5000 || !outstanding.size) {
        lastReport = Date.now();
        await report();
      }
    }
    await drainUsage();
    if (outcome.stopped && outstanding.size) {
      log.warn(
        `stopped waiting: ${outstanding.size} units are still on ${where}; workers keep going, and --resume re-attaches and collects their results`,
      );
    } else {
      outcome.stopped = false;
      await redis.del(usageKey(run));
    }
    return outcome;
  } finally {
    removeSignals();
    await Promise.allSettled([events.close(), queue.close()]);
    redis.disconnect();
  }

  /** The state of each job, asked a batch at a time (one round trip per batch, not per job). */
  async function statesOf(ids: readonly string[]): Promise<string[]> {
    const states: string[] = [];
    for (let i = 0; i < ids.length; i += 200) {
      states.push(...(await Promise.all(ids.slice(i, i + 200).map((id) => queue.getJobState(id)))));
    }
    return states;
  }

  /** Puts every unit left on the queue, or re-attaches to its job. */
  async function enqueue(): Promise<void> {
    const toAdd: Tracked[] = [];
    const states = await statesOf(options.units.map((u) => jobId(run, u.id)));
    for (const [i, unit] of options.units.entries()) {
      const id = jobId(run, unit.id);
      const state = states[i];
      if (unit.state === "done") {
        // Done already: a result stored before a coordinator stopped, whose job was not
        // removed yet, or a unit finished by `--resume --local` while its job waited.
        if (state !== "unknown" && state !== "active") await queue.remove(id).catch(() => 0);
        continue;
      }
      const tracked = { unit, id };
      if (state === "unknown") toAdd.push(tracked);
      else if (state === "failed") {
        // Dead-lettered before: --resume gives the unit a new set of attempts.
        await queue.remove(id);
        store.clearDeadLetter(unit.id);
        toAdd.push(tracked);
      } else {
        outstanding.set(id, tracked);
        if (state === "completed") dirty.add(id);
      }
    }
    for (let i = 0; i < toAdd.length; i += 200) {
      const batch = toAdd.slice(i, i + 200);
      await queue.addBulk(batch.map(jobOf));
      for (const t of batch) outstanding.set(t.id, t);
    }
    await settle();
  }

  /** A unit's job: the run's config travels with it; results and dead letters are kept until read. */
  function jobOf({ unit, id }: Tracked) {
    return {
      name: "unit",
      data: {
        v: 1 as const,
        run,
        unit: { id: unit.id, system: unit.system, episodeId: unit.episodeId },
        config,
      },
      opts: {
        jobId: id,
        attempts: Math.max(1, Math.floor(options.queue.attempts ?? DEFAULT_ATTEMPTS)),
        backoff: { type: "exponential", delay: options.queue.backoffMs ?? DEFAULT_BACKOFF_MS },
        removeOnComplete: false,
        removeOnFail: false,
      },
    };
  }

  /** Looks at the jobs events (or the periodic check) pointed to: stores results, records dead letters. */
  async function settle(): Promise<void> {
    const ids = [...dirty].filter((id) => outstanding.has(id));
    dirty.clear();
    const states = await statesOf(ids);
    for (const [i, id] of ids.entries()) {
      const tracked = outstanding.get(id);
      if (!tracked) continue;
      const state = states[i];
      if (state === "completed") {
        const job = (await Job.fromId(queue, id)) as Job<UnitJobData, UnitJobResult> | undefined;
        if (!job) continue;
        collect(tracked, job);
        await job.remove().catch((error: Error) => log.debug(`could not remove job ${id}: ${error.message}`));
      } else if (state === "failed") {
        const job = await Job.fromId(queue, id);
        const error = job?.failedReason || "failed without a reason";
        store.deadLetter(tracked.unit.id, { job: id, attempts: job?.attemptsMade ?? 0, error });
        outstanding.delete(id);
        outcome.deadLettered++;
        log.error(`unit ${tracked.unit.id} dead-lettered after ${job?.attemptsMade ?? "?"} attempts: ${error}`);
        options.afterUnit?.();
      } else if (state === "unknown") {
        // Removed by someone else (an `obliterate`, a cleanup): the unit is not lost, it is queued again.
        log.warn(`the job of unit ${tracked.unit.id} disappeared from the queue; queuing it again`);
        const job = jobOf(tracked);
        await queue.add(job.name, job.data, job.opts);
      }
    }
  }

  function collect(tracked: Tracked, job: Job<UnitJobData, UnitJobResult>): void {
    outstanding.delete(tracked.id);
    let result: UnitResult;
    try {
      result = decodeResult(job.returnvalue);
    } catch (error) {
      store.fail(tracked.unit.id, `the result of job ${tracked.id}: ${(error as Error).message}`);
      log.error(`unit ${tracked.unit.id}: ${(error as Error).message}`);
      return;
    }
    if (options.storeResult(result) === "duplicate") {
      log.warn(`unit ${tracked.unit.id} came back twice; its first result is kept`);
    } else outcome.done++;
    log.debug(`unit ${tracked.unit.id} stored (from ${job.returnvalue.worker})`);
    options.afterUnit?.();
  }

  /** Stores the model calls workers reported since the last look. */
  async function drainUsage(): Promise<void> {
    const key = usageKey(run);
    for (;;) {
      const items = (await redis.lpop(key, 500)) as string[] | null;
      if (!items?.length) return;
      for (const item of items) {
        try {
          const { unit, call } = JSON.parse(item) as { unit: string; call: CallUsage };
          store.addUsage(unit, "run", call);
        } catch (error) {
          log.warn(`unreadable usage entry from a worker: ${(error as Error).message}`);
        }
      }
    }
  }

  /** Over --max-cost: units not started yet leave the queue; running ones finish and are stored. */
  async function withdraw(): Promise<void> {
    const ids = [...outstanding.keys()];
    const states = await statesOf(ids);
    for (const [i, id] of ids.entries()) {
      const tracked = outstanding.get(id);
      const state = states[i];
      if (!tracked || state === "active" || state === "completed" || state === "failed") continue;
      if ((await queue.remove(id)) === 1) {
        outstanding.delete(id);
        outcome.withdrawn++;
        log.debug(`unit ${tracked.unit.id} withdrawn from the queue`);
      }
    }
  }

  async function report(): Promise<void> {
    if (options.progress === false || log.level === "error") return;
    const workers = await queue.getWorkersCount().catch(() => Number.NaN);
    const count = (n: number, what: string) => `${n} ${what}${n === 1 ? "" : "s"}`;
    log.info(
      `queue: ${count(outcome.done, "unit")} done, ${outstanding.size} left, ${outcome.deadLettered} dead-lettered, ${count(retried, "attempt")} retried; ${Number.isNaN(workers) ? "? workers" : count(workers, "worker")}`,
    );
  }
}
