/**
 * The unit API (src/run/unit.ts) the runner, shards and queue workers share:
 * a unit executed on its own from a run's config gives the records the run
 * stored, its result is stored once, and a run rebuilt unit by unit from those
 * results has the same metrics.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import {
  copyFileSync,
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import { summarizeRun } from "../../src/run/score-run.ts";
import { RunStore } from "../../src/run/store.ts";
import { executeUnit, prepareRun, storeUnitResult } from "../../src/run/unit.ts";
import { fixture } from "../support/shared-data.ts";

/** A record as stored (JSON), without its timings, which differ from one execution to the next. */
const timeless = (r: ProbeRecord) => JSON.parse(JSON.stringify({ ...r, timings: undefined }));

async function finishedRun(llm?: string) {
  const out = mkdtempSync(join(tmpdir(), "mb-unit-"));
  const outcome = await startRun({
    benchmark: "realmem",
    data: fixture("realmem"),
    systems: ["bm25-session", "bm25"],
    settings: ["default", "oracle"],
    out,
    id: "whole",
    llm,
    progress: false,
  });
  return outcome.dir;
}

function scriptedModel(): string {
  const dir = mkdtempSync(join(tmpdir(), "mb-unit-script-"));
  const file = join(dir, "model.jsonl");
  writeFileSync(file, `${JSON.stringify({ reply: "an answer" })}\n`);
  return `scripted:${file}`;
}

describe("unit API", () => {
  it("executes each unit of a run from its directory and gives the records the run stored", async () => {
    const dir = await finishedRun();
    const ctx = await prepareRun(dir);
    try {
      const episode = [...ctx.episodes.keys()][0]!;
      // System-major, in the order the run names its systems.
      assert.deepEqual(
        ctx.units.map((u) => u.id),
        [`bm25-session|${episode}`, `bm25|${episode}`],
      );
      const stored = readRecords(dir);
      for (const unit of ctx.units) {
        const result = await executeUnit(ctx, unit.id);
        assert.equal(result.unitId, unit.id);
        assert.equal(result.system, unit.system);
        assert.ok(result.ingestMs.length > 0);
        assert.deepEqual(result.records.map(timeless), stored.filter((r) => r.unitId === unit.id).map(timeless));
      }
    } finally {
      await ctx.close();
    }
  });

  it("stores a result once: the same unit finished again is a duplicate that keeps the stored records", async () => {
    const dir = await finishedRun(scriptedModel());
    const before = readRecords(dir);
    const ctx = await prepareRun(dir);
    const unit = ctx.units[0]!;
    const result = await executeUnit(ctx, unit.id);
    await ctx.close();
    // Answers come from the scripted model: one call per answered record, returned with the result.
    const answered = result.records.filter((r) => r.answer !== undefined).length;
    assert.ok(answered > 0);
    assert.equal(result.usage.filter((c) => c.role === "answerer").length, answered);
    const store = new RunStore(join(dir, "run.sqlite"));
    try {
      const callsBefore = store.usage("run")?.total.calls ?? 0;
      assert.equal(storeUnitResult(store, { ...result, records: result.records.slice(0, 1) }), "duplicate");
      assert.equal(store.records().length, before.length);
      // The duplicate's calls were spent, so they count.
      assert.equal(store.usage("run")?.total.calls, callsBefore + result.usage.length);
      assert.throws(
        () => storeUnitResult(store, { ...result, unitId: "nobody|nothing" }),
        (e: unknown) => e instanceof ConfigError && /no unit "nobody\|nothing" planned/.test(e.message),
      );
    } finally {
      store.close();
    }
  });

  it("rebuilds a run unit by unit in a fresh store, from the snapshot alone, with the same metrics", async () => {
    const dir = await finishedRun();
    const snapshot = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    const copy = join(mkdtempSync(join(tmpdir(), "mb-unit-copy-")), "copy");
    mkdirSync(copy);
    copyFileSync(join(dir, "config.json"), join(copy, "config.json"));
    const ctx = await prepareRun(snapshot);
    const store = new RunStore(join(copy, "run.sqlite"));
    try {
      assert.equal(ctx.dir, undefined);
      store.plan(ctx.units);
      // Units stored in the reverse order still read back in plan order.
      for (const unit of [...ctx.units].reverse()) {
        assert.equal(storeUnitResult(store, await executeUnit(ctx, unit.id)), "stored");
      }
    } finally {
      store.close();
      await ctx.close();
    }
    assert.deepEqual(readRecords(copy).map(timeless), readRecords(dir).map(timeless));
    const strip = (s: ReturnType<typeof summarizeRun>["summary"]) =>
      s.results.map((r) => ({
        ...r,
        latency: undefined,
        metrics: Object.fromEntries(Object.entries(r.metrics).filter(([k]) => !/_ms_/.test(k))),
      }));
    assert.deepEqual(strip(summarizeRun(copy).summary), strip(summarizeRun(dir).summary));
  });

  it("refuses to prepare a run whose data changed since it started, though the file's hash is remembered", async () => {
    const data = join(mkdtempSync(join(tmpdir(), "mb-unit-data-")), "realmem");
    cpSync(fixture("realmem"), data, { recursive: true });
    process.env.MEMBENCH_CACHE_DIR = mkdtempSync(join(tmpdir(), "mb-unit-cache-"));
    try {
      const out = mkdtempSync(join(tmpdir(), "mb-unit-"));
      const outcome = await startRun({ benchmark: "realmem", data, systems: ["bm25"], out, id: "r", progress: false });
      await (await prepareRun(outcome.dir)).close();
      const file = readdirSync(data).find((f) => f.endsWith(".json"))!;
      const text = readFileSync(join(data, file), "utf8");
      // Same size, one character changed: only the modification time tells.
      writeFileSync(
        join(data, file),
        text.replace(/"([a-z])/, (_m, c: string) => `"${c.toUpperCase()}`),
      );
      assert.equal(statSync(join(data, file)).size, Buffer.byteLength(text));
      await assert.rejects(
        prepareRun(outcome.dir),
        (e: unknown) => e instanceof ConfigError && /data file .* changed since the run started/.test(e.message),
      );
    } finally {
      delete process.env.MEMBENCH_CACHE_DIR;
    }
  });

  it("refuses a unit the run does not plan", async () => {
    const dir = await finishedRun();
    const ctx = await prepareRun(dir);
    try {
      await assert.rejects(
        executeUnit(ctx, "bm25|no-such-episode"),
        (e: unknown) => e instanceof ConfigError && /no unit "bm25\|no-such-episode"/.test(e.message),
      );
    } finally {
      await ctx.close();
    }
  });
});
