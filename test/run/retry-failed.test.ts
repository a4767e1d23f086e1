/**
 * An endpoint outage during a run, then recovery: failed answers and failed
 * judge calls are asked again by --resume (or --retry-failed), everything that
 * succeeded is kept, and usage adds up over every process. The endpoint is the
 * OpenAI stub over real HTTP, with retries off so each injected fault fails a call.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, resumeRun, startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { RunStore } from "../../src/run/store.ts";
import type { Summary } from "../../src/run/summary.ts";
import type { ProbeScore } from "../../src/score/types.ts";
import { type StubChatBody, type StubRequest, suiteStub } from "../support/openai-stub.ts";
import { fixture } from "../support/shared-data.ts";

const HOUSEPLANTS = "How many houseplants";
const OSLO = "my trip to Oslo";

const isJudge = (body: StubChatBody) => body.response_format !== undefined;
const text = (body: StubChatBody) => (body.messages ?? []).map((m) => String(m.content)).join("\n");
const answerCalls = (requests: StubRequest[]) => requests.filter((r) => !isJudge(r.body as StubChatBody));
const judgeCalls = (requests: StubRequest[]) => requests.filter((r) => isJudge(r.body as StubChatBody));

function reply(body: StubChatBody): string {
  if (isJudge(body)) return JSON.stringify({ correct: true, reason: "matches" });
  const question = /Question: (.*)/.exec(text(body))?.[1] ?? "?";
  return `answer to: ${question}`;
}

const row = (summary: Summary) => summary.results[0] as ScoredRow;

function storedScores(dir: string): ProbeScore[] {
  const store = new RunStore(join(dir, "run.sqlite"));
  try {
    return store.scores<ProbeScore>();
  } finally {
    store.close();
  }
}

describe("failed answers and judge calls are asked again after the endpoint recovers", () => {
  const stub = suiteStub({ reply });
  let out: string;
  const saved = { ...process.env };
  before(() => {
    out = mkdtempSync(join(tmpdir(), "mb-retry-"));
  });
  beforeEach(() => {
    stub().setFailWhen(undefined);
    Object.assign(process.env, {
      MEMBENCH_BASE_URL: stub().url,
      MEMBENCH_MODEL: "stub-model",
      MEMBENCH_MAX_RETRIES: "0",
      MEMBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), "mb-retry-cache-")),
    });
  });
  after(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    rmSync(out, { recursive: true, force: true });
  });

  const start = (id: string) =>
    startRun({
      benchmark: "longmemeval",
      data: fixture("longmemeval"),
      systems: ["full-context"],
      out,
      id,
      concurrency: 1,
      price: { inputPerMTok: 1, outputPerMTok: 2 },
      progress: false,
    });

  it("re-asks only the failed answers on --resume, judges only them, and sums usage over both processes", async () => {
    // The outage: every answer call about the houseplants or the Oslo trip fails.
    stub().setFailWhen((body) =>
      !isJudge(body) && (text(body).includes(HOUSEPLANTS) || text(body).includes(OSLO)) ? { status: 503 } : undefined,
    );
    const first = await start("answers");
    assert.equal(first.failedUnits, 0, "a failed answer does not fail its unit");
    const failed = readRecords(first.dir).filter((r) => r.answerError !== undefined);
    assert.deepEqual(failed.map((r) => r.probeId).sort(), ["9c3d7a22", "gpt4_5f1e8b33_abs"]);
    assert.equal(row(first.summary).metrics.answer_failures, 2);
    assert.deepEqual(first.summary.failures, { units: 0, answers: 2, judgeCalls: 0 });
    assert.equal(row(first.summary).metrics.accuracy, 2 / 4, "failed answers score as wrong");
    const before = readRecords(first.dir);
    const firstUsage = first.summary.usage!.roles.answerer;
    assert.equal(firstUsage.calls, 2);
    assert.equal(firstUsage.errors, 2);

    // The endpoint recovers; a new process (new cache folder, so nothing is served from a cache) resumes.
    stub().setFailWhen(undefined);
    stub().resetRecords();
    process.env.MEMBENCH_CACHE_DIR = mkdtempSync(join(tmpdir(), "mb-retry-cache-"));
    const resumed = await resumeRun(first.dir, false);
    const asked = answerCalls(stub().chatRequests).map((r) => /Question: (.*)/.exec(text(r.body as StubChatBody))?.[1]);
    assert.equal(asked.length, 2);
    assert.ok(
      asked.every((q) => q?.includes(HOUSEPLANTS) || q?.includes(OSLO)),
      String(asked),
    );
    assert.equal(judgeCalls(stub().chatRequests).length, 2, "only the new answers are judged again");

    const after = readRecords(resumed.dir);
    const byProbe = (records: ProbeRecord[]) => new Map(records.map((r) => [r.probeId, r]));
    for (const [id, record] of byProbe(before)) {
      const now = byProbe(after).get(id)!;
      if (record.answerError === undefined) assert.deepEqual(now, record, `${id} kept as it was`);
      else {
        assert.equal(now.answerError, undefined);
        assert.match(now.answer ?? "", /^answer to: /);
        assert.deepEqual(now.context, record.context, "asked with the context the probe saw");
        assert.deepEqual(now.retrieved, record.retrieved);
      }
    }
    assert.equal(row(resumed.summary).metrics.answer_failures, undefined);
    assert.equal(row(resumed.summary).metrics.accuracy, 1);
    assert.deepEqual(resumed.summary.failures, { units: 0, answers: 0, judgeCalls: 0 });

    const usage = resumed.summary.usage!;
    assert.equal(usage.roles.answerer.calls, 4, "the first process's answer calls still count");
    assert.equal(usage.roles.answerer.errors, 2);
    const tokens = usage.roles.answerer;
    assert.ok(Math.abs(usage.total.costUsd! - (tokens.inputTokens * 1 + tokens.outputTokens * 2) / 1e6) < 1e-12);
    assert.equal(resumed.summary.judgeUsage!.roles.judge.calls, 4, "judge calls of both scorings");

    // Resuming the finished run again asks nothing and loses no usage.
    stub().resetRecords();
    const again = await resumeRun(first.dir, false);
    assert.equal(stub().chatRequests.length, 0);
    assert.deepEqual(again.summary.usage, usage);
    assert.equal(again.summary.judgeUsage!.roles.judge.calls, 4);
  });

  it("re-asks only the failed judge calls, keeping every verdict that succeeded", async () => {
    stub().setFailWhen((body) => (isJudge(body) && text(body).includes(HOUSEPLANTS) ? { status: 500 } : undefined));
    const first = await start("judges");
    const failedRow = row(first.summary);
    assert.equal(failedRow.judge_failures, 1);
    assert.equal(failedRow.judgeFailureList?.[0]?.probeId, "9c3d7a22");
    assert.equal(failedRow.judgeFailureList?.[0]?.cause, "endpoint");
    assert.deepEqual(first.summary.failures, { units: 0, answers: 0, judgeCalls: 1 });
    assert.equal(failedRow.metrics.accuracy, 3 / 4, "a failed verdict is never a pass");
    const kept = storedScores(first.dir).filter((s) => s.probeId !== "9c3d7a22");

    stub().setFailWhen(undefined);
    stub().resetRecords();
    process.env.MEMBENCH_CACHE_DIR = mkdtempSync(join(tmpdir(), "mb-retry-cache-"));
    const resumed = await resumeRun(first.dir, false);
    assert.equal(answerCalls(stub().chatRequests).length, 0, "no answer failed, none is asked again");
    const judged = judgeCalls(stub().chatRequests);
    assert.equal(judged.length, 1);
    assert.ok(text(judged[0]!.body as StubChatBody).includes(HOUSEPLANTS));
    assert.equal(row(resumed.summary).judge_failures, 0);
    assert.equal(row(resumed.summary).metrics.accuracy, 1);
    assert.deepEqual(resumed.summary.failures, { units: 0, answers: 0, judgeCalls: 0 });
    const now = storedScores(resumed.dir);
    for (const s of kept) {
      assert.deepEqual(
        now.find((x) => x.probeId === s.probeId)?.verdicts,
        s.verdicts,
        `${s.probeId}: the stored verdict is kept`,
      );
    }
    assert.equal(resumed.summary.judgeUsage!.roles.judge.calls, 3 + 1);
    assert.equal(resumed.summary.judgeUsage!.roles.judge.errors, 1);
  });
});

describe("membench run --retry-failed", () => {
  const root = join(import.meta.dirname, "../..");
  const cli = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: root,
      env: { ...process.env },
      encoding: "utf8",
    });
  const rules = (answerOslo: boolean) =>
    [
      { role: "answerer", match: answerOslo ? "." : "^(?![\\s\\S]*Oslo)", reply: "scripted answer" },
      { role: "judge", reply: { correct: true, reason: "ok" } },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n");

  it("says how many calls failed and how to ask them again, then asks only those", () => {
    const out = mkdtempSync(join(tmpdir(), "mb-retry-cli-"));
    const script = join(out, "model.jsonl");
    // No rule answers the Oslo question: that answer call fails.
    writeFileSync(script, rules(false));
    const first = cli([
      "run",
      "longmemeval",
      "--data",
      fixture("longmemeval"),
      "--system",
      "full-context",
      "--llm",
      `scripted:${script}`,
      "--out",
      out,
      "--no-progress",
    ]);
    const dir = /→ (\S+)/.exec(first.stderr)?.[1];
    assert.ok(dir, first.stderr);
    assert.match(
      first.stderr,
      /1 answer call failed \(scored as failures\); once the endpoint answers, --retry-failed /,
    );
    assert.match(first.stderr, new RegExp(`--retry-failed ${dir}`));

    const rescored = cli(["score", dir]);
    assert.match(
      rescored.stderr,
      new RegExp(`1 answer calls failed; membench run --retry-failed ${dir} asks them again`),
    );

    writeFileSync(script, rules(true));
    const retried = cli(["run", "--retry-failed", dir, "--no-progress"]);
    assert.equal(retried.status, 0, retried.stderr);
    assert.match(retried.stderr, /0 units to run \(4 already done\)/);
    assert.match(retried.stderr, /asking 1 failed answers again/);
    assert.doesNotMatch(retried.stderr, /failed \(scored as failures\)/);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;
    assert.deepEqual(summary.failures, { units: 0, answers: 0, judgeCalls: 0 });
    assert.equal(summary.usage?.roles.answerer.calls, 4);
    assert.equal(summary.usage?.roles.answerer.errors, 1);
    rmSync(out, { recursive: true, force: true });
  });
});

describe("resuming with another answer prompt", () => {
  it("is refused: answers asked now would not see the prompt the stored ones saw", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-retry-prompt-"));
    const outcome = await startRun({
      benchmark: "longmemeval",
      data: fixture("longmemeval"),
      systems: ["none"],
      out,
      id: "r",
      progress: false,
    });
    const path = join(outcome.dir, "config.json");
    const config = JSON.parse(readFileSync(path, "utf8"));
    config.protocol.answerPromptHash = "0000000000000000";
    writeFileSync(path, JSON.stringify(config));
    await assert.rejects(resumeRun(outcome.dir, false), /the answer prompt changed since the run started/);
    rmSync(out, { recursive: true, force: true });
  });
});

describe("a failed answer the system gave itself", () => {
  it("replays its unit (the answer needs the system's memory), leaving the other units alone", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-retry-native-"));
    const script = join(out, "model.jsonl");
    writeFileSync(
      script,
      [
        { role: "answerer", reply: "scripted answer" },
        { role: "judge", reply: { correct: true, reason: "ok" } },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    const first = await startRun({
      benchmark: "longmemeval",
      data: fixture("longmemeval"),
      systems: ["none"],
      llm: `scripted:${script}`,
      out,
      id: "r",
      progress: false,
    });
    // As a system with its own answer() would have stored a failure.
    const store = new RunStore(join(first.dir, "run.sqlite"));
    const [victim, ...others] = store.records();
    store.updateRecord({ ...victim!, answer: undefined, answeredBy: "system", answerError: "system down" });
    const attemptsBefore = new Map(store.units().map((u) => [u.id, u.attempts]));
    store.close();

    const resumed = await resumeRun(first.dir, false);
    assert.deepEqual(resumed.summary.failures, { units: 0, answers: 0, judgeCalls: 0 });
    const reread = new RunStore(join(first.dir, "run.sqlite"));
    const units = reread.units();
    reread.close();
    for (const u of units) {
      const expected = attemptsBefore.get(u.id)! + (u.id === victim!.unitId ? 1 : 0);
      assert.equal(u.attempts, expected, `${u.id} attempts`);
    }
    const after = readRecords(first.dir);
    assert.equal(after.find((r) => r.unitId === victim!.unitId)?.answer, "scripted answer");
    for (const r of others)
      assert.deepEqual(
        after.find((x) => x.unitId === r.unitId && x.probeId === r.probeId),
        r,
      );
    rmSync(out, { recursive: true, force: true });
  });
});
