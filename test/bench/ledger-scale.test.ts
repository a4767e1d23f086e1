import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runLedgerScaleBench, type ScaleResult } from "../../bench/ledger-scale.ts";
import { captureLog } from "../support/capture-log.ts";

describe("bench/ledger-scale", () => {
  const dir = mkdtempSync(join(tmpdir(), "mb-bench-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("builds each size in its own process, times search quiet and with the other cores busy, and writes ledger-scale.json", async () => {
    const { printed } = await captureLog(() =>
      runLedgerScaleBench({ sizes: [300, 600], queries: 20, resultsDir: dir }),
    );
    const result = JSON.parse(readFileSync(join(dir, "ledger-scale.json"), "utf8")) as ScaleResult;
    assert.equal(result.bench, "ledger-scale");
    assert.equal(result.embedder, "hashing:256");
    assert.equal(result.queries, 20);
    assert.deepEqual(
      result.rows.map((r) => [r.size, r.memories, r.rssPer100kBasis]),
      [
        [300, 300, "average"],
        [600, 600, "marginal"],
      ],
    );
    for (const r of result.rows) {
      assert.ok(r.turnsPerSecond > 0 && r.storeBytes > 0 && r.maxRssBytes > 0);
      assert.ok(r.spinners >= 1);
      for (const phase of [r.quiet, r.busy]) {
        for (const kind of ["full", "lexical", "fts"] as const) {
          assert.ok(
            phase[kind].p50 > 0 && phase[kind].p95 >= phase[kind].p50,
            `${kind} ${JSON.stringify(phase[kind])}`,
          );
        }
      }
    }
    assert.equal(result.withinTarget, undefined, "no 100k row, no verdict");
    assert.match(printed, /search with \d+ other core\(s\) busy/);
  });
});
