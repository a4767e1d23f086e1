import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import type { Summary } from "../../src/run/summary.ts";
import { fixture } from "../support/shared-data.ts";

const realmem = fixture("realmem");

describe("runner on the RealMem fixture, offline", () => {
  it("ingests and retrieves, reports provenance metrics and marks answer and judge skipped", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-run-"));
    const outcome = await startRun({
      benchmark: "realmem",
      data: realmem,
      systems: ["bm25-session", "none"],
      settings: ["default", "oracle", "perfect"],
      out,
      id: "r1",
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    const summary = JSON.parse(readFileSync(join(out, "r1", "summary.json"), "utf8")) as Summary;
    for (const key of ["benchmark", "data", "results"]) assert.ok(key in summary, key);
    assert.equal(summary.benchmark, "realmem");
    assert.equal(summary.results.length, 6);
    const bm25 = summary.results.find((r) => r.system === "bm25-session" && r.setting === "default")!;
    assert.equal(bm25.n, 4);
    assert.ok(bm25.skipped.includes("answer") && bm25.skipped.includes("judge"));
    assert.equal(bm25.skipReasons.answer, "no model configured");
    for (const key of [
      "recall_all@10",
      "ndcg_realmem@10",
      "recall_any@5",
      "ndcg@20",
      "context_tokens_mean",
      "search_ms_p95",
      "ingest_ms_p95",
    ]) {
      assert.equal(typeof bm25.metrics[key], "number", key);
    }
    assert.ok(bm25.byLabel.category?.["Static Retrieval"]?.n === 1);
    const none = summary.results.find((r) => r.system === "none" && r.setting === "default")!;
    assert.equal(none.metrics["recall_any@20"], 0);
    // none has readback (of nothing written): perfect runs but yields empty contexts.
    const config = JSON.parse(readFileSync(join(out, "r1", "config.json"), "utf8"));
    assert.equal(config.protocol.depth, 20);
    assert.equal(config.dataFiles[0].sha256.length, 64);
    assert.equal(JSON.stringify(config).includes('apiKey":"'), false);
  });

  it("fires RealMem queries before their own session: no record retrieves a session at or after it", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-run-"));
    await startRun({
      benchmark: "realmem",
      data: realmem,
      systems: ["bm25"],
      settings: ["default", "oracle"],
      out,
      id: "r2",
      progress: false,
    });
    const dataset = await loadDataset("realmem", realmem);
    const episode = dataset.episodes[0]!;
    const indexOf = new Map(episode.sessions.map((s) => [s.id, s.index]));
    const records = readRecords(join(out, "r2"));
    assert.equal(records.length, episode.probes.length * 2);
    for (const r of records) {
      const probe = episode.probes.find((p) => p.id === r.probeId)!;
      assert.equal(probe.position.at, "before");
      const firesAt = indexOf.get((probe.position as { sessionId: string }).sessionId)!;
      for (const item of r.retrieved) {
        for (const sid of item.sessionIds ?? []) assert.ok(indexOf.get(sid)! < firesAt, `${r.probeId} saw ${sid}`);
      }
    }
    const firstProbe = records.find((r) => r.setting === "default")!;
    assert.ok(firstProbe.retrieval, "default records with evidence carry retrieval metrics");
  });

  it("answers with a scripted model and records the answer, usage and context", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-run-"));
    const script = join(out, "script.jsonl");
    writeFileSync(script, `${JSON.stringify({ role: "answerer", reply: "scripted answer" })}\n`);
    const outcome = await startRun({
      benchmark: "realmem",
      data: realmem,
      systems: ["bm25-session"],
      out,
      id: "r3",
      llm: `scripted:${script}`,
      progress: false,
    });
    const records: ProbeRecord[] = readRecords(outcome.dir);
    assert.ok(records.length > 0);
    for (const r of records) {
      assert.equal(r.answer, "scripted answer");
      assert.equal(r.answerSkipped, undefined);
      assert.ok(r.usage && r.usage.inputTokens > 0);
    }
    const row = outcome.summary.results[0]!;
    assert.equal(row.skipped.includes("answer"), false);
    assert.equal(typeof row.metrics.answer_ms_p95, "number");
    assert.ok(outcome.summary.usage && outcome.summary.usage.roles.answerer.calls === records.length);
  });

  it("gives a run started in the same second as another a folder of its own", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-run-"));
    // Runs of the coming seconds already hold the default ids (stamped to the second).
    const stamp = (ms: number) => new Date(ms).toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
    const now = Date.now();
    const taken = [0, 1000, 2000].map((d) => join(out, `realmem-${stamp(now + d)}`));
    for (const dir of taken) {
      mkdirSync(dir);
      writeFileSync(join(dir, "config.json"), "{}");
    }
    const run = await startRun({ benchmark: "realmem", data: realmem, systems: ["none"], out, progress: false });
    assert.ok(
      taken.some((dir) => run.dir === `${dir}-2`),
      run.dir,
    );
    for (const dir of taken) assert.equal(readFileSync(join(dir, "config.json"), "utf8"), "{}", "left as it was");
  });

  it("refuses an existing run directory and unknown settings", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-run-"));
    await startRun({ benchmark: "realmem", data: realmem, systems: ["none"], out, id: "same", progress: false });
    await assert.rejects(
      startRun({ benchmark: "realmem", data: realmem, systems: ["none"], out, id: "same", progress: false }),
      /already holds a run; use --resume/,
    );
    await assert.rejects(
      startRun({
        benchmark: "realmem",
        data: realmem,
        systems: ["none"],
        settings: ["best" as never],
        out,
        progress: false,
      }),
      /unknown setting "best"/,
    );
    assert.ok(existsSync(join(out, "same", "run.sqlite")));
  });
});
