/**
 * Writes MemoryAgentBench rows as parquet in the Hugging Face release schema
 * (the release's `data/<Split>-00000-of-00001.parquet`): nullable `context`
 * string, `questions` list<string>, `answers` list<list<string>>, and a
 * `metadata` struct, with the three-level LIST layout pyarrow writes. The
 * dataset generator writes its files with it, as do the committed fixtures'
 * generator and the tests (test/support/write-parquet.ts re-exports it);
 * `WriteMabOptions` bend the schema for the malformed-input tests only.
 */
import { writeFileSync } from "node:fs";
import type { SchemaElement } from "hyparquet";
import { parquetWriteBuffer } from "hyparquet-writer";

export interface MabTurnRow {
  content: string;
  role: string;
  has_answer: boolean;
}

export interface MabMetadataRow {
  source: string;
  qa_pair_ids?: string[] | null;
  demo?: string | null;
  keypoints?: string[] | null;
  previous_events?: string[] | null;
  question_dates?: string[] | null;
  question_ids?: string[] | null;
  question_types?: string[] | null;
  haystack_sessions?: MabTurnRow[][][] | null;
}

export interface MabRow {
  context: string;
  questions: string[];
  answers: string[][];
  metadata: MabMetadataRow;
}

export interface WriteMabOptions {
  /** Leave these top-level columns out of the file. */
  omitColumns?: string[];
  /**
   * Shape of the `answers` column: the official list of alias lists, one
   * string per question, or one integer per question.
   */
  answers?: "aliases" | "string" | "int";
}

const text = (name: string): SchemaElement => ({
  name,
  type: "BYTE_ARRAY",
  converted_type: "UTF8",
  repetition_type: "OPTIONAL",
});

/** A nullable LIST group around `element` (which must be named "element"). */
function list(name: string, element: SchemaElement[]): SchemaElement[] {
  return [
    { name, repetition_type: "OPTIONAL", converted_type: "LIST", num_children: 1 },
    { name: "list", repetition_type: "REPEATED", num_children: 1 },
    ...element,
  ];
}

const stringList = (name: string) => list(name, [text("element")]);

const METADATA_FIELDS: SchemaElement[][] = [
  [text("source")],
  stringList("qa_pair_ids"),
  [text("demo")],
  stringList("keypoints"),
  stringList("previous_events"),
  stringList("question_dates"),
  stringList("question_ids"),
  stringList("question_types"),
  list(
    "haystack_sessions",
    list(
      "element",
      list("element", [
        { name: "element", repetition_type: "OPTIONAL", num_children: 3 },
        text("content"),
        text("role"),
        { name: "has_answer", type: "BOOLEAN", repetition_type: "OPTIONAL" },
      ]),
    ),
  ),
];

function columnSchema(name: string, answers: WriteMabOptions["answers"]): SchemaElement[] {
  switch (name) {
    case "context":
      return [text("context")];
    case "questions":
      return stringList("questions");
    case "answers":
      if (answers === "string") return stringList("answers");
      if (answers === "int") return list("answers", [{ name: "element", type: "INT32", repetition_type: "OPTIONAL" }]);
      return list("answers", stringList("element"));
    default:
      return [
        { name: "metadata", repetition_type: "OPTIONAL", num_children: METADATA_FIELDS.length },
        ...METADATA_FIELDS.flat(),
      ];
  }
}

/**
 * Parquet bytes for `rows`. `rows` is typed loosely so tests can write values
 * the official schema allows but a loader must reject (nulls, mismatches).
 */
export function mabParquetBytes(rows: unknown[], options: WriteMabOptions = {}): Uint8Array {
  const names = ["context", "questions", "answers", "metadata"].filter((n) => !options.omitColumns?.includes(n));
  const schema: SchemaElement[] = [
    { name: "schema", num_children: names.length },
    ...names.flatMap((n) => columnSchema(n, options.answers)),
  ];
  const columnData = names.map((name) => ({
    name,
    data: rows.map((r) => (r as Record<string, unknown>)[name] ?? null),
  }));
  return new Uint8Array(parquetWriteBuffer({ columnData, schema }));
}

export function writeMabParquet(file: string, rows: unknown[], options: WriteMabOptions = {}): void {
  writeFileSync(file, mabParquetBytes(rows, options));
}
