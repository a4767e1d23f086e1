/**
 * `membench demo`, the README's first command, through the real bin: no model
 * configured (test/support/clean-env.ts drops MEMBENCH_* and OPENAI_*), no
 * config file (a fresh working folder), only the project's own fixtures.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { benchmarkIds } from "../../src/benchmarks/index.ts";
import { shippedFixture } from "../../src/util/paths.ts";
import { membenchBin } from "../support/bin.ts";

describe("membench demo", () => {
  const cwd = mkdtempSync(join(tmpdir(), "mb-demo-"));
  after(() => rmSync(cwd, { recursive: true, force: true }));

  it("runs every shipped dataset offline and says the answer and judge stages are skipped", {
    timeout: 120_000,
  }, () => {
    const out = join(cwd, "runs");
    const r = spawnSync(process.execPath, [membenchBin(), "demo", "--out", out], {
      cwd,
      env: { ...process.env, HOME: cwd },
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^membench demo: the project's own datasets/);
    assert.match(r.stdout, /^Answer and judge stages: skipped \(no model configured\)\.$/m);
    assert.match(r.stdout, new RegExp(`^Runs stored in ${out}\\.`, "m"));
    // It says what it checks, and its toy data's whole-haystack notices are one line, not one per system × benchmark.
    assert.match(r.stdout, /^It checks the plumbing \(load, ingest, retrieve, measure\), not quality/m);
    assert.doesNotMatch(r.stderr, /reaches the whole haystack/);
    const haystack = r.stdout.split("\n").filter((l) => /reaches the whole haystack/.test(l));
    assert.equal(haystack.length, 1, r.stdout);
    assert.match(haystack[0]!, /^Retrieval depth reaches the whole haystack for \d+ system × benchmark pairs/);

    const benchmarks = benchmarkIds().filter((id) => id !== "unified");
    const runs = readdirSync(out);
    assert.equal(runs.length, benchmarks.length, runs.join(", "));
    for (const dir of runs) {
      const config = JSON.parse(readFileSync(join(out, dir, "config.json"), "utf8"));
      const bench = config.options.benchmark as string;
      assert.ok(benchmarks.includes(bench), bench);
      // The project's own data, never ../shared.
      assert.equal(config.options.data, shippedFixture(bench));
      assert.equal(config.model.configured, false);
      const summary = JSON.parse(readFileSync(join(out, dir, "summary.json"), "utf8"));
      assert.deepEqual(
        summary.results.map((row: { system: string }) => row.system),
        ["bm25", "bm25-session", "dense", "hybrid"],
      );
      for (const row of summary.results) {
        assert.deepEqual(row.skipped, ["answer", "judge"], `${bench}/${row.system}`);
        assert.match(row.skipReasons.answer, /no model/);
      }
      // Every dataset table row and retrieval row is printed.
      assert.match(r.stdout, new RegExp(`^\\| ${bench} +\\|`, "m"));
    }
  });
});
