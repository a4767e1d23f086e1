/**
 * The experiment file loader (src/cli/experiment.ts): the example in
 * docs/experiments.md is a valid file and expands as the page says; bad files
 * are ConfigErrors naming the file and key.
 */
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { experimentRuns, readExperiment } from "../../src/cli/experiment.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { ROOT } from "../support/bin.ts";

const dir = mkdtempSync(join(tmpdir(), "mb-exp-"));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe("experiment files", () => {
  it("the documented example: 3 data paths × 2 models = 6 runs, paths relative to the file", () => {
    const doc = readFileSync(join(ROOT, "docs/experiments.md"), "utf8");
    const file = write("doc.yaml", /```yaml\n([\s\S]*?)```/.exec(doc)![1]!);
    const runs = experimentRuns(file, readExperiment(file));
    assert.equal(runs.length, 6);
    assert.deepEqual(
      runs.map((r) => `${r.bench} ${r.flags.llm}`),
      [
        "locomo openai:gpt-4o-mini",
        "locomo openai:gpt-4.1-mini",
        "realmem openai:gpt-4o-mini",
        "realmem openai:gpt-4.1-mini",
        "realmem openai:gpt-4o-mini",
        "realmem openai:gpt-4.1-mini",
      ],
    );
    const [locomo, , realmem] = runs;
    assert.equal(locomo!.flags.data, join(dir, "datasets/locomo"));
    assert.equal(locomo!.flags.out, join(dir, "runs"));
    assert.deepEqual(locomo!.flags.scoreOption, ["j=on"]);
    assert.deepEqual(locomo!.flags.system, ["bm25", "hybrid", 'ledger#{"extractor":"offline"}']);
    assert.equal(locomo!.flags.setting, "default,oracle");
    assert.equal(locomo!.flags.judges, "gpt-4o");
    assert.equal(locomo!.flags.judgeRuns, "3");
    assert.equal(locomo!.flags.limit, undefined);
    assert.equal(realmem!.flags.limit, "5");
  });

  it("a benchmark's variant becomes its run's --variant", () => {
    const file = write(
      "v.yaml",
      "benchmarks: [{ id: memoryagentbench, data: d, variant: all }, { id: locomo, data: d }]\n",
    );
    const [mab, locomo] = experimentRuns(file, readExperiment(file));
    assert.equal(mab!.flags.variant, "all");
    assert.equal(locomo!.flags.variant, undefined);
  });

  it("a scripted model's file is relative to the experiment file too", () => {
    const file = write("s.yaml", "benchmarks: [{ id: realmem, data: d }]\nmodel: scripted:replies.jsonl\n");
    assert.equal(experimentRuns(file, readExperiment(file))[0]!.flags.llm, `scripted:${join(dir, "replies.jsonl")}`);
  });

  for (const [name, text, message] of [
    ["missing.yaml", "systems: [bm25]\n", /benchmarks: required/],
    ["wrong-type.yaml", "benchmarks: [{ id: realmem, data: d }]\nlimit: two\n", /limit: /],
    ["nested-typo.yaml", "benchmarks: [{ id: realmem, dataa: d }]\n", /benchmarks\.0: unknown key dataa/],
    ["both.yaml", "benchmarks: [{ id: realmem, data: d }]\nmodel: a\nmodels: [b]\n", /give model or models/],
    ["not-yaml.yaml", "benchmarks: [\n", /not YAML/],
  ] as const) {
    it(`refuses ${name} with a ConfigError naming the file`, () => {
      const file = write(name, text);
      assert.throws(
        () => readExperiment(file),
        (e: unknown) => e instanceof ConfigError && e.message.includes(name) && message.test(e.message),
      );
    });
  }
});
