/**
 * The labels file that `membench judge-agreement` reads and writes: a CSV with
 * a header `id,<rater>,<rater>,…` and one row per judged item; an empty cell
 * means that rater gave no label. An optional column named `group` (any
 * position after `id`) splits the items, e.g. by system/setting; it is not a
 * rater. Quoted cells may hold commas and doubled quotes, not line breaks.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { DataError } from "../core/errors.ts";

export const GROUP_COLUMN = "group";

/** Labels by item and rater; `labels[i]` follows `raters[i]`, undefined = no label. */
export interface LabelTable {
  raters: string[];
  items: Array<{ id: string; group?: string; labels: Array<string | undefined> }>;
}

function parseCsvLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cur += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ",") {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  out.push(cur);
  return out.map((c) => c.trim());
}

/** Reads a labels CSV; names the file and line of a malformed row. */
export function readLabelsCsv(file: string): LabelTable {
  const lines = readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim());
  if (lines.length < 2) throw new DataError("expected a header and at least one row", { file });
  const header = parseCsvLine(lines[0]!);
  const groupAt = header.indexOf(GROUP_COLUMN, 1);
  const raterAt = header.map((_, i) => i).filter((i) => i > 0 && i !== groupAt);
  if (raterAt.length < 2)
    throw new DataError("expected an id column and at least two rater columns", { file, record: "header" });
  const items = lines.slice(1).map((l, i) => {
    const cells = parseCsvLine(l);
    if (cells.length !== header.length) {
      throw new DataError(`expected ${header.length} cells, got ${cells.length}`, { file, record: `line ${i + 2}` });
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
  const flat = text.replace(/[\r\n]+/g, " ");
  return /[",]|^\s|\s$/.test(flat) ? `"${flat.replace(/"/g, '""')}"` : flat;
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
