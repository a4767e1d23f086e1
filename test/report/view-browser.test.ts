/**
 * Drives the viewer in Debian's chromium: open a run, filter to incorrect
 * probes, open one, read its retrieved items and verdict, override it and
 * watch the results table change. Markup planted in the data, the answer and
 * the judge's reason must show as text and never run.
 *
 * Chromium is found as test/support/chromium.ts says (CHROMIUM_PATH, then
 * chromium, chromium-browser or google-chrome on PATH); without it the test
 * skips, except under CI=true, where it fails.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Browser, Page } from "playwright-core";
import { probeKey } from "../../src/report/view/runs.ts";
import { startViewer, type Viewer } from "../../src/report/view/server.ts";
import type { Summary } from "../../src/run/summary.ts";
import { chromiumSkip, findChromium, launchChromium, requireChromium, until } from "../support/chromium.ts";
import { type DirLock, lockDir } from "../support/read-only.ts";
import { makeViewerRuns, XSS_ANSWER, XSS_QUESTION, XSS_TURN } from "./view-run.ts";

const CHROMIUM = findChromium();
const skip = chromiumSkip(CHROMIUM, "viewer browser tests");

const TMP = mkdtempSync(join(tmpdir(), "membench-view-browser-"));

/** Polls a condition of the page (the front end redraws asynchronously). */
const key = (system: string, probeId: string) =>
  probeKey({ unitId: `${system}|${probeId}`, probeId, setting: "default" });

describe("membench view in a browser", { skip }, () => {
  let runs: string;
  let viewer: Viewer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    const executablePath = requireChromium(CHROMIUM);
    runs = await makeViewerRuns(TMP);
    viewer = await startViewer({ runsDir: runs, port: 0 });
    browser = await launchChromium(executablePath);
    page = await browser.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });

  const locks: DirLock[] = [];
  after(async () => {
    await browser?.close();
    await viewer?.close();
    for (const lock of locks) lock.unlock();
    rmSync(TMP, { recursive: true, force: true });
  });

  const accuracyCell = (system: string) =>
    page.locator(`#summary-table tr[data-system="${system}"] td[data-metric="accuracy"]`);

  it("sets two runs side by side and links the flipped probe to its drill-down", async () => {
    await page.goto(viewer.url);
    await page.selectOption("#diff-a", "alpha");
    await page.selectOption("#diff-b", "beta");
    await page.click("#diff-go");
    const flipped = page.locator('.diff-probes tr[data-direction="wrong→right"]');
    await flipped.waitFor();
    assert.equal(await page.locator(".diff-probes tbody tr").count(), 1);
    assert.equal(await flipped.locator("td").first().textContent(), "9c3d7a22");
    assert.match(
      (await page.locator('.diff-rows tr[data-value="all"]').textContent()) ?? "",
      /0\.500.*0\.750.*\+0\.250/,
    );
    await flipped.locator("a").first().click();
    await page.locator("#detail #question").waitFor();
    assert.equal(await page.locator("#detail #question").textContent(), XSS_QUESTION);
    assert.match(page.url(), /#\/run\/alpha\/probe\//);
    assert.deepEqual(pageErrors, []);
  });

  it("opens a run, filters to incorrect probes, opens one, overrides its verdict and sees the table update", async () => {
    await page.goto(viewer.url);
    await page.locator("#runs-table").getByRole("link", { name: "alpha" }).click();
    await page.locator("#summary-table").waitFor();
    assert.match((await accuracyCell("bm25").textContent()) ?? "", /^0\.500/);

    await page.selectOption("#filter-outcome", "incorrect");
    await until("four incorrect probes listed", async () => {
      const rows = page.locator("#probe-list tbody tr");
      return (await rows.count()) === 4 && (await rows.and(page.locator('[data-outcome="incorrect"]')).count()) === 4;
    });
    assert.match(page.url(), /outcome=incorrect/);

    const target = key("bm25", "9c3d7a22");
    await page.locator(`#probe-list tr[data-key="${target}"]`).click();
    await page.locator("#detail #question").waitFor();
    // The planted markup reads as text.
    assert.equal(await page.locator("#detail #question").textContent(), XSS_QUESTION);
    assert.equal(await page.locator("#detail #answer").textContent(), XSS_ANSWER);
    assert.equal(
      await page
        .locator("#gold-answers li")
        .allTextContents()
        .then((t) => t.join("|")),
      "3",
    );

    const items = page.locator("#retrieved .item");
    assert.ok((await items.count()) > 0);
    assert.ok((await page.locator("#retrieved .item.evidence").count()) > 0);
    assert.equal(await items.first().getAttribute("data-rank"), "1");
    assert.ok((await page.locator("#retrieved mark").allTextContents()).includes(XSS_TURN));
    assert.ok(((await page.locator("#context").textContent()) ?? "").length > 0);

    assert.match((await page.locator("#verdict-line").textContent()) ?? "", /^incorrect — accuracy 0 of 1/);
    assert.equal(
      await page.locator("#judge-verdicts .reason").first().textContent(),
      "<b>wrong</b> count <script>window.__pwned = 5</script>",
    );
    assert.equal(await page.evaluate("typeof window.__pwned"), "undefined");
    assert.equal(await page.locator("#app script, #app img, #app b").count(), 0);

    await page.fill("#override-comment", "three plants: the reply counts them right");
    await page.click("#override-correct");
    await page.locator("#override-note").waitFor();
    assert.match(
      (await page.locator("#override-note").textContent()) ?? "",
      /three plants: the reply counts them right/,
    );
    assert.match((await page.locator("#verdict-line").textContent()) ?? "", /^correct/);
    await until("bm25 accuracy 0.750 in the table", async () =>
      /^0\.750/.test((await accuracyCell("bm25").textContent()) ?? ""),
    );
    assert.match((await accuracyCell("none").textContent()) ?? "", /^0\.500/);
    // The list still shows incorrect probes only, so the overridden one has left it.
    await until("three probes left", async () => (await page.locator("#probe-list tbody tr").count()) === 3);

    const summary = JSON.parse(readFileSync(join(runs, "alpha", "summary.json"), "utf8")) as Summary;
    assert.equal(summary.results.find((r) => r.system === "bm25")!.metrics.accuracy, 0.75);
    assert.deepEqual(pageErrors, []);
  });

  it("on a read-only run, says overrides are unavailable where the form would be", async (t) => {
    const folder = join(TMP, "archive");
    cpSync(join(runs, "beta"), join(folder, "beta"), { recursive: true });
    const lock = lockDir(join(folder, "beta"));
    locks.push(lock);
    if (lock.kind === "none") {
      t.skip("nothing makes a folder read-only for this process (root without chattr)");
      return;
    }
    const archive = await startViewer({ runsDir: folder, port: 0 });
    try {
      await page.goto(`${archive.url}#/run/beta/probe/${key("bm25", "9c3d7a22")}`);
      await page.locator("#override-unavailable").waitFor();
      assert.match(
        (await page.locator("#override-unavailable").textContent()) ?? "",
        /^overrides are unavailable: this run is read-only \(.*beta/,
      );
      assert.equal(await page.locator("#override-correct, #override-comment").count(), 0);
      assert.match(
        (await page.locator("#read-only-note").textContent()) ?? "",
        /^Read-only run: overrides are unavailable/,
      );
      assert.match((await page.locator("#verdict-line").textContent()) ?? "", /^correct/);
      assert.deepEqual(pageErrors, []);
    } finally {
      await archive.close();
    }
  });
});
