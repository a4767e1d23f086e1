/**
 * The numbers Memora reports (Uddin et al., 2026, arXiv 2604.20006, Tables
 * 3–5), printed beside ours. Column keys are shared with `score.ts`, so a
 * reported row and our row of the same table line up cell by cell. Values are
 * as printed, arithmetic slips included (the notes name them); nothing here is
 * recomputed.
 */
import { type Citation, citationText, cite } from "../shared/citation.ts";
import type { Duration } from "./labels.ts";

export const MEMORA_PAPER = { work: "Memora (Uddin et al., 2026)", arxiv: "2604.20006" } as const;

/** The paper's task order in Tables 3 and 4. */
export const PAPER_TASKS = ["Remembering", "Recommending", "Reasoning"] as const;
export type PaperTask = (typeof PAPER_TASKS)[number];

const TASK_ABBR: Record<PaperTask, string> = { Remembering: "Rem", Recommending: "Rec", Reasoning: "Rea" };
const DURATION_ABBR: Record<Duration, string> = { weekly: "W", monthly: "M", quarterly: "Q" };
const DURATION_TITLE: Record<Duration, string> = { weekly: "Weekly", monthly: "Monthly", quarterly: "Quarterly" };
const DURATION_ORDER: readonly Duration[] = ["weekly", "monthly", "quarterly"];

/** A Table 3 column: one task in one duration. */
export interface TaskDurationColumn {
  key: string;
  task: PaperTask;
  duration: Duration;
}

export const TABLE3_COLUMNS: readonly TaskDurationColumn[] = PAPER_TASKS.flatMap((task) =>
  DURATION_ORDER.map((duration) => ({ key: `${TASK_ABBR[task]} ${DURATION_ABBR[duration]}`, task, duration })),
);

/** Table 4 columns are the tasks themselves. */
export const TABLE4_COLUMNS: readonly PaperTask[] = PAPER_TASKS;

/** A Table 5 duration: its aggregated-MPA column and the column of the FAMA penalty beside it. */
export interface DurationColumns {
  duration: Duration;
  mpa: string;
  reduction: string;
}

export const TABLE5_COLUMNS: readonly DurationColumns[] = DURATION_ORDER.map((duration) => ({
  duration,
  mpa: DURATION_TITLE[duration],
  reduction: `${DURATION_TITLE[duration]} (reduction)`,
}));

export const TABLE_IDS = {
  taskFama: "memora-table3",
  aggregatedFama: "memora-table4",
  presenceVsFama: "memora-table5",
} as const;

export interface ReportedRow {
  /** Unique within a table: the reasoning mode is part of an LLM's name. */
  system: string;
  group: "LLMs w/o reasoning" | "LLMs w/ reasoning" | "Memory agents";
  cells: Record<string, number>;
}

export interface ReportedTable {
  /** The id of our table with the same layout (`tables()` in score.ts). */
  id: string;
  source: string;
  citation: Citation;
  title: string;
  columns: string[];
  rows: ReportedRow[];
  notes?: string[];
}

const NO_REASONING = "LLMs w/o reasoning";
const REASONING = "LLMs w/ reasoning";
const AGENTS = "Memory agents";

type Group = ReportedRow["group"];

function llmName(name: string, group: Group): string {
  return group === REASONING ? `${name} (w/ reasoning)` : group === NO_REASONING ? `${name} (w/o reasoning)` : name;
}

function row(name: string, group: Group, columns: readonly string[], values: readonly number[]): ReportedRow {
  if (values.length !== columns.length) throw new Error(`paper row ${name}: ${values.length} values`);
  return { system: llmName(name, group), group, cells: Object.fromEntries(columns.map((c, i) => [c, values[i]!])) };
}

const cited = (where: string) => {
  const citation = cite(MEMORA_PAPER, where);
  return { source: citationText(citation), citation };
};

const t3 = TABLE3_COLUMNS.map((c) => c.key);
const t5 = TABLE5_COLUMNS.flatMap((c) => [c.mpa, c.reduction]);

export const memoraTable3: ReportedTable = {
  id: TABLE_IDS.taskFama,
  ...cited("Table 3"),
  title: "Task-level FAMA (0–100) per duration",
  columns: t3,
  rows: [
    row("Qwen3-32B", NO_REASONING, t3, [26.12, 21.14, 19.24, 50.16, 50.3, 48.88, 6.0, 2.0, 6.0]),
    row("Claude Sonnet 4.5", NO_REASONING, t3, [27.5, 19.42, 21.25, 43.62, 39.0, 44.02, 6.66, 3.0, 5.5]),
    row("Gemini 3 Pro Preview", NO_REASONING, t3, [20.36, 21.44, 17.28, 45.12, 45.94, 52.56, 6.66, 4.0, 4.0]),
    row("GPT-5.2", NO_REASONING, t3, [25.32, 19.92, 23.39, 54.8, 51.12, 53.36, 4.66, 0.0, 1.0]),
    row("Qwen3-32B", REASONING, t3, [23.86, 25.62, 17.14, 50.04, 53.06, 47.71, 6.66, 9.0, 3.0]),
    row("Claude Sonnet 4.5", REASONING, t3, [26.56, 21.4, 19.13, 52.4, 60.9, 51.78, 4.0, 0.0, 2.5]),
    row("Gemini 3 Pro Preview", REASONING, t3, [21.02, 23.26, 18.12, 43.36, 44.92, 50.83, 6.0, 10.0, 8.5]),
    row("GPT-5.2", REASONING, t3, [25.7, 19.22, 22.16, 53.4, 51.6, 53.36, 4.66, 0.0, 2.0]),
    row("A-Mem", AGENTS, t3, [71.82, 41.9, 40.78, 35.04, 37.52, 34.95, 2.0, 2.0, 5.0]),
    row("LangMem", AGENTS, t3, [71.16, 42.0, 39.14, 48.88, 44.08, 33.85, 30.0, 14.0, 11.0]),
    row("Mem-0", AGENTS, t3, [40.42, 21.08, 19.9, 52.58, 36.2, 38.47, 16.0, 0.0, 2.0]),
    row("MemoBase", AGENTS, t3, [43.6, 20.08, 15.18, 68.94, 58.46, 45.62, 18.0, 7.0, 1.0]),
    row("MemoryOS", AGENTS, t3, [51.84, 29.78, 25.05, 62.64, 48.54, 44.02, 20.66, 6.0, 5.5]),
    row("Nemori", AGENTS, t3, [65.06, 44.08, 33.83, 52.84, 45.9, 41.66, 18.66, 0.0, 6.5]),
  ],
};

