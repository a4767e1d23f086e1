/**
 * The markdown report: per benchmark, the paper's tables in its own layout with
 * the reported rows beside ours, then retrieval, cost and latency, and what was
 * skipped. Every text from data, models or systems goes through escapeMarkdown.
 */
import { markdownTable } from "../run/table.ts";
import { escapeMarkdown as e } from "./escape.ts";
import { fmt, int, MISSING, ms, tableGrid, usd } from "./format.ts";
import type { BenchmarkSection, CostRow, LayoutTable, SkipLine, StageLatency } from "./model.ts";

export const READING_GUIDE =
  "Our numbers read `value [95% CI]` with their n (probes scored; printed once per row when every cell shares it). " +
  "CIs are percentile bootstraps over probes (1,000 resamples, stratified by the benchmark's category label). " +
  'Rows marked "reported" are the paper\'s published numbers, printed as published, not recomputed. ' +
  '"–" marks a number that does not exist (not run, not scored, not reported), never a zero.';

export function layoutTableMarkdown(table: LayoutTable): string {
  const grid = tableGrid(table);
  const lines = [`### ${e(table.title)}`, ""];
  if (grid.sources.length) lines.push(`${grid.sourceLabel}: ${grid.sources.map(e).join("; ")}.`, "");
  lines.push(
    markdownTable(
      grid.header.map(e),
      grid.rows.map((r) => r.cells.map((c, i) => (grid.numeric[i] ? c : e(c)))),
    ),
  );
  if (grid.notes.length) lines.push("", ...grid.notes.map((n) => `> ${e(n)}`));
  return lines.join("\n");
}

const latency = (l: StageLatency | undefined) => (l ? `${ms(l.p50)} / ${ms(l.p95)}` : MISSING);

/** What the latencies measure, under the cost-and-latency table (docs/results-schema.md). */
export const LATENCY_NOTE =
  "Search and ingest latencies are the wall time of each system call as the replay waited for it: with units " +
  "replayed at once (`--parallel-units`) or answers in flight, that includes the time other work of the process held " +
  "the thread; compare systems' latencies in runs at `--parallel-units 1`. Answer latencies are the model call alone, " +
  "without its wait for a free slot of the model's concurrency.";

/** The cost-and-latency table's columns, shared by the markdown and HTML reports. */
export function costHeader(withRun: boolean): string[] {
  return [
    ...(withRun ? ["run"] : []),
    "system",
    "setting",
    "n",
    "search ms p50 / p95",
    "answer ms p50 / p95",
    "ingest ms per call p50 / p95",
    "ingest s (total)",
    "context tokens / probe",
    "answer calls",
    "answer input tokens",
    "answer output tokens",
    "answer cost",
  ];
}

export function costMarkdown(rows: readonly CostRow[], withRun: boolean): string {
  const header = costHeader(withRun);
  return markdownTable(
    header,
    rows.map((r) => costCells(r, withRun, e)),
  );
}

/**
 * One row of the cost-and-latency table. `text` escapes the names that come
 * from the run (run and system ids); the HTML report escapes whole cells itself.
 */
export function costCells(r: CostRow, withRun: boolean, text: (s: string) => string = (s) => s): string[] {
  return [
    ...(withRun ? [text(r.run)] : []),
    text(r.system),
    r.setting,
    String(r.n),
    latency(r.search),
    latency(r.answer),
    latency(r.ingest),
    r.ingestSeconds === undefined ? MISSING : fmt(r.ingestSeconds, 2),
    int(r.contextTokens),
    String(r.answerCalls),
    int(r.inputTokens),
    int(r.outputTokens),
    r.answerCalls ? usd(r.costUsd) : MISSING,
  ];
}

function usageMarkdown(section: BenchmarkSection, withRun: boolean): string {
  if (!section.usage.length) return "No model was called (no answer or judge stage ran).";
  return markdownTable(
    [
      ...(withRun ? ["run"] : []),
      "phase",
      "role",
      "calls",
      "cached",
      "errors",
      "input tokens",
      "output tokens",
      "cost",
    ],
    section.usage.map((u) => [
      ...(withRun ? [e(u.run)] : []),
      u.phase,
      e(u.role),
      String(u.calls),
      String(u.cachedCalls),
      String(u.errors),
      int(u.inputTokens),
      int(u.outputTokens),
      u.costUsd === null ? `unknown (no price for ${u.unpricedModels.map(e).join(", ") || "a model"})` : usd(u.costUsd),
    ]),
  );
}

/** Rows named in a merged skipped line before "and N more". */
const ROWS_NAMED = 4;

export function skipLineText(s: SkipLine, withRun: boolean): string {
  const several = s.rows && s.rows.length > 1 ? s.rows : undefined;
  const who = [
    withRun ? `run ${s.run}` : "",
    !several && s.system ? `${s.system}${s.setting ? `/${s.setting}` : ""}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  const rows = several
    ? `${several.length} rows: ${several.slice(0, ROWS_NAMED).join(", ")}${
        several.length > ROWS_NAMED ? ` and ${several.length - ROWS_NAMED} more` : ""
      }`
    : "";
  const count = s.count !== undefined ? `${s.count} probe${s.count === 1 ? "" : "s"}` : "";
  const tail = [count, rows].filter(Boolean).join("; ");
  return `${who ? `${who}: ` : ""}${s.stage} — ${s.reason}${tail ? ` (${tail})` : ""}`;
}

function skippedMarkdown(section: BenchmarkSection, withRun: boolean): string {
  if (!section.skipped.length) return "Every stage ran for every system and setting.";
  return section.skipped.map((s) => `- ${e(skipLineText(s, withRun))}`).join("\n");
}

export function sectionMarkdown(section: BenchmarkSection): string {
  const withRun = section.runs.length > 1;
  const lines = [`## ${e(section.title)} (\`${section.benchmark}\`)`, ""];
  for (const run of section.runs) {
    lines.push(
      `- run \`${e(run.id)}\`${run.variant ? ` (variant ${e(run.variant)})` : ""}: data ${e(run.data)}; systems ${run.systems
        .map(e)
        .join(", ")}; settings ${run.settings.join(", ")}; answer model ${e(run.model)}${
        run.scoring ? `; scoring: ${e(run.scoring)}` : "; not scored"
      }`,
    );
  }
  lines.push("");
  if (section.headline) {
    lines.push(`Headline metric: ${e(section.headline.label)} (\`${section.headline.metric}\`).`, "");
  }
  for (const table of section.tables) lines.push(layoutTableMarkdown(table), "");
  for (const table of section.retrieval) lines.push(layoutTableMarkdown(table), "");
  lines.push("### Cost and latency", "", costMarkdown(section.cost, withRun), "", LATENCY_NOTE, "");
  lines.push("Model tokens and cost per role:", "", usageMarkdown(section, withRun), "");
  lines.push("### Skipped", "", skippedMarkdown(section, withRun), "");
  return lines.join("\n");
}

export function reportMarkdown(sections: readonly BenchmarkSection[], generatedAt = new Date()): string {
  const lines = ["# membench report", "", `Generated ${generatedAt.toISOString()}.`, "", READING_GUIDE, ""];
  for (const section of sections) lines.push(sectionMarkdown(section));
  return `${lines.join("\n").trimEnd()}\n`;
}
