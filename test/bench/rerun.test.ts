import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type RerunResult, runRerunBench } from "../../bench/rerun.ts";
import { fixtureData } from "../../bench/support.ts";
import { captureLog } from "../support/capture-log.ts";

describe("bench/rerun", () => {
  const dir = mkdtempSync(join(tmpdir(), "mb-bench-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("runs a finished run again from the model cache, as a new run and as --resume, with no model call", async () => {
    await captureLog(() =>
      runRerunBench({
        bench: "locomo",
        data: fixtureData("locomo/locomo10-mini.json"),
        latencyMs: 20,
        concurrency: 4,
        resultsDir: dir,
      }),
    );
    const result = JSON.parse(readFileSync(join(dir, "rerun.json"), "utf8")) as RerunResult;
    assert.equal(result.bench, "rerun");
    assert.deepEqual(
      result.rows.map((r) => [r.run, r.modelCalls]),
      [
        ["first", 4],
        ["same command again", 0],
        ["--resume of the finished run", 0],
      ],
    );
    assert.equal(result.rows[0]!.ratio, 1);
    for (const r of result.rows) assert.ok(r.wallMs > 0 && r.ratio > 0);
    assert.equal(result.noCallsOnRerun, true);
  });
});
