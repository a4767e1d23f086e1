/**
 * Published LongMemEval_s numbers (spec/anchors.md C.1, plus mem0's per-type
 * figure from A.1), printed beside ours. All are overall QA accuracy in %
 * from an LLM judge, self-reported with different readers and judges, so rows
 * are not directly comparable (spec/anchors.md D). Left out: supermemory's
 * experimental "~99 %" (approximate) and MemPalace's "100 %" (retrieval recall,
 * not QA accuracy).
 */

export interface ReportedRow {
  system: string;
  /** Keyed like our table's columns (`TABLE_COLUMNS` in score.ts). */
  cells: Record<string, number>;
  note?: string;
}

export interface ReportedTable {
  /** Our table with the same layout. */
  id: string;
  source: string;
  metric: "accuracy";
  unit: "%";
  rows: ReportedRow[];
}

export const longmemevalAnchors: ReportedTable = {
  id: "longmemeval-qa",
  source: "spec/anchors.md C.1 (LongMemEval_s, 500 questions, LLM judge)",
  metric: "accuracy",
  unit: "%",
  rows: [
    { system: "Chronos High", cells: { overall: 95.6 }, note: "best of 8 LLMs; arXiv 2603.16862" },
    { system: "Chronos Low", cells: { overall: 92.6 }, note: "arXiv 2603.16862" },
    { system: "Mastra Observational Memory (gpt-5-mini)", cells: { overall: 94.87 } },
    { system: "Mastra Observational Memory (gpt-4o)", cells: { overall: 84.23 } },
    {
      system: "mem0 v3 (Platform)",
      cells: { overall: 94.4, "knowledge-update": 93.6 },
      note: "undisclosed model stack, top_200 retrieval",
    },
    { system: "Hindsight", cells: { overall: 91.4 }, note: "scaled backbone; 83.6 with OSS-20B" },
    { system: "Zep (2026)", cells: { overall: 90.2 }, note: "gpt-5.4 reader and CoT judge" },
    { system: "MemOS", cells: { overall: 89.2 }, note: "via OmniMemEval" },
    { system: "True Memory Pro", cells: { overall: 87.8 }, note: "3-run mean" },
    { system: "EmergenceMem Internal", cells: { overall: 86.0 }, note: "as cited by Chronos" },
    { system: "supermemory (production, gpt-4o)", cells: { overall: 81.6 }, note: "about 85.2 later" },
    { system: "EverMemOS", cells: { overall: 83.0 } },
    { system: "Zep (paper, gpt-4o)", cells: { overall: 71.2 }, note: "arXiv 2501.13956" },
    { system: "Full context (gpt-4o)", cells: { overall: 60.2 }, note: "baseline in the Zep paper" },
  ],
};
