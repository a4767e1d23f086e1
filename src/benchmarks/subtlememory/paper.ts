/**
 * The numbers SubtleMemory reports (Wang et al., 2026, arXiv 2606.05761:
 * Table 1, Table 13 and Figure 3), printed beside ours. The paper's text has
 * no table bodies; the cells are those of the project's
 * `site/public/data/{leaderboard,diagnostic_waterfall}.json` (commit be80b281),
 * which match every number the paper's text quotes. Accuracy in % as
 * published; cells keyed like our tables' columns (`PAPER_COLUMNS` in
 * score.ts) and the waterfall like our metric names. Judge: Gemini 3.1 Pro
 * Preview Thinking, strong answer prompt.
 */
import type { Setting } from "../../core/record.ts";
import { type Citation, citationText, cite } from "../shared/citation.ts";

export const SUBTLEMEMORY_PAPER = { work: "SubtleMemory (Wang et al., 2026)", arxiv: "2606.05761" } as const;

const cited = (where: string) => {
  const citation = cite(SUBTLEMEMORY_PAPER, where);
  return { source: citationText(citation), citation };
};

export interface ReportedRow {
  system: string;
  group: "Standalone" | "Native agent" | "Plugin" | "Reference";
  cells: Record<string, number>;
}

export interface ReportedTable {
  /** The id of our table with the same layout, or `subtlememory-waterfall` for the cross-setting metrics. */
  id: string;
  source: string;
  citation: Citation;
  answerModel: string;
  setting: Setting;
  unit: "%";
  columns: readonly string[];
  rows: ReportedRow[];
}

const COLUMNS = ["ME", "AO", "Comp", "Temp", "Ctx", "Nu", "Contr", "All"] as const;

function row(system: string, group: ReportedRow["group"], values: readonly number[]): ReportedRow {
  return { system, group, cells: Object.fromEntries(COLUMNS.map((c, i) => [c, values[i] as number])) };
}

export const subtlememoryTable1Gpt54: ReportedTable = {
  id: "subtlememory-main",
  ...cited("Table 1 (answer model gpt-5.4, default setting)"),
  answerModel: "gpt-5.4",
  setting: "default",
  unit: "%",
  columns: COLUMNS,
  rows: [
    row("Mem0", "Standalone", [61.14, 61.33, 61.22, 81.31, 85.82, 83.55, 46.15, 68.99]),
    row("MemOS", "Standalone", [51.18, 58.0, 54.02, 70.2, 77.84, 73.98, 23.87, 56.83]),
    row("EverMemOS", "Standalone", [63.51, 66.67, 64.82, 81.82, 87.37, 84.57, 37.14, 68.13]),
    row("MIRIX", "Standalone", [47.87, 52.0, 49.58, 51.77, 69.33, 60.46, 14.59, 46.52]),
    row("A-Mem", "Standalone", [58.29, 61.33, 59.56, 83.08, 85.31, 84.18, 50.4, 69.97]),
    row("MemoBase", "Standalone", [26.54, 43.33, 33.52, 33.33, 44.59, 38.9, 16.71, 32.13]),
    row("OpenClaw", "Native agent", [62.56, 55.33, 59.56, 80.3, 82.99, 81.63, 25.46, 62.48]),
    row("MetaClaw", "Native agent", [15.64, 20.0, 17.45, 17.68, 26.8, 22.19, 19.1, 20.3]),
    row("Mem0 + OpenClaw", "Plugin", [70.14, 61.33, 66.48, 86.36, 85.31, 85.84, 45.62, 71.29]),
    row("MemOS + OpenClaw", "Plugin", [57.35, 66.67, 61.22, 67.68, 80.15, 73.85, 15.92, 56.5]),
    row("EverMemOS + OpenClaw", "Plugin", [66.82, 67.33, 67.04, 85.35, 89.69, 87.5, 32.63, 69.05]),
    row("Oracle", "Reference", [79.62, 87.33, 82.83, 95.45, 93.81, 94.64, 68.7, 85.41]),
  ],
};

export const subtlememoryTable1GptOss: ReportedTable = {
  id: "subtlememory-main",
  ...cited("Table 1 (answer model gpt-oss-120b, default setting)"),
  answerModel: "gpt-oss-120b",
  setting: "default",
  unit: "%",
  columns: COLUMNS,
  rows: [
    row("Mem0", "Standalone", [57.82, 58.67, 58.17, 80.05, 79.38, 79.72, 40.58, 64.91]),
    row("MemOS", "Standalone", [48.82, 58.67, 52.91, 66.92, 69.85, 68.37, 18.04, 52.23]),
    row("EverMemOS", "Standalone", [53.08, 60.67, 56.23, 75.51, 81.7, 78.57, 26.79, 60.45]),
    row("MIRIX", "Standalone", [38.86, 47.33, 42.38, 42.68, 61.34, 51.91, 12.2, 39.82]),
    row("A-Mem", "Standalone", [58.29, 52.0, 55.68, 80.3, 80.41, 80.36, 37.67, 63.93]),
    row("MemoBase", "Standalone", [16.11, 38.67, 25.48, 27.78, 37.37, 32.53, 10.08, 25.3]),
    row("OpenClaw", "Native agent", [46.45, 44.0, 45.43, 71.46, 69.85, 70.66, 20.69, 52.3]),
    row("MetaClaw", "Native agent", [10.9, 16.67, 13.3, 13.64, 21.13, 17.35, 14.06, 15.57]),
    row("Mem0 + OpenClaw", "Plugin", [60.19, 57.33, 59.0, 72.22, 80.41, 76.28, 38.99, 62.94]),
    row("MemOS + OpenClaw", "Plugin", [40.76, 52.67, 45.71, 57.83, 70.62, 64.16, 15.92, 47.83]),
    row("EverMemOS + OpenClaw", "Plugin", [55.92, 57.33, 56.51, 74.24, 82.73, 78.44, 24.14, 59.79]),
    row("Oracle", "Reference", [81.99, 78.67, 80.61, 90.91, 88.66, 89.8, 41.64, 75.69]),
  ],
};

