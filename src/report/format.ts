/** Number formatting shared by the markdown and HTML renderers. A missing number is "–", never 0. */
import type { Cell, LayoutTable, TableRow } from "./model.ts";

export const MISSING = "–";

export function fmt(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined || !Number.isFinite(value) ? MISSING : value.toFixed(digits);
}

export function fmtCI(ci: [number, number] | undefined, digits: number): string {
  return ci ? `[${fmt(ci[0], digits)}, ${fmt(ci[1], digits)}]` : "";
}

/** The n every cell of a row shares, if they do; then it is printed once for the row. */
export function commonN(row: TableRow, columns: readonly string[]): number | undefined {
  const ns = columns.map((c) => row.cells[c]).filter((c): c is Cell => c?.value !== null && c !== undefined);
  if (!ns.length || ns.some((c) => c.n === undefined)) return undefined;
  const first = ns[0]!.n;
  return ns.every((c) => c.n === first) ? first : undefined;
}

/** `61.22 [55.10, 67.30]` plus `n=8` unless the row prints its n once. */
export function cellText(cell: Cell | undefined, digits: number, withN: boolean): string {
  if (!cell || cell.value === null) return MISSING;
  const parts = [fmt(cell.value, digits)];
  if (cell.ci) parts.push(fmtCI(cell.ci, digits));
  if (withN && cell.n !== undefined) parts.push(`n=${cell.n}`);
  return parts.join(" ");
}

/** Whether the table has paper groups, so a group column is printed. */
export function hasGroups(table: LayoutTable): boolean {
  return table.rows.some((r) => r.group);
}

export function rowSource(row: TableRow): string {
  if (row.kind === "reported") return row.tag ? `reported (${row.tag})` : "reported";
  return row.tag ? `membench (${row.tag})` : "membench";
}

export function columnHeader(table: LayoutTable, column: string): string {
  return table.columnTitles[column] ?? column;
}

export function ms(value: number | undefined): string {
  return value === undefined ? MISSING : value >= 100 ? value.toFixed(0) : value.toFixed(1);
}

export function usd(value: number | null | undefined): string {
  if (value === undefined) return MISSING;
  return value === null ? "unknown (no price)" : `$${value.toFixed(value < 1 ? 4 : 2)}`;
}

export function int(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? MISSING : Math.round(value).toLocaleString("en-US");
}

/**
 * A by-group table as the paper prints it: one row per group, one column per
 * system (reported or ours) and metric, every cell with its CI and, for our
 * rows, its n. Rows' notes follow the grid as "system: note".
 */
export function pivotedGrid(table: LayoutTable & { byGroup: NonNullable<LayoutTable["byGroup"]> }): {
  header: string[];
  rows: string[][];
  notes: string[];
} {
  const { label, groups, metrics } = table.byGroup;
  const name = (row: TableRow) => `${rowSource(row)}: ${row.system}${row.group ? ` (${row.group})` : ""}`;
  const header = [label, ...table.rows.flatMap((row) => metrics.map((m) => `${name(row)} ${m}`))];
  const rows = groups.map((g) => [
    g,
    ...table.rows.flatMap((row) =>
      metrics.map((m) => cellText(row.cells[`${g} ${m}`], table.digits, row.kind === "ours")),
    ),
  ]);
  const notes = table.rows.filter((r) => r.note).map((r) => `${name(r)}: ${r.note}`);
  return { header, rows, notes };
}

/** A layout table as printed: header, rows of cell texts, which columns are numbers, and what goes under it. */
export interface TableGrid {
  id: string;
  title: string;
  /** "Reported rows" or, for a pivoted table, "Reported columns". */
  sourceLabel: string;
  sources: string[];
  header: string[];
  rows: Array<{ kind?: TableRow["kind"]; cells: string[] }>;
  numeric: boolean[];
  notes: string[];
}

/**
 * The one way a layout table is laid out, whatever prints it (markdown, the
 * HTML report, the viewer): source, group, system, n, the columns with CIs,
 * and the rows' notes; a by-group table pivoted as the paper prints it.
 */
export function tableGrid(table: LayoutTable): TableGrid {
  const base = { id: table.id, title: table.title, sources: table.sources };
  if (table.byGroup) {
    const grid = pivotedGrid({ ...table, byGroup: table.byGroup });
    return {
      ...base,
      sourceLabel: "Reported columns",
      header: grid.header,
      rows: grid.rows.map((cells) => ({ cells })),
      numeric: grid.header.map((_, i) => i > 0),
      notes: [...grid.notes, ...table.notes],
    };
  }
  const groups = hasGroups(table);
  const withNote = table.rows.some((r) => r.note);
  const header = [
    "source",
    ...(groups ? ["group"] : []),
    "system",
    "n",
    ...table.columns.map((c) => columnHeader(table, c)),
    ...(withNote ? ["note"] : []),
  ];
  const lead = groups ? 3 : 2;
  const rows = table.rows.map((row) => {
    const n = row.kind === "ours" ? commonN(row, table.columns) : undefined;
    const scored = table.columns.some((c) => (row.cells[c]?.value ?? null) !== null);
    const perCell = row.kind === "ours" && scored && n === undefined;
    return {
      kind: row.kind,
      cells: [
        rowSource(row),
        ...(groups ? [row.group ?? ""] : []),
        row.system,
        n === undefined ? (perCell ? "see cells" : MISSING) : String(n),
        ...table.columns.map((c) => cellText(row.cells[c], table.digits, perCell)),
        ...(withNote ? [row.note ?? ""] : []),
      ],
    };
  });
  return {
    ...base,
    sourceLabel: "Reported rows",
    header,
    rows,
    numeric: header.map((_, i) => i >= lead && i <= lead + table.columns.length),
    notes: [...table.notes],
  };
}
