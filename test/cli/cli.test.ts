import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { membenchBin } from "../support/bin.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");

function cli(args: string[], cwd = root) {
  const r = spawnSync(process.execPath, [membenchBin(), ...args], {
    cwd,
    env: process.env,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/^npm warn.*\n/gm, "") };
}

describe("membench CLI", () => {
  it("documents every setting and the commands in --help", () => {
    const r = cli(["--help"]);
    assert.equal(r.status, 0);
    for (const word of ["MEMBENCH_BASE_URL", "OPENAI_API_KEY", "MEMBENCH_EMBEDDER", "demo", "doctor", "data", "run"]) {
      assert.match(r.stdout, new RegExp(word), word);
    }
    assert.match(cli(["--version"]).stdout.trim(), /^\d+\.\d+\.\d+$/);
  });

  it("doctor reports the offline state", () => {
    const r = cli(["doctor", "--json"], mkdtempSync(join(tmpdir(), "mb-doc-")));
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.model.configured, false);
    assert.equal(report.model.apiKey, "<unset>");
    assert.ok(report.skippedOffline.includes("answer generation"));
    assert.equal(report.embedder.id, "use-lite");
    assert.equal(report.embedder.ready, true);
    assert.match(cli(["doctor"]).stdout, /will be reported as skipped/);
  });

  it("inspect --json prints exactly the documented keys", () => {
    const r = cli(["data", "inspect", "locomo", fixture("locomo/per-conversation"), "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(report).sort(), [
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
    assert.equal(report.benchmark, "locomo");
    assert.ok(report.byLabel.category);
  });

  it("names the file, record and field of bad input, exits non-zero and writes nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-bad-"));
    const good = JSON.parse(readFileSync(fixture("locomo/per-conversation/7.json"), "utf8"));
    delete good.qa[0].question;
    writeFileSync(join(dir, "7.json"), JSON.stringify(good));
    const out = join(dir, "out.jsonl");
    const r = cli(["data", "convert", "locomo", join(dir, "7.json"), "--out", out]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /error: file .*7\.json, record .*, field .*question/);
    assert.equal(spawnSync("ls", [out]).status, 2, "no output file is left behind");
    const unknown = cli(["data", "inspect", "nosuchbench", dir]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown benchmark "nosuchbench"; known: subtlememory/);
  });

  it("converts to unified JSONL and loads it back under the benchmark", () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-conv-"));
    const out = join(dir, "realmem.jsonl");
    assert.equal(cli(["data", "convert", "realmem", fixture("realmem"), "--out", out]).status, 0);
    const original = JSON.parse(cli(["data", "inspect", "realmem", fixture("realmem"), "--json"]).stdout);
    const back = JSON.parse(cli(["data", "inspect", "realmem", out, "--json"]).stdout);
    assert.deepEqual({ ...back, warnings: [] }, { ...original, warnings: [] });
  });

  it("reproduces the RealMem sample counts", { skip: skipUnless(sharedDataset("realmem")) }, () => {
    const r = cli(["data", "inspect", "realmem", sharedDataset("realmem")!, "--json"]);
    const report = JSON.parse(r.stdout);
    assert.equal(report.sessions, 191);
    assert.equal(report.turns, 1543);
    assert.equal(report.probes, 153);
    assert.deepEqual(report.byLabel.category, {
      "Static Retrieval": 98,
      "Proactive Alignment": 35,
      "Dynamic Updating": 18,
      "Temporal Reasoning": 2,
    });
  });
});
