/**
 * Checks a folder of MemoryAgentBench parquet data made by the generator (or
 * edited since), beyond the loader's checks:
 * - labels: every row's `metadata.source` is a sub-dataset the benchmark
 *   defines, in the file of its own split;
 * - evidence present: every gold answer of a document-QA row is in its
 *   context (SubEM needs it there), ideally inside one chunk of the source's
 *   size (a warning otherwise); a FactConsolidation question's facts are the
 *   numbered lines the evidence file says;
 * - no future facts: a FactConsolidation answer is the value of the newest
 *   (highest-numbered) fact of its cloze; numbers run 0…N−1 in order; each
 *   hop of a multi-hop question is about the newest value of the hop before;
 *   SH and MH rows of one length share one context.
 * `synth-evidence.json` (written beside the parquet files) holds what a row
 * cannot: which numbered facts each question rests on.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { chunkText } from "../../benchmarks/memoryagentbench/chunk.ts";
import { readParquetTable } from "../../benchmarks/memoryagentbench/parquet.ts";
import { mabSource, splitOfFileName } from "../../benchmarks/memoryagentbench/sources.ts";
import type { ValidationIssue } from "../types.ts";
import { FC_HEADER, type Hop } from "./facts.ts";

export const EVIDENCE_FILE = "synth-evidence.json";

export interface EvidenceFile {
  format: "membench-synth-mab-evidence/1";
  rows: Array<{
    file: string;
    row: number;
    source: string;
    questions: Array<{ id: string; hops?: Hop[]; document?: number }>;
  }>;
}

type Row = { context?: unknown; questions?: unknown; answers?: unknown; metadata?: Record<string, unknown> };

const LINE = /^(\d+)\. (.*)$/;

function factLines(context: string): { lines: string[]; problem?: string } {
  const [header, ...rest] = context.split("\n");
  if (header !== FC_HEADER) return { lines: [], problem: `the context does not start with "${FC_HEADER}"` };
  const lines: string[] = [];
  for (const [i, line] of rest.entries()) {
    const m = LINE.exec(line);
    if (!m || Number(m[1]) !== i)
      return { lines, problem: `line ${i + 1} is not "${i}. <fact>" (found ${JSON.stringify(line.slice(0, 60))})` };
    lines.push(m[2] as string);
  }
  return { lines };
}

function answersOf(row: Row): string[][] {
  return Array.isArray(row.answers) ? row.answers.map((a) => (Array.isArray(a) ? a.map(String) : [String(a)])) : [];
}

function checkFactRow(
  file: string,
  record: string,
  row: Row,
  evidence: EvidenceFile["rows"][number] | undefined,
  issues: ValidationIssue[],
): void {
  const context = String(row.context ?? "");
  const { lines, problem } = factLines(context);
  if (problem) {
    issues.push({ file, record, field: "context", problem });
    return;
  }
  if (!evidence) {
    issues.push({
      file,
      record,
      problem: `no entry in ${EVIDENCE_FILE}: only the format is checked`,
      severity: "warning",
    });
    return;
  }
  const answers = answersOf(row);
  const ids = (row.metadata?.qa_pair_ids ?? []) as string[];
  evidence.questions.forEach((q) => {
    const i = ids.indexOf(q.id);
    const field = `answers[${i}]`;
    if (i < 0) {
      issues.push({
        file,
        record,
        field: "metadata.qa_pair_ids",
        problem: `${EVIDENCE_FILE} names ${q.id}, which the row lacks`,
      });
      return;
    }
    let previous: string | undefined;
    for (const [h, hop] of (q.hops ?? []).entries()) {
      const found = lines.map((l, n) => ({ l, n })).filter(({ l }) => l.startsWith(`${hop.cloze} `));
      const serials = found.map((f) => f.n);
      if (JSON.stringify(serials) !== JSON.stringify(hop.serials)) {
        issues.push({
          file,
          record,
          field,
          problem: `${q.id} hop ${h + 1}: the facts "${hop.cloze} …" are numbered [${serials.join(", ")}], the evidence says [${hop.serials.join(", ")}] (missing or moved evidence)`,
        });
        continue;
      }
      const newestLine = found.at(-1)?.l ?? "";
      if (newestLine !== `${hop.cloze} ${hop.value}.`) {
        issues.push({
          file,
          record,
          field,
          problem: `${q.id} hop ${h + 1}: the newest fact is "${newestLine}", not "${hop.cloze} ${hop.value}." (an older value would be the answer)`,
        });
      }
      if (previous !== undefined && !hop.cloze.includes(previous)) {
        issues.push({
          file,
          record,
          field,
          problem: `${q.id} hop ${h + 1} is not about "${previous}", the newest value of the hop before`,
        });
      }
      previous = hop.value;
    }
    const gold = answers[i] ?? [];
    if (previous !== undefined && gold[0] !== previous) {
      issues.push({
        file,
        record,
        field,
        problem: `${q.id}: the gold answer "${gold[0]}" is not the newest fact's value "${previous}"`,
      });
    }
  });
}

function checkDocumentRow(file: string, record: string, row: Row, chunkSize: number, issues: ValidationIssue[]): void {
  const context = String(row.context ?? "");
  const chunks = chunkText(context, chunkSize);
  answersOf(row).forEach((aliases, i) => {
    const field = `answers[${i}]`;
    if (!aliases.some((a) => context.includes(a))) {
      issues.push({
        file,
        record,
        field,
        problem: `no gold answer (${aliases.map((a) => JSON.stringify(a)).join(", ")}) appears in the context: the evidence is missing`,
      });
    } else if (!aliases.some((a) => chunks.some((c) => c.includes(a)))) {
      issues.push({
        file,
        record,
        field,
        problem: `the gold answer only appears across a chunk boundary at the source's ${chunkSize}-token chunks`,
        severity: "warning",
      });
    }
  });
}

export async function validateMab(dir: string): Promise<ValidationIssue[]> {
  const issues: ValidationIssue[] = [];
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".parquet"))
    .sort();
  if (!files.length) return [{ file: ".", problem: "no .parquet file in the folder" }];
  let evidence: EvidenceFile | undefined;
  if (existsSync(join(dir, EVIDENCE_FILE))) {
    try {
      evidence = JSON.parse(readFileSync(join(dir, EVIDENCE_FILE), "utf8")) as EvidenceFile;
    } catch (error) {
      issues.push({ file: EVIDENCE_FILE, problem: `invalid JSON: ${(error as Error).message}` });
    }
  }
  for (const file of files) {
    const sink = { issue: (message: string) => issues.push({ file, problem: message }) };
    let rows: Row[];
    try {
      rows = (await readParquetTable(join(dir, file), sink)).rows as Row[];
    } catch (error) {
      issues.push({ file, problem: (error as Error).message });
      continue;
    }
    const split = splitOfFileName(file);
    const contexts = new Map<string, string>();
    rows.forEach((row, r) => {
      const record = `row ${r}`;
      const source = String(row.metadata?.source ?? "");
      const known = mabSource(source);
      if (!known) {
        issues.push({
          file,
          record,
          field: "metadata.source",
          problem: `"${source}" is not a MemoryAgentBench sub-dataset`,
        });
        return;
      }
      if (split && split !== known.split) {
        issues.push({
          file,
          record,
          field: "metadata.source",
          problem: `${source} belongs in ${known.split}, not ${split}`,
        });
      }
      if (known.family === "factconsolidation") {
        const length = source.replace(/^factconsolidation_(sh|mh)_/, "");
        const other = contexts.get(length);
        if (other !== undefined && other !== row.context) {
          issues.push({
            file,
            record,
            field: "context",
            problem: `the SH and MH rows of length ${length} have different contexts`,
          });
        }
        contexts.set(length, String(row.context ?? ""));
        checkFactRow(
          file,
          record,
          row,
          evidence?.rows.find((e) => e.file === file && e.row === r),
          issues,
        );
      } else {
        checkDocumentRow(file, record, row, known.chunkSize, issues);
      }
    });
  }
  return issues;
}
