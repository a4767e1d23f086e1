/** Reads a markdown table back, for tests: the first table after a heading that starts with `heading`. */
export interface ParsedTable {
  header: string[];
  rows: string[][];
}

const cells = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, "")
    .split(/(?<!\\)\|/)
    .map((c) => c.trim());

export function tableAfter(markdown: string, heading: string, from = 0): ParsedTable {
  const lines = markdown.split("\n");
  const start = lines.findIndex(
    (l, i) => i >= from && l.startsWith("#") && l.replace(/^#+\s*/, "").startsWith(heading),
  );
  if (start < 0) throw new Error(`no heading "${heading}"`);
  let i = start + 1;
  while (i < lines.length && !lines[i]!.startsWith("|")) {
    if (lines[i]!.startsWith("#")) throw new Error(`no table under "${heading}"`);
    i++;
  }
  const header = cells(lines[i]!);
  const rows: string[][] = [];
  for (i += 2; i < lines.length && lines[i]!.startsWith("|"); i++) rows.push(cells(lines[i]!));
  return { header, rows };
}

/** The cell of `column` in the first row whose cells satisfy `match`. */
export function cell(table: ParsedTable, match: (row: string[]) => boolean, column: string): string | undefined {
  const row = table.rows.find(match);
  const i = table.header.indexOf(column);
  return row && i >= 0 ? row[i] : undefined;
}
