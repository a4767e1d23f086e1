import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { formatInspect, inspectDataset, sessionNotes } from "../../src/data/inspect.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { sampleDataset } from "../support/sample-dataset.ts";

describe("inspectDataset", () => {
  it("counts sizes, labels and evidence coverage", () => {
    const ds = sampleDataset();
    const r = inspectDataset(ds);
    assert.equal(r.episodes, 1);
    assert.equal(r.sessions, 3);
    assert.equal(r.turns, 6);
    assert.equal(r.probes, 3);
    assert.deepEqual(r.byLabel, { category: { "single-hop": 1, temporal: 1, adversarial: 1 } });
    assert.equal(r.evidenceCoverage, 2 / 3);
    const expectedTokens = ds.episodes[0]!.sessions.flatMap((s) => s.turns).reduce(
      (n, t) => n + countTokens(t.content),
      0,
    );
    assert.equal(r.tokens, expectedTokens);
    assert.ok(r.tokens > 30);
  });

  it("has exactly the documented JSON keys", () => {
    const keys = Object.keys(inspectDataset(sampleDataset())).sort();
    assert.deepEqual(keys, [
      "benchmark",
      "byLabel",
      "episodes",
      "evidenceCoverage",
      "probes",
      "sessions",
      "tokens",
      "turns",
      "warnings",
    ]);
  });

  it("renders warnings in text form", () => {
    const ds = sampleDataset();
    ds.warnings.push('conv-1/q9: evidence session "x" not in the history');
    const text = formatInspect(inspectDataset(ds));
    assert.match(text, /warnings \(1\):/);
    assert.match(text, /temporal\s+1/);
  });
});

describe("sessionNotes", () => {
  it("counts RealMem sessions without extracted memory, in the text form only", async () => {
    const ds = await loadDataset("realmem", "test/fixtures/realmem");
    const flags = ds.episodes.flatMap((e) => e.sessions.map((s) => s.meta?.hasMemory));
    const without = flags.filter((f) => f === false).length;
    assert.ok(without > 0 && without < flags.length, "the fixture has sessions of both kinds");
    const notes = sessionNotes(ds);
    assert.deepEqual(notes, [`sessions without extracted memory: ${without} of ${flags.length}`]);
    assert.match(formatInspect(inspectDataset(ds), notes), /sessions without extracted memory/);
  });

  it("says nothing for releases that do not mark sessions", () => {
    assert.deepEqual(sessionNotes(sampleDataset()), []);
  });
});
