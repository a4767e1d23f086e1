/**
 * The shape every renderer (markdown, HTML) reads: per benchmark, the paper's
 * tables with reported rows beside ours, the retrieval table, cost and
 * latency, and what was skipped. Numbers carry their n and 95% CI.
 */
import type { Setting } from "../core/record.ts";
import type { ByGroupLayout } from "../score/types.ts";
import type { Headline } from "./headline.ts";

export interface Cell {
  value: number | null;
  n?: number;
  ci?: [number, number];
}

export interface TableRow {
  kind: "reported" | "ours";
  system: string;
  group?: string;
  /** Reported rows: the paper's answer model and setting, when it has several. Ours: the run id when several runs. */
  tag?: string;
  setting?: Setting;
  cells: Record<string, Cell>;
  note?: string;
}

export interface LayoutTable {
  id: string;
  title: string;
  columns: string[];
  /** Headers for column keys the paper names differently. */
  columnTitles: Record<string, string>;
  rows: TableRow[];
  notes: string[];
  /** Where the reported rows come from. */
  sources: string[];
  /** Decimal places for the numbers of this table. */
  digits: number;
  /** Printed pivoted, one row per group, as the paper does (see PaperTable.byGroup). */
  byGroup?: ByGroupLayout;
}

export interface StageLatency {
  p50: number;
  p95: number;
  n: number;
}

export interface CostRow {
  run: string;
  system: string;
  setting: Setting;
  n: number;
  search?: StageLatency;
  answer?: StageLatency;
  ingest?: StageLatency;
  /** Wall time of all ingest calls of the system in this run, seconds. */
  ingestSeconds?: number;
  contextTokens?: number;
  answerCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** USD for uncached answer calls at the run's price; null when no price was given. */
  costUsd: number | null;
}

export interface UsageRow {
  run: string;
  phase: "answers" | "judging";
  role: string;
  calls: number;
  cachedCalls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  unpricedModels: string[];
}

export interface SkipLine {
  run: string;
  system?: string;
  setting?: Setting;
  stage: string;
  reason: string;
  /** How many probes, when the line counts probes. */
  count?: number;
  /** The `system/setting` rows the line stands for, when several share it. */
  rows?: string[];
}

export interface RunMeta {
  id: string;
  dir: string;
  benchmark: string;
  variant?: string;
  data: string;
  systems: string[];
  settings: Setting[];
  createdAt?: string;
  model: string;
  scoring?: string;
}

export interface BenchmarkSection {
  benchmark: string;
  title: string;
  runs: RunMeta[];
  headline?: Headline;
  /** The retrieval headline for rows without the scored one (an unscored run beside a scored run), when there are such rows. */
  retrievalHeadline?: Headline;
  tables: LayoutTable[];
  /** Retrieval from provenance, one table per metric family (recall, nDCG, provenance hits and staleness). */
  retrieval: LayoutTable[];
  cost: CostRow[];
  usage: UsageRow[];
  skipped: SkipLine[];
}
