/**
 * Progress of a generation on stderr, one stage at a time, in the runner's
 * style (a bar on a terminal, a line every few seconds otherwise), with the
 * model spend so far.
 */
import { type Progress, startProgress } from "../run/progress.ts";
import type { SynthProgress } from "./types.ts";

export function synthProgress(enabled: boolean, cost: () => string = () => "-"): SynthProgress {
  let current: Progress | undefined;
  return {
    stage(label, total, unit = "items") {
      current?.stop();
      current = startProgress(total, label, enabled, unit);
    },
    tick(n = 1) {
      current?.tick(n, cost());
    },
    done() {
      current?.stop();
      current = undefined;
    },
  };
}

/** Progress that shows nothing (library callers, tests). */
export const SILENT_PROGRESS: SynthProgress = { stage() {}, tick() {}, done() {} };
