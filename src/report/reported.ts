/**
 * The papers' reported numbers (each benchmark's `paper.ts`) in one shape, so
 * a report can print them beside ours and the JSON report can carry them.
 * Table ids are the ids our scorers' `tables()` use, so a reported table and
 * ours line up by id and column key. Every row names its source: the table's
 * citation, or its own where the table collects published numbers from
 * several places (LongMemEval, LoCoMo).
 */
import { locomoJAnchors } from "../benchmarks/locomo/paper.ts";
import { longmemevalAnchors } from "../benchmarks/longmemeval/paper.ts";
import {
  MEMCONFLICT_COLUMN_TITLES,
  memconflictImplicitTables,
  memconflictPaperTables,
} from "../benchmarks/memconflict/paper.ts";
import { memoraPaperTables } from "../benchmarks/memora/paper.ts";
import { mabTable3, mabTable7 } from "../benchmarks/memoryagentbench/paper.ts";
import { realmemPaperTables, realmemRetrievalTable } from "../benchmarks/realmem/paper.ts";
import { type Citation, citationText } from "../benchmarks/shared/citation.ts";
import { SUBTLEMEMORY_REPORTED } from "../benchmarks/subtlememory/paper.ts";

export type { Citation } from "../benchmarks/shared/citation.ts";

export interface ReportedRow {
  system: string;
  group?: string;
  cells: Record<string, number | null>;
  note?: string;
  /** Where the row's numbers are published. */
  source: Citation;
  /** Whether the row has a source of its own rather than the table's. */
  ownSource: boolean;
}

export interface ReportedTable {
  id: string;
  /** The citation as one line, or what the table collects when each row cites its own. */
  source: string;
  /** The table's citation; absent when every row names its own. */
  citation?: Citation;
  title?: string;
  /** Which answer model, setting or query variant the numbers are for, when the paper has several. */
  tag?: string;
  columns: string[];
  rows: ReportedRow[];
  notes: string[];
}

/** Anything a paper.ts exports as a table: the fields they share, each optional where one of them lacks it. */
interface PaperLike {
  id: string;
  source: string;
  citation?: Citation;
  title?: string;
  columns?: readonly string[];
  answerModel?: string;
  setting?: string;
  variant?: string;
  rows: ReadonlyArray<{
    system: string;
    group?: string;
    cells: Readonly<Record<string, number | null>>;
    note?: string;
    source?: Citation;
  }>;
  note?: string;
  notes?: readonly string[];
}

function normalise(t: PaperLike): ReportedTable {
  const columns = t.columns ? [...t.columns] : [...new Set(t.rows.flatMap((r) => Object.keys(r.cells)))];
  const tag = [t.answerModel, t.setting, t.variant].filter(Boolean).join(", ");
  return {
    id: t.id,
    source: t.source,
    ...(t.citation ? { citation: t.citation } : {}),
    ...(t.title ? { title: t.title } : {}),
    ...(tag ? { tag } : {}),
    columns,
    rows: t.rows.map((r) => {
      const source = r.source ?? t.citation;
      if (!source) throw new Error(`reported table ${t.id}: row ${r.system} has no source`);
      return {
        system: r.system,
        ...(r.group ? { group: r.group } : {}),
        cells: { ...r.cells },
        ...(r.note ? { note: r.note } : {}),
        source,
        ownSource: !t.citation || citationText(source) !== citationText(t.citation),
      };
    }),
    notes: [...(t.notes ?? []), ...(t.note ? [t.note] : [])],
  };
}

const TABLES: Readonly<Record<string, readonly PaperLike[]>> = {
  subtlememory: SUBTLEMEMORY_REPORTED,
  realmem: realmemPaperTables,
  memconflict: [...memconflictPaperTables, ...memconflictImplicitTables],
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
  return normalise({
    id: "retrieval",
    source: realmemRetrievalTable.source,
    citation: realmemRetrievalTable.citation,
    columns,
    rows: realmemRetrievalTable.rows.map((r) => ({ system: r.system, cells: { ...r.metrics } })),
    notes: [
      "The paper's R@k is set against recall_all@k (it does not say recall_any or recall_all; the released " +
        "compute_auto_metrics_for_realmem.py computes both) and its NDCG against ndcg_realmem@k, that script's DCG.",
    ],
  });
}

/** Every reported table of a benchmark, the retrieval one included: what the JSON report carries. */
export function allReported(benchmark: string): ReportedTable[] {
  const retrieval = reportedRetrieval(benchmark);
  return [...reportedTables(benchmark), ...(retrieval ? [retrieval] : [])];
}

/** Human headers for column keys where the paper labels them differently from our keys. */
export function columnTitles(benchmark: string): Readonly<Record<string, string>> {
  return benchmark === "memconflict" ? MEMCONFLICT_COLUMN_TITLES : {};
}
