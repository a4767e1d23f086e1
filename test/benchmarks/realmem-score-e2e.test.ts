/**
 * RealMem end to end on the project fixture: the runner replays the timeline,
 * a scripted model answers, scripted judges grade, and score-run folds it all
 * into summary.json. Every number below is worked out by hand from the script.
 *
 * Fixture queries (Mira_Sato): P1 Q-0001 Proactive Alignment / single / Travel
 * Planning (1 gold memory); P2 Q-0002 Static Retrieval / single / Fitness (1);
 * P3 Q-0003 Dynamic Updating / multi / Fitness (2); P4 Q-0004 Temporal
 * Reasoning / single / Fitness (1). System `none` retrieves nothing (default
 * setting: empty context); the oracle setting shows the gold memories.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadRealMem } from "../../src/benchmarks/realmem/load.ts";
import { realmemScorer } from "../../src/benchmarks/realmem/score.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import { buildJudges, type ScoredRow, scoreRecords } from "../../src/run/score-run.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { PaperTable } from "../../src/score/types.ts";
import { fixture } from "../support/shared-data.ts";

const TMP = mkdtempSync(join(tmpdir(), "membench-realmem-e2e-"));
after(() => rmSync(TMP, { recursive: true, force: true }));

const FILE = fixture("realmem/Mira_Sato_dialogues_256k.json");

/** The start of each query, as the answer and judge prompts carry it. */
const QUESTIONS = [
  "I just booked time off in March",
  "The runs went well this week",
  "I'll be in Kyoto for four days in March",
  "Could I add a swim on Wednesday",
];

const re = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

type Setting = "default" | "oracle";
const CONTEXT: Record<Setting, string> = {
  default: "\\(nothing was retrieved\\)",
  oracle: "---- memory 1 ----",
};

/** QA verdicts per setting and probe; a string is sent as is (malformed). */
const QA: Record<Setting, unknown[]> = {
  default: [{ score: 1 }, "score: three", { score: 0 }, { score: 1 }],
  oracle: [{ score: 3 }, { score: 3 }, { score: 2 }, { score: 3 }],
};
/** Memory verdicts per setting and probe. */
const MEMORY: Record<Setting, unknown[]> = {
  default: [
    { hits: [], recall: 0, helpful: 0 },
    { hits: [], recall: 0, helpful: 0 },
    // Inconsistent judge: no hits, yet a stated recall of 0.5.
    { hits: [], recall: 0.5, helpful: 1 },
    { hits: [], recall: 0, helpful: 0 },
  ],
  oracle: [
    { hits: [1], recall: 1, helpful: 2 },
    { hits: [1], recall: 1, helpful: 2 },
    { hits: [1, 2], recall: 1, helpful: 2 },
    '{"hits": [1], "recall": 1, "helpful"',
  ],
};

function verdict(value: unknown): unknown {
  return typeof value === "string" ? value : { ...(value as object), reason: "scripted" };
}

