/**
 * The viewer on a run of 160 probe records, in Chromium: the list comes a
 * page at a time with filters and an order kept in the address, and a probe
 * clicked far down the list shows its drill-down in view (a sticky panel
 * beside the list, a routed page `#/run/<id>/probe/<key>` that Back leaves).
 *
 * Screenshots go to the test's temporary folder, or to SCREENSHOTS_DIR
 * when set (to look at them).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startViewer, type Viewer } from "../../src/report/view/server.ts";
import { chromiumSkip, findChromium, launchChromium, requireChromium, until } from "../support/chromium.ts";
import { makeManyProbesRun } from "./view-many.ts";

const CHROMIUM = findChromium();
const skip = chromiumSkip(CHROMIUM, "viewer paging browser tests");
const TMP = mkdtempSync(join(tmpdir(), "membench-view-pages-"));
const SHOTS = process.env.SCREENSHOTS_DIR || join(TMP, "shots");
const COPIES = 20; // 4 questions × 20 copies × 2 systems = 160 records

describe("membench view: paging and drill-down on a long run", { skip }, () => {
  let viewer: Viewer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    const executablePath = requireChromium(CHROMIUM);
    mkdirSync(SHOTS, { recursive: true });
    viewer = await startViewer({ runsDir: await makeManyProbesRun(TMP, COPIES), port: 0 });
    browser = await launchChromium(executablePath);
    page = await browser.newPage({ viewport: { width: 1400, height: 800 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });
  after(async () => {
    await browser?.close();
    await viewer?.close();
    rmSync(TMP, { recursive: true, force: true });
  });

  const rows = () => page.locator("#probe-list tbody tr");
  const count = async () => (await page.locator("#probe-count").textContent()) ?? "";

  it("lists one page at a time and pages with the pager, the page kept in the address", async () => {
    await page.goto(`${viewer.url}#/run/many`);
    await until("the first page", async () => (await rows().count()) === 50);
    assert.equal(await count(), "1–50 of 160 probe records");
    assert.equal(await page.locator("#pager-page").textContent(), "page 1 of 4");
    await page.click("#pager-next");
    await until("page 2", async () => (await count()).startsWith("51–100 of 160"));
    assert.match(page.url(), /page=2/);
    await page.click("#pager-last");
    await until("the last page", async () => (await count()) === "151–160 of 160 probe records");
    assert.equal(await rows().count(), 10);
    await page.goBack();
    await until("Back returns to page 2", async () => (await count()).startsWith("51–100"));
    await page.selectOption("#filter-size", "100");
    await until("100 a page, from page 1", async () => (await count()) === "1–100 of 160 probe records");
    assert.equal(await page.locator("#pager-page").textContent(), "page 1 of 2");
    assert.deepEqual(pageErrors, []);
  });

  it("filters by system, setting, label and verdict, and sorts", async () => {
    await page.goto(`${viewer.url}#/run/many`);
    await rows().first().waitFor();
    await page.selectOption("#filter-system", "none");
    await until("none only", async () => (await count()).startsWith("1–50 of 80 "));
    await page.selectOption("#filter-outcome", "correct");
    // "Which city…" is the one question judged right: 20 copies.
    await until("20 correct", async () => (await count()).startsWith("1–20 of 20 "));
    assert.ok(
      (await page.locator("#probe-list tbody td.question-cell").allTextContents()).every((q) =>
        q.startsWith("Which city"),
      ),
    );
    await page.selectOption("#filter-outcome", "");
    await page.selectOption("#filter-label-question_type", "multi-session");
    await until("one question type", async () => (await count()).startsWith("1–20 of 20 "));
    assert.match(page.url(), /system=none/);
    assert.match(page.url(), /label\.question_type=multi-session/);

    await page.selectOption("#filter-label-question_type", "");
    await page.selectOption("#filter-system", "");
    await page.selectOption("#filter-sort", "verdict");
    await until("sorted by verdict", async () => (await count()).startsWith("1–50 of 160"));
    assert.equal(await rows().first().getAttribute("data-outcome"), "incorrect");
    await page.selectOption("#filter-order", "desc");
    await until("correct first", async () => (await rows().first().getAttribute("data-outcome")) === "correct");
    assert.equal(await rows().nth(39).getAttribute("data-outcome"), "correct");
    assert.equal(await rows().nth(40).getAttribute("data-outcome"), "incorrect");
    await page.selectOption("#filter-sort", "probe");
    await page.selectOption("#filter-order", "");
    // Natural order of the ids: the 8 records of copy 1 (4 questions × 2 systems), then copy 2's.
    await until("sorted by probe id", async () => !(await page.url()).includes("order=desc"));
    await until("copy 1 first", async () =>
      /^c01-/.test((await rows().nth(7).locator("td").first().textContent()) ?? ""),
    );
    assert.match((await rows().nth(8).locator("td").first().textContent()) ?? "", /^c02-/);
    assert.deepEqual(pageErrors, []);
  });

  it("shows the drill-down of a probe far down the list in view, and Back returns to the list", async () => {
    await page.goto(`${viewer.url}#/run/many?size=200`);
    await until("all 160 rows", async () => (await rows().count()) === 160);
    const target = rows().nth(150);
    const probeId = (await target.locator("td").first().textContent()) ?? "";
    const question = (await target.locator("td.question-cell").textContent()) ?? "";
    await target.scrollIntoViewIfNeeded();
    const scrolled = await page.evaluate<number>("window.scrollY");
    assert.ok(scrolled > 2000, `the row is far down the page (scrollY ${scrolled})`);
    await target.click();
    await page.locator("#detail #question").waitFor();
    assert.equal(await page.locator("#detail h2").textContent(), probeId);
    assert.equal(await page.locator("#detail #question").textContent(), question);
    // In view: the panel's heading and question lie inside the viewport, without scrolling the list away.
    const box = await page.locator("#detail h2").boundingBox();
    assert.ok(box && box.y >= 0 && box.y + box.height <= 800, `detail heading at y=${box?.y}`);
    assert.ok(await page.locator("#detail #question").isVisible());
    const q = await page.locator("#detail #question").boundingBox();
    assert.ok(q && q.y >= 0 && q.y < 800, `question at y=${q?.y}`);
    assert.ok(
      Math.abs((await page.evaluate<number>("window.scrollY")) - scrolled) < 400,
      "the list stays where it was",
    );
    assert.match(page.url(), /#\/run\/many\/probe\/[^?]+\?size=200$/);
    await page.screenshot({ path: join(SHOTS, "viewer-drilldown-far-down.png") });

    await page.goBack();
    await until("Back leaves the probe", async () => !/\/probe\//.test(page.url()));
    await until("the detail is cleared", async () =>
      /^Select a probe/.test((await page.locator("#detail").textContent()) ?? ""),
    );
    assert.equal(await rows().count(), 160);
    assert.deepEqual(pageErrors, []);
  });

  it("on a narrow window, scrolls the drill-down (below the list) into view", async () => {
    const narrow = await browser.newPage({ viewport: { width: 800, height: 700 } });
    try {
      await narrow.goto(`${viewer.url}#/run/many?size=100`);
      await until("100 rows", async () => (await narrow.locator("#probe-list tbody tr").count()) === 100);
      const target = narrow.locator("#probe-list tbody tr").nth(90);
      await target.click();
      await narrow.locator("#detail #question").waitFor();
      await until("the detail scrolled into view", async () => {
        const b = await narrow.locator("#detail h2").boundingBox();
        return Boolean(b && b.y >= 0 && b.y < 700);
      });
      await narrow.screenshot({ path: join(SHOTS, "viewer-drilldown-narrow.png") });
    } finally {
      await narrow.close();
    }
  });
});
