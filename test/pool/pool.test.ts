/**
 * The worker pool end to end: a private redis-server on a free loopback port,
 * the coordinator (`membench run --queue`) and the workers (`membench worker`)
 * as child processes of the real CLI. Each test uses its own queue name, so a
 * job one test leaves behind is never taken by another test's workers.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, runBenchmark } from "../../src/run/runner.ts";
import { RunStore } from "../../src/run/store.ts";
import type { Summary } from "../../src/run/summary.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";
import { assertRate } from "../support/rate.ts";
import { findRedisServer, redisSkip, startRedis, type TestRedis } from "../support/redis.ts";
import { fixture } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");
const lookup = findRedisServer();

interface Ended {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

interface Proc {
  child: ChildProcess;
  stderr: () => string;
  ended: Promise<Ended>;
}

/** The CLI as a child process, through tsx like the other CLI tests. */
function cli(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (c: Buffer) => {
    stdout += c.toString();
  });
  child.stderr?.on("data", (c: Buffer) => {
    stderr += c.toString();
  });
  const ended = new Promise<Ended>((done) =>
    child.on("close", (status, signal) => done({ status, signal, stdout, stderr })),
  );
  return { child, stderr: () => stderr, ended };
}

/** Resolves once `proc` has logged a line matching `pattern` (or fails when it ends first). */
async function logged(proc: Proc, pattern: RegExp, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!pattern.test(proc.stderr())) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) {
      throw new Error(`the process ended before logging ${pattern}: ${proc.stderr()}`);
    }
    if (Date.now() - started > timeoutMs) throw new Error(`no ${pattern} within ${timeoutMs} ms: ${proc.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A worker on `queue`, ready (its "taking units" line logged). */
async function worker(url: string, queue: string, extra: string[] = [], env: Record<string, string> = {}) {
  const w = cli(["worker", "--queue", url, "--queue-name", queue, ...extra], env);
  await logged(w, /taking units from queue/);
  return w;
}

async function stopAll(procs: Proc[]): Promise<Ended[]> {
  for (const p of procs) if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill("SIGTERM");
  return Promise.all(procs.map((p) => p.ended));
}

/** Records without their timings, which legitimately differ between processes. */
const comparable = (records: ProbeRecord[]) =>
  records
    .map(({ timings: _t, ...rest }) => rest)
    .sort((a, b) => `${a.unitId}/${a.probeId}/${a.setting}`.localeCompare(`${b.unitId}/${b.probeId}/${b.setting}`));

const runDir = (e: Ended) => {
  const dir = /run stored in (.+)/.exec(e.stderr)?.[1]?.trim();
  assert.ok(dir, e.stderr);
  return dir;
};

/** A summary's result rows without latencies, which legitimately differ between processes. */
const untimed = (summary: Summary) =>
  summary.results.map(({ latency: _l, metrics, ...row }) => ({
    ...row,
    metrics: Object.fromEntries(Object.entries(metrics).filter(([k]) => !/_ms_p\d+$/.test(k))),
  }));

const summaryOf = (dir: string) => JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as Summary;

/** Units with the number of times each was started, from the coordinator's store. */
function unitsOf(dir: string) {
  const store = RunStore.readOnly(join(dir, "run.sqlite"));
  try {
    return store.units();
  } finally {
    store.close();
  }
}

/** A scripted model answering every call, with one judge reply both RealMem judges read. */
function scriptFile(dir: string): string {
  const path = join(dir, "model.jsonl");
  const judge = { score: 3, hits: [1], recall: 1, helpful: 2, reason: "ok" };
  writeFileSync(
    path,
    [
      { role: "answerer", reply: "scripted answer" },
      { role: "judge", reply: judge },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n"),
  );
  return path;
}

describe("worker pool over Redis", { skip: redisSkip(lookup, "the worker-pool tests") }, () => {
  let redis: TestRedis;
  let tmp: string;
  let stub: OpenAIStub | undefined;
  before(async () => {
    redis = await startRedis(lookup);
    tmp = mkdtempSync(join(tmpdir(), "mb-pool-"));
  });
  after(async () => {
    await stub?.close();
    await redis?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const realmem = ["realmem", "--data", fixture("realmem"), "--system", "bm25,bm25-session", "--no-progress"];

  it("coordinator + 2 workers finish a RealMem run (bm25, bm25-session) whose records equal a single-process run's", async () => {
    const local = await runBenchmark({
      benchmark: "realmem",
      data: fixture("realmem"),
      systems: ["bm25", "bm25-session"],
      out: join(tmp, "local-1"),
    });
    const workers = [await worker(redis.url, "q1"), await worker(redis.url, "q1")];
    const coordinator = cli([
      "run",
      ...realmem,
      "--out",
      join(tmp, "pool-1"),
      "--queue",
      redis.url,
      "--queue-name",
      "q1",
    ]);
    const ended = await coordinator.ended;
    const logs = await stopAll(workers);
    assert.equal(ended.status, 0, ended.stderr);
    const dir = runDir(ended);
    assert.deepEqual(comparable(readRecords(dir)), comparable(local.records));
    assert.deepEqual(
      unitsOf(dir).map((u) => [u.id, u.state]),
      [
        ["bm25|Mira_Sato", "done"],
        ["bm25-session|Mira_Sato", "done"],
      ],
    );
    assert.deepEqual(untimed(summaryOf(dir)), untimed(local.summary));
    const worked = logs.map((l) => (l.stderr.match(/records in \d+ ms/g) ?? []).length);
    assert.equal(
      worked.reduce((a, b) => a + b, 0),
      2,
      `the workers executed the 2 units between them: ${worked}`,
    );
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    assert.deepEqual(config.options.queue, { url: redis.url, name: "q1" });
  });

  it("with the scripted model the answers happen in the workers: LoCoMo records, scores and answer usage equal a single-process run's", async () => {
    const script = scriptFile(tmp);
    const locomo = ["locomo", "--data", fixture("locomo/locomo10-mini.json"), "--system", "bm25,bm25-session"];
    const local = await runBenchmark({
      benchmark: "locomo",
      data: fixture("locomo/locomo10-mini.json"),
      systems: ["bm25", "bm25-session"],
      llm: `scripted:${script}`,
      out: join(tmp, "local-2"),
    });
    const workers = [await worker(redis.url, "q2"), await worker(redis.url, "q2")];
    const coordinator = cli([
      "run",
      ...locomo,
      "--llm",
      `scripted:${script}`,
      "--no-progress",
      "--out",
      join(tmp, "pool-2"),
      "--queue",
      redis.url,
      "--queue-name",
      "q2",
    ]);
    const ended = await coordinator.ended;
    const logs = await stopAll(workers);
    assert.equal(ended.status, 0, ended.stderr);
    const dir = runDir(ended);
    const records = readRecords(dir);
    assert.ok(records.length > 0 && records.every((r) => r.answer === "scripted answer"), "every probe answered");
    assert.deepEqual(comparable(records), comparable(local.records));
    const summary = summaryOf(dir);
    assert.deepEqual(untimed(summary), untimed(local.summary));
    const answers = summary.usage?.roles.answerer.calls;
    assert.equal(answers, local.summary.usage?.roles.answerer.calls);
    assert.equal(answers, records.length, "one answer call per record, made and reported by the workers");
    const executed = logs.flatMap((l) => l.stderr.match(/unit \S+ of run \S+: \d+ records/g) ?? []);
    assert.equal(executed.length, unitsOf(dir).length, logs.map((l) => l.stderr).join("\n"));
  });

  it("a worker killed with SIGKILL mid-unit loses nothing: the unit is retried by the other, stored once, records equal", async () => {
    const script = scriptFile(tmp);
    const local = await runBenchmark({
      benchmark: "realmem",
      data: fixture("realmem"),
      systems: ["bm25", "bm25-session"],
      llm: `scripted:${script}`,
      out: join(tmp, "local-3"),
    });
    const fast = ["--lock-ms", "1500", "--stalled-ms", "500"];
    // 4 probes per unit: the first worker dies after the 2nd probe of its first unit.
    const doomed = await worker(redis.url, "q3", fast, { MEMBENCH_TEST_KILL_AFTER_PROBES: "2" });
    const coordinator = cli([
      "run",
      ...realmem,
      "--llm",
      `scripted:${script}`,
      "--out",
      join(tmp, "pool-3"),
      "--queue",
      redis.url,
      "--queue-name",
      "q3",
    ]);
    const killed = await doomed.ended;
    assert.equal(killed.signal, "SIGKILL", killed.stderr);
    assert.match(killed.stderr, /unit bm25\|Mira_Sato of run \S+: attempt 1/);
    const rescuer = await worker(redis.url, "q3", fast);
    const ended = await coordinator.ended;
    const [rescued] = await stopAll([rescuer]);
    assert.equal(ended.status, 0, ended.stderr);
    const dir = runDir(ended);
    assert.match(
      rescued!.stderr,
      /unit bm25\|Mira_Sato of run \S+: attempt 1/,
      "the stalled unit went back to the queue",
    );
    assert.deepEqual(comparable(readRecords(dir)), comparable(local.records), "no unit lost, none counted twice");
    const units = unitsOf(dir);
    assert.deepEqual(
      units.map((u) => u.state),
      ["done", "done"],
    );
    assert.ok(units[0]!.attempts >= 2, `the killed unit started twice (${units[0]!.attempts})`);
    assert.equal(summaryOf(dir).failures?.units, 0);
    // Calls the killed attempt made were spent: counted on top, never instead, of the finished units'.
    const calls = summaryOf(dir).usage?.roles.answerer.calls ?? 0;
    assert.ok(
      calls >= 8 && calls <= 10,
      `answer calls ${calls}: 8 for the stored records, up to 2 of the killed attempt`,
    );
  });

  it("a unit that keeps failing is dead-lettered: kept in the queue's failed list, failed in the store, named by summary and report; --resume tries it again", async () => {
    const broken = join(tmp, "broken");
    writeFileSync(broken, "");
    const module = join(tmp, "flaky-system.mjs");
    writeFileSync(
      module,
      `import { existsSync } from "node:fs";
export default class Flaky {
  id = "flaky";
  caps = { granularity: "session", ranked: true, provenance: true, readback: false, nativeAnswer: false };
  async open() {}
  async close() {}
  async ingest() {
    if (existsSync(${JSON.stringify(broken)})) throw new Error("the disk is on fire");
  }
  async search() { return []; }
}
`,
    );
    const w = await worker(redis.url, "q4");
    const args = [
      "run",
      "realmem",
      "--data",
      fixture("realmem"),
      "--system",
      `bm25,${module}`,
      "--no-progress",
      "--out",
      join(tmp, "pool-4"),
      "--queue",
      redis.url,
      "--queue-name",
      "q4",
      "--queue-attempts",
      "2",
      "--queue-backoff-ms",
      "100",
    ];
    const ended = await cli(args).ended;
    assert.equal(ended.status, 1, ended.stderr);
    assert.match(ended.stderr, /unit flaky-system\|Mira_Sato dead-lettered after 2 attempts: .*the disk is on fire/);
    const dir = runDir(ended);
    const [bm25, flaky] = unitsOf(dir);
    assert.equal(bm25!.state, "done");
    assert.equal(flaky!.state, "failed");
    assert.match(flaky!.error ?? "", /the disk is on fire/);
    assert.equal(flaky!.deadLetter?.attempts, 2);
    assert.match(flaky!.deadLetter?.job ?? "", /\/flaky-system%7CMira_Sato$/);
    assert.deepEqual(summaryOf(dir).failures, { units: 1, deadLettered: 1, answers: 0, judgeCalls: 0 });

    const { Queue } = await import("bullmq");
    const queue = new Queue("q4", { connection: { url: redis.url } });
    try {
      const failed = await queue.getFailed();
      assert.deepEqual(
        failed.map((j) => [j.id, j.attemptsMade]),
        [[flaky!.deadLetter!.job, 2]],
      );
      assert.match(failed[0]!.failedReason, /the disk is on fire/);
    } finally {
      await queue.close();
    }

    const report = await cli(["report", dir]).ended;
    assert.equal(report.status, 0, report.stderr);
    assert.match(report.stdout, /dead-lettered after 2 attempts \(queue job \S+\): .*the disk is on fire/);

    // Fixed: --resume re-attaches to the run's queue and gives the dead letter a new set of attempts.
    rmSync(broken);
    const resumed = await cli(["run", "--resume", dir, "--no-progress"]).ended;
    await stopAll([w]);
    assert.equal(resumed.status, 0, resumed.stderr);
    assert.deepEqual(
      unitsOf(dir).map((u) => [u.state, u.deadLetter]),
      [
        ["done", undefined],
        ["done", undefined],
      ],
    );
    assert.deepEqual(summaryOf(dir).failures, { units: 0, answers: 0, judgeCalls: 0 });
  });

  it("Ctrl-C stops the coordinator's wait and loses nothing: --resume collects what workers finished meanwhile, --resume --local runs the rest here", async () => {
    const local = await runBenchmark({
      benchmark: "realmem",
      data: fixture("realmem"),
      systems: ["bm25", "bm25-session"],
      out: join(tmp, "local-6"),
    });
    const start = (out: string) =>
      cli(["run", ...realmem, "--out", join(tmp, out), "--queue", redis.url, "--queue-name", "q6"]);
    const interrupted = async (out: string) => {
      const coordinator = start(out);
      await logged(coordinator, /waiting for workers/);
      coordinator.child.kill("SIGINT");
      const ended = await coordinator.ended;
      assert.equal(ended.status, 130, ended.stderr);
      assert.match(ended.stderr, /stopped waiting: 2 units are still on queue "q6"/);
      const dir = /run --resume (\S+) collects the rest/.exec(ended.stderr)?.[1];
      assert.ok(dir, ended.stderr);
      assert.deepEqual(
        unitsOf(dir).map((u) => u.state),
        ["pending", "pending"],
      );
      return dir;
    };

    // No worker yet: the jobs wait in the queue; one comes, finishes them, and goes before the resume.
    const first = await interrupted("pool-6a");
    const w = await worker(redis.url, "q6");
    while ((w.stderr().match(/: 4 records in/g) ?? []).length < 2) await new Promise((r) => setTimeout(r, 100));
    await stopAll([w]);
    const collected = await cli(["run", "--resume", first, "--no-progress"]).ended;
    assert.equal(collected.status, 0, collected.stderr);
    assert.match(collected.stderr, /\(2 results already there\)/);
    assert.deepEqual(comparable(readRecords(first)), comparable(local.records));

    // --local: what is left runs in the resuming process, no worker needed.
    const second = await interrupted("pool-6b");
    const here = await cli(["run", "--resume", second, "--local", "--no-progress"]).ended;
    assert.equal(here.status, 0, here.stderr);
    assert.deepEqual(comparable(readRecords(second)), comparable(local.records));
  });

  it("MEMBENCH_RPS holds across two workers: the answer calls both make reach the stub at the global rate", async () => {
    stub = await startOpenAIStub({
      latencyMs: 100,
      reply: () => ({ score: 3, hits: [1], recall: 1, helpful: 2, reason: "ok" }),
    });
    const env = {
      MEMBENCH_BASE_URL: stub.url,
      MEMBENCH_MODEL: "m",
      MEMBENCH_RPS: "10",
      MEMBENCH_CONCURRENCY: "4",
      MEMBENCH_CACHE_DIR: join(tmp, "cache-5"),
    };
    const workers = [await worker(redis.url, "q5", [], env), await worker(redis.url, "q5", [], env)];
    const ended = await cli(
      [
        "run",
        ...realmem,
        "--setting",
        "default,oracle",
        "--out",
        join(tmp, "pool-5"),
        "--queue",
        redis.url,
        "--queue-name",
        "q5",
      ],
      env,
    ).ended;
    const logs = await stopAll(workers);
    assert.equal(ended.status, 0, ended.stderr);
    for (const l of logs) {
      assert.equal((l.stderr.match(/: 8 records in/g) ?? []).length, 1, `each worker ran one unit: ${l.stderr}`);
    }
    // Answers carry no response format; the judges' calls (on the coordinator, after the units) do.
    const answers = stub.chatRequests.filter((r) => !(r.body as { response_format?: unknown }).response_format);
    assert.equal(answers.length, 16, "4 probes × 2 settings × 2 units");
    // Each worker alone may start 10/s: without the shared limit the 16 calls would take ~0.75 s.
    assertRate(
      answers.map((r) => r.time),
      10,
    );
  });
});

describe("pool flags", () => {
  it("refuses a queue that is not a Redis URL or cannot be reached, a queue flag without --queue, and a worker without a queue, with exit 2", async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ["run", "realmem", "--data", fixture("realmem"), "--queue", "http://127.0.0.1:6379"],
        /queue \(from --queue\): expected a redis:\/\/ or rediss:\/\/ URL/,
      ],
      [["run", "realmem", "--data", fixture("realmem"), "--queue-attempts", "2"], /--queue-attempts needs --queue/],
      [["worker"], /--queue redis:\/\/host:port is required/],
      [["worker", "--queue", "redis://127.0.0.1:1", "--parallel-units", "0"], /expected a whole number ≥ 1, got "0"/],
      // Fails fast instead of retrying forever; the password never reaches the message.
      [
        ["worker", "--queue", "redis://:secret@127.0.0.1:1"],
        /cannot reach the Redis at redis:\/\/127\.0\.0\.1:1: connect ECONNREFUSED/,
      ],
    ];
    for (const [args, message] of cases) {
      const ended = await cli(args).ended;
      assert.equal(ended.status, 2, `${args.join(" ")}: ${ended.stderr}`);
      assert.match(ended.stderr, message);
      assert.ok(!ended.stderr.includes("secret"));
    }
  });
});
