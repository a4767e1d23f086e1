/** `membench report`, `compare` and `export` through commander, on real runs. */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { Command } from "commander";
import { registerReportCommands } from "../../src/cli/commands/report.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { configureLogger } from "../../src/util/log.ts";
import { realmemOfflineRun, subtleMemoryRun, tempDir } from "./sample-runs.ts";

async function membench(...args: string[]): Promise<void> {
  const program = new Command("membench").exitOverride();
  registerReportCommands(program);
  await program.parseAsync(args, { from: "user" });
}

describe("report commands", () => {
  const out = tempDir();
  let subtle: string;
  let realmem: string;

  before(async () => {
    configureLogger({ level: "error" });
    subtle = await subtleMemoryRun(out);
    realmem = await realmemOfflineRun(out);
  });
  after(() => {
    configureLogger({ level: "info" });
    rmSync(out, { recursive: true, force: true });
  });

  it("writes a combined markdown report and an HTML report", async () => {
    const md = join(out, "r", "report.md");
    await membench("report", subtle, realmem, "--out", md, "--iterations", "200");
    const text = readFileSync(md, "utf8");
    assert.match(text, /^# membench report/);
    assert.match(text, /\(`subtlememory`\)/);
    assert.match(text, /\(`realmem`\)/);
    const html = join(out, "r", "report.html");
    await membench("report", subtle, "--format", "html", "--out", html);
    assert.match(readFileSync(html, "utf8"), /^<!doctype html>/);
  });

  it("writes the JSON report of one run as its summary schema", async () => {
    const file = join(out, "r", "summary.json");
    await membench("report", realmem, "--format", "json", "--out", file);
    const summary = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(summary.benchmark, "realmem");
    assert.equal(summary.results.length, 2);
  });

  it("compares two systems of a run, as JSON", async () => {
    const file = join(out, "r", "compare.json");
    await membench(
      "compare",
      subtle,
      subtle,
      "--system-a",
      "bm25",
      "--system-b",
      "none",
      "--format",
      "json",
      "--out",
      file,
    );
    const [c] = JSON.parse(readFileSync(file, "utf8"));
    assert.equal(c.aligned, 8);
    assert.equal(c.changed.length, 6);
  });

  it("exports with `export` and with `report --format`", async () => {
    await membench("export", subtle, "--format", "subtlememory", "--out", join(out, "x", "leaderboard.json"));
    assert.ok(existsSync(join(out, "x", "leaderboard.json")));
    await membench("report", realmem, "--format", "realmem", "--out", join(out, "rm"));
    assert.ok(existsSync(join(out, "rm", "bm25-session", "Mira_Sato", "generation_results.json")));
  });

  it("rejects unknown formats and settings with a clear error", async () => {
    await assert.rejects(membench("report", subtle, "--format", "pdf"), ConfigError);
    await assert.rejects(membench("report", realmem, "--format", "realmem"), /give --out/);
    await assert.rejects(
      membench("compare", subtle, subtle, "--setting", "best"),
      /expected one of default, oracle, perfect/,
    );
    await assert.rejects(membench("report", join(out, "no-such-run")), /not a run directory/);
  });
});
