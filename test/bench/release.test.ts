import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type ReleaseResult, runReleaseBench } from "../../bench/release.ts";
import { fixtureData } from "../../bench/support.ts";
import { captureLog } from "../support/capture-log.ts";

describe("bench/release", () => {
  const dir = mkdtempSync(join(tmpdir(), "mb-bench-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("runs bm25-session and the bare loop on the same data, agreeing on every recall_all@k, and writes release.json", async () => {
    await captureLog(() => runReleaseBench({ source: fixtureData("realmem"), replicas: [2], resultsDir: dir }));
    const result = JSON.parse(readFileSync(join(dir, "release.json"), "utf8")) as ReleaseResult;
    assert.equal(result.bench, "release");
    assert.deepEqual(result.targets, { wallRatio: 1.5, maxRssBytes: 400 * 1024 * 1024, metricTolerance: 0.01 });
    assert.deepEqual(
      result.rows.map((r) => [r.data, r.personas, r.queries]),
      [
        ["fixture test/fixtures/realmem (1 persona)", 1, 4],
        ["fixture test/fixtures/realmem ×2 replicated (2 personas)", 2, 8],
      ],
    );
    for (const r of result.rows) {
      assert.deepEqual(r.membench.metrics, r.bare.metrics);
      assert.equal(r.metricsAgree, true);
      assert.ok(r.membench.wallMs > 0 && r.bare.wallMs > 0);
      // The walls are rounded to 0.1 ms in the file, the ratio (to 0.01) from the unrounded ones.
      assert.ok(Math.abs(r.wallRatio / (r.membench.wallMs / r.bare.wallMs) - 1) < 0.01, String(r.wallRatio));
      assert.ok(r.membench.maxRssBytes! > 10 * 1024 * 1024, "a Node process's peak RSS, measured");
    }
  });
});
