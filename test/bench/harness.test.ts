import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type HarnessResult, runHarnessBench } from "../../bench/harness.ts";
import { fixtureData } from "../../bench/support.ts";
import { captureLog } from "../support/capture-log.ts";

describe("bench/harness", () => {
  const dir = mkdtempSync(join(tmpdir(), "mb-bench-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("takes system and model time out of each run's wall time and writes harness.json", async () => {
    const { printed } = await captureLog(() =>
      runHarnessBench({
        cases: [{ bench: "locomo", data: fixtureData("locomo/locomo10-mini.json") }],
        systems: ["bm25-session"],
        resultsDir: dir,
      }),
    );
    const result = JSON.parse(readFileSync(join(dir, "harness.json"), "utf8")) as HarnessResult;
    assert.equal(result.bench, "harness");
    assert.ok(result.machine.cores >= 1);
    assert.equal(result.targetMsPerProbe, 1);
    const [row] = result.rows;
    assert.equal(row?.system, "bm25-session");
    assert.equal(row.data, "fixture test/fixtures/locomo/locomo10-mini.json");
    const m = row.scripted;
    assert.equal(m.probes, 4);
    assert.equal(m.modelCalls, 4, "one answer per probe; LoCoMo's F1 needs no judge");
    assert.equal(m.judgeFailures, 0);
    assert.equal(row.noModel.modelCalls, 0);
    assert.ok(m.wallMs > 0 && m.systemMs >= 0 && m.modelMs >= 0);
    assert.ok(Math.abs(m.harnessMs - (m.wallMs - m.loadMs - m.systemMs - m.modelMs)) < 0.5);
    assert.equal(m.measurable, m.harnessMs >= 50);
    assert.match(printed, /\| locomo \| fixture \| bm25-session \| 4 \|/);
  });
});
