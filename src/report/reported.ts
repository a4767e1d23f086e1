/**
 * The papers' reported numbers (each benchmark's `paper.ts`) in one shape, so
 * a report can print them beside ours. Table ids are the ids our scorers'
 * `tables()` use, so a reported table and ours line up by id and column key.
 */
import { locomoJAnchors } from "../benchmarks/locomo/paper.ts";
import { longmemevalAnchors } from "../benchmarks/longmemeval/paper.ts";
import { MEMCONFLICT_COLUMN_TITLES, memconflictPaperTables } from "../benchmarks/memconflict/paper.ts";
import { memoraPaperTables } from "../benchmarks/memora/paper.ts";
import { mabTable3, mabTable7 } from "../benchmarks/memoryagentbench/paper.ts";
import { realmemPaperTables, realmemRetrievalTable } from "../benchmarks/realmem/paper.ts";
import { SUBTLEMEMORY_REPORTED } from "../benchmarks/subtlememory/paper.ts";

export interface ReportedRow {
  system: string;
  group?: string;
  cells: Record<string, number | null>;
  note?: string;
}

export interface ReportedTable {
  id: string;
  source: string;
  title?: string;
  /** Which answer model and setting the numbers are for, when the paper has several. */
  tag?: string;
  columns: string[];
  rows: ReportedRow[];
  notes: string[];
}

/** Anything a paper.ts exports as a table: the fields they share, each optional where one of them lacks it. */
interface PaperLike {
  id: string;
  source: string;
  title?: string;
  columns?: readonly string[];
  answerModel?: string;
  setting?: string;
  rows: ReadonlyArray<{
    system: string;
    group?: string;
    cells: Readonly<Record<string, number | null>>;
    note?: string;
  }>;
  note?: string;
  notes?: readonly string[];
}

function normalise(t: PaperLike): ReportedTable {
  const columns = t.columns ? [...t.columns] : [...new Set(t.rows.flatMap((r) => Object.keys(r.cells)))];
  const tag = [t.answerModel, t.setting].filter(Boolean).join(", ");
  return {
    id: t.id,
    source: t.source,
    ...(t.title ? { title: t.title } : {}),
    ...(tag ? { tag } : {}),
    columns,
    rows: t.rows.map((r) => ({
      system: r.system,
      ...(r.group ? { group: r.group } : {}),
      cells: { ...r.cells },
      ...(r.note ? { note: r.note } : {}),
    })),
    notes: [...(t.notes ?? []), ...(t.note ? [t.note] : [])],
  };
}

const TABLES: Readonly<Record<string, readonly PaperLike[]>> = {
  subtlememory: SUBTLEMEMORY_REPORTED,
  realmem: realmemPaperTables,
  memconflict: memconflictPaperTables,
  memora: memoraPaperTables,
  memoryagentbench: [mabTable3, mabTable7],
  longmemeval: [longmemevalAnchors],
  locomo: [locomoJAnchors],
};

/** The paper-layout tables a benchmark's paper.ts reports (empty when it has none). */
export function reportedTables(benchmark: string): ReportedTable[] {
  return (TABLES[benchmark] ?? []).map(normalise);
}

/** Reported retrieval numbers keyed by our retrieval metric keys (RealMem Table 3). */
export function reportedRetrieval(benchmark: string): ReportedTable | undefined {
  if (benchmark !== "realmem") return undefined;
  const columns = [...new Set(realmemRetrievalTable.rows.flatMap((r) => Object.keys(r.metrics)))];
  return {
    id: "retrieval",
    source: realmemRetrievalTable.source,
    columns,
    rows: realmemRetrievalTable.rows.map((r) => ({ system: r.system, cells: { ...r.metrics } })),
    notes: ["The paper's R@k is set against recall_all@k and its NDCG against ndcg_realmem@k (spec/realmem.md §6.1)."],
  };
}

/** Human headers for column keys where the paper labels them differently from our keys. */
export function columnTitles(benchmark: string): Readonly<Record<string, string>> {
  return benchmark === "memconflict" ? MEMCONFLICT_COLUMN_TITLES : {};
}