export const subtlememoryTable13Perfect: ReportedTable = {
  id: "subtlememory-main",
  ...cited("Table 13 (perfect-retrieval setting, answer model gpt-5.4)"),
  answerModel: "gpt-5.4",
  setting: "perfect",
  unit: "%",
  columns: COLUMNS,
  rows: [
    row("Mem0", "Standalone", [75.36, 82.67, 78.39, 88.89, 91.49, 90.18, 51.72, 77.86]),
    row("MemOS", "Standalone", [63.98, 81.33, 71.19, 79.29, 85.57, 82.4, 31.56, 67.15]),
    row("EverMemOS", "Standalone", [76.78, 80.67, 78.39, 89.14, 92.78, 90.94, 44.3, 76.41]),
    row("MIRIX", "Standalone", [66.82, 74.67, 70.08, 68.69, 84.54, 76.53, 15.92, 59.99]),
    row("A-Mem", "Standalone", [77.73, 86.0, 81.16, 92.93, 93.04, 92.98, 61.54, 82.39]),
    row("MemoBase", "Standalone", [34.6, 53.33, 42.38, 37.37, 47.94, 42.6, 18.83, 36.66]),
    row("OpenClaw", "Native agent", [79.15, 86.0, 81.99, 95.2, 95.36, 95.28, 51.19, 81.21]),
    row("MetaClaw", "Native agent", [18.48, 70.67, 40.17, 47.22, 52.32, 49.74, 5.31, 36.47]),
    row("Mem0 + OpenClaw", "Plugin", [79.62, 88.0, 83.1, 90.15, 92.27, 91.2, 19.63, 71.55]),
    row("MemOS + OpenClaw", "Plugin", [69.19, 85.33, 75.9, 76.52, 86.6, 81.51, 16.45, 64.06]),
    row("EverMemOS + OpenClaw", "Plugin", [80.09, 83.33, 81.44, 89.39, 90.98, 90.18, 45.09, 76.94]),
  ],
};

/** Waterfall columns, named like the metrics `crossSetting` adds to the default row (there as fractions). */
export const WATERFALL_COLUMNS = [
  "p_preserve_complementary",
  "p_preserve_nuanced",
  "p_preserve_contradictory",
  "p_preserve",
  "p_retrieve_complementary",
  "p_retrieve_nuanced",
  "p_retrieve_contradictory",
  "p_retrieve",
] as const;

function waterfallRow(system: string, group: ReportedRow["group"], values: readonly number[]): ReportedRow {
  return { system, group, cells: Object.fromEntries(WATERFALL_COLUMNS.map((c, i) => [c, values[i] as number])) };
}

export const subtlememoryWaterfall: ReportedTable = {
  id: "subtlememory-waterfall",
  ...cited("Figure 3 (diagnostic waterfall, answer model gpt-5.4)"),
  answerModel: "gpt-5.4",
  setting: "default",
  unit: "%",
  columns: WATERFALL_COLUMNS,
  rows: [
    waterfallRow("A-Mem", "Standalone", [91.64, 97.57, 83.78, 93.46, 70.44, 87.43, 71.89, 80.82]),
    waterfallRow("OpenClaw", "Native agent", [92.98, 97.98, 71.04, 91.46, 69.78, 84.87, 34.24, 73.51]),
    waterfallRow("Mem0", "Standalone", [86.96, 94.07, 68.73, 87.38, 74.23, 89.11, 73.6, 83.27]),
    waterfallRow("EverMemOS + OpenClaw", "Plugin", [89.3, 93.13, 60.23, 85.69, 78.65, 94.36, 67.95, 86.89]),
    waterfallRow("EverMemOS", "Standalone", [86.62, 93.26, 60.62, 85.23, 78.76, 92.2, 71.97, 86.19]),
    waterfallRow("Mem0 + OpenClaw", "Plugin", [92.31, 94.07, 27.41, 80.38, 75.72, 89.83, 71.83, 84.88]),
    waterfallRow("MemOS", "Standalone", [79.26, 84.91, 42.86, 75.23, 74.68, 86.67, 55.86, 80.27]),
    waterfallRow("MemOS + OpenClaw", "Plugin", [84.62, 83.83, 20.46, 71.38, 77.47, 86.66, 54.72, 82.33]),
    waterfallRow("MIRIX", "Standalone", [77.26, 78.84, 18.92, 66.54, 64.5, 74.87, 40.82, 70.17]),
    waterfallRow("MetaClaw", "Native agent", [45.15, 50.67, 4.63, 40.23, 34.07, 26.6, 58.33, 29.25]),
    waterfallRow("MemoBase", "Standalone", [44.48, 42.99, 21.62, 39.08, 65.41, 81.82, 64.29, 75.59]),
  ],
};

export const SUBTLEMEMORY_REPORTED: readonly ReportedTable[] = [
  subtlememoryTable1Gpt54,
  subtlememoryTable1GptOss,
  subtlememoryTable13Perfect,
  subtlememoryWaterfall,
];
