import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type EmbedResult, runEmbedBench } from "../../bench/embed.ts";
import { fixtureData } from "../../bench/support.ts";
import { captureLog } from "../support/capture-log.ts";

describe("bench/embed", () => {
  const dir = mkdtempSync(join(tmpdir(), "mb-bench-test-"));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("times use-lite cold and warm, runs membench twice on one cache, counts what each run embedded, and writes embed.json", async () => {
    await captureLog(() =>
      runEmbedBench({ sessions: 2, systems: "hybrid,ledger", source: fixtureData("realmem"), resultsDir: dir }),
    );
    const result = JSON.parse(readFileSync(join(dir, "embed.json"), "utf8")) as EmbedResult;
    assert.equal(result.bench, "embed");
    assert.equal(result.sessions, 2);
    assert.equal(result.cold.sessions, 2);
    assert.equal(result.cold.turns, result.warm.turns);
    assert.ok(result.cold.msPerTurn > result.warm.msPerTurn, "the warm cache answers without the model");
    const [first, second] = result.runs;
    assert.ok(first!.vectorsAdded! > 0, "the first run fills the cache");
    assert.ok(first!.textsEmbedded === null || first!.textsEmbedded >= first!.vectorsAdded!);
    assert.equal(second!.vectorsAdded, 0);
    assert.equal(second!.textsEmbedded, 0);
    assert.equal(result.secondRunEmbedsNothing, true);
  });
});
