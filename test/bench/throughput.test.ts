import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { fixtureData } from "../../bench/support.ts";
import { runThroughputBench, type ThroughputResult } from "../../bench/throughput.ts";
import { captureLog } from "../support/capture-log.ts";

describe("bench/throughput", () => {
  const dir = mkdtempSync(join(tmpdir(), "mb-bench-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("runs membench against the stub at each concurrency, counts the calls and the most in flight, and writes throughput.json", async () => {
    const { printed } = await captureLog(() =>
      runThroughputBench({
        latencyMs: 50,
        concurrencies: [1, 2],
        cases: [
          {
            name: "locomo mini",
            bench: "locomo",
            data: fixtureData("locomo/locomo10-mini.json"),
            system: "bm25-session",
          },
        ],
        resultsDir: dir,
      }),
    );
    const result = JSON.parse(readFileSync(join(dir, "throughput.json"), "utf8")) as ThroughputResult;
    assert.equal(result.bench, "throughput");
    assert.equal(result.latencyMs, 50);
    assert.deepEqual(result.target, { concurrency: 32, efficiency: 0.8 });
    assert.deepEqual(
      result.rows.map((r) => [r.concurrency, r.calls]),
      [
        [1, 4],
        [2, 4],
      ],
      "every answer reaches the stub at each concurrency: a fresh model cache per run",
    );
    for (const r of result.rows) {
      assert.ok(r.maxInFlight >= 1 && r.maxInFlight <= r.concurrency, `${r.maxInFlight} in flight at ${r.concurrency}`);
      assert.equal(r.idealMs, (r.calls * 50) / r.concurrency);
      assert.ok(r.efficiency > 0 && r.efficiency < 1, String(r.efficiency));
    }
    assert.deepEqual(result.withinTarget, {}, "no row at the target concurrency");
    assert.match(printed, /\| locomo mini \| fixture \| 2 \| 4 \|/);
  });
});