const t4 = [...TABLE4_COLUMNS];

export const memoraTable4: ReportedTable = {
  id: TABLE_IDS.aggregatedFama,
  ...cited("Table 4"),
  title: "Aggregated FAMA: weekly + monthly + quarterly (0–300)",
  columns: t4,
  rows: [
    row("Qwen3-32B", NO_REASONING, t4, [66.5, 149.34, 14.0]),
    row("Claude Sonnet 4.5", NO_REASONING, t4, [68.17, 126.64, 15.16]),
    row("Gemini 3 Pro Preview", NO_REASONING, t4, [59.08, 143.62, 14.66]),
    row("GPT-5.2", NO_REASONING, t4, [68.63, 159.28, 5.66]),
    row("Average", NO_REASONING, t4, [65.6, 144.72, 12.37]),
    row("Qwen3-32B", REASONING, t4, [66.62, 150.81, 18.0]),
    row("Claude Sonnet 4.5", REASONING, t4, [67.09, 165.08, 6.5]),
    row("Gemini 3 Pro Preview", REASONING, t4, [62.4, 139.11, 24.5]),
    row("GPT-5.2", REASONING, t4, [67.08, 158.36, 6.66]),
    row("Average", REASONING, t4, [65.8, 153.34, 13.92]),
    row("A-Mem", AGENTS, t4, [154.5, 107.51, 9.0]),
    row("LangMem", AGENTS, t4, [152.3, 126.81, 55.0]),
    row("Mem-0", AGENTS, t4, [81.4, 127.25, 18.0]),
    row("MemoBase", AGENTS, t4, [78.86, 173.02, 26.0]),
    row("MemoryOS", AGENTS, t4, [106.67, 155.2, 32.16]),
    row("Nemori", AGENTS, t4, [142.97, 140.4, 25.16]),
    row("Average (memory agents)", AGENTS, t4, [119.45, 138.37, 27.55]),
  ],
  notes: ["Qwen3-32B w/ reasoning, Reasoning: printed 18.00, but its Table 3 cells sum to 18.66."],
};

export const memoraTable5: ReportedTable = {
  id: TABLE_IDS.presenceVsFama,
  ...cited("Table 5"),
  title: "Aggregated memory-presence accuracy over the 3 tasks (0–300), with the reduction from the FAMA penalty",
  columns: t5,
  rows: [
    row("Qwen3-32B", NO_REASONING, t5, [103.6, -21.3, 83.0, -9.7, 79.5, -5.3]),
    row("Claude Sonnet 4.5", NO_REASONING, t5, [114.0, -36.2, 100.2, -34.1, 94.0, -23.2]),
    row("Gemini 3 Pro Preview", NO_REASONING, t5, [114.2, -42.0, 110.6, -39.4, 101.8, -27.9]),
    row("GPT-5.2", NO_REASONING, t5, [115.4, -30.7, 96.6, -21.8, 92.5, -14.7]),
    row("Qwen3-32B", REASONING, t5, [98.7, -18.8, 97.8, -10.1, 79.5, -11.6]),
    row("Claude Sonnet 4.5", REASONING, t5, [114.0, -31.0, 104.2, -21.9, 83.2, -9.8]),
    row("Gemini 3 Pro Preview", REASONING, t5, [113.5, -43.2, 111.4, -33.2, 95.8, -18.6]),
    row("GPT-5.2", REASONING, t5, [111.5, -27.8, 97.4, -26.5, 91.8, -14.2]),
    row("A-Mem", AGENTS, t5, [118.0, -9.1, 112.0, -29.5, 118.6, -37.9]),
    row("LangMem", AGENTS, t5, [173.0, -23.0, 132.2, -31.1, 127.4, -43.4]),
    row("Mem-0", AGENTS, t5, [119.4, -10.4, 78.6, -21.3, 72.7, -12.3]),
    row("MemoBase", AGENTS, t5, [154.4, -23.8, 107.2, -21.6, 93.7, -31.9]),
    row("MemoryOS", AGENTS, t5, [155.2, -20.6, 112.8, -28.4, 99.6, -25.0]),
    row("Nemori", AGENTS, t5, [159.4, -22.8, 105.4, -15.4, 106.8, -26.3]),
  ],
  notes: [
    "Reductions are printed negative, as in the paper; MPA + reduction should equal the duration's Table 3 FAMA sum.",
    "It does to ±0.25 except Claude Sonnet 4.5 and GPT-5.2 w/o reasoning monthly, A-Mem and LangMem monthly, " +
      "Nemori quarterly, Qwen3-32B w/ reasoning weekly and MemoryOS weekly, off by 0.5–4.7.",
  ],
};

export const memoraPaperTables: readonly ReportedTable[] = [memoraTable3, memoraTable4, memoraTable5];
