/**
 * `membench run` habits through the real bin: --json, the experiment file
 * (-c), a warning for --judges a scoring would not use, the deprecated
 * --concurrency, each benchmark's own retrieval columns, and Ctrl-C, which
 * says how to resume and exits 130.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { membenchBin, runBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

const tmp = mkdtempSync(join(tmpdir(), "mb-run-cli-"));

const cli = (args: string[], env: Record<string, string> = {}) =>
  runBin(args, { cwd: tmp, env: { HOME: tmp, ...env } });

/** The header row of the first markdown table printed. */
const header = (stdout: string) => stdout.split("\n").find((l) => l.startsWith("| system"))!;

describe("membench run", () => {
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("warns that --judges is unused for LoCoMo without j=on, and that --concurrency is deprecated", () => {
    const r = cli([
      "run",
      "locomo",
      "--data",
      fixture("locomo/per-conversation"),
      "--system",
      "bm25",
      "--judges",
      "gpt-4o",
      "--concurrency",
      "1",
      "--out",
      join(tmp, "locomo"),
      "--no-progress",
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(
      r.stderr,
      /warn: --judges gpt-4o is not used: locomo scoring calls no judge with these options; add --score-option j=on/,
    );
    assert.match(r.stderr, /warn: --concurrency is deprecated: it is --parallel-units/);
    const config = JSON.parse(
      readFileSync(join(/run stored in (.+)/.exec(r.stderr)![1]!.trim(), "config.json"), "utf8"),
    );
    assert.equal(config.options.concurrency, 1, "the old flag still sets the units at once");
    // LoCoMo's own retrieval metrics; RealMem's nDCG variant is not LoCoMo's.
    assert.match(header(r.stdout), /recall@5 .*recall@10/);
    assert.doesNotMatch(r.stdout, /ndcg_realmem/);
  });

  it("with j=on the judges are used: no warning", () => {
    const r = cli([
      "run",
      "locomo",
      "--data",
      fixture("locomo/per-conversation"),
      "--judges",
      "gpt-4o",
      "--score-option",
      "j=on",
      "--out",
      join(tmp, "locomo-j"),
      "--no-progress",
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /is not used/);
    assert.match(r.stderr, /no --system given: running bm25/);
  });

  it("--json prints one JSON document on stdout and nothing else; RealMem keeps its nDCG", () => {
    const r = cli([
      "run",
      "realmem",
      "--data",
      fixture("realmem"),
      "--system",
      "bm25,none",
      "--out",
      join(tmp, "json"),
      "--no-progress",
      "--json",
    ]);
    assert.equal(r.status, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.exitCode, 0);
    assert.equal(out.runs.length, 1);
    const run = out.runs[0];
    assert.deepEqual(Object.keys(run).sort(), ["benchmark", "data", "dir", "exitCode", "failedUnits", "summary"]);
    assert.equal(run.benchmark, "realmem");
    assert.ok(existsSync(join(run.dir, "summary.json")));
    assert.deepEqual(
      run.summary.results.map((row: { system: string }) => row.system),
      ["bm25", "none"],
    );
    const plain = cli(["run", "realmem", "--data", fixture("realmem"), "--out", join(tmp, "plain"), "--no-progress"]);
    assert.match(header(plain.stdout), /recall_all@10 .*ndcg_realmem@10/);
  });

  describe("an experiment file (-c)", () => {
    const dir = join(tmp, "exp");
    mkdirSync(dir, { recursive: true });
    const file = join(dir, "experiment.yaml");
    writeFileSync(
      file,
      `# two benchmarks, two systems, offline
description: smoke
benchmarks:
  - id: realmem
    data: ${fixture("realmem")}
  - id: locomo
    data: [${fixture("locomo/per-conversation")}]
    scoreOptions: { j: "on" }
systems: [bm25, none]
settings: [default, oracle]
judges: [gpt-4o]
out: results
limit: 3
`,
    );

    it("runs benchmarks × data with the shared systems and settings; flags typed with it win", () => {
      const r = cli(["run", "-c", file, "--limit", "1", "--json"]);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stderr, /experiment\.yaml: 2 runs/);
      const out = JSON.parse(r.stdout);
      assert.deepEqual(
        out.runs.map((x: { benchmark: string }) => x.benchmark),
        ["realmem", "locomo"],
      );
      for (const run of out.runs) {
        // `out` is relative to the file, not to where the command ran.
        assert.ok(run.dir.startsWith(join(dir, "results")), run.dir);
        const config = JSON.parse(readFileSync(join(run.dir, "config.json"), "utf8"));
        assert.deepEqual(config.options.systems, ["bm25", "none"]);
        assert.deepEqual(config.options.settings, ["default", "oracle"]);
        assert.equal(config.options.limit, 1, "--limit on the command line overrides the file's 3");
        assert.deepEqual(config.options.scoring.judges, ["gpt-4o"]);
      }
      const locomo = JSON.parse(readFileSync(join(out.runs[1].dir, "config.json"), "utf8"));
      assert.deepEqual(locomo.options.scoring.options, { j: "on" });
      assert.doesNotMatch(r.stderr, /is not used/);
    });

    it("refuses an unknown key, naming it, and a benchmark given beside the file (exit 2)", () => {
      const typo = join(dir, "typo.yaml");
      writeFileSync(typo, `benchmarks: [{ id: realmem, data: x }]\nsystemz: [bm25]\n`);
      const r = cli(["run", "-c", typo]);
      assert.equal(r.status, 2);
      assert.match(r.stderr, /typo\.yaml: \(top level\): unknown key systemz/);
      const both = cli(["run", "realmem", "-c", file]);
      assert.equal(both.status, 2);
      assert.match(both.stderr, /<bench> goes in the experiment file, not with --config/);
    });
  });

  it("Ctrl-C says how to finish the run and exits 130; --resume finishes it", async () => {
    // A system whose ingest waits until it is stopped, while MB_TEST_SLOW is set.
    const module = join(tmp, "slow-system.mjs");
    writeFileSync(
      module,
      `export default class Slow {
  id = "slow";
  caps = { granularity: "session", ranked: true, provenance: true, readback: false, nativeAnswer: false };
  #turns = new Map();
  async open(ns) { this.#turns.set(ns, []); }
  async close(ns) { this.#turns.delete(ns); }
  async ingest(ns, batch) {
    if (process.env.MB_TEST_SLOW) { process.stderr.write("slow: ingesting\\n"); await new Promise((r) => setTimeout(r, 60000)); }
    for (const t of batch.turns) this.#turns.get(ns).push({ text: t.content, sessionIds: [batch.sessionId], turnIds: [t.id], kind: "turn" });
  }
  async search(ns, { k }) { return this.#turns.get(ns).slice(0, k); }
}
`,
    );
    const child = spawn(
      process.execPath,
      [membenchBin(), "run", "realmem", "--data", fixture("realmem"), "--system", module, "--out", join(tmp, "int")],
      { cwd: tmp, env: { ...process.env, HOME: tmp, MB_TEST_SLOW: "1" } },
    );
    let stderr = "";
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    await new Promise<void>((ready) => {
      child.stderr.on("data", (chunk) => {
        stderr += String(chunk);
        if (stderr.includes("slow: ingesting")) ready();
      });
    });
    child.kill("SIGINT");
    assert.equal(await exited, 130, stderr);
    const m = /interrupted; finish with `membench run --resume (.+)`/.exec(stderr);
    assert.ok(m, stderr);
    const resumed = cli(["run", "--resume", m[1]!, "--no-progress"]);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stdout, /Retrieval, default setting \(realmem/);
  });
});
