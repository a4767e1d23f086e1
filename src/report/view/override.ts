/**
 * A person's correction of one probe's verdict: stored in the run (so exports
 * and re-scores carry it) and folded into summary.json straight away. The one
 * place the viewer writes; on a run it cannot write (an archive, another
 * user's) overrides are refused with the reason, and everything else works.
 */
import { accessSync, constants, existsSync } from "node:fs";
import { join } from "node:path";
import { summarizeRun } from "../../run/score-run.ts";
import { RunStore, STORE_FILE } from "../../run/store.ts";
import { findRecord, scoreIndex, scoreOf } from "./probes.ts";
import { forgetRun, type RunData } from "./runs.ts";
import { companionValues, verdictMetricOf } from "./verdict.ts";

export class OverrideError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "OverrideError";
  }
}

type Key = { unitId: string; probeId: string; setting: string };

const MAX_COMMENT = 2000;

function target(run: RunData, key: Key) {
  const record = findRecord(run, key);
  if (!record) throw new OverrideError("no such probe in this run", 404);
  // The scorer's own values decide which metric is the verdict and what its companions are.
  const raw = scoreOf(scoreIndex(run.rawScores), record);
  const verdict = verdictMetricOf(raw?.metrics, raw?.labels);
  if (!raw || !verdict) {
    throw new OverrideError("this probe has no scored verdict to override (score the run first: membench score)", 409);
  }
  return { raw, verdict };
}

/** What an override writes: the run's folder, its store (with WAL files) and summary.json. */
const WRITTEN = [STORE_FILE, `${STORE_FILE}-wal`, `${STORE_FILE}-shm`, "summary.json"];

/** Why overrides cannot be saved in this run, or undefined when they can. */
export function overridesUnavailable(dir: string): string | undefined {
  const paths = [dir, ...WRITTEN.map((f) => join(dir, f)).filter((p) => existsSync(p))];
  for (const path of paths) {
    try {
      accessSync(path, constants.W_OK);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "not writable";
      return `overrides are unavailable: this run is read-only (${path}: ${code})`;
    }
  }
  return undefined;
}

/** A write the file system or SQLite refused: the run is read-only after all (a read-only mount, say). */
function refusedWrite(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? "");
  return /^(EACCES|EPERM|EROFS|SQLITE_READONLY|SQLITE_CANTOPEN)/.test(code);
}

/** Runs `fn` on the run's store opened for writing, then rebuilds summary.json; refused on a read-only run. */
function withStore<T>(run: RunData, fn: (store: RunStore) => T): T {
  const why = overridesUnavailable(run.dir);
  if (why) throw new OverrideError(why, 409);
  let store: RunStore | undefined;
  try {
    store = new RunStore(join(run.dir, STORE_FILE));
    const out = fn(store);
    store.close();
    summarizeRun(run.dir);
    return out;
  } catch (error) {
    if (refusedWrite(error)) {
      throw new OverrideError(`overrides are unavailable: this run is read-only (${(error as Error).message})`, 409);
    }
    throw error;
  } finally {
    store?.close();
    forgetRun(run.dir);
  }
}

/** Sets the verdict metric (and what the scorer derives from it) to `value`, then rebuilds summary.json. */
export function setVerdictOverride(run: RunData, key: Key, value: unknown, comment: unknown): void {
  const { raw, verdict } = target(run, key);
  if (typeof value !== "number" || !Number.isFinite(value) || value < verdict.min || value > verdict.max) {
    throw new OverrideError(`value must be a number from ${verdict.min} to ${verdict.max} (${verdict.metric})`, 400);
  }
  if (typeof comment !== "string" || !comment.trim()) {
    throw new OverrideError("a comment is required: say why the verdict is overridden", 400);
  }
  if (comment.length > MAX_COMMENT)
    throw new OverrideError(`the comment is longer than ${MAX_COMMENT} characters`, 400);
  const at = new Date().toISOString();
  const values = { [verdict.metric]: value, ...companionValues(verdict.metric, value, raw.metrics) };
  withStore(run, (store) => {
    for (const [metric, v] of Object.entries(values)) {
      store.setOverride({ ...key, metric, value: v, comment: comment.trim(), at });
    }
  });
}

/** Removes every override of the probe, then rebuilds summary.json. */
export function clearVerdictOverride(run: RunData, key: Key): void {
  target(run, key);
  withStore(run, (store) => {
    for (const o of store.overrides()) {
      if (o.unitId === key.unitId && o.probeId === key.probeId && o.setting === key.setting) store.clearOverride(o);
    }
  });
}
