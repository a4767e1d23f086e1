/**
 * The jobs of the worker pool: one per work unit, what they carry and what they
 * return. A job's id is its run's queue key and its unit id, so enqueuing a unit
 * again (a coordinator that restarts, `--resume`) finds the job already there.
 */
import { createHash } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import type { RunSnapshot } from "../run/snapshot.ts";
import type { UnitResult } from "../run/unit.ts";

/** The BullMQ queue every coordinator and worker uses unless told otherwise. */
export const DEFAULT_QUEUE_NAME = "membench";

/** Redis keys of the pool besides BullMQ's own. */
export const POOL_PREFIX = "membench:pool";

export interface UnitJobData {
  /** Payload format. */
  v: 1;
  /** The run's queue key (runKey). */
  run: string;
  unit: { id: string; system: string; episodeId: string };
  /** The run's config.json: all a worker needs to build the unit's systems and model. */
  config: RunSnapshot;
}

export interface UnitJobResult {
  v: 1;
  /** The worker that ran it (host:pid), for the log. */
  worker: string;
  /** The UnitResult as gzipped JSON in base64: probe records repeat long texts. */
  gzip: string;
}

/**
 * The run as the queue knows it: its id and a hash of the moment it was created
 * (to the millisecond, from config.json), so two runs that share an id (`--id`,
 * or one per second per benchmark on two machines) never share jobs, while
 * every resume of one run, from whatever path, finds its jobs.
 */
export function runKey(config: Pick<RunSnapshot, "id" | "createdAt">): string {
  const hash = createHash("sha256").update(config.createdAt).digest("hex").slice(0, 10);
  return `${config.id}.${hash}`;
}

/**
 * The config a job carries: the run's, with a scripted model's file made
 * absolute, so a worker started in another folder of the machine finds it.
 */
export function jobConfig(config: RunSnapshot, cwd = process.cwd()): RunSnapshot {
  const llm = config.options.llm;
  if (!llm?.startsWith("scripted:") || isAbsolute(llm.slice("scripted:".length))) return config;
  return { ...config, options: { ...config.options, llm: `scripted:${resolve(cwd, llm.slice("scripted:".length))}` } };
}

/** BullMQ job ids may not contain ":"; both parts are URI-encoded, so the id is unambiguous. */
export function jobId(run: string, unitId: string): string {
  return `${encodeURIComponent(run)}/${encodeURIComponent(unitId)}`;
}

export function encodeResult(result: UnitResult, worker: string): UnitJobResult {
  return { v: 1, worker, gzip: gzipSync(JSON.stringify(result)).toString("base64") };
}

export function decodeResult(result: unknown): UnitResult {
  const r = result as Partial<UnitJobResult> | undefined;
  if (r?.v !== 1 || typeof r.gzip !== "string") {
    throw new Error(`a job result this membench cannot read (format ${JSON.stringify(r?.v)})`);
  }
  return JSON.parse(gunzipSync(Buffer.from(r.gzip, "base64")).toString("utf8")) as UnitResult;
}

/** The Redis list where workers leave each model call's usage for the coordinator to store. */
export function usageKey(run: string): string {
  return `${POOL_PREFIX}:usage:${run}`;
}
