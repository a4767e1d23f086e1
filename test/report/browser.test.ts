/**
 * Opens the HTML report of a sample run set in headless Chromium (found as
 * test/support/chromium.ts says, driven by playwright-core) from a file: URL, checks that every
 * chart is drawn, that the page makes no request beyond the file itself, and
 * that a <script> from the data is shown as text and never runs.
 *
 * Without Chromium the test skips with a message; under CI=true it fails.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { chromium } from "playwright-core";
import { renderReport } from "../../src/report/report.ts";
import { CHROMIUM_ARGS, chromiumSkip, findChromium, requireChromium } from "../support/chromium.ts";
import { DRAWN, EMPTY, INJECTED_TOPIC, sampleRunSet, tempDir } from "./sample-runs.ts";

const CHROMIUM = findChromium();
const skip = chromiumSkip(CHROMIUM, "HTML report browser test");

interface PageGlobals {
  document: {
    querySelectorAll(selector: string): ArrayLike<{ textContent: string | null; children: ArrayLike<unknown> }>;
  };
  __pwned?: unknown;
}

interface FigureInfo {
  id: string;
  empty: boolean;
  svgWidth: number;
  svgHeight: number;
  marks: number;
  text: string;
}

describe("HTML report in headless Chromium", () => {
  const out = tempDir();
  after(() => rmSync(out, { recursive: true, force: true }));

  it("opens offline, shows every chart and makes no request off the page", { skip, timeout: 60_000 }, async () => {
    const executablePath = requireChromium(CHROMIUM);
    const file = join(out, "report.html");
    writeFileSync(file, await renderReport(await sampleRunSet(out), "html"));

    const profile = mkdtempSync(join(tmpdir(), "mb-chromium-"));
    const context = await chromium.launchPersistentContext(profile, {
      executablePath,
      headless: true,
      args: CHROMIUM_ARGS,
      offline: true,
    });
    try {
      const page = await context.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on("request", (r) => requests.push(r.url()));
      page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error") problems.push(`console: ${m.text()}`);
      });
      page.on("dialog", (d) => {
        problems.push(`dialog: ${d.message()}`);
        void d.dismiss();
      });
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });

      const figures = await page.$$eval("figure.chart", (nodes) =>
        nodes.map((n) => {
          const svg = n.querySelector("svg");
          const box = svg?.getBoundingClientRect();
          return {
            id: n.getAttribute("data-chart") ?? "",
            empty: n.getAttribute("data-empty") === "true",
            svgWidth: box?.width ?? 0,
            svgHeight: box?.height ?? 0,
            marks: svg ? svg.querySelectorAll("path, rect, line, circle, text").length : 0,
            text: n.textContent ?? "",
          };
        }),
      );
      const byId = new Map<string, FigureInfo>(figures.map((f) => [f.id, f]));
      for (const id of DRAWN) {
        const f = byId.get(id);
        assert.ok(f && !f.empty, `${id} is drawn`);
        assert.ok(f.svgWidth > 50 && f.svgHeight > 50, `${id} has a visible SVG (${f.svgWidth}×${f.svgHeight})`);
        assert.ok(f.marks > 10, `${id} has marks`);
      }
      for (const id of EMPTY) {
        const f = byId.get(id);
        assert.ok(f?.empty, `${id} is empty`);
        assert.match(f.text, /No data: /);
      }

      const state = await page.evaluate((topic) => {
        // The project compiles without the DOM library: name the little of it used here.
        // No helper functions in here: tsx would wrap them in a __name() the page does not have.
        const doc = (globalThis as unknown as PageGlobals).document;
        return {
          scripts: doc.querySelectorAll("script").length,
          pwned: (globalThis as unknown as PageGlobals).__pwned,
          // The cell holds the label as plain text: no child element was parsed out of it.
          asText: Array.from(doc.querySelectorAll("td")).filter((td) => td.textContent === topic && !td.children.length)
            .length,
          tables: doc.querySelectorAll("table").length,
        };
      }, INJECTED_TOPIC);
      assert.equal(state.scripts, 0, "no script element, not even one from the data");
      assert.equal(state.pwned, undefined, "the data's script never ran");
      assert.ok(state.asText > 0, "the data's <script> is shown as text");
      assert.ok(state.tables > 10);

      const off = requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:"));
      assert.deepEqual(off, [], "no request leaves the page");
      assert.ok(requests.includes(pathToFileURL(file).href));
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
