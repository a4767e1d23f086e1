/**
 * Turns the judge verdicts a scored run stored into one label per judge and
 * judged item, the input of `membench judge-agreement <runDir>`.
 *
 * An item is one field of one judged part of one probe, in one system/setting
 * (the group): `<episode>/<probe>[/<part>]/<field>`, where the part is what a
 * scorer judged separately (a Memora criterion, RealMem's qa and memory calls)
 * and the field one value of the verdict other than `reason` (`label`,
 * `correct`, `answer`, `score`, `aa`, …). A judge's label is its majority over
 * its `--judge-runs` samples. A failed verdict (endpoint failure or unparsable reply) gives no
 * label (the item is left out of that judge's pairs, never counted as a
 * label), and neither does a tie between a judge's samples.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError } from "../core/errors.ts";
import { type AgreementRow, pairwiseAgreement } from "../score/agreement.ts";
import { type LabelTable, writeLabelsCsv } from "../score/labels-csv.ts";
import type { ProbeScore } from "../score/types.ts";
import { SCORING_FILE, type ScoringInfo } from "./score-run.ts";
import { RunStore, STORE_FILE } from "./store.ts";

export interface RunLabels {
  table: LabelTable;
  /** Per judge: failed verdicts, whatever the cause (they give no label). */
  failed: Record<string, number>;
  /** Per judge: items whose samples tied, so the judge has no label there. */
  tied: Record<string, number>;
}

type Scored = Pick<ProbeScore, "system" | "setting" | "episodeId" | "probeId" | "verdicts">;

function labelOf(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "string") return value.trim() || undefined;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) {
    const sortable = value.every((v) => typeof v === "number") || value.every((v) => typeof v === "string");
    const sorted = sortable ? [...value].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)) : value;
    return JSON.stringify(sorted);
  }
  return JSON.stringify(value);
}

/** Each labelled field of a verdict value; a bare value is the field `value`. */
export function verdictLabels(value: unknown): Array<[field: string, label: string]> {
  const fields =
    typeof value === "object" && value !== null && !Array.isArray(value)
      ? Object.entries(value as Record<string, unknown>).filter(([k]) => k !== "reason")
      : [["value", value] as const];
  return fields.flatMap(([field, v]) => {
    const label = labelOf(v);
    return label === undefined ? [] : [[field, label] as [string, string]];
  });
}

/** The most frequent label; undefined on a tie or with none. */
export function sampleMajority(labels: readonly string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const l of labels) counts.set(l, (counts.get(l) ?? 0) + 1);
  const ranked = [...counts].sort((x, y) => y[1] - x[1]);
  if (!ranked.length || (ranked.length > 1 && ranked[0]![1] === ranked[1]![1])) return undefined;
  return ranked[0]![0];
}

/**
 * Labels of every judge on every item the scores' verdicts cover. Judges come
 * in `order` first, then as they first appear.
 */
export function judgeLabels(scores: readonly Scored[], order: readonly string[] = []): RunLabels {
  const judges = [...order];
  const failed: Record<string, number> = {};
  // group + id → judge → the labels of its samples
  const items = new Map<string, { id: string; group: string; votes: Map<string, string[]> }>();
  for (const s of scores) {
    const group = `${s.system}/${s.setting}`;
    for (const v of s.verdicts) {
      if (!judges.includes(v.judge)) judges.push(v.judge);
      if (!v.ok) {
        failed[v.judge] = (failed[v.judge] ?? 0) + 1;
        continue;
      }
      const base = `${s.episodeId}/${s.probeId}${v.part !== undefined ? `/${v.part}` : ""}`;
      for (const [field, label] of verdictLabels(v.value)) {
        const id = `${base}/${field}`;
        const key = `${group}\u0000${id}`;
        let item = items.get(key);
        if (!item) {
          item = { id, group, votes: new Map() };
          items.set(key, item);
        }
        item.votes.set(v.judge, [...(item.votes.get(v.judge) ?? []), label]);
      }
    }
  }
  const tied: Record<string, number> = {};
  const table: LabelTable = {
    raters: judges,
    items: [...items.values()].map((item) => ({
      id: item.id,
      group: item.group,
      labels: judges.map((judge) => {
        const votes = item.votes.get(judge);
        if (!votes) return undefined;
        const label = sampleMajority(votes);
        if (label === undefined) tied[judge] = (tied[judge] ?? 0) + 1;
        return label;
      }),
    })),
  };
  return { table, failed, tied };
}

function scoringJudges(dir: string): string[] {
  try {
    return (JSON.parse(readFileSync(join(dir, SCORING_FILE), "utf8")) as ScoringInfo).judges ?? [];
  } catch {
    return [];
  }
}

/**
 * The judge labels of a scored run. Refuses a run without judge verdicts and
 * one whose verdicts all come from a single judge, saying how to get more.
 */
export function readRunLabels(dir: string): RunLabels {
  const path = join(dir, STORE_FILE);
  if (!existsSync(path)) throw new ConfigError(`no ${STORE_FILE} in ${dir}: nothing was recorded`, "runDir");
  const store = RunStore.readOnly(path);
  let scores: ProbeScore[];
  try {
    scores = store.scores<ProbeScore>();
  } finally {
    store.close();
  }
  const found = [...new Set(scores.flatMap((s) => s.verdicts.map((v) => v.judge)))];
  const order = scoringJudges(dir).filter((j) => found.includes(j));
  const rescore = `re-score it with two or more judges: membench score ${dir} --judges a,b`;
  if (!found.length) {
    throw new ConfigError(
      `${dir} has no judge verdicts (${scores.length ? "its scoring called no judge" : "it has not been scored"}); ${rescore}`,
      "runDir",
    );
  }
  if (found.length === 1) {
    throw new ConfigError(
      `only one judge (${found[0]}) gave verdicts in ${dir}: agreement needs two; ${rescore}`,
      "runDir",
    );
  }
  return judgeLabels(scores, order);
}

export interface RunAgreement extends RunLabels {
  rows: AgreementRow[];
}

/**
 * `membench judge-agreement <runDir>`: κ between the judges of a scored run,
 * per system/setting, from their stored verdicts; `csv` also writes the labels
 * in the layout `judgeAgreement` reads.
 */
export function runJudgeAgreement(dir: string, options: { csv?: string } = {}): RunAgreement {
  const labels = readRunLabels(dir);
  if (options.csv) writeLabelsCsv(options.csv, labels.table);
  return { ...labels, rows: pairwiseAgreement(labels.table) };
}
