/**
 * The report's run line names judges only when the scoring called one: a
 * LoCoMo run scored with its default token F1 (J off) says nothing about
 * judges, even when a model is configured, and with J on it names them.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runMeta } from "../../src/report/build.ts";
import { loadRun } from "../../src/report/run-data.ts";
import { startRun } from "../../src/run/runner.ts";
import { SCORING_FILE, type ScoringInfo, scoreRun } from "../../src/run/score-run.ts";
import { fixture } from "../support/shared-data.ts";
import { tempDir } from "./sample-runs.ts";

describe("run line: judges", () => {
  const out = tempDir("mb-run-meta-");
  const llm = join(out, "script.jsonl");
  let dir = "";

  before(async () => {
    writeFileSync(
      llm,
      `${JSON.stringify({ role: "judge", reply: { correct: true, reason: "" } })}\n${JSON.stringify({ reply: "Blue" })}\n`,
    );
    const outcome = await startRun({
      benchmark: "locomo",
      data: fixture("locomo"),
      systems: ["none"],
      out,
      id: "run",
      llm: `scripted:${llm}`,
      progress: false,
    });
    dir = outcome.dir;
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("LoCoMo without J builds no judge and its run line names none", () => {
    const scoring = JSON.parse(readFileSync(join(dir, SCORING_FILE), "utf8")) as ScoringInfo;
    assert.deepEqual(scoring.judges, []);
    const line = runMeta(loadRun(dir)).scoring ?? "";
    assert.equal(line, "prompt set membench; options j=off");
  });

  it("says nothing about a judge an earlier scoring recorded but never called", () => {
    const path = join(dir, SCORING_FILE);
    const scoring = JSON.parse(readFileSync(path, "utf8")) as ScoringInfo;
    writeFileSync(path, JSON.stringify({ ...scoring, judges: ["judge"] }));
    assert.doesNotMatch(runMeta(loadRun(dir)).scoring ?? "", /judge/);
  });

  it("names the judges when J is on", async () => {
    await scoreRun(dir, { judgeLlm: `scripted:${llm}`, judges: ["judge-a", "judge-b"], options: { j: "on" } });
    assert.equal(runMeta(loadRun(dir)).scoring, "prompt set membench; judges judge-a, judge-b; options j=on");
  });
});
