/**
 * End to end on the project's own MemoryAgentBench fixture: a scripted
 * answerer answers every question, scripted judges grade the LongMemEval and
 * summary questions, and every number below is worked out by hand.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadMemoryAgentBench } from "../../src/benchmarks/memoryagentbench/load.ts";
import { memoryagentbenchScorer } from "../../src/benchmarks/memoryagentbench/score.ts";
import { createChatModel } from "../../src/llm/create.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import { type ScoredRow, scoreRecords, scoreRun } from "../../src/run/score-run.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { ScoreContext } from "../../src/score/types.ts";
import { fixture } from "../support/shared-data.ts";

const FIXTURES = fixture("memoryagentbench");
const tmp = mkdtempSync(join(tmpdir(), "mab-e2e-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const SUMMARY =
  "Mara Quell leaves her mill town with a map. She works for a printer who forges papers. " +
  "She burns the map and goes home. It is a moving book about belonging.";
const RECOMMENDATIONS =
  "1. The Quiet Tide (1998)\n2. Glass Vault\n3. Harbour Light\n4. Salt Marsh\n5. Green Band\n6. Sea Wolves";

const answer = (match: string, reply: string) => ({ role: "answerer", match, reply });
const RULES = [
  answer("In what year were the arches", "Answer: The arches were finished in 1911."),
  answer("second symphony first played", "Vellmar"),
  answer("name the cat I adopted", "Pistachio"),
  answer("name the dog I adopted", "Your dog is called Biscuit."),
  answer("What is the capital of Norlund", "Orrin"),
  answer("Write a summary of about 1000", SUMMARY),
  answer("Who most likely locked", "Answer: B"),
  answer("What tied the gardener", "A. A key"),
  answer("the atm kept my card", "label: 12"),
  answer("is topping up by cheque possible", "3"),
  answer("slow, moody film about the sea", RECOMMENDATIONS),
  { role: "judge", match: "answer:\\nPistachio", reply: { correct: true, reason: "names the cat" } },
  // The abstention question gets an unusable verdict: a judge failure, scored as wrong.
  { role: "judge", match: "answer:\\nYour dog is called Biscuit", reply: "Not answerable, so no." },
  { role: "judge", match: "reads as proper prose", reply: { fluency: 1, reason: "fluent" } },
  { role: "judge", match: "numbered key points", reply: { supported_key_points: [1, 3], reason: "2 of 3" } },
  { role: "judge", match: "Summary to check:", reply: { sentence_count: 4, supported_sentences: 3, reason: "" } },
];

const ENTITY2ID = {
  "<http://dbpedia.org/resource/The_Quiet_Tide_(1998)>": 1021,
  "<http://dbpedia.org/resource/Harbor_Lights>": 87,
  "<http://dbpedia.org/resource/Sea-Wolves>": 4410,
  "<http://dbpedia.org/resource/Glass_Vault_(2004)>": 12,
  "<http://dbpedia.org/resource/Harbor_Nights>": 13,
  "<http://dbpedia.org/resource/Salt_Marsh>": 14,
  "<http://dbpedia.org/resource/Green_Bands>": 15,
};

// Summary: fluency 1 × F1(P 3/4, R 2/3) = 1 / (17/12) = 12/17.
const SUMM = (100 * 12) / 17;
const close = (a: number | null | undefined, b: number, what: string) =>
  assert.ok(typeof a === "number" && Math.abs(a - b) < 1e-9, `${what}: ${a} vs ${b}`);

describe("memoryagentbench scoring end to end on the fixture", () => {
  const script = join(tmp, "script.jsonl");
  const catalog = join(tmp, "entity2id.json");
  let dir = "";

  before(async () => {
    writeFileSync(script, RULES.map((r) => JSON.stringify(r)).join("\n"));
    writeFileSync(catalog, JSON.stringify(ENTITY2ID));
    const outcome = await startRun({
      benchmark: "memoryagentbench",
      data: FIXTURES,
      systems: ["none"],
      out: tmp,
      id: "e2e",
      llm: `scripted:${script}`,
      progress: false,
    });
    dir = outcome.dir;
    assert.equal(outcome.failedUnits, 0);
  });

  it("answers every question of the main variant without an answer failure", () => {
    const records = readRecords(dir);
    assert.equal(records.length, 11);
    assert.deepEqual(
      records.filter((r) => r.answer === undefined || r.answerError),
      [],
    );
  });

  it("writes the per-dataset scores, Table 3 and the judge failure into summary.json", () => {
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")) as { results: ScoredRow[] };
    const row = summary.results.find((r) => r.system === "none" && r.setting === "default")!;
    const m = row.metrics;
    // RULER: "…finished in 1911." holds the gold, "Vellmar" does not.
    close(m["ruler_qa1_197K/subem"], 50, "SH-QA subem");
    close(m["ruler_qa1_197K/em"], 0, "SH-QA em");
    close(m["ruler_qa1_197K/f1"], 100 / 6, "SH-QA f1"); // (1/3 + 0) / 2
    close(m["ruler_qa1_197K/rougeL"], 100 / 7, "SH-QA rougeL"); // (2/7 + 0) / 2
    // LongMemEval: the cat answer is judged correct; the abstention verdict is malformed → wrong.
    close(m["longmemeval_s*/accuracy"], 50, "LME accuracy");
    close(m["longmemeval_s*/em"], 50, "LME em");
    close(m["factconsolidation_sh_262k/subem"], 100, "FC-SH");
    close(m["infbench_sum_eng_shots2/sum_f1"], SUMM, "Summ");
    close(m["infbench_sum_eng_shots2/sum_recall"], 200 / 3, "Summ recall");
    close(m["infbench_sum_eng_shots2/sum_precision"], 75, "Summ precision");
    close(m["detective_qa/em"], 50, "DetQA");
    // Strict classification: "label: 12" is wrong, "3" is right.
    close(m["icl_banking77_5900shot_balance/em"], 50, "BANKING77");
    // Movie ids cannot be named without entity2id.json: the run was given none, and none lies beside the data.
    assert.equal(m["recsys_redial_full/recall@5"], undefined);
    close(m["SH-QA"], 50, "SH-QA column");
    close(m["LME(S*)"], 50, "LME column");
    close(m.Summ, SUMM, "Summ column");
    close(m.DetQA, 50, "DetQA column");
    close(m.LRU, (SUMM + 50) / 2, "LRU");
    close(m["FC-SH"], 100, "FC-SH column");
    for (const key of ["MH-QA", "EventQA", "AR", "MCC", "Recom", "TTL", "FC-MH", "SF", "overall"]) {
      assert.equal(m[key], undefined, key);
    }
    assert.equal(row.judge_failures, 1);
    assert.deepEqual(
      row.judgeFailureList?.map((f) => f.probeId),
      ["longmemeval_s*_no1"],
    );
    const t3 = row.tables?.find((t) => t.id === "table3");
    assert.ok(t3);
    const cells = t3.rows[0]!.cells;
    assert.deepEqual(
      Object.fromEntries(Object.entries(cells).filter(([, v]) => v === null)),
      Object.fromEntries(
        ["MH-QA", "EventQA", "AR", "MCC", "Recom", "TTL", "FC-MH", "SF", "Overall"].map((k) => [k, null]),
      ),
    );
    close(cells.LRU, (SUMM + 50) / 2, "table LRU");
    const t7 = row.tables?.find((t) => t.id === "table7");
    assert.equal(t7?.rows[0]?.cells.BANKING77, 50);
    assert.ok(!row.skipped.includes("judge"));
  });

  it("scores the same records with entity2id.json, lenient labels and partial averages", async () => {
    const dataset = await loadMemoryAgentBench(FIXTURES);
    const episodes = new Map(dataset.episodes.map((e) => [e.id, e]));
    const judge = {
      judges: [
        {
          name: "judge",
          model: createChatModel({ spec: { kind: "scripted", file: script, name: "judge" }, cache: false }),
        },
      ],
      runs: 1,
      prompts: new PromptSet(),
    };
    const ctx: ScoreContext = { judge, options: { entity2id: catalog, icl_parse: "lenient", averages: "available" } };
    const scores = await scoreRecords(memoryagentbenchScorer, readRecords(dir), episodes, ctx);
    const recsys = scores.find((s) => s.labels.sub_dataset === "recsys_redial_full")!;
    // quiet tide, glass vault, harbor lights, salt marsh, green bands | sea wolves
    assert.deepEqual(recsys.metrics, { "recall@1": 1 / 3, "recall@5": 2 / 3, "recall@10": 1 });
    const m = memoryagentbenchScorer.aggregate!(scores, ctx);
    close(m.Recom, 200 / 3, "Recom");
    close(m["icl_banking77_5900shot_balance/em"], 100, "BANKING77 lenient");
    close(m.MCC, 100, "MCC of the one set there");
    const ar = (50 + 50) / 2;
    const ttl = (100 + 200 / 3) / 2;
    const lru = (SUMM + 50) / 2;
    const sf = 100;
    close(m.AR, ar, "AR");
    close(m.TTL, ttl, "TTL");
    close(m.LRU, lru, "LRU");
    close(m.SF, sf, "SF");
    close(m.overall, (ar + ttl + lru + sf) / 4, "overall");
    assert.equal(
      scores.reduce((n, s) => n + s.judgeFailures, 0),
      1,
    );
  });

  it("takes the catalog's path from --score-option entity2id=PATH", async () => {
    const { scores } = await scoreRun(dir, { options: { entity2id: catalog } });
    const recsys = scores.find((s) => s.labels.sub_dataset === "recsys_redial_full")!;
    assert.deepEqual(recsys.metrics, { "recall@1": 1 / 3, "recall@5": 2 / 3, "recall@10": 1 });
    assert.equal(JSON.parse(readFileSync(join(dir, "scoring.json"), "utf8")).options.entity2id, catalog);
  });
});
