/**
 * Two runs side by side: `membench compare`'s alignment and statistics
 * (src/report/compare.ts), with each changed probe's keys added so the page
 * can link it to its drill-down in both runs.
 */
import { ConfigError } from "../../core/errors.ts";
import { SETTINGS, type Setting, unitId } from "../../core/record.ts";
import { type Comparison, compareRuns } from "../compare.ts";
import { probeKey, type RunEntry } from "./runs.ts";

type Changed = Comparison["changed"][number];

export type ViewComparison = Omit<Comparison, "changed"> & {
  changed: Array<Changed & { keyA: string; keyB: string }>;
};

export interface DiffQuery {
  systemA?: string;
  systemB?: string;
  setting?: string;
}

export function diffRuns(a: RunEntry, b: RunEntry, query: DiffQuery = {}): ViewComparison[] {
  const setting = query.setting || undefined;
  if (setting !== undefined && !SETTINGS.includes(setting as Setting)) {
    throw new ConfigError(`expected one of ${SETTINGS.join(", ")}, got "${setting}"`, "setting");
  }
  const comparisons = compareRuns(a.dir, b.dir, {
    systemA: query.systemA || undefined,
    systemB: query.systemB || undefined,
    setting: setting as Setting | undefined,
  });
  const key = (system: string, p: Changed) =>
    probeKey({ unitId: unitId(system, p.episodeId), probeId: p.probeId, setting: p.setting });
  return comparisons.map((c) => ({
    ...c,
    changed: c.changed.map((p) => ({ ...p, keyA: key(c.a.system, p), keyB: key(c.b.system, p) })),
  }));
}
