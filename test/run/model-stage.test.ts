/**
 * Answers and judges are decoupled from the replay: the replay freezes each
 * probe's context and goes on, and every answer and judge call waits in one
 * queue at MEMBENCH_CONCURRENCY. Against the OpenAI stub over real HTTP.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, beforeEach, describe, it } from "node:test";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, resumeRun, startRun } from "../../src/run/runner.ts";
import { computeSummary } from "../../src/run/score-run.ts";
import { RunStore } from "../../src/run/store.ts";
import { type StubChatBody, suiteStub } from "../support/openai-stub.ts";
import { fixture } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");
const isJudge = (body: StubChatBody) => body.response_format !== undefined;
const JUDGE = { score: 3, hits: [1], recall: 1, helpful: 2, reason: "ok" };
const reply = (body: StubChatBody) =>
  isJudge(body) ? JUDGE : `answer ${String(body.messages?.at(-1)?.content).length}`;

/** Records without their timings, in a fixed order. */
const comparable = (records: ProbeRecord[]) =>
  records
    .map(({ timings: _t, ...rest }) => rest)
    .sort((a, b) => `${a.unitId}/${a.probeId}/${a.setting}`.localeCompare(`${b.unitId}/${b.probeId}/${b.setting}`));

describe("answer and judge calls from one queue", () => {
  const stub = suiteStub({ reply });
  const saved = { ...process.env };
  beforeEach(() => {
    Object.assign(process.env, {
      MEMBENCH_BASE_URL: stub().url,
      MEMBENCH_MODEL: "stub-model",
      MEMBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), "mb-stage-cache-")),
    });
    stub().setLatency(0);
  });
  after(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });

  const run = (id: string, concurrency: number) => {
    process.env.MEMBENCH_CONCURRENCY = String(concurrency);
    return startRun({
      benchmark: "realmem",
      data: fixture("realmem"),
      systems: ["bm25", "bm25-session", "none"],
      out: mkdtempSync(join(tmpdir(), "mb-stage-")),
      id,
      // One unit replayed at a time: whatever runs at once is answers and judges the replay did not wait for.
      concurrency: 1,
      progress: false,
    });
  };

  it("keeps the model busy while the replay goes on, with the same calls and records as one call at a time", async () => {
    stub().setLatency(150);
    const serial = await run("serial", 1);
    const serialRequests = stub().chatRequests.map((r) => JSON.stringify(r.body));
    assert.equal(stub().maxInFlight, 1);
    stub().resetRecords();
    process.env.MEMBENCH_CACHE_DIR = mkdtempSync(join(tmpdir(), "mb-stage-cache-"));
    const wide = await run("wide", 64);
    // 3 units × 4 probes, each answered then judged twice (RealMem's qa and memory judges), less cache hits.
    assert.equal(stub().chatRequests.length, serialRequests.length);
    // Each RealMem probe fires at its own place in the timeline: waiting there for its answer allowed one
    // answer call at a time. Calls last 150 ms, so those that arrived within 150 ms of one another overlapped.
    const answers = stub()
      .chatRequests.filter((r) => !isJudge(r.body as StubChatBody))
      .map((r) => r.time);
    const overlap = Math.max(...answers.map((t) => answers.filter((u) => u >= t && u < t + 150).length));
    assert.ok(overlap >= 6, `at most ${overlap} answer calls in flight`);
    assert.deepEqual(
      stub()
        .chatRequests.map((r) => JSON.stringify(r.body))
        .sort(),
      serialRequests.sort(),
    );
    assert.deepEqual(comparable(readRecords(wide.dir)), comparable(readRecords(serial.dir)));
    const metrics = (s: typeof wide.summary) =>
      s.results.map((r) => Object.fromEntries(Object.entries(r.metrics).filter(([k]) => !/_ms_/.test(k))));
    assert.deepEqual(metrics(wide.summary), metrics(serial.summary));
  });

  it("never has more calls in flight than MEMBENCH_CONCURRENCY, answers and judges together", async () => {
    stub().setLatency(40);
    await run("narrow", 3);
    assert.ok(stub().chatRequests.length > 12);
    assert.equal(stub().maxInFlight, 3);
    assert.ok(stub().chatRequests.some((r) => isJudge(r.body as StubChatBody)));
  });

  it("answers on --resume the records whose answers were pending when the process was killed", async () => {
    process.env.MEMBENCH_CONCURRENCY = "8";
    const whole = await run("whole", 8);
    // Slow answers: the first unit is stored with all four answers still pending; the kill comes
    // as the second unit's second probe fires.
    stub().setLatency(5_000);
    const out = mkdtempSync(join(tmpdir(), "mb-stage-kill-"));
    const child = spawn(
      process.execPath,
      [
        "--import",
        "tsx",
        "src/cli/main.ts",
        "run",
        "realmem",
        "--data",
        fixture("realmem"),
        "--system",
        "bm25,bm25-session,none",
        "--parallel-units",
        "1",
        "--out",
        out,
        "--no-progress",
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          MEMBENCH_TEST_KILL_AFTER_PROBES: "6",
          MEMBENCH_CACHE_DIR: mkdtempSync(join(tmpdir(), "mb-stage-cache-")),
        },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    const signal = await new Promise<NodeJS.Signals | null>((done) => child.on("exit", (_code, s) => done(s)));
    assert.equal(signal, "SIGKILL", stderr);
    const dir = /→ (\S+)/.exec(stderr)?.[1];
    assert.ok(dir, stderr);
    const store = new RunStore(join(dir, "run.sqlite"));
    const units = store.units().map((u) => u.state);
    const stored = store.records();
    store.close();
    assert.deepEqual(units, ["done", "running", "pending"]);
    assert.deepEqual(
      stored.map((r) => [r.answerPending, r.answer]),
      Array.from({ length: 4 }, () => [true, undefined]),
      "the finished unit's contexts are stored, their answers pending",
    );
    assert.equal(computeSummary(dir).summary.failures?.answersPending, 4);

    stub().setLatency(0);
    stub().resetRecords();
    process.env.MEMBENCH_CACHE_DIR = mkdtempSync(join(tmpdir(), "mb-stage-cache-"));
    const resumed = await resumeRun(dir, false);
    assert.equal(resumed.failedUnits, 0);
    assert.equal(resumed.summary.failures?.answersPending, undefined);
    // The 4 pending answers and the 8 of the two units replayed (identical prompts are cache hits).
    assert.ok(stub().chatRequests.some((r) => !isJudge(r.body as StubChatBody)));
    const records = readRecords(dir);
    assert.ok(records.every((r) => r.answer !== undefined && !r.answerPending));
    assert.deepEqual(comparable(records), comparable(readRecords(whole.dir)));
  });
});
