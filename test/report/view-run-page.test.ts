/**
 * The viewer's run page in Chromium, on three kinds of run:
 * - LoCoMo answered by a scripted model and scored with token F1 (no judge):
 *   the results table leads with the headline `f1` (categories 1–4), shows no
 *   "judge failures" column, and the paper tables are the report's merged
 *   ones (reported rows beside ours, CIs) with the retrieval tables by family;
 * - LongMemEval with no model: the page says no model was configured, and the
 *   headline is the report's retrieval fallback, recall_all@10;
 * - a copy of a scored run whose scores were removed: the page says the
 *   answers wait for `membench score`.
 *
 * Screenshots go to SCREENSHOTS_DIR when set.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import type { Browser, Page } from "playwright-core";
import { startViewer, type Viewer } from "../../src/report/view/server.ts";
import { startRun } from "../../src/run/runner.ts";
import { STORE_FILE } from "../../src/run/store.ts";
import { chromiumSkip, findChromium, launchChromium, requireChromium } from "../support/chromium.ts";
import { fixture } from "../support/shared-data.ts";

const CHROMIUM = findChromium();
const skip = chromiumSkip(CHROMIUM, "viewer run page browser tests");
const TMP = mkdtempSync(join(tmpdir(), "membench-view-page-"));
const SHOTS = process.env.SCREENSHOTS_DIR || join(TMP, "shots");

describe("membench view: the run page's results, headline and tables", { skip }, () => {
  let viewer: Viewer;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  before(async () => {
    const executablePath = requireChromium(CHROMIUM);
    mkdirSync(SHOTS, { recursive: true });
    const runs = join(TMP, "runs");
    const script = join(TMP, "locomo.jsonl");
    writeFileSync(script, `${JSON.stringify({ role: "answerer", reply: "Caroline went to a support group" })}\n`);
    await startRun({
      benchmark: "locomo",
      data: fixture("locomo"),
      systems: ["bm25"],
      out: runs,
      id: "locomo",
      progress: false,
      llm: `scripted:${script}`,
    });
    const lme = fixture("longmemeval/longmemeval_s_cleaned.json");
    await startRun({
      benchmark: "longmemeval",
      data: lme,
      systems: ["bm25"],
      out: runs,
      id: "offline",
      progress: false,
    });
    await startRun({
      benchmark: "longmemeval",
      data: lme,
      systems: ["bm25"],
      out: runs,
      id: "answered",
      progress: false,
      llm: `scripted:${script}`,
    });
    // The same run before `membench score`: answers stored, no scores.
    cpSync(join(runs, "answered"), join(runs, "pending"), { recursive: true });
    const db = new Database(join(runs, "pending", STORE_FILE));
    db.prepare("DELETE FROM scores").run();
    db.close();
    viewer = await startViewer({ runsDir: runs, port: 0 });
    browser = await launchChromium(executablePath);
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on("pageerror", (error) => pageErrors.push(error.message));
  });
  after(async () => {
    await browser?.close();
    await viewer?.close();
    rmSync(TMP, { recursive: true, force: true });
  });

  const headers = () => page.locator("#summary-table thead th").allTextContents();

  it("leads a scored LoCoMo run with its headline f1, without judge failures when no judge ran", async () => {
    await page.goto(`${viewer.url}#/run/locomo`);
    await page.locator("#summary-table").waitFor();
    const head = await headers();
    assert.equal(head[3], "f1 (headline)");
    assert.ok(!head.includes("judge failures"), head.join(" | "));
    assert.match((await page.locator('#summary-table td[data-metric="f1"]').textContent()) ?? "", /^\d(\.\d{3})? \[/);
    assert.match((await page.locator("#headline-note").textContent()) ?? "", /token F1 \(f1\)/);
    assert.equal(await page.locator("#missing-scores").count(), 0);

    await page.locator("#paper-tables summary").click();
    await page.locator("#paper-tables table.paper-table").first().waitFor();
    const ids = await page
      .locator("#paper-tables table.paper-table")
      .evaluateAll((t) => t.map((x) => x.getAttribute("data-table")));
    assert.ok(ids.includes("retrieval-recall") && ids.includes("retrieval-ndcg"), ids.join(", "));
    // One merged table per layout: the paper's rows beside ours, ours with n and a CI.
    // LoCoMo publishes J (LLM judge) numbers: their table stands beside our row, which says J did not run.
    const j = page.locator('#paper-tables table.paper-table[data-table="locomo-j"]');
    assert.ok((await j.locator("tr.reported").count()) > 3, `reported rows in ${ids.join(", ")}`);
    assert.equal(await j.locator("tr.ours").count(), 1);
    const f1 = page.locator('#paper-tables table.paper-table[data-table="locomo-f1"]');
    const ours = await f1.locator("tr.ours").first().locator("td").allTextContents();
    assert.equal(ours[0], "membench");
    assert.ok(
      ours.some((c) => /^\d+\.\d+ \[\d+\.\d+, \d+\.\d+\]/.test(c)),
      ours.join(" | "),
    );
    await page.screenshot({ path: join(SHOTS, "viewer-locomo-run.png"), fullPage: true });
    assert.deepEqual(pageErrors, []);
  });

  it("says no model was configured on a run without one, with the report's retrieval headline", async () => {
    await page.goto(`${viewer.url}#/run/offline`);
    await page.locator("#summary-table").waitFor();
    assert.match((await page.locator("#missing-scores").textContent()) ?? "", /^No answer model was configured/);
    const head = await headers();
    assert.equal(head[3], "recall_all@10 (headline)");
    assert.ok(!head.includes("judge failures"));
    await page.goto(viewer.url);
    await page.locator("#runs-table").waitFor();
    assert.match(
      (await page.locator('#runs-table tr[data-run="offline"]').textContent()) ?? "",
      /bm25 \/ default: recall_all@10 /,
    );
    assert.match((await page.locator('#runs-table tr[data-run="locomo"]').textContent()) ?? "", /: f1 /);
    await page.screenshot({ path: join(SHOTS, "viewer-runs.png") });
  });

  it("says the answers wait for membench score on an answered run without scores", async () => {
    await page.goto(`${viewer.url}#/run/pending`);
    await page.locator("#summary-table").waitFor();
    assert.match(
      (await page.locator("#missing-scores").textContent()) ?? "",
      /^The answers are stored but not scored yet: run `membench score .*pending`/,
    );
    assert.deepEqual(pageErrors, []);
  });
});
