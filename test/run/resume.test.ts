import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords } from "../../src/run/runner.ts";
import { RunStore } from "../../src/run/store.ts";
import type { Summary } from "../../src/run/summary.ts";
import { fixture } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");
const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });

/** Records without their timings, which legitimately differ between runs. */
const comparable = (records: ProbeRecord[]) =>
  records
    .map(({ timings: _t, ...rest }) => rest)
    .sort((a, b) => `${a.unitId}/${a.probeId}/${a.setting}`.localeCompare(`${b.unitId}/${b.probeId}/${b.setting}`));

describe("resume after SIGKILL", () => {
  it("ends with the same probe records as an uninterrupted run", () => {
    const out = mkdtempSync(join(tmpdir(), "mb-resume-"));
    const base = [
      "run",
      "realmem",
      "--data",
      fixture("realmem"),
      "--system",
      "bm25,bm25-session,none",
      "--setting",
      "default,oracle",
      "--parallel-units",
      "1",
      "--out",
      out,
      "--no-progress",
    ];

    // Run ids are stamped to the second: the uninterrupted run goes to its own folder, so the
    // killed run can never find its id taken when both start within one second.
    const whole = cli([...base, "--out", join(out, "whole")]);
    assert.equal(whole.status, 0, whole.stderr);
    const wholeDir = /run stored in (.+)/.exec(whole.stderr)?.[1];
    assert.ok(wholeDir);

    // 4 probes per unit: dying after the 6th kills the second unit halfway.
    const killed = cli(base, { MEMBENCH_TEST_KILL_AFTER_PROBES: "6" });
    assert.equal(killed.signal, "SIGKILL", `status ${killed.status}: ${killed.stderr}`);
    const dir = /→ (\S+)/.exec(killed.stderr)?.[1];
    assert.ok(dir, killed.stderr);
    const store = new RunStore(join(dir, "run.sqlite"));
    const states = store.units().map((u) => u.state);
    const partial = store.records();
    store.close();
    assert.deepEqual(states, ["done", "running", "pending"]);
    assert.equal(partial.length, 4 * 2, "only the finished unit's records are stored");

    const resumed = cli(["run", "--resume", dir, "--no-progress"]);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.match(resumed.stderr, /2 units to run \(1 already done\)/);
    assert.deepEqual(comparable(readRecords(dir)), comparable(readRecords(wholeDir)));
  });

  it("keeps the model calls of the killed process in summary.usage, and a resume of the finished run drops none", () => {
    const out = mkdtempSync(join(tmpdir(), "mb-resume-usage-"));
    const script = join(out, "model.jsonl");
    // One judge reply that fits both RealMem judges (extra fields are ignored by each schema).
    const judge = { score: 3, hits: [1], recall: 1, helpful: 2, reason: "ok" };
    writeFileSync(
      script,
      [
        { role: "answerer", reply: "scripted answer" },
        { role: "judge", reply: judge },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    const base = [
      "run",
      "realmem",
      "--data",
      fixture("realmem"),
      "--system",
      "bm25,bm25-session,none",
      "--llm",
      `scripted:${script}`,
      "--parallel-units",
      "1",
      "--out",
      out,
      "--no-progress",
    ];
    const killed = cli(base, { MEMBENCH_TEST_KILL_AFTER_PROBES: "6" });
    assert.equal(killed.signal, "SIGKILL");
    const dir = /→ (\S+)/.exec(killed.stderr)?.[1];
    assert.ok(dir, killed.stderr);
    const store = new RunStore(join(dir, "run.sqlite"));
    const before = store.usage("run")?.roles.answerer.calls ?? 0;
    const judgedBefore = store.usage("score")?.roles.judge.calls ?? 0;
    store.close();
    assert.ok(before >= 4, `the finished unit's 4 answers were counted before the kill (${before})`);

    const resumed = cli(["run", "--resume", dir, "--no-progress"]);
    assert.equal(resumed.status, 0, resumed.stderr);
    const summary = () => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;
    const usage = summary().usage!;
    // The two unfinished units are redone: 4 answers each, on top of every call the killed process made.
    assert.equal(usage.roles.answerer.calls, before + 8);
    // Records are judged as their answers come in, and each verdict is stored at once: the resume keeps
    // those of the killed process (and reuses them for identical prompts), so it asks fewer than the
    // 12 × 2 (qa, memory) a fresh scoring would, and every call of both processes counts.
    const judged = summary().judgeUsage?.roles.judge.calls ?? 0;
    assert.ok(judgedBefore > 0, "the killed process judged the answers it had");
    assert.ok(judged > judgedBefore && judged < judgedBefore + 12 * 2, `${judgedBefore} then ${judged} judge calls`);
    const scored = new RunStore(join(dir, "run.sqlite"));
    const verdicts = scored.scores<{ verdicts: Array<{ ok: boolean }> }>().map((s) => s.verdicts);
    scored.close();
    assert.equal(verdicts.length, 12);
    for (const v of verdicts) assert.ok(v.length === 2 && v.every((x) => x.ok), "both judges, both ok, per record");

    const again = cli(["run", "--resume", dir, "--no-progress"]);
    assert.equal(again.status, 0, again.stderr);
    assert.match(again.stderr, /0 units to run \(3 already done\)/);
    assert.deepEqual(summary().usage, usage);
  });
});
