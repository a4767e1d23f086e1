/**
 * Published LoCoMo numbers, printed beside ours, each row with its own source.
 * Every one is J, the LLM-judge accuracy on categories 1–4 (1,540 questions)
 * in %, not the paper's token F1: our `locomo-j` table (score option j=on) is
 * the one to set them against. They are self-reported with different readers,
 * judges and retrieval budgets, and the answer-key ceiling is about 93.6 %
 * (github.com/dial481/locomo-audit), so higher scores credit wrong gold
 * answers or a lenient judge.
 *
 * The mem0 paper (arXiv 2504.19413, Table 1) also gives J per category, under
 * mem0's own reading of the category ids (1 = single-hop, 2 = temporal,
 * 3 = multi-hop, 4 = open-domain; mem0ai/mem0 #2609), which is not the data's
 * (1 = multi-hop, 3 = open-domain, 4 = single-hop; see categories.ts). Its
 * columns are placed here by category id: its "Single-Hop" is our multi-hop,
 * its "Multi-Hop" our open-domain, its "Open Domain" our single-hop. Only that
 * placement reproduces each printed overall as the mean of the four columns
 * weighted by the release's question counts (282 / 321 / 96 / 841 for ids
 * 1–4), to ±0.01.
 */
import { type Citation, cite, type Work } from "../shared/citation.ts";

export interface ReportedRow {
  system: string;
  /** Keyed like our table's columns (`J_COLUMNS` in score.ts). */
  cells: Record<string, number>;
  note?: string;
  source: Citation;
}

export interface ReportedTable {
  /** Our table with the same layout. */
  id: string;
  source: string;
  metric: "j";
  unit: "%";
  rows: ReportedRow[];
  notes: string[];
}

export const MEM0_PAPER: Work = { work: "Mem0 (Chhikara et al., 2025)", arxiv: "2504.19413" };

const ZEP_RESEARCH: Work = { work: "Zep research page (2026)", url: "https://www.getzep.com/research/" };
const EVERMEMOS: Work = { work: "EverMemOS (2026)", arxiv: "2601.02163" };
const TRUE_MEMORY: Work = { work: "True Memory (2026)", arxiv: "2605.04897" };
const MEM0_V3: Work = {
  work: "mem0 memory evaluation docs",
  url: "https://github.com/mem0ai/mem0/blob/8d5b7865/docs/core-concepts/memory-evaluation.mdx",
};
const CORTEX_347: Work = { work: "cdeust/Cortex issue 347", url: "https://github.com/cdeust/Cortex/issues/347" };
const HINDSIGHT: Work = { work: "Hindsight (Vectorize, 2025)", arxiv: "2512.12818" };
const MEMOS_README: Work = { work: "MemOS README", url: "https://github.com/MemTensor/MemOS/blob/be68e2fb/README.md" };
const ZEP_HARNESS: Work = {
  work: "Zep LoCoMo harness, experiment 2025-12-03",
  url: "https://github.com/getzep/zep/blob/7de18dfa/benchmarks/locomo/experiments/experiment_20251203_171523/experiment_summary.json",
};
const MEMOBASE_DOC: Work = {
  work: "Memobase LoCoMo benchmark",
  url: "https://github.com/memodb-io/memobase/blob/358c16bb/docs/experiments/locomo-benchmark/README.md",
};
const LETTA_BLOG: Work = {
  work: "Letta, Benchmarking AI agent memory (2025)",
  url: "https://www.letta.com/blog/benchmarking-ai-agent-memory",
};

const MEM0_TABLE1 = cite(MEM0_PAPER, "Table 1 (LLM-as-a-Judge J)");

/** A row of the mem0 paper's Table 1, given in its own column order (see above for the placement). */
function mem0Table1(system: string, printed: { sh: number; mh: number; od: number; t: number; overall: number }) {
  return {
    system,
    cells: {
      "single-hop": printed.od,
      "multi-hop": printed.sh,
      temporal: printed.t,
      "open-domain": printed.mh,
      overall: printed.overall,
    },
    note: "gpt-4o-mini; categories placed by category id (see below)",
    source: MEM0_TABLE1,
  } satisfies ReportedRow;
}

