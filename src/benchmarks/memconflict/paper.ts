/**
 * Numbers the MemConflict paper reports (spec/memconflict.md §7.3, §7.4,
 * §7.7), printed beside ours and marked as reported. Column keys are the
 * metric keys our scorer's `aggregate()` and `tables()` use, so a report can
 * line the two up cell by cell. Every "Average" is the macro mean over the
 * three conflict types; SEH and SRS are at K = 3.
 */
export interface ReportedRow {
  system: string;
  cells: Record<string, number>;
}

export interface ReportedTable {
  id: string;
  source: string;
  title: string;
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

const row = (system: string, columns: readonly string[], values: readonly number[]): ReportedRow => ({
  system,
  cells: Object.fromEntries(columns.map((c, i) => [c, values[i] as number])),
});

const T3 = ["dynamic_aa", "dynamic_uocs", "static_aa", "static_crs", "conditional_aa", "aa"];

export const memconflictTable3: ReportedTable = {
  id: "table3",
  source: "MemConflict paper, Table 3 (spec/memconflict.md §7.3)",
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
  source: "MemConflict paper, Table 4 (spec/memconflict.md §7.4)",
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
  source: "MemConflict paper, Table 7 (spec/memconflict.md §7.7)",
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

export const memconflictPaperTables: readonly ReportedTable[] = [
  memconflictTable3,
  memconflictTable4,
  memconflictTable7,
];
