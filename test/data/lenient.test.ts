/**
 * `--lenient` on run and score, through the real CLI: what strict mode refuses
 * loads with warnings, the run remembers it for --resume and score, and the
 * warnings strict mode keeps (flaws that cannot change a score) are told, not
 * hidden. Also: a damaged config.json makes --resume fail with one line.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { membenchBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");
const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "membench-lenient-"));
  temps.push(dir);
  return dir;
}

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [membenchBin(), ...args], {
    cwd: root,
    env: process.env,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The LoCoMo fixture with an unknown category on qa[3]: strict mode refuses it. */
function unknownCategory(dir: string): string {
  const conv = JSON.parse(readFileSync(fixture("locomo/per-conversation/7.json"), "utf8"));
  conv.qa[3].category = 6;
  const file = join(dir, "7.json");
  writeFileSync(file, JSON.stringify(conv));
  return file;
}

const noStack = (stderr: string) => assert.doesNotMatch(stderr, /^\s+at /m, stderr);

describe("--lenient", () => {
  it("run refuses what strict mode refuses; --lenient runs it, and resume and score keep it", () => {
    const dir = tempDir();
    const data = unknownCategory(dir);
    const out = join(dir, "runs");
    const strict = cli(["run", "locomo", "--data", data, "--system", "bm25", "--out", out, "--no-progress"]);
    assert.equal(strict.status, 1);
    assert.match(strict.stderr, /record conversation conv-7 qa\[3\], field category: unknown category 6/);
    noStack(strict.stderr);

    const lenient = cli([
      "run",
      "locomo",
      "--data",
      data,
      "--system",
      "bm25",
      "--out",
      out,
      "--no-progress",
      "--lenient",
    ]);
    assert.equal(lenient.status, 0, lenient.stderr);
    assert.match(lenient.stderr, /warn: 1 data warning \(`membench data inspect locomo .*7\.json` lists them\)/);
    const [run] = readdirSync(out);
    const runDir = join(out, run!);
    const config = JSON.parse(readFileSync(join(runDir, "config.json"), "utf8"));
    assert.equal(config.options.lenient, true);

    const resumed = cli(["run", "--resume", runDir, "--no-progress"]);
    assert.equal(resumed.status, 0, resumed.stderr);
    const rescored = cli(["score", runDir]);
    assert.equal(rescored.status, 0, rescored.stderr);
    assert.match(rescored.stderr, /1 data warning/);
  });

  it("score --answers refuses what strict mode refuses; --lenient scores it", () => {
    const dir = tempDir();
    const data = unknownCategory(dir);
    const answers = join(dir, "answers.jsonl");
    writeFileSync(answers, `${JSON.stringify({ question_id: "conv-7:q0", hypothesis: "night pottery course" })}\n`);
    const args = ["score", "locomo", "--data", data, "--answers", answers, "--out", join(dir, "runs")];
    const strict = cli(args);
    assert.equal(strict.status, 1);
    assert.match(strict.stderr, /unknown category 6/);
    const lenient = cli([...args, "--lenient"]);
    assert.equal(lenient.status, 0, lenient.stderr);
    assert.match(lenient.stdout, /answers/);
  });

  it("the official LoCoMo evidence token loads in every mode and data inspect counts its warning", () => {
    const data = fixture("locomo-evidence/42.json");
    for (const mode of [[], ["--strict"]]) {
      const r = cli(["data", "inspect", "locomo", data, "--json", ...mode]);
      assert.equal(r.status, 0, r.stderr);
      const report = JSON.parse(r.stdout);
      assert.equal(report.probes, 3);
      assert.equal(report.warnings.length, 1);
      assert.match(report.warnings[0], /qa\[1\], field evidence: unreadable evidence "D" dropped/);
    }
    const text = cli(["data", "inspect", "locomo", data]);
    assert.match(text.stdout, /warnings \(1\):/);
  });

  it("documents --lenient in run --help and score --help", () => {
    for (const command of ["run", "score"])
      assert.match(cli([command, "--help"]).stdout, /--lenient\s+load the data leniently/);
  });
});

describe("run --resume on a damaged config.json", () => {
  it("is one ConfigError line naming the file", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "config.json"), '{"id": "locomo-1", "options": {"benchmark": "loc');
    const r = cli(["run", "--resume", dir, "--no-progress"]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, new RegExp(`^error: resume \\(from --resume\\): cannot read ${join(dir, "config.json")}: `));
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    noStack(r.stderr);
  });
});
