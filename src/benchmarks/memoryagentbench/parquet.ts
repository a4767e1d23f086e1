/**
 * Reads a whole parquet file into plain row objects. Any failure of the
 * reader (not parquet, truncated, unsupported codec) becomes a DataError that
 * names the file, because hyparquet's own messages do not.
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import { DataError } from "../../core/errors.ts";
import { statPath } from "../shared/files.ts";
import { type IssueSink, utf8Damage } from "../shared/utf8.ts";

export interface ParquetTable {
  /** Top-level column names from the file's schema. */
  columns: string[];
  rows: Record<string, unknown>[];
}

function explain(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/footer != PAR1|too short|metadata length/.test(message)) {
    return `not a readable parquet file (missing or damaged footer; the file may be truncated): ${message}`;
  }
  if (/unsupported compression codec/.test(message)) {
    // hyparquet decodes snappy and uncompressed pages only; the HF release is snappy.
    return `${message}; re-save the file with snappy compression or add the hyparquet-compressors package`;
  }
  return `cannot read parquet: ${message}`;
}

/**
 * hyparquet decodes text columns with a lenient TextDecoder; this one counts
 * the values that are not UTF-8 (decoded the same way) so they can be reported.
 */
function checkedStrings() {
  const decoder = new TextDecoder();
  const state = { bad: 0, first: "" };
  const decode = (bytes: Uint8Array | undefined) => {
    if (!bytes) return bytes;
    const text = decoder.decode(bytes);
    if (utf8Damage(bytes)) {
      state.bad++;
      if (!state.first) state.first = text.slice(0, 60);
    }
    return text;
  };
  return {
    state,
    parsers: {
      stringFromBytes: decode,
      jsonFromBytes: (bytes: Uint8Array) => bytes && JSON.parse(decode(bytes) ?? ""),
    },
  };
}

/** Reads every row; text values that are not UTF-8 go to `issues` (an error in strict mode). */
export async function readParquetTable(file: string, issues: IssueSink): Promise<ParquetTable> {
  if (statPath(file).isDirectory()) throw new DataError("is a folder, expected a file", { file });
  const strings = checkedStrings();
  let table: ParquetTable;
  try {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    const rows =
      Number(metadata.num_rows) === 0
        ? []
        : await parquetReadObjects({ file: buffer, metadata, parsers: strings.parsers });
    table = { columns, rows };
  } catch (error) {
    if (error instanceof DataError) throw error;
    throw new DataError(explain(error), { file }, { cause: error });
  }
  const { bad, first } = strings.state;
  if (bad) {
    issues.issue(
      `invalid UTF-8 in ${bad} text value${bad === 1 ? "" : "s"} (read as U+FFFD if loaded leniently), the first starting ${JSON.stringify(first)}`,
      { file },
    );
  }
  return table;
}
