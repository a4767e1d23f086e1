/**
 * Numbers the MemConflict paper reports (Tao et al., 2026, arXiv 2605.20926,
 * Tables 3, 4, 5 and 7), printed beside ours and marked as reported. Column
 * keys are the metric keys our scorer's `aggregate()` and `tables()` use, so a
 * report can line the two up cell by cell. Every "Average" is the macro mean
 * over the three conflict types; SEH and SRS are at K = 3. Table 5 repeats
 * Tables 3 and 4 with the implicit (rewritten) queries of
 * `Step4_4_indirect.jsonl`; its rows sit in our tables 3 and 4, tagged.
 */
import { type Citation, citationText, cite } from "../shared/citation.ts";

export const MEMCONFLICT_PAPER = { work: "MemConflict (Tao et al., 2026)", arxiv: "2605.20926" } as const;

export interface ReportedRow {
  system: string;
  /** `null` where the paper has no number for the column. */
  cells: Record<string, number | null>;
}

export interface ReportedTable {
  id: string;
  source: string;
  citation: Citation;
  title: string;
  /** The query variant, when the numbers are not for the direct questions. */
  variant?: string;
  /** Metric keys in the paper's column order. */
  columns: string[];
  rows: ReportedRow[];
}

/** Human headers for the column keys, as the paper labels them. */
export const MEMCONFLICT_COLUMN_TITLES: Readonly<Record<string, string>> = {
  dynamic_aa: "Dynamic AA",
  dynamic_uocs: "Dynamic UOCS",
  static_aa: "Static AA",
  static_crs: "Static CRS",
  conditional_aa: "Conditional AA",
  aa: "Average AA",
  "dynamic_seh@3": "Dynamic SEH@3",
  "dynamic_srs@3": "Dynamic SRS",
  "static_seh@3": "Static SEH@3",
  "static_srs@3": "Static SRS",
  "conditional_seh@3": "Conditional SEH@3",
  "conditional_srs@3": "Conditional SRS",
  "seh@3": "Average SEH@3",
  "srs@3": "Average SRS",
  dynamic_eug: "Dynamic EUG",
  static_eug: "Static EUG",
  conditional_eug: "Conditional EUG",
  eug: "Average EUG",
};

const row = (system: string, columns: readonly string[], values: ReadonlyArray<number | null>): ReportedRow => ({
  system,
  cells: Object.fromEntries(columns.map((c, i) => [c, values[i] ?? null])),
});

const cited = (where: string) => {
  const citation = cite(MEMCONFLICT_PAPER, where);
  return { source: citationText(citation), citation };
};

const T3 = ["dynamic_aa", "dynamic_uocs", "static_aa", "static_crs", "conditional_aa", "aa"];

export const memconflictTable3: ReportedTable = {
  id: "table3",
  ...cited("Table 3"),
  title: "Black-box results by conflict type",
  columns: T3,
  rows: [
    row("A-Mem", T3, [0.3596, 0.2911, 0.2639, 0.2501, 0.7122, 0.4452]),
    row("LangMem", T3, [0.4966, 0.3579, 0.1944, 0.2083, 0.1556, 0.2822]),
    row("Letta", T3, [0.3955, 0.3527, 0.2223, 0.2031, 0.8435, 0.4871]),
    row("MemOS", T3, [0.3793, 0.3818, 0.4375, 0.2361, 0.8449, 0.5539]),
    row("Mem0", T3, [0.1224, 0.113, 0.1944, 0.1528, 0.7667, 0.3612]),
    row("Memobase", T3, [0.4058, 0.3476, 0.4167, 0.0694, 0.2434, 0.3553]),
  ],
};

const T4 = [
  "dynamic_seh@3",
  "dynamic_srs@3",
  "static_seh@3",
  "static_srs@3",
  "conditional_seh@3",
  "conditional_srs@3",
  "seh@3",
  "srs@3",
];

export const memconflictTable4: ReportedTable = {
  id: "table4",
  ...cited("Table 4"),
  title: "White-box retrieval and ranking, K = 3",
  columns: T4,
  rows: [
    row("A-Mem", T4, [0.5205, 0.4341, 0.3611, 0.2854, 0.8111, 0.7288, 0.5642, 0.4828]),
    row("LangMem", T4, [0.7842, 0.7089, 0.3194, 0.2697, 0.2012, 0.1944, 0.4349, 0.391]),
    row("Letta", T4, [0.5394, 0.462, 0.4167, 0.3099, 0.9046, 0.7653, 0.6202, 0.5124]),
    row("MemOS", T4, [0.5548, 0.4552, 0.5694, 0.4886, 0.8889, 0.8198, 0.671, 0.5879]),
    row("Mem0", T4, [0.2003, 0.1587, 0.2917, 0.2401, 0.8222, 0.778, 0.4381, 0.3923]),
    row("Memobase", T4, [0.5925, 0.5204, 0.5278, 0.4557, 0.3021, 0.2877, 0.4741, 0.4213]),
  ],
};

