/**
 * `membench score <bench> --answers … --retrievals … --name …`: a system run
 * outside membench, scored as a run of its own. Retrievals get the provenance
 * metrics a run computes (checked against real runs), bad lines name the file,
 * line and field, and the CLI names the row.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ConfigError, DataError } from "../../src/core/errors.ts";
import { scoreExternalRun } from "../../src/run/answers.ts";
import { startRun } from "../../src/run/runner.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import { RunStore, STORE_FILE } from "../../src/run/store.ts";
import { shippedFixture } from "../../src/util/paths.ts";
import { membenchBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

const tmp = mkdtempSync(join(tmpdir(), "mb-external-"));
const LOCOMO = fixture("locomo/locomo10-mini.json");
const ANSWERS = fixture("external/locomo-answers.jsonl");
const RETRIEVALS = fixture("external/locomo-retrievals.jsonl");
let files = 0;

function jsonl(lines: object[]): string {
  const path = join(tmp, `lines-${files++}.jsonl`);
  writeFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n"));
  return path;
}

const retrievalKeys = (m: Record<string, number>) =>
  Object.fromEntries(Object.entries(m).filter(([k]) => /^(recall|ndcg|stale|seh_prov|srs_prov)|^n_retrieval$/.test(k)));

describe("scoring a system run elsewhere", () => {
  after(() => rmSync(tmp, { recursive: true, force: true }));

  for (const bench of ["locomo", "realmem", "memconflict"]) {
    it(`gives a run's own retrieval metrics for the items the run retrieved (${bench})`, async () => {
      const data = shippedFixture(bench);
      const run = await startRun({ benchmark: bench, data, systems: ["bm25"], out: tmp, progress: false });
      const store = new RunStore(join(run.dir, STORE_FILE));
      const records = store.records().filter((r) => r.setting === "default" && r.status === "done");
      store.close();
      const retrievals = jsonl(
        records.map((r) => ({
          question_id: r.probeId,
          episode_id: r.episodeId,
          items: r.retrieved.map(({ rank: _, ...item }) => item),
        })),
      );
      const outcome = await scoreExternalRun(bench, data, { retrievals }, { out: tmp, name: "bm25-elsewhere" });

      const external = new RunStore(join(outcome.dir, STORE_FILE));
      const byProbe = new Map(external.records().map((r) => [`${r.episodeId}/${r.probeId}`, r]));
      external.close();
      assert.ok(records.some((r) => r.retrieval));
      for (const r of records) {
        const mine = byProbe.get(`${r.episodeId}/${r.probeId}`);
        assert.ok(mine, r.probeId);
        assert.equal(mine.system, "bm25-elsewhere");
        assert.deepEqual(mine.retrieval, r.retrieval, r.probeId);
        assert.deepEqual(mine.retrieved, r.retrieved);
      }
      // Scored the same way (a scorer may add its own retrieval figures, e.g. MemConflict's macro SEH/SRS).
      const { summary } = await scoreRun(run.dir, {});
      const ran = summary.results.find((row) => row.setting === "default")!;
      const [row] = outcome.summary.results;
      assert.equal(row?.system, "bm25-elsewhere");
      assert.deepEqual(retrievalKeys(row!.metrics), retrievalKeys(ran.metrics));
      assert.ok(row!.skipped.includes("answer"));
      assert.equal(row!.skipReasons.answer, "no answers file (--answers)");
    });
  }

  it("scores answers and retrievals together under the row's name, through the CLI", () => {
    const r = spawnSync(
      process.execPath,
      [
        membenchBin(),
        "score",
        "locomo",
        "--data",
        LOCOMO,
        "--answers",
        ANSWERS,
        "--retrievals",
        RETRIEVALS,
        "--name",
        "mysystem",
        "--out",
        tmp,
      ],
      { cwd: tmp, encoding: "utf8" },
    );
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^\| mysystem /m);
    assert.match(r.stderr, /1 of 4 questions have no answer in .*locomo-answers\.jsonl/);
    assert.match(r.stderr, /1 of 4 questions have no line in .*locomo-retrievals\.jsonl/);
    const dir = /scored run stored in (\S+)/.exec(r.stderr)?.[1];
    assert.ok(dir, r.stderr);
    assert.match(dir, /locomo-mysystem-\d{8}-\d{6}$/);
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    assert.deepEqual(config.options.systems, ["mysystem"]);
    assert.equal(config.options.retrievals, RETRIEVALS);
    assert.deepEqual(config.protocol, { evidenceUnit: "turn", ks: [5, 10, 20], supportKs: [] });
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    const [row] = summary.results;
    assert.equal(row.system, "mysystem");
    // Gold turns at ranks 1, 2 and 1 (a whole session naming its three turns).
    assert.equal(row.metrics.n_retrieval, 3);
    assert.equal(row.metrics["recall_all@5"], 1);
    assert.ok(Math.abs(row.metrics["ndcg@5"] - (2 + 1 / Math.log2(3)) / 3) < 1e-6, String(row.metrics["ndcg@5"]));
    assert.equal(row.metrics["ndcg_realmem@5"], 1);
    // Token F1 of the three answers: exact, wrong, exact (LoCoMo's own metric, no judge).
    assert.ok(Math.abs(row.metrics.f1 - 2 / 3) < 1e-6, JSON.stringify(row.metrics));

    // A stored run keeps its own rows: --name and --retrievals go with a benchmark id.
    const again = spawnSync(process.execPath, [membenchBin(), "score", dir, "--name", "other"], { encoding: "utf8" });
    assert.equal(again.status, 2);
    assert.match(again.stderr, /--name goes with a benchmark id/);
  });

  const bad: Array<[string, object, string, RegExp]> = [
    ["items that are not a list", { question_id: "conv-8:q0", items: "D1:1" }, "items", /expected an array/],
    ["an item without text", { question_id: "conv-8:q0", items: [{ turnIds: ["D1:1"] }] }, "items[0].text", /string/],
    [
      "a misspelt field",
      { question_id: "conv-8:q0", items: [{ text: "x", sessionId: ["session_1"] }] },
      "items[0].sessionId",
      /unknown field \(an item has text, sessionIds, turnIds, score, time, kind\)/,
    ],
    [
      "a session the episode does not have",
      {
        question_id: "conv-8:q0",
        items: [
          { text: "x", turnIds: ["D1:1"] },
          { text: "y", sessionIds: ["session_7"] },
        ],
      },
      "items[1].sessionIds",
      /no session "session_7" in episode "conv-8"/,
    ],
    [
      "a turn id of another episode's shape",
      { question_id: "conv-9:q0", items: [{ text: "x", turnIds: ["D2:1"] }] },
      "items[0].turnIds",
      /no turn "D2:1" in episode "conv-9"/,
    ],
    [
      "ids that are not strings",
      { question_id: "conv-8:q0", items: [{ text: "x", turnIds: [1] }] },
      "items[0].turnIds",
      /array of strings/,
    ],
    [
      "an item naming nothing",
      { question_id: "conv-8:q0", items: [{ text: "x", sessionIds: [] }] },
      "items[0]",
      /names no session or turn/,
    ],
    [
      "a score that is not a number",
      { question_id: "conv-8:q0", items: [{ text: "x", turnIds: ["D1:1"], score: "high" }] },
      "items[0].score",
      /number/,
    ],
    ["an unknown question", { question_id: "conv-8:q9", items: [] }, "question_id", /no question "conv-8:q9"/],
    ["no question id", { items: [] }, "question_id", /missing/],
  ];
  for (const [what, line, field, message] of bad) {
    it(`refuses ${what}, naming the file, line and field`, async () => {
      const file = jsonl([{ question_id: "conv-9:q0", items: [{ text: "ok", turnIds: ["D1:3"] }] }, line]);
      await assert.rejects(scoreExternalRun("locomo", LOCOMO, { retrievals: file }, { out: tmp }), (e: unknown) => {
        assert.ok(e instanceof DataError, String(e));
        assert.equal(e.file, file);
        assert.equal(e.record, "line 2");
        assert.equal(e.field, field);
        assert.match(e.message, message);
        return true;
      });
    });
  }

  it("refuses a second line for one question, and a bad line of the answers file", async () => {
    const twice = jsonl([
      { question_id: "conv-9:q0", items: [] },
      { question_id: "conv-9:q0", episode_id: "conv-9", items: [] },
    ]);
    await assert.rejects(
      scoreExternalRun("locomo", LOCOMO, { retrievals: twice }, { out: tmp }),
      /line 2: a second retrieval/,
    );
    const answers = jsonl([{ question_id: "conv-9:q0", hypothesis: 7 }]);
    await assert.rejects(
      scoreExternalRun("locomo", LOCOMO, { answers, retrievals: RETRIEVALS }, { out: tmp }),
      (e: unknown) => e instanceof DataError && e.file === answers && e.record === "line 1" && e.field === "hypothesis",
    );
  });

  it("refuses a row name that cannot be a system id, before reading anything", async () => {
    await assert.rejects(
      scoreExternalRun("locomo", LOCOMO, { retrievals: RETRIEVALS }, { out: tmp, name: "my|system" }),
      (e: unknown) => e instanceof ConfigError && e.setting === "name",
    );
  });
});
