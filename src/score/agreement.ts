/**
 * `membench judge-agreement labels.csv`: Cohen's kappa between every pair of
 * raters (judges or humans). The CSV has a header `id,<rater>,<rater>,…` and
 * one row per judged item; empty cells are left out of that pair.
 */
import { readFileSync } from "node:fs";
import { DataError } from "../core/errors.ts";
import { cohenKappa } from "./bootstrap.ts";

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

export interface AgreementRow {
  a: string;
  b: string;
  n: number;
  agreement: number;
  kappa: number;
}

export function judgeAgreement(file: string): AgreementRow[] {
  const lines = readFileSync(file, "utf8")
    .split(/\r?\n/)
    .filter((l) => l.trim());
  if (lines.length < 2) throw new DataError("expected a header and at least one row", { file });
  const header = parseCsvLine(lines[0]!);
  if (header.length < 3)
    throw new DataError("expected an id column and at least two rater columns", { file, record: "header" });
  const rows = lines.slice(1).map((l, i) => {
    const cells = parseCsvLine(l);
    if (cells.length !== header.length) {
      throw new DataError(`expected ${header.length} cells, got ${cells.length}`, { file, record: `line ${i + 2}` });
    }
    return cells;
  });
  const out: AgreementRow[] = [];
  for (let i = 1; i < header.length; i++) {
    for (let j = i + 1; j < header.length; j++) {
      const pairs = rows.filter((r) => r[i] && r[j]).map((r) => [r[i]!.toLowerCase(), r[j]!.toLowerCase()] as const);
      const a = pairs.map((p) => p[0]);
      const b = pairs.map((p) => p[1]);
      out.push({
        a: header[i]!,
        b: header[j]!,
        n: pairs.length,
        agreement: pairs.length ? pairs.filter((p) => p[0] === p[1]).length / pairs.length : Number.NaN,
        kappa: cohenKappa(a, b),
      });
    }
  }
  return out;
}
