/**
 * The runs a viewer serves: the run directories directly under one folder (or
 * that folder itself when it is a run). A run id from a request is only ever
 * looked up in this listing, never joined onto a path, so no request can reach
 * a file outside the runs folder.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { ProbeRecord } from "../../core/record.ts";
import type { RunSnapshot } from "../../run/runner.ts";
import { applyOverrides } from "../../run/score-run.ts";
import { type Override, RunStore, STORE_FILE } from "../../run/store.ts";
import type { Summary } from "../../run/summary.ts";
import type { ProbeScore } from "../../score/types.ts";

export interface RunEntry {
  id: string;
  dir: string;
}

export interface RunData extends RunEntry {
  config: RunSnapshot;
  summary?: Summary;
  records: ProbeRecord[];
  /** Stored scores as the scorer wrote them. */
  rawScores: ProbeScore[];
  /** The same with people's overrides applied (`overrides` on each corrected score). */
  scores: ProbeScore[];
  overrides: Override[];
}

const isRunDir = (dir: string) => existsSync(join(dir, "config.json"));

export function listRuns(runsDir: string): RunEntry[] {
  const root = resolve(runsDir);
  if (isRunDir(root)) return [{ id: basename(root), dir: root }];
  if (!existsSync(root)) return [];
  return readdirSync(root, { withFileTypes: true })
    .filter((d) => d.isDirectory() && isRunDir(join(root, d.name)))
    .map((d) => ({ id: d.name, dir: join(root, d.name) }))
    .sort((a, b) => a.id.localeCompare(b.id));
}

export function findRun(runsDir: string, id: string): RunEntry | undefined {
  return listRuns(runsDir).find((r) => r.id === id);
}

function readJson<T>(path: string): T | undefined {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch {
    return undefined;
  }
}

/** config.json and summary.json only: enough for the runs list, without opening the store. */
export function readRunHead(entry: RunEntry): { config?: RunSnapshot; summary?: Summary } {
  return {
    config: readJson<RunSnapshot>(join(entry.dir, "config.json")),
    summary: readJson<Summary>(join(entry.dir, "summary.json")),
  };
}

/** Changes whenever the store, its write-ahead log or the summary is written. */
function fingerprint(dir: string): string {
  return [STORE_FILE, `${STORE_FILE}-wal`, "summary.json"]
    .map((f) => {
      try {
        const s = statSync(join(dir, f));
        return `${s.mtimeMs}:${s.size}`;
      } catch {
        return "-";
      }
    })
    .join("|");
}

const cache = new Map<string, { stamp: string; data: RunData }>();

/** Everything the viewer shows of one run; re-read only when the run changed on disk. */
export function loadRun(entry: RunEntry): RunData {
  const stamp = fingerprint(entry.dir);
  const hit = cache.get(entry.dir);
  if (hit && hit.stamp === stamp) return hit.data;
  const config = readJson<RunSnapshot>(join(entry.dir, "config.json"));
  if (!config) throw new Error(`${entry.id}: config.json cannot be read`);
  let records: ProbeRecord[] = [];
  let rawScores: ProbeScore[] = [];
  let overrides: Override[] = [];
  if (existsSync(join(entry.dir, STORE_FILE))) {
    const store = RunStore.readOnly(join(entry.dir, STORE_FILE));
    try {
      records = store.records();
      rawScores = store.scores<ProbeScore>();
      overrides = store.overrides();
    } finally {
      store.close();
    }
  }
  const scores = structuredClone(rawScores);
  applyOverrides(scores, overrides);
  const data: RunData = {
    ...entry,
    config,
    summary: readJson<Summary>(join(entry.dir, "summary.json")),
    records,
    rawScores,
    scores,
    overrides,
  };
  // Opening the store may touch its files; stamp after, so the next request hits the cache.
  cache.set(entry.dir, { stamp: fingerprint(entry.dir), data });
  return data;
}

export function forgetRun(dir: string): void {
  cache.delete(dir);
}

/** An opaque, URL-safe key of one probe record. */
export function probeKey(r: Pick<ProbeRecord, "unitId" | "probeId" | "setting">): string {
  return Buffer.from(JSON.stringify([r.unitId, r.probeId, r.setting])).toString("base64url");
}

export function parseProbeKey(key: string): { unitId: string; probeId: string; setting: string } | undefined {
  try {
    const value = JSON.parse(Buffer.from(key, "base64url").toString("utf8")) as unknown;
    if (!Array.isArray(value) || value.length !== 3 || !value.every((v) => typeof v === "string")) return undefined;
    const [unitId, probeId, setting] = value as [string, string, string];
    return { unitId, probeId, setting };
  } catch {
    return undefined;
  }
}