const T7 = ["dynamic_eug", "static_eug", "conditional_eug", "eug"];

export const memconflictTable7: ReportedTable = {
  id: "table7",
  ...cited("Table 7"),
  title: "Evidence Utilization Gap (SEH@3 − AA)",
  columns: T7,
  rows: [
    row("A-Mem", T7, [0.1609, 0.0972, 0.0989, 0.119]),
    row("LangMem", T7, [0.2876, 0.125, 0.0456, 0.1527]),
    row("Letta", T7, [0.1439, 0.1944, 0.0611, 0.1331]),
    row("MemOS", T7, [0.1755, 0.1319, 0.044, 0.1171]),
    row("Mem0", T7, [0.0779, 0.0973, 0.0555, 0.0769]),
    row("Memobase", T7, [0.1867, 0.1111, 0.0587, 0.1188]),
  ],
};

/** Table 5's columns: AA, SEH@3 and SRS per conflict type, then their averages. */
const T5 = [
  "dynamic_aa",
  "dynamic_seh@3",
  "dynamic_srs@3",
  "static_aa",
  "static_seh@3",
  "static_srs@3",
  "conditional_aa",
  "conditional_seh@3",
  "conditional_srs@3",
  "aa",
  "seh@3",
  "srs@3",
];

const TABLE5_VALUES: ReadonlyArray<[string, number[]]> = [
  ["A-Mem", [0.3356, 0.4812, 0.3899, 0.2231, 0.355, 0.2799, 0.7026, 0.8023, 0.7189, 0.4204, 0.5462, 0.4629]],
  ["LangMem", [0.4795, 0.7671, 0.7013, 0.1493, 0.275, 0.2406, 0.1475, 0.1956, 0.1833, 0.2588, 0.4126, 0.3751]],
  ["Letta", [0.3943, 0.5291, 0.4445, 0.2127, 0.3472, 0.3028, 0.8221, 0.8836, 0.7605, 0.4764, 0.5866, 0.5026]],
  ["MemOS", [0.3399, 0.4709, 0.3792, 0.4306, 0.5139, 0.4828, 0.8267, 0.8667, 0.8102, 0.5324, 0.6172, 0.5574]],
  ["Mem0", [0.0916, 0.1884, 0.1425, 0.1875, 0.2361, 0.1882, 0.7525, 0.8004, 0.7479, 0.3439, 0.4083, 0.3595]],
  ["Memobase", [0.3866, 0.589, 0.5124, 0.4061, 0.5194, 0.4447, 0.2361, 0.2967, 0.2834, 0.3429, 0.4684, 0.4135]],
];

/** Table 5's cells under the columns of one of our tables; its missing metrics (UOCS, CRS) are null. */
function implicitRows(columns: readonly string[]): ReportedRow[] {
  return TABLE5_VALUES.map(([system, values]) =>
    row(
      system,
      columns,
      columns.map((c) => {
        const i = T5.indexOf(c);
        return i < 0 ? null : values[i]!;
      }),
    ),
  );
}

const IMPLICIT = "implicit queries";

export const memconflictTable5Answers: ReportedTable = {
  id: "table3",
  ...cited("Table 5 (implicit queries)"),
  title: memconflictTable3.title,
  variant: IMPLICIT,
  columns: T3,
  rows: implicitRows(T3),
};

export const memconflictTable5Retrieval: ReportedTable = {
  id: "table4",
  ...cited("Table 5 (implicit queries)"),
  title: memconflictTable4.title,
  variant: IMPLICIT,
  columns: T4,
  rows: implicitRows(T4),
};

/** The paper's tables in our tables' layouts, one each: Tables 3, 4 and 7. */
export const memconflictPaperTables: readonly ReportedTable[] = [
  memconflictTable3,
  memconflictTable4,
  memconflictTable7,
];

/** Table 5 (implicit queries), split over the layouts of Tables 3 and 4. */
export const memconflictImplicitTables: readonly ReportedTable[] = [
  memconflictTable5Answers,
  memconflictTable5Retrieval,
];
