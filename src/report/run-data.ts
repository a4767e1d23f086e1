/**
 * Everything a report needs from one run directory, read once and never
 * written: the config snapshot, the summary rebuilt in memory from the store
 * (scores and manual overrides included), the probe records, the units and the
 * per-probe scores.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ConfigError } from "../core/errors.ts";
import type { ProbeRecord, Setting, UnitInfo } from "../core/record.ts";
import { computeSummary, SCORING_FILE, type ScoredRow, type ScoringInfo } from "../run/score-run.ts";
import { STORE_FILE } from "../run/store.ts";
import type { Summary } from "../run/summary.ts";
import type { ProbeScore } from "../score/types.ts";

/** The part of config.json a report reads. */
export interface RunConfigInfo {
  id: string;
  benchmark: string;
  variant?: string;
  data: string;
  systems: string[];
  settings: Setting[];
  createdAt?: string;
  membench?: string;
  gitCommit?: string;
  /** The answer model spec (`openai:MODEL`, `scripted:FILE`), when given. */
  llm?: string;
  model: { configured: boolean; detail: string };
  price?: { inputPerMTok: number; outputPerMTok: number };
  protocol?: { depth?: number; answerDepth?: number; ks?: number[]; contextTokens?: number };
}

export interface RunData {
  dir: string;
  config: RunConfigInfo;
  summary: Omit<Summary, "results"> & { results: ScoredRow[] };
  records: ProbeRecord[];
  units: UnitInfo[];
  scores: ProbeScore[];
  scoring?: ScoringInfo;
}

interface RawConfig {
  id?: string;
  variant?: string | null;
  createdAt?: string;
  membench?: string;
  gitCommit?: string;
  options?: {
    benchmark?: string;
    data?: string;
    systems?: string[];
    settings?: Setting[];
    llm?: string;
    price?: RunConfigInfo["price"];
  };
  model?: { configured?: boolean; detail?: string };
  protocol?: RunConfigInfo["protocol"];
}

function readJson<T>(path: string, what: string): T {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as T;
  } catch (error) {
    throw new ConfigError(`cannot read ${what} ${path}: ${(error as Error).message}`, "runDir");
  }
}

export function readRunConfig(dir: string): RunConfigInfo {
  const path = join(dir, "config.json");
  if (!existsSync(path)) throw new ConfigError(`no config.json in ${dir}: not a run directory`, "runDir");
  const raw = readJson<RawConfig>(path, "run config");
  const o = raw.options ?? {};
  if (!o.benchmark || !o.systems || !o.settings) {
    throw new ConfigError(`${path} lacks options.benchmark, options.systems or options.settings`, "runDir");
  }
  return {
    id: raw.id ?? basename(dir),
    benchmark: o.benchmark,
    variant: raw.variant ?? undefined,
    data: o.data ?? "",
    systems: o.systems,
    settings: o.settings,
    createdAt: raw.createdAt,
    membench: raw.membench,
    gitCommit: raw.gitCommit,
    llm: o.llm,
    model: { configured: Boolean(raw.model?.configured), detail: raw.model?.detail ?? "" },
    price: o.price,
    protocol: raw.protocol,
  };
}

/**
 * Loads a run directory, reading only: the summary is rebuilt in memory from
 * the store (so overrides made since are in) and nothing is written, so a
 * read-only run folder reports as well as any (`membench score` writes
 * summary.json).
 */
export function loadRun(dir: string): RunData {
  const abs = resolve(dir);
  const config = readRunConfig(abs);
  if (!existsSync(join(abs, STORE_FILE))) throw new ConfigError(`no ${STORE_FILE} in ${abs}`, "runDir");
  const { summary, scores, records, units } = computeSummary(abs);
  const scoring = readScoringInfo(abs);
  return {
    dir: abs,
    config,
    summary: summary as RunData["summary"],
    records,
    units,
    scores,
    scoring,
  };
}

/** How the run was last scored (judges, prompt set, options), when it was. */
export function readScoringInfo(dir: string): ScoringInfo | undefined {
  const path = join(dir, SCORING_FILE);
  return existsSync(path) ? readJson<ScoringInfo>(path, "scoring info") : undefined;
}

/** `system` or `system (setting)`: how a row is named in every table and chart. */
export function rowName(system: string, setting: Setting): string {
  return setting === "default" ? system : `${system} (${setting})`;
}

/** Key that aligns a probe across settings and runs. */
export function probeKey(x: { episodeId: string; probeId: string }): string {
  return `${x.episodeId}\u0000${x.probeId}`;
}

/** The answer model's name as the run recorded it: `openai:NAME`, the resolved model, or `scripted`. */
export function answerModelName(config: RunConfigInfo): string {
  if (config.llm?.startsWith("openai:")) return config.llm.slice("openai:".length);
  if (config.llm?.startsWith("scripted")) return "scripted";
  const m = /^model (\S+) at /.exec(config.model.detail);
  return m?.[1] ?? (config.model.configured ? "unknown" : "none");
}
