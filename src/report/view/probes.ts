/**
 * The probe list of one run (each record joined with its score), its filters,
 * and the full drill-down of one probe.
 */
import type { Gold } from "../../core/model.ts";
import { type ProbeRecord, unitId } from "../../core/record.ts";
import type { ProbeScore } from "../../score/types.ts";
import { type EvidenceTurn, goldFor, type MarkedItem, markEvidence } from "./gold.ts";
import { probeKey, type RunData } from "./runs.ts";
import {
  type FailureStage,
  failureStage,
  type Outcome,
  outcomeOf,
  retrievalHit,
  retrievalK,
  type VerdictMetric,
} from "./verdict.ts";

export interface ProbeRow {
  key: string;
  system: string;
  setting: string;
  episodeId: string;
  probeId: string;
  question: string;
  labels: Record<string, string>;
  status: ProbeRecord["status"];
  outcome: Outcome;
  metric?: string;
  value?: number;
  max?: number;
  retrieval: "hit" | "miss" | "none";
  stage?: FailureStage;
  overridden: boolean;
  judgeFailures: number;
}

const scoreKey = (system: string, episodeId: string, probeId: string, setting: string) =>
  `${unitId(system, episodeId)}\u0000${probeId}\u0000${setting}`;

export function scoreIndex(scores: readonly ProbeScore[]): Map<string, ProbeScore> {
  return new Map(scores.map((s) => [scoreKey(s.system, s.episodeId, s.probeId, s.setting), s]));
}

export function scoreOf(index: ReadonlyMap<string, ProbeScore>, r: ProbeRecord): ProbeScore | undefined {
  return index.get(scoreKey(r.system, r.episodeId, r.probeId, r.setting));
}

export function answerDepthOf(run: RunData): number | undefined {
  return run.config.protocol?.answerDepth ?? run.config.protocol?.depth;
}

export function probeRow(run: RunData, record: ProbeRecord, score: ProbeScore | undefined): ProbeRow {
  const { outcome, verdict, value } = outcomeOf(score);
  const hit = retrievalHit(record, answerDepthOf(run));
  return {
    key: probeKey(record),
    system: record.system,
    setting: record.setting,
    episodeId: record.episodeId,
    probeId: record.probeId,
    question: record.question,
    labels: record.labels,
    status: record.status,
    outcome,
    metric: verdict?.metric,
    value,
    max: verdict?.max,
    retrieval: hit === undefined ? "none" : hit ? "hit" : "miss",
    stage: failureStage(record, score, hit),
    overridden: Boolean(verdict && score?.overrides?.[verdict.metric]),
    judgeFailures: score?.judgeFailures ?? 0,
  };
}

export function probeRows(run: RunData): ProbeRow[] {
  const index = scoreIndex(run.scores);
  return run.records.map((r) => probeRow(run, r, scoreOf(index, r)));
}

export interface ProbeFilter {
  system?: string;
  setting?: string;
  outcome?: string;
  retrieval?: string;
  stage?: string;
  /** Case-insensitive text in the question or the probe id. */
  text?: string;
  labels: Record<string, string>;
}

/** `?system=&setting=&outcome=&retrieval=&stage=&text=&label.<key>=<value>`; empty values mean no filter. */
export function parseFilter(params: URLSearchParams): ProbeFilter {
  const get = (name: string) => params.get(name) || undefined;
  const labels: Record<string, string> = {};
  for (const [name, value] of params) if (name.startsWith("label.") && value) labels[name.slice(6)] = value;
  return {
    system: get("system"),
    setting: get("setting"),
    outcome: get("outcome"),
    retrieval: get("retrieval"),
    stage: get("stage"),
    text: get("text")?.toLowerCase(),
    labels,
  };
}

export function filterRows(rows: readonly ProbeRow[], f: ProbeFilter): ProbeRow[] {
  return rows.filter(
    (r) =>
      (!f.system || r.system === f.system) &&
      (!f.setting || r.setting === f.setting) &&
      (!f.outcome || r.outcome === f.outcome) &&
      (!f.retrieval || r.retrieval === f.retrieval) &&
      (!f.stage || (f.stage === "none" ? r.stage === undefined : r.stage === f.stage)) &&
      (!f.text || r.question.toLowerCase().includes(f.text) || r.probeId.toLowerCase().includes(f.text)) &&
      Object.entries(f.labels).every(([k, v]) => r.labels[k] === v),
  );
}

