/**
 * `--shard i/n` and `membench merge`: a run split into shards and merged gives
 * the single-process run's metrics, probe records and scores; the partition is
 * deterministic and balanced; a unit finished twice is counted once; shards of
 * different runs are refused.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { before, describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { mergeRuns } from "../../src/run/merge.ts";
import { readRecords, resumeRun, startRun } from "../../src/run/runner.ts";
import { assignShards, parseShard, type ShardSpec } from "../../src/run/shard.ts";
import { RunStore } from "../../src/run/store.ts";
import type { Summary } from "../../src/run/summary.ts";
import type { ProbeScore } from "../../src/score/types.ts";
import { fixture } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");

/** Records without timings (they differ between executions), in stored order. */
const comparable = (records: ProbeRecord[]) => records.map(({ timings: _t, ...rest }) => rest);

/** Summary rows without latencies, and the run's failures. */
const metrics = (s: Summary) => ({
  results: s.results.map((r) => ({
    ...r,
    latency: undefined,
    metrics: Object.fromEntries(Object.entries(r.metrics).filter(([k]) => !/_ms_/.test(k))),
  })),
  failures: s.failures,
});

function scores(dir: string): ProbeScore[] {
  const store = RunStore.readOnly(join(dir, "run.sqlite"));
  try {
    return store.scores<ProbeScore>();
  } finally {
    store.close();
  }
}

describe("shard partition", () => {
  const units = Array.from({ length: 40 }, (_, i) => ({ id: `sys${i % 3}|episode-${i}`, w: 1 + ((i * 37) % 11) }));

  it("puts every unit in exactly one shard, the same whatever order the units come in", () => {
    const a = assignShards(units, (u) => u.w, 3);
    const b = assignShards([...units].reverse(), (u) => u.w, 3);
    assert.deepEqual([...a].sort(), [...b].sort());
    assert.equal(a.size, units.length);
    assert.deepEqual([...new Set(a.values())].sort(), [1, 2, 3]);
  });

  it("balances the shards by size: none exceeds an even share by more than the largest unit", () => {
    for (const count of [2, 3, 4, 7]) {
      const of = assignShards(units, (u) => u.w, count);
      const loads = new Array<number>(count).fill(0);
      for (const u of units) loads[of.get(u.id)! - 1]! += u.w;
      const total = units.reduce((n, u) => n + u.w, 0);
      const biggest = Math.max(...units.map((u) => u.w));
      assert.ok(Math.max(...loads) <= total / count + biggest, `${count} shards: ${loads.join(", ")}`);
    }
  });

  it("reads i/n and refuses anything else", () => {
    assert.deepEqual(parseShard("2/3"), { index: 2, count: 3 });
    for (const bad of ["0/3", "4/3", "1", "a/b", "1/0", "-1/2"]) {
      assert.throws(
        () => parseShard(bad),
        (e: unknown) => e instanceof ConfigError && /expected i\/n/.test(e.message),
      );
    }
  });
});

