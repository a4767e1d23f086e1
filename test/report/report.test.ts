/**
 * `membench report` in markdown and JSON on real runs of the fixtures: the
 * paper's layouts with the reported rows beside ours, n and 95% CIs, the
 * retrieval table, cost and latency, the skipped stages, and escaping.
 *
 * Hand-worked numbers (see sample-runs.ts): SubtleMemory bm25 answers 6 of 8
 * questions right in every setting (complementary 2/2, nuanced 4/4,
 * contradictory 0/2); bootstrap resamples stratified by relation type always
 * keep those counts, so its CI is [75, 75]. `none` is right only under oracle.
 *
 * The tables' column layouts are checked against the spec's headers in
 * spec-layouts.test.ts.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import type { ReportSummary } from "../../src/report/json.ts";
import { renderReport } from "../../src/report/report.ts";
import { startRun } from "../../src/run/runner.ts";
import { fixture } from "../support/shared-data.ts";
import { cell, tableAfter } from "./markdown-table.ts";
import { INJECTED, memconflictRun, memoraRun, realmemOfflineRun, subtleMemoryRun, tempDir } from "./sample-runs.ts";

const ours = (system: string) => (row: string[]) => row[0]?.startsWith("membench") === true && row.includes(system);
const reported = (system: string, tag?: string) => (row: string[]) =>
  row[0] === (tag ? `reported (${tag})` : "reported") && row.includes(system);

describe("markdown report", () => {
  const out = tempDir();
  let md = "";
  let dirs: Record<string, string>;

  before(async () => {
    dirs = {
      subtle: await subtleMemoryRun(out),
      realmem: await realmemOfflineRun(out),
      memconflict: await memconflictRun(out),
      memora: await memoraRun(out),
    };
    md = await renderReport([dirs.subtle!, dirs.realmem!, dirs.memconflict!, dirs.memora!], "md", {
      generatedAt: new Date("2026-01-02T03:04:05Z"),
    });
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("has one section per benchmark, in the order given", () => {
    const sections = md.split("\n").filter((l) => l.startsWith("## "));
    assert.deepEqual(
      sections.map((s) => /\(`(\w+)`\)$/.exec(s)?.[1]),
      ["subtlememory", "realmem", "memconflict", "memora"],
    );
  });

  it("prints SubtleMemory Table 1 in the paper's columns, reported rows beside ours with n and CI", () => {
    const t = tableAfter(md, "SubtleMemory Table 1");
    assert.deepEqual(t.header, [
      "source",
      "group",
      "system",
      "n",
      "ME",
      "AO",
      "Comp",
      "Temp",
      "Ctx",
      "Nu",
      "Contr",
      "All",
    ]);
    assert.equal(cell(t, reported("Mem0", "gpt-5.4, default"), "All"), "68.99");
    assert.equal(cell(t, reported("Oracle", "gpt-oss-120b, default"), "Contr"), "41.64");
    assert.equal(cell(t, reported("A-Mem", "gpt-5.4, perfect"), "All"), "82.39");
    assert.equal(cell(t, ours("bm25"), "All"), "75.00 [75.00, 75.00] n=8");
    assert.equal(cell(t, ours("bm25"), "Contr"), "0.00 [0.00, 0.00] n=2");
    assert.equal(cell(t, ours("bm25"), "ME"), "100.00 n=1", "no CI from a single question");
    assert.equal(cell(t, ours("none"), "All"), "0.00 [0.00, 0.00] n=8");
    assert.equal(cell(t, ours("none (oracle)"), "All"), "75.00 [75.00, 75.00] n=8");
  });

  it("prints RealMem Table 12 one row per topic, the paper's columns beside ours", () => {
    const t = tableAfter(md, "RealMem Table 12");
    assert.equal(t.header[0], "Topic");
    const row = (topic: string) => (r: string[]) => r[0] === topic;
    assert.equal(cell(t, row("Academic Writing"), "reported: MemoryOS QA"), "0.550");
    assert.equal(cell(t, row("Health Consultation"), "reported: Graph Mem Rec."), "0.651");
    assert.equal(cell(t, row("Travel Planning"), "membench: bm25-session QA"), "–", "not scored: no model");
    assert.equal(t.rows.length, 11);
  });

  it("breaks the by-source table down per label value, each with its own n", () => {
    const t = tableAfter(md, "SubtleMemory accuracy (%) by source");
    assert.deepEqual(t.header.slice(0, 4), ["source", "group", "system", "n"]);
    const related = t.rows.find((r) => r[1] === "user-related" && r[2] === "bm25");
    assert.ok(related, "bm25 user-related row");
    assert.equal(related![t.header.indexOf("All")], "75.00 [33.33, 100.00] n=4");
  });

  it("adds the evidence waterfall with the paper's Figure 3 rows and ours", () => {
    const t = tableAfter(md, "Diagnostic waterfall");
    assert.equal(cell(t, reported("MemoBase", "gpt-5.4, default"), "p_preserve"), "39.08");
    assert.equal(cell(t, ours("bm25"), "p_preserve"), "100.00 [100.00, 100.00] n=6");
    assert.equal(cell(t, ours("none"), "p_preserve"), "0.00 [0.00, 0.00] n=6");
    assert.equal(cell(t, ours("none"), "p_retrieve"), "–", "no question preserved: no P_retrieve, never 0");
    assert.match(cell(t, ours("none"), "note") ?? "", /\\\|S_O\\\| = 6, \\\|S_P\\\| = 0/);
  });

  it("shows unscored RealMem rows as '–' with the reason, beside the paper's", () => {
    const t = tableAfter(md, "RealMem Table 2");
    assert.equal(cell(t, reported("Graph Mem"), "Memory QA-4o-mini"), "0.474");
    assert.equal(cell(t, reported("MemoryOS"), "Session QA-4o-mini"), "–");
    assert.equal(cell(t, ours("bm25-session"), "Memory QA-4o-mini"), "–");
    assert.equal(cell(t, ours("bm25-session"), "note"), "not scored: answer skipped (no model configured)");
  });

  it("prints the retrieval table with the paper's Table 3 and our n and CIs", () => {
    const realmem = md.slice(md.indexOf("(`realmem`)"));
    const t = tableAfter(realmem, "Retrieval from provenance: recall");
    const ndcg = tableAfter(realmem, "Retrieval from provenance: nDCG");
    assert.equal(cell(t, reported("Graph Mem"), "recall_all@10"), "0.634");
    assert.equal(cell(ndcg, reported("Mem0"), "ndcg_realmem@20"), "0.540");
    // Split by family: no nDCG column in the recall table, no recall column in the nDCG one.
    assert.ok(
      t.header.every((c) => !c.startsWith("ndcg")),
      t.header.join(", "),
    );
    assert.ok(
      ndcg.header.every((c) => !c.startsWith("recall")),
      ndcg.header.join(", "),
    );
    assert.ok(ndcg.header.includes("ndcg@10"), ndcg.header.join(", "));
    assert.equal(cell(t, ours("bm25-session"), "n"), "4");
    // Four probes, one per category: the one-probe strata are pooled, so the interval has width.
    assert.equal(cell(t, ours("bm25-session"), "recall_all@10"), "0.750 [0.250, 1.000]");
    assert.equal(cell(t, ours("none"), "recall_all@10"), "0.000 [0.000, 0.000]");
    // Each benchmark shows its own metric names: RealMem's nDCG variant stays in RealMem's section.
    assert.ok(ndcg.header.includes("ndcg_realmem@10"), ndcg.header.join(", "));
    const memora = md.slice(md.indexOf("(`memora`)"));
    assert.ok(memora.includes("Retrieval from provenance: nDCG"), "Memora has an nDCG table");
    assert.equal(memora.includes("ndcg_realmem"), false, "no RealMem metric in Memora's tables");
  });

  it("prints MemConflict's tables with the paper's titles and our per-type n", () => {
    const t = tableAfter(md, "Table 3: black-box");
    // Printed as published: the paper gives four decimals, so the table uses four.
    assert.equal(cell(t, reported("MemOS"), "Average AA"), "0.5539");
    // 1 of 15 dynamic questions right; static and conditional none.
    assert.match(cell(t, ours("bm25"), "Dynamic AA") ?? "", /^0\.0667 \[0\.0000, 0\.2000\] n=15$/);
    assert.match(cell(t, ours("bm25"), "Static AA") ?? "", /^0\.0000 \[0\.0000, 0\.0000\] n=4$/);
  });

  it("prints Memora's MPA and the FAMA reduction in Table 5's columns", () => {
    const t = tableAfter(md, "Memora Table 5");
    assert.equal(cell(t, reported("LangMem"), "Weekly"), "173.00");
    // Every presence criterion met: MPA 100 per task; forgetting broken: FAMA 100 + 50 + 75 = 225.
    // Both cells count the 5 questions, so the row prints its n once.
    assert.equal(cell(t, ours("bm25"), "n"), "5");
    assert.equal(cell(t, ours("bm25"), "Weekly"), "300.00 [300.00, 300.00]");
    assert.equal(cell(t, ours("bm25"), "Weekly (reduction)"), "-75.00 [-75.00, -75.00]");
    assert.equal(cell(t, ours("bm25"), "Monthly"), "–");
  });

  it("names the paper and table of every reported row, never a path outside the repository", () => {
    const lines = md.split("\n").filter((l) => l.startsWith("Reported "));
    assert.ok(lines.length >= 8);
    assert.ok(
      lines.every((l) => /arXiv \d{4}\.\d{5}, (Table|Figure) \d+/.test(l)),
      lines.join("\n"),
    );
    assert.ok(
      lines.includes(
        "Reported rows: RealMem (Bian et al., 2026), arXiv 2601.06966, Table 2 (generation, judge GPT-4o).",
      ),
    );
    assert.doesNotMatch(md, /spec\//);
    // MemConflict's implicit-query rows (Table 5) sit in Table 3's layout, tagged, their source listed.
    const t = tableAfter(md, "Table 3: black-box");
    assert.equal(cell(t, reported("MemOS", "implicit queries"), "Dynamic AA"), "0.3399");
    assert.equal(cell(t, reported("MemOS", "implicit queries"), "Dynamic UOCS"), "–", "Table 5 has no UOCS");
    assert.equal(cell(t, reported("MemOS"), "Dynamic AA"), "0.3793");
    assert.ok(
      lines.includes(
        "Reported rows: MemConflict (Tao et al., 2026), arXiv 2605.20926, Table 3; " +
          "MemConflict (Tao et al., 2026), arXiv 2605.20926, Table 5 (implicit queries).",
      ),
    );
  });

  it("reports latency per stage, ingest seconds, context tokens and cost per role", () => {
    const subtle = md.slice(0, md.indexOf("(`realmem`)"));
    const t = tableAfter(subtle, "Cost and latency");
    assert.match(
      cell(t, (r) => r[0] === "bm25" && r[1] === "default", "search ms p50 / p95") ?? "",
      /^\d+(\.\d)? \/ \d+(\.\d)?$/,
    );
    assert.equal(
      cell(t, (r) => r[0] === "bm25" && r[1] === "default", "answer calls"),
      "8",
    );
    assert.equal(
      cell(t, (r) => r[0] === "bm25" && r[1] === "default", "answer cost"),
      "unknown (no price)",
    );
    const usage = subtle.slice(subtle.indexOf("Model tokens and cost per role"));
    assert.match(usage, /\| answers \| answerer \| +48 \|/);
    assert.match(usage, /\| judging \| judge +\|/);
  });

  it("states plainly which stages did not run and why", () => {
    const realmem = md.slice(md.indexOf("(`realmem`)"), md.indexOf("(`memconflict`)"));
    const skipped = realmem.slice(realmem.indexOf("### Skipped"));
    // The same stage and reason for several rows: one line, with the rows and their number.
    assert.match(skipped, /^- answer — no model configured \(2 rows: bm25-session\/default, none\/default\)$/m);
    assert.match(skipped, /^- judge — no answers to judge \(2 rows: bm25-session\/default, none\/default\)$/m);
    assert.equal(skipped.match(/no model configured/g)?.length, 1);
    assert.match(realmem, /No model was called/);
    const memora = md.slice(md.indexOf("(`memora`)"));
    assert.match(memora, /metric faa — no forgetting criteria \(FAMA takes FAA as 1\) \(2 probes\)/);
  });

  it("escapes text from the data: a <script> in a topic label shows as text", () => {
    assert.doesNotMatch(md, /<script/i);
    const t = tableAfter(md, "SubtleMemory accuracy (%) by topic");
    const groups = t.rows.map((r) => r[1]);
    assert.ok(groups.includes(`&lt;script&gt;window.__pwned=1&lt;/script&gt;Gardening`), groups.join(", "));
    assert.ok(INJECTED.startsWith("<script>"));
  });
});

describe("markdown report: rows collected from several sources", () => {
  const out = tempDir();
  let md = "";
  before(async () => {
    const run = await startRun({
      benchmark: "locomo",
      data: fixture("locomo"),
      systems: ["bm25"],
      out,
      id: "locomo",
      progress: false,
    });
    md = await renderReport([run.dir], "md");
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("names each LoCoMo row's own source, and the mem0 paper's categories by id", () => {
    const t = tableAfter(md, "LoCoMo LLM-judge accuracy J");
    assert.equal(cell(t, reported("Mem0 (paper)"), "single-hop"), "72.93");
    assert.equal(cell(t, reported("Mem0 (paper)"), "multi-hop"), "67.13");
    assert.match(
      cell(t, reported("Mem0 (paper)"), "note")!,
      /source: Mem0 \(Chhikara et al\., 2025\), arXiv 2504\.19413, Table 1/,
    );
    assert.match(cell(t, reported("Zep (2026)"), "note")!, /source: .*https:\/\/www\.getzep\.com\/research\//);
    assert.ok(t.rows.filter((r) => r[0] === "reported").every((r) => r.at(-1)!.includes("source: ")));
    assert.match(md, /placed here by id under the data's names/);
  });
});

describe("JSON report", () => {
  const out = tempDir();
  let subtle: ReportSummary;
  let realmem: ReportSummary;

  before(async () => {
    const a = await subtleMemoryRun(out);
    const b = await realmemOfflineRun(out);
    subtle = JSON.parse(await renderReport([a], "json")) as ReportSummary;
    const both = JSON.parse(await renderReport([a, b], "json")) as ReportSummary[];
    assert.equal(both.length, 2);
    realmem = both[1]!;
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("is summary.json's schema, each row extended with ci, cost, latency and promptSet", () => {
    assert.equal(subtle.benchmark, "subtlememory");
    assert.equal(subtle.results.length, 6);
    for (const row of [...subtle.results, ...realmem.results]) {
      for (const key of [
        "system",
        "setting",
        "n",
        "metrics",
        "byLabel",
        "skipped",
        "skipReasons",
        "latency",
        "cost",
        "ci",
      ]) {
        assert.ok(key in row, `${row.system}/${row.setting} lacks ${key}`);
      }
      assert.ok("promptSet" in row);
      assert.equal(row.cost.costUsd, null, "no price given: cost unknown, not 0");
    }
  });

  it("carries CIs of scored and retrieval metrics, and the row's latency", () => {
    const bm25 = subtle.results.find((r) => r.system === "bm25" && r.setting === "default")!;
    assert.equal(bm25.metrics.accuracy, 0.75);
    assert.deepEqual(bm25.ci.accuracy, [0.75, 0.75]);
    assert.equal(bm25.promptSet, "membench");
    assert.ok(Array.isArray(bm25.ci["recall_all@10"]));
    assert.equal(bm25.latency.search?.n, 8);
    assert.equal(bm25.cost.calls, 8);
    const session = realmem.results.find((r) => r.system === "bm25-session")!;
    assert.equal(session.promptSet, null);
    assert.deepEqual(session.ci["recall_all@10"], [0.25, 1]);
    assert.deepEqual(session.skipped, ["answer", "judge"]);
  });

  it("carries the reported rows with their sources, keyed like our tables, so a leaderboard needs nothing else", () => {
    assert.deepEqual(
      realmem.reported.map((t) => t.id),
      ["realmem-table2", "realmem-table4", "realmem-table12", "retrieval"],
    );
    const retrieval = realmem.reported.find((t) => t.id === "retrieval")!;
    const graph = retrieval.rows.find((r) => r.system === "Graph Mem")!;
    assert.equal(graph.cells["recall_all@10"], 0.6344);
    assert.deepEqual(graph.source, {
      work: "RealMem (Bian et al., 2026)",
      arxiv: "2601.06966",
      url: "https://arxiv.org/abs/2601.06966",
      where: "Table 3 (session-level retrieval)",
    });
    assert.ok(!("ownSource" in graph), "a printing flag, not data");
    // Ours and theirs on one scale: our retrieval metric beside the reported one.
    const session = realmem.results.find((r) => r.system === "bm25-session")!;
    assert.equal(typeof session.metrics["recall_all@10"], "number");

    // A leaderboard row for every reported system and every system of ours, cell by cell.
    const main = subtle.reported.filter((t) => t.id === "subtlememory-main");
    assert.deepEqual(
      main.map((t) => t.tag),
      ["gpt-5.4, default", "gpt-oss-120b, default", "gpt-5.4, perfect"],
    );
    const ours = subtle.results.find((r) => r.system === "bm25" && r.setting === "default")!;
    const table = ours.tables!.find((t) => t.id === "subtlememory-main")!;
    const board = [
      ...main.flatMap((t) =>
        t.rows.map((r) => ({ who: `${r.system} (${t.tag})`, all: r.cells.All, cite: r.source.url })),
      ),
      ...table.rows.map((r) => ({ who: `${r.label} (membench)`, all: r.cells.All, cite: "" })),
    ];
    assert.equal(board.length, 12 + 12 + 11 + 1);
    assert.ok(board.every((r) => typeof r.all === "number"));
    assert.equal(board.find((r) => r.who === "bm25 (membench)")?.all, 75);
    assert.equal(board.find((r) => r.who === "Oracle (gpt-5.4, default)")?.cite, "https://arxiv.org/abs/2606.05761");
  });
});
