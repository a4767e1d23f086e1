/**
 * `membench judge-agreement` on the command line: a scored run directory (two
 * scripted judges on the LoCoMo fixture's J questions), its `--csv` export
 * read back by the CSV form, and the errors for a run with one judge and a
 * folder that is not a run.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { startRun } from "../../src/run/runner.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import { membenchBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

const cli = (args: string[]) => {
  const r = spawnSync(process.execPath, [membenchBin(), ...args], {
    env: process.env,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

/** The cells of each line of a markdown table. */
const cells = (table: string) =>
  table
    .trim()
    .split("\n")
    .map((line) =>
      line
        .split("|")
        .slice(1, -1)
        .map((c) => c.trim()),
    );

describe("membench judge-agreement", () => {
  const tmp = mkdtempSync(join(tmpdir(), "mb-agree-cli-"));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("reads a run's verdicts, writes them as CSV, and the CSV gives the same table", async () => {
    // judge-a says correct to everything; judge-b only to the answers about Ada's cat and Bram.
    const llm = join(tmp, "script.jsonl");
    const rules = [
      { role: "answerer", match: "Question: What is the name of Ada's cat", reply: "Pepper" },
      { role: "answerer", match: "Question: Where did Bram move", reply: "Utrecht" },
      { role: "answerer", reply: "Something else" },
      { role: "judge", model: "judge-b", match: "System's answer: (Pepper|Utrecht)\\n", reply: { correct: true } },
      { role: "judge", model: "judge-b", reply: { correct: false, reason: "" } },
      { role: "judge", reply: { correct: true, reason: "" } },
    ];
    writeFileSync(llm, rules.map((r) => JSON.stringify(r)).join("\n"));
    const outcome = await startRun({
      benchmark: "locomo",
      data: fixture("locomo"),
      systems: ["none"],
      out: tmp,
      id: "run",
      llm: `scripted:${llm}`,
      progress: false,
      scoring: { judges: ["judge-a", "judge-b"], options: { j: "on" } },
    });
    const csv = join(tmp, "labels.csv");
    const fromRun = cli(["judge-agreement", outcome.dir, "--csv", csv]);
    assert.equal(fromRun.status, 0, fromRun.stderr);
    // 7 J items; agree on 2 (both true), a all true → pe = (7·2)/49 = 2/7, κ = (2/7 − 2/7)/(5/7) = 0.
    assert.match(fromRun.stdout, /\| system\/setting \| rater A \| rater B \| n \| agreement \| kappa \|/);
    assert.deepEqual(cells(fromRun.stdout)[2], ["none/default", "judge-a", "judge-b", "7", "0.286", "0.000"]);
    const fromCsv = cli(["judge-agreement", csv]);
    assert.equal(fromCsv.status, 0, fromCsv.stderr);
    assert.deepEqual(cells(fromCsv.stdout).slice(2), cells(fromRun.stdout).slice(2));
    assert.equal(cells(fromCsv.stdout)[0]![0], "group");

    await scoreRun(outcome.dir, { judgeLlm: `scripted:${llm}`, judges: ["judge-a"], options: { j: "on" } });
    const single = cli(["judge-agreement", outcome.dir]);
    assert.equal(single.status, 2);
    assert.match(single.stderr, /only one judge \(judge-a\) gave verdicts/);
  });

  it("says when a folder is not a run", () => {
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    const r = cli(["judge-agreement", empty]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /no config\.json: not a run directory/);
    const missing = cli(["judge-agreement", join(tmp, "no-such-labels.csv")]);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /^error: target: no such run directory or labels CSV: .*no-such-labels\.csv$/m);
  });
});