describe("a run split in shards and merged", () => {
  let script: string;
  let out: string;
  before(() => {
    out = mkdtempSync(join(tmpdir(), "mb-shard-"));
    script = join(out, "model.jsonl");
    writeFileSync(
      script,
      [
        { role: "answerer", match: "houseplants", reply: "Seven houseplants." },
        { role: "answerer", reply: "I do not know." },
        { role: "judge", match: "Seven houseplants", reply: { correct: true, reason: "matches" } },
        { role: "judge", reply: { correct: false, reason: "does not match" } },
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
  });

  const start = (id: string, shard?: ShardSpec, extra: { depth?: number } = {}) =>
    startRun({
      benchmark: "longmemeval",
      data: fixture("longmemeval"),
      systems: ["bm25", "full-context", "none"],
      llm: `scripted:${script}`,
      out,
      id,
      ...(shard ? { shard } : {}),
      ...(extra.depth ? { protocol: { depth: extra.depth } } : {}),
      progress: false,
    });

  it("gives the single-process run's metrics, probe records and scores (3 shards)", async () => {
    const whole = await start("whole");
    const shards = [];
    for (let i = 1; i <= 3; i++) shards.push(await start(`shard-${i}`, { index: i, count: 3 }));
    // Every unit ran in exactly one shard.
    const ran = shards.flatMap((s) => [...new Set(readRecords(s.dir).map((r) => r.unitId))]);
    assert.equal(ran.length, 12);
    assert.equal(new Set(ran).size, 12);
    const config = JSON.parse(readFileSync(join(shards[1]!.dir, "config.json"), "utf8"));
    assert.deepEqual(config.options.shard, { index: 2, count: 3 });

    const merged = await mergeRuns(
      shards.map((s) => s.dir),
      { out: join(out, "merged") },
    );
    assert.deepEqual(merged.unfinished, []);
    assert.deepEqual(merged.duplicates, []);
    assert.deepEqual(comparable(readRecords(merged.dir)), comparable(readRecords(whole.dir)));
    assert.deepEqual(metrics(merged.summary), metrics(whole.summary));
    assert.deepEqual(scores(merged.dir), scores(whole.dir));
    const calls = (s: Summary) => ({ ...s.usage?.roles.answerer, latencyMs: undefined });
    assert.deepEqual(calls(merged.summary), calls(whole.summary));
    const mergedConfig = JSON.parse(readFileSync(join(merged.dir, "config.json"), "utf8"));
    assert.equal(mergedConfig.options.shard, undefined);
    assert.deepEqual(
      mergedConfig.merged.from.map((f: { shard: ShardSpec }) => f.shard),
      [1, 2, 3].map((index) => ({ index, count: 3 })),
    );
  });

  it("counts a unit finished twice once, and refuses two different results unless told to take the later", async () => {
    const a = await start("dup-1", { index: 1, count: 2 });
    const b = await start("dup-2", { index: 2, count: 2 });
    // Shard 2 run again into another directory.
    const again = await start("dup-2-again", { index: 2, count: 2 });
    const merged = await mergeRuns([a.dir, b.dir, again.dir], { out: join(out, "dup-merged") });
    const twice = [...new Set(readRecords(b.dir).map((r) => r.unitId))];
    assert.deepEqual(merged.duplicates.map((d) => d.unit).sort(), twice.sort());
    assert.ok(
      merged.duplicates.every((d) => d.took === again.dir),
      "the later is taken",
    );
    assert.equal(readRecords(merged.dir).length, readRecords(a.dir).length + readRecords(b.dir).length);
    // Every call was made: usage counts both executions of shard 2.
    const calls = (s: Summary) => s.usage?.roles.answerer.calls ?? 0;
    assert.equal(calls(merged.summary), calls(a.summary) + calls(b.summary) + calls(again.summary));

    // A third execution whose answers differ.
    const odd = join(out, "dup-2-odd");
    cpSync(again.dir, odd, { recursive: true });
    const store = new RunStore(join(odd, "run.sqlite"));
    const record = store.records()[0]!;
    store.updateRecord({ ...record, answer: "something else" });
    store.close();
    await assert.rejects(
      mergeRuns([a.dir, b.dir, odd], { out: join(out, "refused") }),
      (e: unknown) => e instanceof ConfigError && /with different records/.test(e.message),
    );
    const later = await mergeRuns([a.dir, b.dir, odd], { out: join(out, "later"), preferLater: true });
    assert.ok(later.conflicts.some((c) => c.unit === record.unitId));
  });

  it("keeps a unit the worker pool dead-lettered in a shard, with its job, attempts and error", async () => {
    const a = await start("dead-1", { index: 1, count: 2 });
    const b = await start("dead-2", { index: 2, count: 2 });
    const store = new RunStore(join(b.dir, "run.sqlite"));
    const unit = store.units().find((u) => u.state === "done")!;
    store.deadLetter(unit.id, { job: "job-7", attempts: 3, error: "system crashed" });
    store.close();
    const merged = await mergeRuns([a.dir, b.dir], { out: join(out, "dead-merged") });
    assert.ok(merged.unfinished.includes(unit.id));
    const reopened = RunStore.readOnly(join(merged.dir, "run.sqlite"));
    const kept = reopened.units().find((u) => u.id === unit.id)!;
    reopened.close();
    assert.equal(kept.state, "failed");
    assert.equal(kept.error, "system crashed");
    assert.deepEqual([kept.deadLetter?.job, kept.deadLetter?.attempts], ["job-7", 3]);
    assert.equal(merged.summary.failures?.deadLettered, 1);
  });

  it("refuses shards of different runs, naming what differs", async () => {
    const a = await start("diff-1", { index: 1, count: 2 });
    const b = await start("diff-2", { index: 2, count: 2 }, { depth: 3 });
    await assert.rejects(
      mergeRuns([a.dir, b.dir], { out: join(out, "diff-merged") }),
      (e: unknown) =>
        e instanceof ConfigError && /not a shard of the same run .*options, protocol differ/.test(e.message),
    );
  });

  it("leaves the units of a missing shard for --resume, which finishes the run as one process would", async () => {
    const whole = await start("resume-whole");
    const first = await start("part-1", { index: 1, count: 3 });
    const third = await start("part-3", { index: 3, count: 3 });
    const cli = spawnSync(
      process.execPath,
      ["--import", "tsx", "src/cli/main.ts", "merge", first.dir, third.dir, "--out", join(out, "partial")],
      { cwd: root, encoding: "utf8", env: process.env },
    );
    assert.equal(cli.status, 1, cli.stderr);
    assert.match(cli.stderr, /no directory holds shard 2\/3/);
    assert.match(cli.stderr, /\d+ units no directory finished; membench run --resume/);
    const resumed = await resumeRun(join(out, "partial"), false);
    assert.equal(resumed.failedUnits, 0);
    assert.deepEqual(comparable(readRecords(join(out, "partial"))), comparable(readRecords(whole.dir)));
    assert.deepEqual(metrics(resumed.summary), metrics(whole.summary));
  });
});
