/**
 * The HTML report of a sample run set: one self-contained file with every
 * chart as inline SVG, no script, no external reference, and data escaped.
 * test/report/browser.test.ts opens the same kind of file in Chromium.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { renderReport } from "../../src/report/report.ts";
import { DRAWN, EMPTY, sampleRunSet, tempDir } from "./sample-runs.ts";

describe("HTML report", () => {
  const out = tempDir();
  let html = "";

  before(async () => {
    html = await renderReport(await sampleRunSet(out), "html");
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("draws every chart as inline SVG, and says why a chart has no data", () => {
    const figures = [
      ...html.matchAll(/<figure class="chart" data-chart="([^"]+)" data-empty="(true|false)">([\s\S]*?)<\/figure>/g),
    ];
    const drawn = figures.filter((f) => f[2] === "false").map((f) => f[1]);
    const empty = figures.filter((f) => f[2] === "true").map((f) => f[1]);
    assert.deepEqual(drawn.sort(), [...DRAWN].sort());
    assert.deepEqual(empty.sort(), [...EMPTY].sort());
    for (const f of figures) {
      if (f[2] === "false") assert.match(f[3]!, /<svg [^>]*class="marks"/, `${f[1]} has an SVG`);
      else
        assert.match(
          f[3]!,
          /<p class="empty">No data: needs the default, oracle and perfect settings/,
          `${f[1]} says why`,
        );
    }
    // RealMem, MemConflict and Memora ran the default setting only: the flag that adds the others is named.
    const realmem = figures.find((f) => f[1] === "waterfall-realmem")![3]!;
    assert.match(
      realmem,
      /these runs lack oracle and perfect; run with `--setting default,oracle,perfect` and a model/,
    );
  });

  it("draws legend and axis labels whole, never cut short with an ellipsis", () => {
    assert.match(html, />preserved: perfect retrieval<\/text>/, "the waterfall's legend");
    assert.doesNotMatch(html, /…<\/text>/);
  });

  it("is self-contained: no script, no external resource, a CSP that forbids requests", () => {
    assert.doesNotMatch(html, /<script/i);
    assert.doesNotMatch(html, /\s(src|href)="(?!#)/i, "only in-page links");
    assert.doesNotMatch(html, /url\((?!#)/i, "only in-document references (gradients)");
    assert.match(html, /<meta http-equiv="Content-Security-Policy" content="default-src 'none';/);
  });

  it("escapes a <script> from the data in tables and chart labels", () => {
    const escaped = "&lt;script&gt;window.__pwned=1&lt;/script&gt;Gardening";
    assert.ok(html.includes(`<td>${escaped}</td>`), "topic label in the by-topic table");
    assert.doesNotMatch(html, /window\.__pwned=1<\/script>/);
  });

  it("holds the tables, with reported rows marked apart from ours", () => {
    assert.match(html, /<table data-table="subtlememory-main">/);
    assert.match(
      html,
      /<tr class="reported"><td>reported \(gpt-5\.4, default\)<\/td><td>Standalone<\/td><td>Mem0<\/td>/,
    );
    assert.match(html, /<tr class="ours"><td>membench<\/td><td><\/td><td>bm25<\/td><td class="num">see cells<\/td>/);
    assert.match(html, /75\.00<span class="ci"> \[75\.00, 75\.00\]<\/span><span class="n"> n=8<\/span>/);
  });
});
