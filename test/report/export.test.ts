/**
 * Exports to the files the papers' own evaluators read, from real runs of the
 * fixtures (see sample-runs.ts).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { exportOfficial } from "../../src/report/official/export.ts";
import { type Leaderboard, subtlememoryLeaderboard } from "../../src/report/official/subtlememory.ts";
import { loadRun } from "../../src/report/run-data.ts";
import { realmemOfflineRun, subtleMemoryRun, tempDir } from "./sample-runs.ts";

const NOW = new Date("2026-02-03T04:05:06Z");
const json = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;

describe("official exports", () => {
  const out = tempDir();
  let subtle: string;
  let realmem: string;

  before(async () => {
    subtle = await subtleMemoryRun(out);
    realmem = await realmemOfflineRun(out);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("writes SubtleMemory leaderboard rows in the project page's shape", async () => {
    const [path] = await exportOfficial(subtle, "subtlememory", join(out, "lb", "leaderboard.json"), NOW);
    const board = json<Leaderboard>(path!);
    assert.equal(board.generatedAt, NOW.toISOString());
    assert.deepEqual(Object.keys(board.metricLabels), [
      "all",
      "complementary",
      "multiEvidence",
      "anyOne",
      "nuanced",
      "temporal",
      "contextual",
      "contradictory",
    ]);
    assert.equal(board.rows.length, 6);
    const row = board.rows.find((r) => r.method === "bm25" && r.setting === "default_api")!;
    assert.equal(row.id, "main-table--scripted--bm25--default-api");
    assert.equal(row.table, "main_table");
    assert.equal(row.model, "scripted");
    assert.deepEqual(row.metricValues, {
      all: 75,
      complementary: 100,
      multiEvidence: 100,
      anyOne: 100,
      nuanced: 100,
      temporal: 100,
      contextual: 100,
      contradictory: 0,
    });
    assert.equal(row.n.all, 8);
    const perfect = board.rows.find((r) => r.method === "none" && r.setting === "perfect_retrieval")!;
    assert.equal(perfect.table, "perfect_retrieval_scripted");
    assert.equal(perfect.metricValues.all, 0);
    assert.equal(board.rows.find((r) => r.method === "none" && r.setting === "oracle_context")?.metricValues.all, 75);
  });

  it("refuses a leaderboard without scored answers, and a run of another benchmark", async () => {
    await assert.rejects(exportOfficial(realmem, "subtlememory", join(out, "x.json")), ConfigError);
    await assert.rejects(exportOfficial(subtle, "memora", join(out, "m")), /needs a memora run/);
    await assert.rejects(
      exportOfficial(subtle, "csv", join(out, "m")),
      /expected one of realmem, subtlememory, memora/,
    );
  });

  it("spells ids and categories as the project page's file does, the model name unslugged", () => {
    const run = loadRun(subtle);
    const board = subtlememoryLeaderboard({ ...run, config: { ...run.config, llm: "openai:gpt-5.4" } }, NOW);
    const row = board.rows.find((r) => r.method === "bm25" && r.setting === "default_api")!;
    // The release's own ids: "main-table--gpt-5.4--mem0--default-api",
    // "perfect-retrieval-gpt5-4--gpt-5.4--mem0--perfect-retrieval".
    assert.equal(row.id, "main-table--gpt-5.4--bm25--default-api");
    assert.equal(row.category, "membench");
    const perfect = board.rows.find((r) => r.method === "bm25" && r.setting === "perfect_retrieval")!;
    assert.equal(perfect.table, "perfect_retrieval_gpt5.4");
    assert.equal(perfect.id, "perfect-retrieval-gpt5-4--gpt-5.4--bm25--perfect-retrieval");
    // The page leaves "Oracle reference" rows out when it marks the best system of a column.
    const oracle = board.rows.find((r) => r.setting === "oracle_context")!;
    assert.equal(oracle.category, "Oracle reference");
  });
});
