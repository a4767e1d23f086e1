/**
 * The HTML report: one self-contained file. Charts are SVG rendered in Node,
 * styles are inline, there is no script, and a Content-Security-Policy forbids
 * any request, so the file opens offline and data can never execute. Every text
 * from data, models or systems goes through escapeHtml.
 */
import { type Chart, overviewCharts, sectionCharts } from "./charts.ts";
import { escapeHtml as h } from "./escape.ts";
import { cellText, columnHeader, commonN, hasGroups, int, MISSING, pivotedGrid, rowSource, usd } from "./format.ts";
import { costCells, costHeader, LATENCY_NOTE, READING_GUIDE, skipLineText } from "./markdown.ts";
import type { BenchmarkSection, LayoutTable } from "./model.ts";
import type { RunData } from "./run-data.ts";
import { renderSvg } from "./svg.ts";

const CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:";

const STYLE = `
body{font-family:system-ui,-apple-system,"Segoe UI",sans-serif;margin:2rem auto;max-width:1400px;padding:0 1rem;color:#222;line-height:1.4}
h1{margin-bottom:.2rem}h2{border-bottom:2px solid #ddd;padding-bottom:.2rem;margin-top:2.5rem}
table{border-collapse:collapse;margin:.5rem 0 1rem;font-size:.85rem;display:block;overflow-x:auto}
th,td{border:1px solid #ddd;padding:.25rem .45rem;vertical-align:top}th{background:#f4f4f4;text-align:left}
td.num{text-align:right;white-space:nowrap}tr.reported td{color:#555;background:#fafafa}tr.ours td{background:#fff}
.ci{color:#666;font-size:.8em}.n{color:#888;font-size:.8em}
figure.chart{display:inline-block;vertical-align:top;margin:0 1.5rem 1.5rem 0;max-width:100%;overflow-x:auto}
figcaption{font-size:.85rem;max-width:640px;margin-bottom:.4rem}.empty{color:#a33;font-style:italic}
blockquote{color:#555;margin:.2rem 0 .2rem 1rem;font-size:.85rem}code{background:#f4f4f4;padding:0 .2rem}
nav a{margin-right:1rem}
`;

function cellHtml(text: string): string {
  // Split "value [lo, hi] n=k" so the CI and n read lighter than the value.
  const m = /^(\S+)( \[[^\]]+\])?( n=\d+)?$/.exec(text);
  if (!m) return h(text);
  return `${h(m[1])}${m[2] ? `<span class="ci">${h(m[2])}</span>` : ""}${m[3] ? `<span class="n">${h(m[3])}</span>` : ""}`;
}

function pivotedHtml(table: Parameters<typeof pivotedGrid>[0]): string {
  const grid = pivotedGrid(table);
  const body = grid.rows.map(
    ([group, ...cells]) =>
      `<tr><td>${h(group ?? "")}</td>${cells.map((c) => `<td class="num">${cellHtml(c)}</td>`).join("")}</tr>`,
  );
  return [
    `<h4>${h(table.title)}</h4>`,
    table.sources.length ? `<p>Reported columns: ${h(table.sources.join("; "))}.</p>` : "",
    `<table data-table="${h(table.id)}"><thead><tr>${grid.header.map((c) => `<th>${h(c)}</th>`).join("")}</tr></thead>`,
    `<tbody>${body.join("")}</tbody></table>`,
    ...[...grid.notes, ...table.notes].map((n) => `<blockquote>${h(n)}</blockquote>`),
  ].join("\n");
}

export function layoutTableHtml(table: LayoutTable): string {
  if (table.byGroup) return pivotedHtml({ ...table, byGroup: table.byGroup });
  const groups = hasGroups(table);
  const withNote = table.rows.some((r) => r.note);
  const head = [
    "source",
    ...(groups ? ["group"] : []),
    "system",
    "n",
    ...table.columns.map((c) => columnHeader(table, c)),
    ...(withNote ? ["note"] : []),
  ];
  const body = table.rows.map((row) => {
    const n = row.kind === "ours" ? commonN(row, table.columns) : undefined;
    const scored = table.columns.some((c) => (row.cells[c]?.value ?? null) !== null);
    const perCell = row.kind === "ours" && scored && n === undefined;
    const cells = [
      `<td>${h(rowSource(row))}</td>`,
      ...(groups ? [`<td>${h(row.group ?? "")}</td>`] : []),
      `<td>${h(row.system)}</td>`,
      `<td class="num">${h(n === undefined ? (perCell ? "see cells" : MISSING) : String(n))}</td>`,
      ...table.columns.map((c) => `<td class="num">${cellHtml(cellText(row.cells[c], table.digits, perCell))}</td>`),
      ...(withNote ? [`<td>${h(row.note ?? "")}</td>`] : []),
    ];
    return `<tr class="${row.kind}">${cells.join("")}</tr>`;
  });
  return [
    `<h4>${h(table.title)}</h4>`,
    table.sources.length ? `<p>Reported rows: ${h(table.sources.join("; "))}.</p>` : "",
    `<table data-table="${h(table.id)}"><thead><tr>${head.map((c) => `<th>${h(c)}</th>`).join("")}</tr></thead>`,
    `<tbody>${body.join("")}</tbody></table>`,
    ...table.notes.map((n) => `<blockquote>${h(n)}</blockquote>`),
  ].join("\n");
}

