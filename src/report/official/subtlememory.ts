/**
 * SubtleMemory's leaderboard file (`site/public/data/leaderboard.json` of
 * github.com/Yummytanmo/SubtleMemory, the data behind the project page and
 * arXiv 2606.05761 Tables 1 and 13): `{generatedAt, metricLabels, rows}`, one
 * row per table × answer model × method × setting with accuracy in % per
 * relation type and subtype, so our rows drop into the project page's data.
 */
import { PAPER_COLUMNS, paperCells } from "../../benchmarks/subtlememory/score.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Setting } from "../../core/record.ts";
import { answerModelName, type RunData } from "../run-data.ts";

/** Our table columns → the leaderboard's metric keys. */
export const LEADERBOARD_KEYS: Readonly<Record<(typeof PAPER_COLUMNS)[number], string>> = {
  All: "all",
  Comp: "complementary",
  ME: "multiEvidence",
  AO: "anyOne",
  Nu: "nuanced",
  Temp: "temporal",
  Ctx: "contextual",
  Contr: "contradictory",
};

const METRIC_LABELS: Record<string, string> = {
  all: "All",
  complementary: "Complementary",
  multiEvidence: "Multi-evidence",
  anyOne: "Any-one",
  nuanced: "Nuanced",
  temporal: "Temporal",
  contextual: "Contextual",
  contradictory: "Contradictory",
};

const SETTING_NAMES: Record<Setting, string> = {
  default: "default_api",
  oracle: "oracle_context",
  perfect: "perfect_retrieval",
};

export interface LeaderboardRow {
  id: string;
  table: string;
  model: string;
  method: string;
  methodLabel: string;
  setting: string;
  category: string;
  metricValues: Record<string, number | null>;
  /** Questions scored per metric (not in the original file; ignored by its readers). */
  n: Record<string, number>;
}

export interface Leaderboard {
  generatedAt: string;
  metricLabels: Record<string, string>;
  rows: LeaderboardRow[];
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

export function subtlememoryLeaderboard(run: RunData, generatedAt = new Date()): Leaderboard {
  if (run.config.benchmark !== "subtlememory") {
    throw new ConfigError(`run ${run.config.id} is ${run.config.benchmark}, not subtlememory`, "format", "--format");
  }
  const model = answerModelName(run.config);
  const rows: LeaderboardRow[] = [];
  for (const result of run.summary.results) {
    const scores = run.scores.filter(
      (s) => s.system === result.system && s.setting === result.setting && s.metrics.accuracy !== undefined,
    );
    if (!scores.length) continue;
    const { cells, n } = paperCells(scores);
    const table = result.setting === "perfect" ? `perfect_retrieval_${model.replace(/-/g, "")}` : "main_table";
    const setting = SETTING_NAMES[result.setting];
    const metricValues: Record<string, number | null> = {};
    const counts: Record<string, number> = {};
    for (const column of PAPER_COLUMNS) {
      const v = cells[column];
      metricValues[LEADERBOARD_KEYS[column]] = v === null || v === undefined ? null : Math.round(v * 100) / 100;
      counts[LEADERBOARD_KEYS[column]] = n[column] ?? 0;
    }
    rows.push({
      // As the release spells them: table, method and setting slugged, the model name as is.
      id: [slug(table), model, slug(result.system), slug(setting)].join("--"),
      table,
      model,
      method: result.system,
      methodLabel: `${result.system} (membench)`,
      setting,
      // The page leaves "Oracle reference" rows out when it marks each column's best system.
      category: result.setting === "oracle" ? "Oracle reference" : "membench",
      metricValues,
      n: counts,
    });
  }
  if (!rows.length) {
    throw new ConfigError(
      `run ${run.config.id} has no scored accuracy; score it with a judge first (membench score)`,
      "format",
      "--format",
    );
  }
  return { generatedAt: generatedAt.toISOString(), metricLabels: { ...METRIC_LABELS }, rows };
}
