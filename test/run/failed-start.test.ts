/**
 * A run that fails before any unit starts (here: a scripted model file that is
 * not valid JSONL) removes the run directory it created, so reports never list
 * an empty run; a directory it did not create, or one with work in it, stays.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startRun } from "../../src/run/runner.ts";
import { RunStore } from "../../src/run/store.ts";
import { fixture } from "../support/shared-data.ts";

function badScript(dir: string): string {
  const file = join(dir, "bad.jsonl");
  writeFileSync(file, '{"role": "answerer", "reply": "ok"}\n{"role": "judge", reply: oops}\n');
  return file;
}

const run = (out: string, id: string, llm: string) =>
  startRun({ benchmark: "realmem", data: fixture("realmem"), systems: ["none"], out, id, llm, progress: false });

describe("a run that fails before any unit starts", () => {
  it("removes the run directory it created", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-failed-start-"));
    await assert.rejects(run(out, "bad", `scripted:${badScript(out)}`), /line 2.*not valid JSON/);
    assert.equal(existsSync(join(out, "bad")), false);
    // The same id starts cleanly afterwards (no "already holds a run").
    const ok = join(out, "ok.jsonl");
    writeFileSync(ok, '{"reply": "I do not know."}\n');
    const outcome = await run(out, "bad", `scripted:${ok}`);
    assert.equal(outcome.failedUnits, 0);
    assert.ok(existsSync(join(out, "bad", "config.json")));
  });

  it("keeps a directory that existed before the run", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-failed-start-"));
    mkdirSync(join(out, "mine"));
    writeFileSync(join(out, "mine", "notes.txt"), "mine\n");
    await assert.rejects(run(out, "mine", `scripted:${badScript(out)}`), /not valid JSON/);
    assert.ok(existsSync(join(out, "mine", "notes.txt")));
  });

  it("counts a store as untouched only until a unit starts", () => {
    const store = new RunStore(join(mkdtempSync(join(tmpdir(), "mb-store-")), "run.sqlite"));
    try {
      store.plan([{ id: "u1", system: "none", episodeId: "e1" }]);
      assert.equal(store.untouched(), true);
      store.start("u1");
      assert.equal(store.untouched(), false);
    } finally {
      store.close();
    }
  });
});