export const locomoJAnchors: ReportedTable = {
  id: "locomo-j",
  source: "published LoCoMo J results; each row names its own source",
  metric: "j",
  unit: "%",
  notes: [
    "Published J, self-reported with different readers, judges and retrieval budgets; the answer-key ceiling " +
      "is about 93.6 % (github.com/dial481/locomo-audit).",
    "The mem0 paper's Table 1 labels its columns by mem0's reading of the category ids (1 single-hop, 2 temporal, " +
      "3 multi-hop, 4 open-domain); they are placed here by id under the data's names (1 multi-hop, 3 open-domain, " +
      "4 single-hop), the only placement under which the release's question counts give each printed overall.",
  ],
  rows: [
    {
      system: "Zep (2026)",
      cells: { overall: 94.7 },
      note: "gpt-5.4 reader and judge",
      source: cite(ZEP_RESEARCH, "LoCoMo, 1,459 of 1,540"),
    },
    {
      system: "EverMemOS",
      cells: { overall: 93.05 },
      note: "reported 92.3–93.05 (gpt-4.1-mini); a third party reproduced 38.4",
      source: cite(EVERMEMOS, "LoCoMo results"),
    },
    {
      system: "True Memory Pro",
      cells: { overall: 93.0 },
      note: "more lenient semantic-match judge",
      source: cite(TRUE_MEMORY, "LoCoMo results"),
    },
    {
      system: "mem0 v3 (Platform)",
      cells: { overall: 92.5 },
      note: "top_200 retrieval",
      source: cite(MEM0_V3, "benchmark table, LoCoMo"),
    },
    {
      system: "ByteRover 2.0",
      cells: { overall: 92.2 },
      note: "Gemini-3 Pro; 90.9 with Gemini-3 Flash",
      source: cite(CORTEX_347, "quoted result"),
    },
    { system: "Hindsight", cells: { overall: 89.61 }, note: "Gemini-3", source: cite(HINDSIGHT, "LoCoMo results") },
    { system: "MemOS", cells: { overall: 88.83 }, note: "OmniMemEval", source: cite(MEMOS_README, "benchmark table") },
    {
      system: "Zep (own harness, Dec 2025)",
      cells: { overall: 80.06 },
      note: "gpt-4o-mini; ±0.33 std over 10 runs",
      source: cite(ZEP_HARNESS, "mean over 10 runs"),
    },
    {
      system: "Memobase v0.0.37",
      cells: { overall: 75.78 },
      note: "gpt-4o-mini era",
      source: cite(MEMOBASE_DOC, "Result"),
    },
    {
      system: "Zep (corrected rebuttal)",
      cells: { overall: 75.14 },
      note: "first claimed 84.61",
      source: cite(MEMOBASE_DOC, "Zep* row"),
    },
    {
      system: "Letta filesystem agent",
      cells: { overall: 74.0 },
      note: "gpt-4o-mini",
      source: cite(LETTA_BLOG, "LoCoMo result"),
    },
    mem0Table1("Mem0ᵍ (paper)", { sh: 65.71, mh: 47.19, od: 75.71, t: 58.13, overall: 68.44 }),
    mem0Table1("Mem0 (paper)", { sh: 67.13, mh: 51.15, od: 72.93, t: 55.51, overall: 66.88 }),
    {
      ...mem0Table1("Zep (as run in the mem0 paper)", { sh: 61.7, mh: 41.35, od: 76.6, t: 49.31, overall: 65.99 }),
      note: "disputed by Zep; categories placed by category id (see below)",
    },
    mem0Table1("LangMem (mem0 paper)", { sh: 62.23, mh: 47.92, od: 71.12, t: 23.43, overall: 58.1 }),
    mem0Table1("OpenAI Memory (mem0 paper)", { sh: 63.79, mh: 42.92, od: 62.29, t: 21.71, overall: 52.9 }),
  ],
};
