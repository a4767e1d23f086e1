import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { runShardsBench, type ShardResult } from "../../bench/shards.ts";
import { fixtureData, hasCommand, runHasFlag } from "../../bench/support.ts";
import { captureLog } from "../support/capture-log.ts";

describe("bench/shards", () => {
  const dir = mkdtempSync(join(tmpdir(), "mb-bench-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("runs the same units in 1 and 2 processes, says whether --shard and merge exist, and writes shards.json", async () => {
    const { printed } = await captureLog(() =>
      runShardsBench({ counts: [1, 2], copies: 2, source: fixtureData("realmem"), resultsDir: dir }),
    );
    const result = JSON.parse(readFileSync(join(dir, "shards.json"), "utf8")) as ShardResult;
    assert.equal(result.bench, "shards");
    assert.equal(result.units, 2);
    assert.equal(result.data, "fixture test/fixtures/realmem ×2 replicated");
    assert.equal(result.shardAvailable, await runHasFlag("--shard"));
    assert.equal(result.mergeAvailable, await hasCommand("merge"));
    const byHand = result.rows.filter((r) => r.method === "episodes partition");
    assert.deepEqual(
      byHand.map((r) => r.processes),
      [1, 2],
    );
    assert.equal(byHand[0]!.speedup, 1);
    const sharded = result.rows.filter((r) => r.method === "shard+merge");
    if (result.shardAvailable && result.mergeAvailable) {
      assert.deepEqual(
        sharded.map((r) => [r.processes, r.metricsEqual]),
        [[2, true]],
        "the merged run's metrics equal the one-process run's",
      );
      assert.ok([0, 1].includes(result.shardBase!));
    } else {
      assert.deepEqual(sharded, []);
      assert.match(printed, /shard\+merge: not available/);
    }
    const pooled = result.rows.filter((r) => r.method === "queue workers");
    if (result.queue === "available") {
      assert.deepEqual(
        pooled.map((r) => [r.processes, r.metricsEqual]),
        [
          [1, true],
          [2, true],
        ],
      );
    } else {
      assert.deepEqual(pooled, []);
      assert.match(printed, /queue workers: not available/);
    }
  });
});
