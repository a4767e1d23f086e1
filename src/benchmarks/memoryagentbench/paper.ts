/**
 * What the MemoryAgentBench paper reports (Hu, Wang and McAuley, ICLR 2026,
 * arXiv 2507.05257), as data, so reports can print it beside our numbers:
 * Table 3 (main results) and Table 7 (the five classification sets behind
 * Table 3's MCC column). Scores are ×100. The paper's own small
 * inconsistencies are kept as printed: Table 3's MCC for GPT-4o-mini (82.0),
 * GraphRAG (39.8) and MIRIX with GPT-4.1-mini (61.0) are not the means of
 * their Table 7 rows (82.4, 39.4, 63.0).
 */
import { type Citation, citationText, cite } from "../shared/citation.ts";

export const MAB_PAPER = { work: "MemoryAgentBench (Hu, Wang and McAuley, ICLR 2026)", arxiv: "2507.05257" } as const;

const cited = (where: string) => {
  const citation = cite(MAB_PAPER, where);
  return { source: citationText(citation), citation };
};

export interface ReportedRow {
  system: string;
  /** The block of the table the system sits in. */
  group: string;
  cells: Record<string, number>;
}

export interface ReportedTable {
  id: string;
  source: string;
  citation: Citation;
  title: string;
  /** Column keys in the paper's order. */
  columns: readonly string[];
  rows: ReportedRow[];
}

/** Table 3's columns: four per-competency blocks, each closed by its average, then the overall mean. */
export const TABLE3_COLUMNS = [
  "SH-QA",
  "MH-QA",
  "LME(S*)",
  "EventQA",
  "AR",
  "MCC",
  "Recom",
  "TTL",
  "Summ",
  "DetQA",
  "LRU",
  "FC-SH",
  "FC-MH",
  "SF",
  "Overall",
] as const;
export type Table3Column = (typeof TABLE3_COLUMNS)[number];

/** Table 7's columns: the five in-context classification sets. */
export const TABLE7_COLUMNS = ["BANKING77", "CLINC150", "NLU", "TREC-C", "TREC-F"] as const;

function rows(columns: readonly string[], group: string, data: Array<[string, ...number[]]>): ReportedRow[] {
  return data.map(([system, ...values]) => {
    if (values.length !== columns.length) throw new Error(`paper.ts: ${system} has ${values.length} cells`);
    return { system, group, cells: Object.fromEntries(columns.map((c, i) => [c, values[i]!])) };
  });
}

const t3 = (group: string, data: Array<[string, ...number[]]>) => rows(TABLE3_COLUMNS, group, data);

