/**
 * The HTML report of a scored SubtleMemory run combined with an unscored one
 * (same fixture, bm25, no model), opened in Chromium:
 * - a zero bar is marked "0" and a missing value "–" (system `none` is wrong
 *   on every question; the unscored run has no accuracy anywhere);
 * - every system of both runs is in the overview charts, the unscored one on
 *   the retrieval headline;
 * - scatter labels do not overlap, and run-prefixed names are shortened the
 *   same way everywhere ("scored/bm25", "offline/bm25").
 *
 * Screenshots of the charts go to SCREENSHOTS_DIR when set.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import type { Browser, Page } from "playwright-core";
import { renderReport } from "../../src/report/report.ts";
import { startRun } from "../../src/run/runner.ts";
import { chromiumSkip, findChromium, launchChromium, requireChromium } from "../support/chromium.ts";
import { fixture } from "../support/shared-data.ts";
import { subtleMemoryRun, tempDir } from "./sample-runs.ts";

const CHROMIUM = findChromium();
const skip = chromiumSkip(CHROMIUM, "HTML report chart tests");

describe("HTML report charts in Chromium: zero vs missing, a scored and an unscored run combined", { skip }, () => {
  const out = tempDir("mb-report-charts-");
  const shots = process.env.SCREENSHOTS_DIR || join(out, "shots");
  let browser: Browser;
  let page: Page;

  before(async () => {
    const executablePath = requireChromium(CHROMIUM);
    mkdirSync(shots, { recursive: true });
    const scored = await subtleMemoryRun(out, { id: "2026-11-26-subtle-scored" });
    const offline = await startRun({
      benchmark: "subtlememory",
      data: fixture("subtlememory"),
      systems: ["bm25"],
      settings: ["default"],
      out,
      id: "2026-11-26-subtle-offline",
      progress: false,
    });
    const file = join(out, "report.html");
    writeFileSync(file, await renderReport([scored, offline.dir], "html"));
    browser = await launchChromium(executablePath);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
  });
  after(async () => {
    await browser?.close();
    rmSync(out, { recursive: true, force: true });
  });

  const figure = (id: string) => page.locator(`figure[data-chart="${id}"]`);
  /** Texts of a chart's own text marks (not axis or legend labels). */
  const markTexts = (id: string) => figure(id).locator("g.role-mark.mark-text text").allTextContents();
  const axisLabels = (id: string) => figure(id).locator("g.role-axis-label text").allTextContents();
  const legendLabels = (id: string) => figure(id).locator("g.role-legend-label text").allTextContents();

  it("marks a zero bar with 0 and a missing value with –", async () => {
    const id = "categories-subtlememory";
    await figure(id).screenshot({ path: join(shots, "report-zero-vs-missing.png") });
    const texts = await markTexts(id);
    // none: 0 in all three relation types; scored/bm25: 0 on the contradictory questions.
    assert.equal(texts.filter((t) => t === "0").length, 4, texts.join(" "));
    // offline/bm25 has no accuracy in any relation type: three "–", never a bare empty slot.
    assert.equal(texts.filter((t) => t === "–").length, 3, texts.join(" "));
    assert.deepEqual((await legendLabels(id)).sort(), ["none", "offline/bm25", "scored/bm25"]);
    assert.match((await figure(id).textContent()) ?? "", /"–" marks a system with no value there/);
  });

  it("shows every system of both runs in the overview, the unscored one on the retrieval headline", async () => {
    await figure("competency-profile").screenshot({ path: join(shots, "report-profile-combined.png") });
    const labels = await axisLabels("competency-profile");
    for (const name of ["none", "scored/bm25", "offline/bm25", "subtlememory", "subtlememory (recall_all@10)"]) {
      assert.ok(labels.includes(name), `${name} in ${labels.join(", ")}`);
    }
    for (const id of ["accuracy-latency", "accuracy-tokens"]) {
      assert.deepEqual((await legendLabels(id)).filter((l) => !l.startsWith("subtlememory")).sort(), [
        "none",
        "offline/bm25",
        "scored/bm25",
      ]);
    }
    // The caption says which run each short name stands for.
    assert.match(
      (await figure("competency-profile").textContent()) ?? "",
      /scored = run 2026-11-26-subtle-scored; offline = run 2026-11-26-subtle-offline/,
    );
  });

  it("places scatter labels without overlaps", async () => {
    for (const id of ["accuracy-latency", "accuracy-tokens"]) {
      await figure(id).screenshot({ path: join(shots, `report-${id}.png`) });
      const boxes = (
        await figure(id)
          .locator("g.role-mark.mark-text text")
          .evaluateAll((nodes) =>
            nodes.map((n) => (n as unknown as { getBoundingClientRect(): DOMRectLike }).getBoundingClientRect()),
          )
      ).map((b) => ({ x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height }));
      assert.ok(boxes.length >= 3, `${id}: ${boxes.length} labels`);
      for (let i = 0; i < boxes.length; i++) {
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          assert.ok(
            a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0,
            `${id}: labels ${i} and ${j} overlap`,
          );
        }
      }
    }
  });
});

interface DOMRectLike {
  x: number;
  y: number;
  width: number;
  height: number;
}
