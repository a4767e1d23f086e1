/**
 * `--variant` on `run` and `data inspect`, through the built bin: MemoryAgentBench's
 * `all` loads the context-length ablation rows the default `main` leaves out, the run
 * keeps the variant for `--resume`, and a variant the benchmark does not have is a
 * usage error naming the ones it has.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readRecords } from "../../src/run/runner.ts";
import { runBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

const tmp = mkdtempSync(join(tmpdir(), "mb-variant-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const MAB = fixture("memoryagentbench");

const cli = (args: string[]) => runBin(args, { timeout: 180_000 });

const episodes = (args: string[]) => {
  const r = cli(["data", "inspect", "memoryagentbench", MAB, "--json", ...args]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout).episodes as number;
};

describe("--variant", () => {
  it("data inspect loads MemoryAgentBench's ablation rows with all, not by default", () => {
    const main = episodes([]);
    const all = episodes(["--variant", "all"]);
    assert.ok(all > main, `all ${all} > main ${main}`);
    assert.equal(episodes(["--variant", "main"]), main);
  });

  it("a run keeps the variant in config.json and --resume loads it again", () => {
    const out = join(tmp, "runs");
    const r = cli(["run", "memoryagentbench", "--data", MAB, "--variant", "all", "--system", "bm25", "--out", out]);
    assert.equal(r.status, 0, r.stderr);
    const dir = /run stored in (\S+)/.exec(r.stderr)![1]!;
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    assert.equal(config.options.variant, "all");
    assert.equal(config.variant, "all");
    const ablation = readRecords(dir).filter((x) => x.episodeId.startsWith("factconsolidation_sh_262k"));
    assert.ok(ablation.length > 0, "the ablation episode ran");
    const again = cli(["run", "--resume", dir]);
    assert.equal(again.status, 0, again.stderr);
  });

  it("refuses a variant the benchmark does not have, naming those it has (exit 2)", () => {
    const mab = cli(["data", "inspect", "memoryagentbench", MAB, "--variant", "short"]);
    assert.equal(mab.status, 2);
    assert.match(mab.stderr, /unknown variant "short" of memoryagentbench; known: main, all/);
    const locomo = cli(["run", "locomo", "--data", fixture("locomo"), "--variant", "all", "--out", join(tmp, "x")]);
    assert.equal(locomo.status, 2);
    assert.match(locomo.stderr, /unknown variant "all" of locomo; locomo has no variants/);
  });
});