function writeScript(): string {
  const rules: object[] = [{ role: "judge", match: "^That reply could not be used", reply: "still not JSON" }];
  QUESTIONS.forEach((question, i) => {
    const n = i + 1;
    for (const setting of ["default", "oracle"] as const) {
      const memories = setting === "default" ? "Memories:\\n\\(none\\)" : "Memories:\\n---- memory 1 ----";
      rules.push({
        role: "answerer",
        match: `^${memories}[\\s\\S]*Question: ${re(question)}`,
        reply: `${setting} answer ${n}`,
      });
      rules.push({
        role: "judge",
        match: `${re(question)}[\\s\\S]*## Candidate reply\\s+${setting} answer ${n}\\s`,
        reply: verdict(QA[setting][i]),
      });
      rules.push({
        role: "judge",
        match: `${re(question)}[\\s\\S]*## Retrieved memory\\s+${CONTEXT[setting]}`,
        reply: verdict(MEMORY[setting][i]),
      });
    }
  });
  const file = join(TMP, "script.jsonl");
  writeFileSync(file, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

const close = (actual: number | null | undefined, expected: number, what: string) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-9, `${what}: ${actual}`);

function checkCells(table: PaperTable, expected: Record<string, number | null>, n: Record<string, number>) {
  const row = table.rows[0]!;
  for (const [key, value] of Object.entries(expected)) {
    if (value === null) assert.equal(row.cells[key], null, `${table.id} ${key}`);
    else close(row.cells[key], value, `${table.id} ${key}`);
  }
  for (const [key, count] of Object.entries(n)) assert.equal(row.n?.[key], count, `${table.id} n ${key}`);
}

describe("realmem scoring end to end on the fixture", () => {
  let dir: string;
  let rows: ScoredRow[];
  let script: string;

  before(async () => {
    script = writeScript();
    const outcome = await startRun({
      benchmark: "realmem",
      data: fixture("realmem"),
      systems: ["none"],
      settings: ["default", "oracle"],
      out: TMP,
      id: "e2e",
      llm: `scripted:${script}`,
      scoring: { judges: ["judge-a"] },
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    dir = outcome.dir;
    rows = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8")).results as ScoredRow[];
  });

  const row = (setting: Setting) => rows.find((r) => r.system === "none" && r.setting === setting)!;

  it("the scripted answerer answered every probe in both settings", () => {
    const records = readRecords(dir);
    assert.equal(records.length, 8);
    for (const r of records) assert.match(r.answer ?? "", new RegExp(`^${r.setting} answer [1-4]$`));
  });

  it("default setting (empty context): QA, Mem Recall / Helpful, the malformed QA verdict and the disagreement", () => {
    const r = row("default");
    assert.equal(r.n, 4);
    // QA: 1, failure→0, 0, 1.
    close(r.metrics.qa_score, 0.5, "qa_score");
    close(r.metrics.qa_score_norm, 1 / 6, "qa_score_norm");
    close(r.metrics.qa_hallucination, 0.5, "qa_hallucination");
    close(r.metrics.qa_perfect, 0, "qa_perfect");
    // Memory: no hits anywhere; helpful 0, 0, 1, 0; P3's judge claims 0.5 recall.
    close(r.metrics.mem_recall, 0, "mem_recall");
    close(r.metrics.mem_recall_judge, 0.125, "mem_recall_judge");
    close(r.metrics.mem_recall_disagree, 0.25, "mem_recall_disagree");
    close(r.metrics.mem_helpful, 0.25, "mem_helpful");
    close(r.metrics.mem_helpful_norm, 0.125, "mem_helpful_norm");
    assert.equal(r.judge_failures, 1);
    assert.equal(r.judgeFailureList!.length, 1);
    assert.equal(r.judgeFailureList![0]!.probeId, "Mira_Sato:Fitness_7:S1_02:0");
    assert.match(r.judgeFailureList![0]!.reason, /unusable after one repair/);
    assert.deepEqual(r.judges, ["judge-a"]);
    assert.equal(r.promptSet, "membench");
    assert.equal(r.skipped.includes("judge"), false);
  });

  it("oracle setting: headline micro-averages and the malformed memory verdict", () => {
    const r = row("oracle");
    // QA 3, 3, 2, 3.
    close(r.metrics.qa_score, 2.75, "qa_score");
    close(r.metrics.qa_score_norm, 11 / 12, "qa_score_norm");
    close(r.metrics.qa_perfect, 0.75, "qa_perfect");
    close(r.metrics.qa_hallucination, 0, "qa_hallucination");
    // Recall 1, 1, 1 and the failure at 0; helpful 2, 2, 2, 0.
    close(r.metrics.mem_recall, 0.75, "mem_recall");
    close(r.metrics.mem_recall_judge, 0.75, "mem_recall_judge");
    close(r.metrics.mem_helpful, 1.5, "mem_helpful");
    close(r.metrics.mem_helpful_norm, 0.75, "mem_helpful_norm");
    // Only parsed verdicts can disagree: 0 over P1–P3.
    close(r.metrics.mem_recall_disagree, 0, "mem_recall_disagree");
    assert.equal(r.judge_failures, 1);
    assert.equal(r.judgeFailureList![0]!.probeId, "Mira_Sato:Fitness_7:S1_02:4");
    const [lo, hi] = r.ci!.qa_score_norm!;
    assert.ok(lo <= 11 / 12 && 11 / 12 <= hi);
  });

  it("breakdowns by category, session type, topic and persona", () => {
    const by = row("oracle").byLabel;
    close(by.category!["Dynamic Updating"]!.qa_score_norm, 2 / 3, "DU qa");
    close(by.category!["Temporal Reasoning"]!.mem_recall, 0, "TR recall");
    close(by.category!["Proactive Alignment"]!.mem_helpful_norm, 1, "PA helpful");
    close(by.session_type!["single-session"]!.qa_score_norm, 1, "single qa");
    close(by.session_type!["single-session"]!.mem_recall, 2 / 3, "single recall");
    close(by.session_type!["multi-session"]!.qa_score_norm, 2 / 3, "multi qa");
    close(by.session_type!["multi-session"]!.mem_recall, 1, "multi recall");
    close(by.topic!.Fitness!.qa_score_norm, 8 / 9, "fitness qa");
    close(by.topic!.Fitness!.mem_recall, 2 / 3, "fitness recall");
    close(by.topic!["Travel Planning"]!.qa_score, 3, "travel qa");
    close(by.persona!.Mira_Sato!.qa_score, 2.75, "persona qa");
    assert.equal(by.persona!.Mira_Sato!.n, 4);
  });

  it("tables in the paper's layout: Table 2, Table 4 and Table 12", () => {
    const [t2, t4, t12] = row("oracle").tables! as [PaperTable, PaperTable, PaperTable];
    assert.equal(t2.rows[0]!.label, "none (oracle)");
    checkCells(
      t2,
      {
        "Memory QA-4o-mini": 11 / 12,
        "Memory QA-4o": null,
        "Memory Mem Rec.": 0.75,
        "Memory Mem Help.": 0.75,
        "Session QA-4o-mini": null,
        "Session Mem Rec.": null,
      },
      { "Memory QA-4o-mini": 4, "Memory Mem Rec.": 4 },
    );
    checkCells(
      t4,
      {
        "Static Retrieval QA": 1,
        "Static Retrieval Rec.": 1,
        "Dynamic Updating QA": 2 / 3,
        "Dynamic Updating Rec.": 1,
        "Proactive Alignment QA": 1,
        "Proactive Alignment Rec.": 1,
        "Temporal Reasoning QA": 1,
        "Temporal Reasoning Rec.": 0,
        "Single-session QA": 1,
        "Single-session Rec.": 2 / 3,
        "Multi-session QA": 2 / 3,
        "Multi-session Rec.": 1,
      },
      { "Single-session QA": 3, "Multi-session Rec.": 1 },
    );
    checkCells(
      t12,
      {
        "Travel Planning QA": 1,
        "Travel Planning Rec.": 1,
        "Fitness QA": 8 / 9,
        "Fitness Rec.": 2 / 3,
        "Academic Writing QA": null,
      },
      { "Fitness QA": 3, "Academic Writing QA": 0 },
    );
    const [d2, d4] = row("default").tables! as [PaperTable, PaperTable];
    checkCells(d2, { "Memory QA-4o-mini": 1 / 6, "Memory Mem Rec.": 0, "Memory Mem Help.": 0.125 }, {});
    checkCells(d4, { "Static Retrieval QA": 0, "Proactive Alignment QA": 1 / 3, "Multi-session QA": 0 }, {});
  });

  it("a gold reply citing no memory: Mem Recall / Helpful skipped for it, QA still scored", async () => {
    // The release drops such queries and strict loading refuses them, so load a fixture copy leniently.
    const data = JSON.parse(readFileSync(FILE, "utf8"));
    const reply = data.dialogues[3].dialogue_turns[5];
    assert.equal(reply.memory_used.length, 1);
    delete reply.memory_used;
    delete reply.memory_session_uuids;
    const copy = join(TMP, "Mira_Sato_dialogues_256k.json");
    writeFileSync(copy, JSON.stringify(data));
    const dataset = await loadRealMem(copy, { strict: false });
    assert.equal(dataset.warnings.length, 1);
    const episode = dataset.episodes[0]!;
    assert.deepEqual(episode.probes[3]!.gold.evidenceMemories, []);

    const { judges, models } = buildJudges({ judgeLlm: `scripted:${script}`, judges: ["judge-a"] });
    try {
      const ctx = {
        judge: { judges, runs: 1, prompts: new PromptSet() },
        options: { recall: "hits", context: "memory", qa_column: "4o-mini" },
      };
      const oracle = readRecords(dir).filter((r) => r.setting === "oracle");
      const scores = await scoreRecords(realmemScorer, oracle, new Map([[episode.id, episode]]), ctx);
      assert.equal(scores.length, 4);
      const p4 = scores.find((s) => s.probeId === "Mira_Sato:Fitness_7:S1_02:4")!;
      assert.equal(p4.skipped!.mem_recall, "no gold memory");
      assert.equal(p4.metrics.mem_recall, undefined);
      assert.equal(p4.metrics.qa_score, 3);
      // The malformed memory verdict was P4's, and that judge is no longer asked.
      assert.equal(
        scores.reduce((n, s) => n + s.judgeFailures, 0),
        0,
      );
      const headline = realmemScorer.aggregate!(scores, ctx);
      close(headline.mem_recall, 1, "mem_recall over 3 probes");
      close(headline.mem_helpful_norm, 1, "helpful over 3 probes");
      close(headline.qa_score_norm, 11 / 12, "qa over 4 probes");
      const t4 = realmemScorer.tables!(scores, ctx)[1]!;
      checkCells(t4, { "Temporal Reasoning QA": 1, "Temporal Reasoning Rec.": null }, { "Temporal Reasoning Rec.": 0 });
    } finally {
      for (const m of models) m.close();
    }
  });
});
