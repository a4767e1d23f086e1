/**
 * Published LongMemEval_s numbers (500 questions, LLM judge), printed beside
 * ours, each row with its own source. All are overall QA accuracy in %, plus
 * mem0 v3's knowledge-update figure, self-reported with different readers and
 * judges, so rows are not directly comparable. Left out: supermemory's
 * experimental "~99 %" (approximate) and MemPalace's "100 %" (retrieval recall,
 * not QA accuracy).
 */
import { type Citation, cite, type Work } from "../shared/citation.ts";

export interface ReportedRow {
  system: string;
  /** Keyed like our table's columns (`TABLE_COLUMNS` in score.ts). */
  cells: Record<string, number>;
  note?: string;
  source: Citation;
}

export interface ReportedTable {
  /** Our table with the same layout. */
  id: string;
  source: string;
  metric: "accuracy";
  unit: "%";
  rows: ReportedRow[];
}

const CHRONOS: Work = { work: "Chronos (2026)", arxiv: "2603.16862" };
const MASTRA: Work = {
  work: "Mastra, Observational Memory (2026)",
  url: "https://mastra.ai/research/observational-memory",
};
const MEM0_V3: Work = {
  work: "mem0 memory evaluation docs",
  url: "https://github.com/mem0ai/mem0/blob/8d5b7865/docs/core-concepts/memory-evaluation.mdx",
};
const HINDSIGHT: Work = { work: "Hindsight (Vectorize, 2025)", arxiv: "2512.12818" };
const ZEP_RESEARCH: Work = { work: "Zep research page (2026)", url: "https://www.getzep.com/research/" };
const MEMOS_README: Work = { work: "MemOS README", url: "https://github.com/MemTensor/MemOS/blob/be68e2fb/README.md" };
const TRUE_MEMORY: Work = { work: "True Memory (2026)", arxiv: "2605.04897" };
const SUPERMEMORY: Work = { work: "supermemory research page", url: "https://supermemory.ai/research" };
const EVERMEMOS: Work = { work: "EverMemOS (2026)", arxiv: "2601.02163" };
const ZEP_PAPER: Work = { work: "Zep paper (2025)", arxiv: "2501.13956" };

export const longmemevalAnchors: ReportedTable = {
  id: "longmemeval-qa",
  source: "published LongMemEval_s results (500 questions, LLM judge); each row names its own source",
  metric: "accuracy",
  unit: "%",
  rows: [
    {
      system: "Chronos High",
      cells: { overall: 95.6 },
      note: "best of 8 LLMs",
      source: cite(CHRONOS, "LongMemEval_s results"),
    },
    { system: "Chronos Low", cells: { overall: 92.6 }, source: cite(CHRONOS, "LongMemEval_s results") },
    {
      system: "Mastra Observational Memory (gpt-5-mini)",
      cells: { overall: 94.87 },
      source: cite(MASTRA, "LongMemEval results"),
    },
    {
      system: "Mastra Observational Memory (gpt-4o)",
      cells: { overall: 84.23 },
      source: cite(MASTRA, "LongMemEval results"),
    },
    {
      system: "mem0 v3 (Platform)",
      cells: { overall: 94.4, "knowledge-update": 93.6 },
      note: "undisclosed model stack, top_200 retrieval",
      source: cite(MEM0_V3, "benchmark table and per-type note, LongMemEval"),
    },
    {
      system: "Hindsight",
      cells: { overall: 91.4 },
      note: "scaled backbone; 83.6 with OSS-20B",
      source: cite(HINDSIGHT, "LongMemEval results"),
    },
    {
      system: "Zep (2026)",
      cells: { overall: 90.2 },
      note: "gpt-5.4 reader and CoT judge",
      source: cite(ZEP_RESEARCH, "LongMemEval, 451 of 500"),
    },
    {
      system: "MemOS",
      cells: { overall: 89.2 },
      note: "via OmniMemEval",
      source: cite(MEMOS_README, "benchmark table"),
    },
    {
      system: "True Memory Pro",
      cells: { overall: 87.8 },
      note: "3-run mean",
      source: cite(TRUE_MEMORY, "LongMemEval results"),
    },
    {
      system: "EmergenceMem Internal",
      cells: { overall: 86.0 },
      note: "as cited by Chronos",
      source: cite(CHRONOS, "comparison with prior systems"),
    },
    {
      system: "supermemory (production, gpt-4o)",
      cells: { overall: 81.6 },
      note: "about 85.2 later",
      source: cite(SUPERMEMORY, "LongMemEval results"),
    },
    { system: "EverMemOS", cells: { overall: 83.0 }, source: cite(EVERMEMOS, "LongMemEval results") },
    {
      system: "Zep (paper, gpt-4o)",
      cells: { overall: 71.2 },
      source: cite(ZEP_PAPER, "LongMemEval_s results (abstract)"),
    },
    {
      system: "Full context (gpt-4o)",
      cells: { overall: 60.2 },
      note: "baseline in the Zep paper",
      source: cite(ZEP_PAPER, "LongMemEval_s results (abstract)"),
    },
  ],
};
