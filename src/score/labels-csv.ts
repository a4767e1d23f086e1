/**
 * The labels file that `membench judge-agreement` reads and writes: a CSV with
 * a header `id,<rater>,<rater>,…` and one row per judged item; an empty cell
 * means that rater gave no label. An optional column named `group` (any
 * position after `id`) splits the items, e.g. by system/setting; it is not a
 * rater. Read with csv-parse as spreadsheets write it: quoted cells may hold
 * commas, doubled quotes and line breaks; a leading byte-order mark is dropped.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { DataError } from "../core/errors.ts";

export const GROUP_COLUMN = "group";

/** Labels by item and rater; `labels[i]` follows `raters[i]`, undefined = no label. */
export interface LabelTable {
  raters: string[];
  items: Array<{ id: string; group?: string; labels: Array<string | undefined> }>;
}

/** Rows of a CSV with the line each starts on; a malformed file is a DataError naming its line. */
function parseCsv(text: string, file: string): Array<{ cells: string[]; line: number }> {
  try {
    const records = parse(text, {
      bom: true,
      info: true,
      trim: true,
      skip_empty_lines: true,
      relax_column_count: true,
    }) as unknown as Array<{ record: string[]; info: { bytes: number } }>;
    // A record's line is where it starts: count the line breaks before it (csv-parse's
    // own line count is where it ends, and counts a quoted CRLF twice).
    let line = 1;
    let at = 0;
    return records.map(({ record, info }) => {
      while (at < text.length && /[\r\n\uFEFF]/.test(text[at]!)) if (text[at++] === "\n") line++;
      const start = line;
      for (; at < info.bytes; at++) if (text[at] === "\n") line++;
      return { cells: record, line: start };
    });
  } catch (error) {
    const e = error as Error & { lines?: number };
    throw new DataError(e.message, { file, ...(e.lines ? { record: `line ${e.lines}` } : {}) });
  }
}

/** Reads a labels CSV; names the file and line of a malformed row. */
export function readLabelsCsv(file: string): LabelTable {
  const rows = parseCsv(readFileSync(file, "utf8"), file).filter((r) => r.cells.some((c) => c !== ""));
  if (rows.length < 2) throw new DataError("expected a header and at least one row", { file });
  const header = rows[0]!.cells;
  const groupAt = header.indexOf(GROUP_COLUMN, 1);
  const raterAt = header.map((_, i) => i).filter((i) => i > 0 && i !== groupAt);
  if (raterAt.length < 2)
    throw new DataError("expected an id column and at least two rater columns", { file, record: "header" });
  const items = rows.slice(1).map(({ cells, line }) => {
    if (cells.length !== header.length) {
      throw new DataError(`expected ${header.length} cells, got ${cells.length}`, { file, record: `line ${line}` });
    }
    return {
      id: cells[0]!,
      ...(groupAt > 0 ? { group: cells[groupAt]! } : {}),
      labels: raterAt.map((c) => cells[c] || undefined),
    };
  });
  return { raters: raterAt.map((i) => header[i]!), items };
}

function csvCell(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Writes a table in the layout `readLabelsCsv` reads; the `group` column only when items carry one. */
export function writeLabelsCsv(file: string, table: LabelTable): void {
  const grouped = table.items.some((item) => item.group !== undefined);
  const header = ["id", ...(grouped ? [GROUP_COLUMN] : []), ...table.raters];
  const rows = table.items.map((item) => [
    item.id,
    ...(grouped ? [item.group ?? ""] : []),
    ...table.raters.map((_, i) => item.labels[i] ?? ""),
  ]);
  writeFileSync(file, `${[header, ...rows].map((r) => r.map(csvCell).join(",")).join("\n")}\n`);
}
