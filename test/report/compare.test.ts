/**
 * `compareRuns` on real runs (see sample-runs.ts). SubtleMemory: bm25 is right
 * on 6 of 8 questions by default (complementary 2, nuanced 4), none on 0, so
 * every one of the 6 flips right → wrong. McNemar on 6 / 0 discordant
 * questions: p = 2 · 0.5⁶ = 0.03125; nuanced 4 / 0: p = 0.125; complementary
 * 2 / 0: p = 0.5; contradictory 0 / 0: p = 1. Holm over the three category
 * rows (sorted 0.125, 0.5, 1): 0.375, 1, 1.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { after, before, describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { compareRuns, comparisonMarkdown } from "../../src/report/compare.ts";
import { cell, tableAfter } from "./markdown-table.ts";
import { realmemOfflineRun, subtleMemoryRun, tempDir } from "./sample-runs.ts";

const close = (a: number | undefined, b: number, what: string) =>
  assert.ok(a !== undefined && Math.abs(a - b) < 1e-9, `${what}: ${a} ≉ ${b}`);

function discordant(
  m: { onlyA: number; onlyB: number; p: number } | undefined,
  onlyA: number,
  onlyB: number,
  p: number,
) {
  assert.ok(m, "McNemar result");
  assert.deepEqual([m.onlyA, m.onlyB], [onlyA, onlyB]);
  close(m.p, p, "McNemar p");
}

describe("compareRuns", () => {
  const out = tempDir();
  let both: string;
  let bm25: string;
  let none: string;
  let realmem: string;

  before(async () => {
    both = await subtleMemoryRun(out, { id: "both" });
    bm25 = await subtleMemoryRun(out, { id: "bm25-only", systems: ["bm25"] });
    none = await subtleMemoryRun(out, { id: "none-only", systems: ["none"] });
    realmem = await realmemOfflineRun(out);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("aligns two one-system runs and tests the accuracy per relation type", () => {
    const [c] = compareRuns(bm25, none);
    assert.ok(c);
    assert.equal(c.metric, "accuracy");
    assert.equal(c.metricKind, "scored");
    assert.equal(c.binary, true);
    assert.deepEqual([c.a.system, c.b.system], ["bm25", "none"]);
    assert.equal(c.aligned, 8);
    assert.equal(c.onlyInA + c.onlyInB, 0);
    close(c.overall?.meanA, 0.75, "A");
    close(c.overall?.meanB, 0, "B");
    close(c.overall?.delta, -0.75, "delta");
    discordant(c.overall?.mcnemar, 6, 0, 0.03125);
    assert.ok(c.overall!.ci[1] < 0, `CI ${c.overall!.ci} excludes 0`);
    const byType = Object.fromEntries(c.rows.map((r) => [r.value, r]));
    assert.deepEqual(Object.keys(byType), ["complementary", "contradictory", "nuanced"]);
    discordant(byType.nuanced?.mcnemar, 4, 0, 0.125);
    assert.equal(byType.complementary?.mcnemar?.p, 0.5);
    assert.equal(byType.contradictory?.mcnemar?.p, 1);
    close(byType.nuanced?.pHolm, 0.375, "Holm nuanced");
    close(byType.complementary?.pHolm, 1, "Holm complementary");
    close(byType.contradictory?.delta, 0, "contradictory delta");
  });

  it("lists every flipped probe with its question", () => {
    const [c] = compareRuns(bm25, none);
    assert.equal(c!.changed.length, 6);
    assert.ok(c!.changed.every((p) => p.direction === "right→wrong" && p.a === 1 && p.b === 0));
    assert.ok(c!.changed.some((p) => p.question === "What kind of vessel crosses Korvia harbour?"));
    assert.ok(!c!.changed.some((p) => p.labels.relation_type === "contradictory"));
  });

  it("compares two systems of one run, and the oracle setting where none is right too", () => {
    const [c] = compareRuns(both, both, { systemA: "none", systemB: "bm25" });
    discordant(c!.overall?.mcnemar, 0, 6, 0.03125);
    assert.ok(c!.changed.every((p) => p.direction === "wrong→right"));
    const [oracle] = compareRuns(both, both, { systemA: "none", systemB: "bm25", setting: "oracle" });
    assert.equal(oracle!.changed.length, 0);
    close(oracle!.overall?.delta, 0, "oracle delta");
  });

  it("pairs shared systems of two runs by name", () => {
    const comparisons = compareRuns(both, bm25);
    assert.deepEqual(
      comparisons.map((c) => [c.a.system, c.b.system]),
      [["bm25", "bm25"]],
    );
    assert.equal(comparisons[0]!.changed.length, 0);
  });

  it("falls back to a retrieval metric when no answer was scored", () => {
    const [c] = compareRuns(realmem, realmem, { systemA: "bm25-session", systemB: "none" });
    assert.equal(c!.metric, "recall_all@10");
    assert.equal(c!.metricKind, "retrieval");
    assert.equal(c!.aligned, 4);
    discordant(c!.overall?.mcnemar, 3, 0, 0.25);
    assert.equal(c!.label, "category");
    assert.equal(c!.rows.length, 4);
  });

  it("refuses what cannot be aligned", () => {
    assert.throws(() => compareRuns(bm25, realmem), ConfigError);
    assert.throws(() => compareRuns(both, both), /--system-a/);
    assert.throws(() => compareRuns(both, both, { systemA: "bm25", systemB: "dense" }), /no system "dense"/);
    assert.throws(() => compareRuns(bm25, none, { metric: "no_such_metric" }), /no per-probe "no_such_metric"/);
  });

  it("renders the table and the flips in markdown", () => {
    const md = comparisonMarkdown(compareRuns(bm25, none));
    const t = tableAfter(md, "subtlememory");
    assert.deepEqual(t.header, [
      "relation_type",
      "n",
      "A",
      "B",
      "Δ",
      "95% CI",
      "only A right / only B right",
      "McNemar p",
      "p (Holm)",
    ]);
    assert.equal(
      cell(t, (r) => r[0] === "nuanced", "McNemar p"),
      "0.125",
    );
    assert.equal(
      cell(t, (r) => r[0] === "nuanced", "p (Holm)"),
      "0.375",
    );
    assert.equal(
      cell(t, (r) => r[0] === "all", "Δ"),
      "-75.0",
    );
    const flips = tableAfter(md, "Flipped probes (6)");
    assert.equal(flips.rows.length, 6);
  });
});