export const mabTable3: ReportedTable = {
  id: "table3",
  ...cited("Table 3"),
  title: "Main results: GPT-4o-mini backbone for RAG and memory agents, top-k 10",
  columns: TABLE3_COLUMNS,
  rows: [
    ...t3("Long-Context Agents", [
      ["GPT-4o (128K)", 72.0, 51.0, 32.0, 77.2, 58.1, 87.6, 12.3, 50.0, 32.2, 77.5, 54.9, 60.0, 5.0, 32.5, 48.8],
      ["GPT-4o-mini (128K)", 64.0, 43.0, 30.7, 59.0, 49.2, 82.0, 15.1, 48.6, 28.9, 63.4, 46.2, 45.0, 5.0, 25.0, 42.2],
      [
        "Claude-3.7-Sonnet (200K)",
        77.0,
        53.0,
        34.0,
        74.6,
        59.7,
        89.4,
        18.3,
        53.9,
        52.5,
        71.8,
        62.2,
        43.0,
        2.0,
        22.5,
        49.6,
      ],
      ["GPT-5-mini (400K)", 85.0, 71.0, 63.3, 78.2, 74.4, 84.0, 13.2, 48.6, 56.3, 76.1, 66.2, 78.0, 28.0, 53.0, 60.6],
      ["GPT-4.1-mini (1M)", 83.0, 66.0, 55.7, 82.6, 71.8, 75.6, 16.7, 46.2, 41.9, 56.3, 49.1, 36.0, 5.0, 20.5, 46.9],
      ["Gemini-2.0-Flash (1M)", 87.0, 59.0, 47.0, 67.2, 65.1, 84.0, 8.7, 46.4, 23.9, 59.2, 41.6, 30.0, 3.0, 16.5, 42.4],
    ]),
    ...t3("Simple RAG", [
      ["BM25", 66.0, 56.0, 45.3, 74.6, 60.5, 75.4, 13.6, 44.5, 19.0, 52.1, 35.6, 48.0, 3.0, 25.5, 41.5],
    ]),
    ...t3("Embedding RAG", [
      ["Contriever", 22.0, 31.0, 15.7, 66.8, 33.9, 70.6, 15.2, 42.9, 17.2, 42.3, 29.8, 18.0, 7.0, 12.5, 29.8],
      ["Text-Embed-3-Small", 60.0, 44.0, 48.3, 63.0, 53.8, 70.0, 15.3, 42.7, 17.7, 54.9, 36.3, 28.0, 3.0, 15.5, 37.1],
      ["Text-Embed-3-Large", 54.0, 44.0, 50.3, 70.0, 54.6, 72.4, 16.2, 44.3, 18.2, 56.3, 37.3, 28.0, 4.0, 16.0, 38.0],
      ["Qwen3-Embedding-4B", 57.0, 47.0, 43.3, 71.4, 54.7, 78.0, 12.2, 45.1, 14.8, 59.2, 37.0, 29.0, 3.0, 16.0, 38.2],
    ]),
    ...t3("Structure-Augmented RAG", [
      ["RAPTOR", 29.0, 38.0, 34.3, 45.8, 36.8, 59.4, 12.3, 35.9, 13.4, 42.3, 27.9, 14.0, 1.0, 7.5, 27.0],
      ["GraphRAG", 47.0, 47.0, 35.0, 34.4, 40.9, 39.8, 9.8, 24.8, 0.4, 39.4, 19.9, 14.0, 2.0, 8.0, 23.4],
      ["MemoRAG", 29.0, 33.0, 20.0, 56.0, 34.5, 77.0, 13.1, 45.1, 9.2, 50.7, 30.0, 21.0, 7.0, 14.0, 30.9],
      ["HippoRAG-v2", 76.0, 66.0, 50.7, 67.6, 65.1, 61.4, 10.2, 35.8, 14.6, 57.7, 36.2, 54.0, 5.0, 29.5, 41.6],
      ["Mem0", 25.0, 32.0, 36.0, 37.5, 32.6, 32.4, 10.0, 21.2, 4.8, 36.6, 20.7, 18.0, 2.0, 10.0, 21.1],
      ["Cognee", 31.0, 26.0, 29.3, 26.8, 28.3, 35.4, 10.1, 22.8, 2.3, 29.6, 16.0, 28.0, 3.0, 15.5, 20.6],
      ["Zep", 44.0, 25.0, 38.3, 42.5, 37.5, 62.8, 12.1, 37.5, 4.2, 28.2, 16.2, 7.0, 3.0, 5.0, 24.0],
    ]),
    ...t3("Agentic Memory", [
      ["Self-RAG", 35.0, 42.0, 25.7, 31.8, 33.6, 11.6, 12.8, 12.2, 0.9, 35.2, 18.1, 19.0, 3.0, 11.0, 18.7],
      ["MemGPT", 41.0, 38.0, 32.0, 26.2, 34.3, 67.6, 14.0, 40.8, 2.5, 42.3, 22.4, 28.0, 3.0, 15.5, 28.3],
      ["MIRIX", 62.0, 61.0, 37.3, 29.8, 47.5, 38.4, 9.8, 24.1, 9.9, 40.8, 25.4, 14.0, 2.0, 8.0, 26.2],
      ["MIRIX (GPT-4.1-mini)", 73.0, 75.0, 51.0, 53.0, 63.0, 61.0, 10.3, 35.7, 18.9, 62.0, 40.5, 20.0, 3.0, 11.5, 37.7],
    ]),
  ],
};

const t7 = (group: string, data: Array<[string, ...number[]]>) => rows(TABLE7_COLUMNS, group, data);

export const mabTable7: ReportedTable = {
  id: "table7",
  ...cited("Table 7"),
  title: "Test-time learning: accuracy on the five classification sets (their mean is Table 3's MCC)",
  columns: TABLE7_COLUMNS,
  rows: [
    ...t7("Long-Context Agents", [
      ["GPT-4o", 96, 96, 90, 87, 69],
      ["GPT-4o-mini", 93, 93, 87, 73, 66],
      ["GPT-4.1-mini", 93, 82, 85, 68, 50],
      ["GPT-5-mini", 88, 92, 88, 88, 64],
      ["Gemini-2.0-Flash", 91, 90, 84, 88, 67],
      ["Claude-3.7-Sonnet", 97, 98, 86, 87, 79],
    ]),
    ...t7("Simple RAG", [["BM25", 89, 89, 84, 62, 53]]),
    ...t7("Embedding RAG", [
      ["Contriever", 89, 88, 80, 55, 41],
      ["Text-Embed-3-Small", 88, 89, 83, 54, 36],
      ["Text-Embed-3-Large", 90, 91, 80, 55, 46],
      ["Qwen3-Embedding-4B", 90, 88, 86, 67, 59],
    ]),
    ...t7("Structure-Augmented RAG", [
      ["RAPTOR", 78, 75, 73, 48, 23],
      ["GraphRAG", 64, 54, 49, 24, 6],
      ["MemoRAG", 90, 87, 86, 66, 56],
      ["HippoRAG-v2", 81, 86, 73, 38, 29],
      ["Mem0", 35, 37, 35, 29, 26],
      ["Cognee", 34, 42, 42, 41, 18],
      ["Zep", 83, 74, 70, 50, 37],
    ]),
    ...t7("Agentic Memory", [
      ["Self-RAG", 19, 13, 6, 15, 5],
      ["MemGPT", 89, 83, 79, 56, 31],
      ["MIRIX", 42, 53, 49, 36, 12],
      ["MIRIX (4.1-mini)", 65, 83, 69, 73, 25],
    ]),
  ],
};