function simpleTable(head: string[], rows: string[][], numeric: (i: number) => boolean): string {
  return `<table><thead><tr>${head.map((c) => `<th>${h(c)}</th>`).join("")}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((c, i) => `<td${numeric(i) ? ' class="num"' : ""}>${h(c)}</td>`).join("")}</tr>`)
    .join("")}</tbody></table>`;
}

function costHtml(section: BenchmarkSection): string {
  const withRun = section.runs.length > 1;
  const head = costHeader(withRun);
  const offset = withRun ? 3 : 2;
  const rows = section.cost.map((r) => costCells(r, withRun));
  const usage = section.usage.length
    ? simpleTable(
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
          ...(withRun ? [u.run] : []),
          u.phase,
          u.role,
          String(u.calls),
          String(u.cachedCalls),
          String(u.errors),
          int(u.inputTokens),
          int(u.outputTokens),
          u.costUsd === null ? `unknown (no price for ${u.unpricedModels.join(", ") || "a model"})` : usd(u.costUsd),
        ]),
        (i) => i >= (withRun ? 3 : 2),
      )
    : "<p>No model was called (no answer or judge stage ran).</p>";
  return `${simpleTable(head, rows, (i) => i >= offset)}\n<p>Model tokens and cost per role:</p>\n${usage}`;
}

async function chartHtml(chart: Chart): Promise<string> {
  const caption = `<figcaption><strong>${h(chart.title)}</strong><br>${h(chart.description)}</figcaption>`;
  if (!chart.spec) {
    return `<figure class="chart" data-chart="${h(chart.id)}" data-empty="true">${caption}<p class="empty">No data: ${h(chart.empty ?? "nothing to draw")}.</p></figure>`;
  }
  const svg = await renderSvg(chart.spec);
  return `<figure class="chart" data-chart="${h(chart.id)}" data-empty="false">${caption}${svg}</figure>`;
}

async function sectionHtml(section: BenchmarkSection, runs: readonly RunData[]): Promise<string> {
  const withRun = section.runs.length > 1;
  const charts = await Promise.all(sectionCharts(section, runs).map(chartHtml));
  const runItems = section.runs.map(
    (r) =>
      `<li>run <code>${h(r.id)}</code>${r.variant ? ` (variant ${h(r.variant)})` : ""}: data ${h(r.data)}; systems ${h(
        r.systems.join(", "),
      )}; settings ${h(r.settings.join(", "))}; answer model ${h(r.model)}; ${r.scoring ? `scoring: ${h(r.scoring)}` : "not scored"}</li>`,
  );
  const skipped = section.skipped.length
    ? `<ul>${section.skipped.map((s) => `<li>${h(skipLineText(s, withRun))}</li>`).join("")}</ul>`
    : "<p>Every stage ran for every system and setting.</p>";
  return [
    `<section id="bench-${h(section.benchmark)}" data-benchmark="${h(section.benchmark)}">`,
    `<h2>${h(section.title)} (<code>${h(section.benchmark)}</code>)</h2>`,
    `<ul>${runItems.join("")}</ul>`,
    section.headline
      ? `<p>Headline metric: ${h(section.headline.label)} (<code>${h(section.headline.metric)}</code>).</p>`
      : "",
    "<h3>Charts</h3>",
    charts.join("\n"),
    "<h3>Tables in the paper's layout</h3>",
    ...section.tables.map(layoutTableHtml),
    section.retrieval ? `<h3>Retrieval</h3>\n${layoutTableHtml(section.retrieval)}` : "",
    "<h3>Cost and latency</h3>",
    costHtml(section),
    `<p>${h(LATENCY_NOTE).replace(/`([^`]+)`/g, "<code>$1</code>")}</p>`,
    "<h3>Skipped</h3>",
    skipped,
    "</section>",
  ].join("\n");
}

export async function reportHtml(
  sections: readonly BenchmarkSection[],
  runs: readonly RunData[],
  generatedAt = new Date(),
): Promise<string> {
  const overview = await Promise.all(overviewCharts(sections, runs).map(chartHtml));
  const body = await Promise.all(sections.map((s) => sectionHtml(s, runs)));
  const nav = sections.map((s) => `<a href="#bench-${h(s.benchmark)}">${h(s.benchmark)}</a>`).join("");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>membench report</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>membench report</h1>
<p>Generated ${h(generatedAt.toISOString())}. ${h(READING_GUIDE.replace(/`/g, ""))}</p>
<nav><a href="#overview">overview</a>${nav}</nav>
</header>
<section id="overview">
<h2>Across the benchmarks run</h2>
${overview.join("\n")}
</section>
${body.join("\n")}
</body>
</html>
`;
}