/** Sort keys of the probe list: a column, or `label.<key>`. */
export const SORT_KEYS = ["probe", "system", "setting", "verdict", "value", "retrieval", "stage"] as const;

const OUTCOME_ORDER: Record<string, number> = { incorrect: 0, correct: 1, unscored: 2 };

/** Natural order ("q2" before "q10"); a missing value sorts last either way. */
const collator = new Intl.Collator("en", { numeric: true });

function sortValue(row: ProbeRow, key: string): string | number | undefined {
  if (key.startsWith("label.")) return row.labels[key.slice(6)];
  switch (key) {
    case "probe":
      return `${row.episodeId}\u0000${row.probeId}`;
    case "system":
      return row.system;
    case "setting":
      return row.setting;
    case "verdict":
      return OUTCOME_ORDER[row.outcome];
    case "value":
      return row.value;
    case "retrieval":
      return row.retrieval;
    case "stage":
      return row.stage;
    default:
      return undefined;
  }
}

/**
 * The rows in the order asked for (`sort`, `desc`); ties keep the run's order.
 * Rows without the value (no label, no score) go last in both directions.
 */
export function sortRows(rows: readonly ProbeRow[], sort: string | undefined, desc: boolean): ProbeRow[] {
  if (!sort) return desc ? [...rows].reverse() : [...rows];
  const keyed = rows.map((row, i) => ({ row, i, v: sortValue(row, sort) }));
  keyed.sort((a, b) => {
    if (a.v === undefined || b.v === undefined) return a.v === b.v ? a.i - b.i : a.v === undefined ? 1 : -1;
    const c =
      typeof a.v === "number" && typeof b.v === "number" ? a.v - b.v : collator.compare(String(a.v), String(b.v));
    return (desc ? -c : c) || a.i - b.i;
  });
  return keyed.map((k) => k.row);
}

/** Every label key of the run's probes with its values, for the filter menus. */
export function labelValues(rows: readonly ProbeRow[]): Record<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const r of rows) {
    for (const [k, v] of Object.entries(r.labels)) {
      const set = out.get(k) ?? new Set<string>();
      set.add(v);
      out.set(k, set);
    }
  }
  return Object.fromEntries([...out].sort(([a], [b]) => a.localeCompare(b)).map(([k, s]) => [k, [...s].sort()]));
}

export interface ProbeDetail {
  row: ProbeRow;
  record: Omit<ProbeRecord, "retrieved">;
  retrieved: MarkedItem[];
  retrievalK?: number;
  score?: ProbeScore;
  verdict?: VerdictMetric & {
    value: number;
    correct: boolean;
    override?: NonNullable<ProbeScore["overrides"]>[string];
  };
  gold?: Gold;
  goldError?: string;
  evidenceTurns: EvidenceTurn[];
}

export function findRecord(
  run: RunData,
  key: { unitId: string; probeId: string; setting: string },
): ProbeRecord | undefined {
  return run.records.find((r) => r.unitId === key.unitId && r.probeId === key.probeId && r.setting === key.setting);
}

export async function probeDetail(run: RunData, record: ProbeRecord): Promise<ProbeDetail> {
  const score = scoreOf(scoreIndex(run.scores), record);
  const row = probeRow(run, record, score);
  const { outcome, verdict, value } = outcomeOf(score);
  const gold = await goldFor(run, record.episodeId, record.probeId);
  const { retrieved, ...rest } = record;
  return {
    row,
    record: rest,
    retrieved: markEvidence(retrieved, gold.gold, gold.evidenceTurns),
    retrievalK: retrievalK(record, answerDepthOf(run)),
    score,
    verdict:
      verdict && value !== undefined
        ? { ...verdict, value, correct: outcome === "correct", override: score?.overrides?.[verdict.metric] }
        : undefined,
    gold: gold.gold,
    goldError: gold.goldError,
    evidenceTurns: gold.evidenceTurns,
  };
}
