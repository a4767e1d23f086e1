/**
 * A person's correction of one probe's verdict: stored in the run (so exports
 * and re-scores carry it) and folded into summary.json straight away.
 */
import { join } from "node:path";
import { RunStore, STORE_FILE } from "../../run/store.ts";
import { summarizeRun } from "../../score/score-run.ts";
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

function withStore<T>(run: RunData, fn: (store: RunStore) => T): T {
  const store = new RunStore(join(run.dir, STORE_FILE));
  try {
    return fn(store);
  } finally {
    store.close();
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
  summarizeRun(run.dir);
}

/** Removes every override of the probe, then rebuilds summary.json. */
export function clearVerdictOverride(run: RunData, key: Key): void {
  target(run, key);
  withStore(run, (store) => {
    for (const o of store.overrides()) {
      if (o.unitId === key.unitId && o.probeId === key.probeId && o.setting === key.setting) store.clearOverride(o);
    }
  });
  summarizeRun(run.dir);
}
