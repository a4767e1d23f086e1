/** Plain-text tables of a summary, for the terminal. */
import type { Summary } from "./summary.ts";

/** A markdown table; columns whose cells are all numbers are right-aligned. */
export function markdownTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,%$–@ ]*$/.test(r[i] ?? "")));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (numeric[i] ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (numeric[i] ? `${"-".repeat(w + 1)}:` : "-".repeat(w + 2))).join("|")}|`;
  return [line(header), rule, ...rows.map(line)].join("\n");
}

const fmt = (x: number | undefined, digits = 4) => (x === undefined || Number.isNaN(x) ? "–" : x.toFixed(digits));

/** The retrieval table of a run's default setting: one row per system. */
export function retrievalTable(summary: Summary, metrics: string[]): string {
  const rows = summary.results
    .filter((r) => r.setting === "default")
    .map((r) => [
      r.system,
      String(r.metrics.n_retrieval ?? 0),
      ...metrics.map((m) => fmt(r.metrics[m])),
      fmt(r.metrics.context_tokens_mean, 0),
      fmt(r.metrics.search_ms_p95, 1),
    ]);
  return markdownTable(["system", "n", ...metrics, "ctx tokens", "search p95 ms"], rows);
}
