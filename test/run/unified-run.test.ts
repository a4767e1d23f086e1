/**
 * `membench run unified`: a converted file records the benchmark each episode
 * came from. One source benchmark → its protocol and its scorer; a file no
 * scorer fits is refused before any model call when a model is configured.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { writeUnified } from "../../src/benchmarks/unified/format.ts";
import { resumeRun, startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { suiteStub } from "../support/openai-stub.ts";
import { fixture } from "../support/shared-data.ts";

describe("run unified", () => {
  const stub = suiteStub();
  let dir: string;
  let converted: string;
  let custom: string;
  let mixed: string;
  let script: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "mb-unified-run-"));
    converted = join(dir, "lme.jsonl");
    await writeUnified(await loadDataset("longmemeval", fixture("longmemeval")), converted);
    const lines = readFileSync(converted, "utf8").trim().split("\n");
    const relabel = (line: string, benchmark: string) => JSON.stringify({ ...JSON.parse(line), benchmark });
    custom = join(dir, "custom.jsonl");
    writeFileSync(custom, `${lines.map((l) => relabel(l, "my-own-data")).join("\n")}\n`);
    mixed = join(dir, "mixed.jsonl");
    writeFileSync(mixed, `${lines.map((l, i) => (i === 0 ? relabel(l, "locomo") : l)).join("\n")}\n`);
    script = join(dir, "model.jsonl");
    writeFileSync(
      script,
      [
        { role: "answerer", reply: "scripted answer" },
        { role: "judge", reply: { correct: true, reason: "ok" } },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("runs and scores a converted file as the benchmark it came from, and resumes as that benchmark", async () => {
    const outcome = await startRun({
      benchmark: "unified",
      data: converted,
      systems: ["full-context"],
      llm: `scripted:${script}`,
      out: dir,
      id: "converted",
      progress: false,
    });
    const config = JSON.parse(readFileSync(join(outcome.dir, "config.json"), "utf8"));
    assert.equal(config.options.benchmark, "longmemeval");
    assert.equal(outcome.summary.benchmark, "longmemeval");
    const row = outcome.summary.results[0] as ScoredRow;
    assert.equal(row.metrics.accuracy, 1);
    assert.deepEqual(row.judges, ["judge"]);
    const resumed = await resumeRun(outcome.dir, false);
    assert.equal((resumed.summary.results[0] as ScoredRow).metrics.accuracy, 1);
  });

  for (const [what, file, reason] of [
    ["a benchmark membench cannot score", () => custom, /episodes come from "my-own-data", which has no scorer/],
    ["several benchmarks", () => mixed, /episodes come from several benchmarks \(locomo, longmemeval\)/],
  ] as const) {
    it(`refuses a file from ${what} before any model call when a model is configured`, async () => {
      process.env.MEMBENCH_BASE_URL = stub().url;
      process.env.MEMBENCH_MODEL = "stub-model";
      try {
        await assert.rejects(
          startRun({
            benchmark: "unified",
            data: file(),
            systems: ["full-context"],
            out: dir,
            id: `refused-${what}`,
            progress: false,
          }),
          reason,
        );
      } finally {
        delete process.env.MEMBENCH_BASE_URL;
        delete process.env.MEMBENCH_MODEL;
      }
      assert.equal(stub().chatRequests.length, 0, "no model call");
      assert.equal(existsSync(join(dir, `refused-${what}`)), false);
    });
  }

  it("still runs the retrieval half of such a file without a model", async () => {
    const outcome = await startRun({
      benchmark: "unified",
      data: custom,
      systems: ["bm25"],
      out: dir,
      id: "retrieval-only",
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    assert.equal(outcome.summary.results[0]!.skipReasons.answer, "no model configured");
    assert.equal(typeof outcome.summary.results[0]!.metrics["recall_any@5"], "number");
  });
});
