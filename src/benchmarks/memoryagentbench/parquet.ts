/**
 * Reads a whole parquet file into plain row objects. Any failure of the
 * reader (not parquet, truncated, unsupported codec) becomes a DataError that
 * names the file, because hyparquet's own messages do not.
 */
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, parquetSchema } from "hyparquet";
import { DataError } from "../../core/errors.ts";

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

export async function readParquetTable(file: string): Promise<ParquetTable> {
  try {
    const buffer = await asyncBufferFromFile(file);
    const metadata = await parquetMetadataAsync(buffer);
    const columns = parquetSchema(metadata).children.map((c) => c.element.name);
    const rows = Number(metadata.num_rows) === 0 ? [] : await parquetReadObjects({ file: buffer, metadata });
    return { columns, rows };
  } catch (error) {
    if (error instanceof DataError) throw error;
    throw new DataError(explain(error), { file }, { cause: error });
  }
}
