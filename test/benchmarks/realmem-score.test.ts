import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadRealMem } from "../../src/benchmarks/realmem/load.ts";
import {
  GENERATION_COLUMNS,
  REALMEM_QUERY_COUNTS,
  realmemCategoryTable,
  realmemGenerationTable,
  realmemPaperTables,
  realmemRetrievalTable,
  realmemTopicTable,
  TOPIC_ORDER,
} from "../../src/benchmarks/realmem/paper.ts";
import { realmemProtocol } from "../../src/benchmarks/realmem/protocol.ts";
import { realmemScorer, recallFromHits } from "../../src/benchmarks/realmem/score.ts";
import { oracleMemories } from "../../src/benchmarks/shared/protocol.ts";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import type { JudgeContext, NamedJudge } from "../../src/score/judge.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { PaperTable, ProbeScore, ScoreContext } from "../../src/score/types.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

const TMP = mkdtempSync(join(tmpdir(), "membench-realmem-score-"));
after(() => rmSync(TMP, { recursive: true, force: true }));

const DEFAULT_OPTIONS = { recall: "hits", context: "memory", qa_column: "4o-mini" };

type Rule = { role?: string; model?: string; match?: string; reply: unknown };

let scriptCount = 0;
/** A scripted judge file; the first rule turns a repair request into a second unusable reply. */
function script(rules: Rule[]): string {
  const file = join(TMP, `judge-${scriptCount++}.jsonl`);
  const repair: Rule = { role: "judge", match: "^That reply could not be used", reply: "still no verdict" };
  writeFileSync(file, `${[repair, ...rules].map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

function judges(file: string, names = ["judge-a"]): NamedJudge[] {
  return names.map((name) => ({
    name,
    model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
  }));
}

function ctxWith(file: string | undefined, options: Record<string, string> = {}, extra: Partial<JudgeContext> = {}) {
  const judge: JudgeContext | undefined = file
    ? { judges: judges(file), runs: 1, prompts: new PromptSet(), ...extra }
    : undefined;
  return { judge, options: { ...DEFAULT_OPTIONS, ...options } } satisfies ScoreContext;
}

function record(probe: Probe, over: Partial<ProbeRecord> = {}): ProbeRecord {
  return {
    unitId: "bm25|Mira_Sato",
    system: "bm25",
    episodeId: "Mira_Sato",
    probeId: probe.id,
    setting: "default",
    question: probe.question,
    labels: probe.labels,
    status: "done",
    retrieved: [],
    context: { text: "---- memory 1 ----\nsome retrieved text", tokens: 8, used: 1 },
    answer: "a candidate reply",
    timings: { flushMs: 0, searchMs: 1 },
    ...over,
  };
}

/** Escapes text for a rule's regular expression. */
const re = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

let episode: Episode;
/** The fixture's queries: Q-0001 travel/proactive, Q-0002 static, Q-0003 multi-session updating, Q-0004 temporal. */
let q: Probe[];

before(async () => {
  const dataset = await loadRealMem(fixture("realmem"));
  episode = dataset.episodes[0]!;
  q = episode.probes;
  assert.equal(q.length, 4);
});

describe("paper arithmetic: overall scores are micro-averages over queries (spec §6.3)", () => {
  const counts = REALMEM_QUERY_COUNTS;
  const weighted = (
    system: string,
    metric: "QA" | "Rec.",
    groups: Record<string, number>,
    table = realmemCategoryTable,
  ) => {
    const row = table.rows.find((r) => r.system === system)!;
    let sum = 0;
    let n = 0;
    for (const [prefix, count] of Object.entries(groups)) {
      sum += row.cells[`${prefix} ${metric}`]! * count;
      n += count;
    }
    return sum / n;
  };
  const sessionGroups = { "Single-session": 845, "Multi-session": 570 };
  const reported = (system: string, column: string) =>
    realmemGenerationTable.rows.find((r) => r.system === system)!.cells[column]!;

  it("MemoryOS: (0.505·845 + 0.468·570) / 1415 = 0.490, Table 2's number; the plain mean would be 0.487", () => {
    assert.equal(counts.session_type["single-session"] + counts.session_type["multi-session"], counts.total);
    const micro = weighted("MemoryOS", "QA", sessionGroups);
    assert.ok(Math.abs(micro - 693.485 / 1415) < 1e-12);
    assert.equal(micro.toFixed(3), "0.490");
    assert.equal(reported("MemoryOS", "Memory QA-4o-mini"), 0.49);
    const row = realmemCategoryTable.rows.find((r) => r.system === "MemoryOS")!.cells;
    const plain = (row["Single-session QA"]! + row["Multi-session QA"]!) / 2;
    assert.equal(plain.toFixed(3), "0.487");
  });

  it("every system's session-type split reproduces Table 2's QA-4o-mini and Mem Rec. within rounding", () => {
    for (const system of ["A-mem", "Mem0", "MemoryOS", "Graph Mem"]) {
      // Inputs rounded to 3 decimals move a weighted mean by at most 0.0005, the reported value by 0.0005 more.
      assert.ok(
        Math.abs(weighted(system, "QA", sessionGroups) - reported(system, "Memory QA-4o-mini")) <= 0.001,
        system,
      );
      assert.ok(
        Math.abs(weighted(system, "Rec.", sessionGroups) - reported(system, "Memory Mem Rec.")) <= 0.001,
        system,
      );
    }
  });

  it("the category and topic splits weight to the same MemoryOS overall", () => {
    const byCategory = Object.fromEntries(Object.entries(counts.category));
    assert.equal(
      Object.values(byCategory).reduce((a, b) => a + b, 0),
      counts.total,
    );
    assert.ok(Math.abs(weighted("MemoryOS", "QA", byCategory) - 0.49) <= 0.001);
    const byTopic = Object.fromEntries(Object.entries(counts.topic));
    assert.equal(
      Object.values(byTopic).reduce((a, b) => a + b, 0),
      counts.total,
    );
    assert.ok(Math.abs(weighted("MemoryOS", "QA", byTopic, realmemTopicTable) - 0.49) <= 0.001);
  });

  it("our aggregate and tables weight by query: 845 single at 0.505 and 570 multi at 0.468 give 0.490", () => {
    const scores: ProbeScore[] = [];
    for (const [type, n, qa, rec] of [
      ["single-session", 845, 0.505, 0.565],
      ["multi-session", 570, 0.468, 0.482],
    ] as const) {
      for (let i = 0; i < n; i++) {
        scores.push({
          system: "MemoryOS",
          setting: "default",
          episodeId: "e",
          probeId: `${type}-${i}`,
          labels: { category: "Static Retrieval", session_type: type },
          metrics: { qa_score_norm: qa, mem_recall: rec },
          verdicts: [],
          judgeFailures: 0,
        });
      }
    }
    const ctx = ctxWith(undefined);
    const headline = realmemScorer.aggregate!(scores, ctx);
    assert.equal(headline.qa_score_norm!.toFixed(3), "0.490");
    assert.equal(headline.mem_recall!.toFixed(3), "0.532");
    const [table2, table4] = realmemScorer.tables!(scores, ctx) as [PaperTable, PaperTable];
    assert.equal(table2.rows[0]!.cells["Memory QA-4o-mini"]!.toFixed(3), "0.490");
    assert.equal(table2.rows[0]!.n!["Memory QA-4o-mini"], 1415);
    const row4 = table4.rows[0]!;
    assert.equal(row4.label, "MemoryOS");
    assert.ok(Math.abs(row4.cells["Single-session QA"]! - 0.505) < 1e-12);
    assert.ok(Math.abs(row4.cells["Multi-session Rec."]! - 0.482) < 1e-12);
    assert.equal(row4.n!["Multi-session QA"], 570);
    assert.equal(row4.cells["Temporal Reasoning QA"], null);
  });
});

describe("paper tables as data", () => {
  it("every row has exactly the table's columns, in the layout our tables() uses", () => {
    for (const table of realmemPaperTables) {
      for (const row of table.rows)
        assert.deepEqual(Object.keys(row.cells), table.columns, `${table.id} ${row.system}`);
    }
    assert.deepEqual(realmemGenerationTable.columns, [...GENERATION_COLUMNS]);
    const ours = realmemScorer.tables!([], ctxWith(undefined));
    assert.deepEqual(
      ours.map((t) => [t.id, t.columns]),
      realmemPaperTables.map((t) => [t.id, t.columns]),
    );
    assert.equal(realmemTopicTable.columns.length, 2 * TOPIC_ORDER.length);
  });

  it("holds the reported cells, including the gaps", () => {
    const oracle = realmemGenerationTable.rows.find((r) => r.system === "Oracle")!.cells;
    assert.equal(oracle["Memory Mem Rec."], 0.993);
    assert.equal(oracle["Session Mem Help."], 0.845);
    const memoryOs = realmemGenerationTable.rows.find((r) => r.system === "MemoryOS")!.cells;
    assert.equal(memoryOs["Session QA-4o"], null);
    const graph = realmemTopicTable.rows.find((r) => r.system === "Graph Mem")!.cells;
    assert.equal(graph["Temporal Reasoning QA"], undefined);
    assert.equal(graph["Health Consultation QA"], 0.681);
    assert.equal(
      realmemCategoryTable.rows.find((r) => r.system === "Graph Mem")!.cells["Temporal Reasoning Rec."],
      0.559,
    );
  });

  it("keeps the retrieval table the CLI prints", () => {
    assert.equal(realmemRetrievalTable.rows.length, 3);
    assert.equal(realmemRetrievalTable.rows[0]!.metrics["ndcg_realmem@10"], 0.5654);
  });
});

describe("recallFromHits", () => {
  it("counts distinct in-range gold numbers only", () => {
    assert.equal(recallFromHits([1, 2], 2), 1);
    assert.equal(recallFromHits([2, 2, 7, 0, -1], 2), 0.5);
    assert.equal(recallFromHits([1, 2, 3], 3), 1);
    assert.equal(recallFromHits([], 3), 0);
    assert.equal(recallFromHits([1], 0), 0);
  });
});

describe("realmem scoreProbe with scripted judges", () => {
  it("a full-marks reply: the judges see question, gold memory, gold reply, answer and context", async () => {
    const p = q[2]!; // Q-0003: two gold memories from two sessions.
    const file = script([
      {
        role: "judge",
        match: [
          re(p.question),
          re("- 【Training Schedule】 Run on Monday"),
          re("- 【Travel Plan】 Four days in Kyoto"),
          re(p.gold.answers[0]!),
          "## Candidate reply\\s+Pause the runs in Kyoto\\.\\s+Answer with a JSON object",
        ].join("[\\s\\S]*"),
        reply: { score: 3, reason: "uses both" },
      },
      {
        role: "judge",
        match: [
          re(p.question),
          re("[1] 【Training Schedule】 Run on Monday"),
          re("[2] 【Travel Plan】 Four days"),
          "## Retrieved memory\\s+---- memory 1 ----\\nKyoto March 10 to 13",
        ].join("[\\s\\S]*"),
        reply: { hits: [1, 2], recall: 1, helpful: 2, reason: "all there" },
      },
    ]);
    const out = await realmemScorer.scoreProbe(
      {
        record: record(p, {
          answer: "Pause the runs in Kyoto.",
          context: { text: "---- memory 1 ----\nKyoto March 10 to 13", tokens: 9, used: 1 },
        }),
        probe: p,
        episode,
      },
      ctxWith(file),
    );
    assert.deepEqual(out.metrics, {
      qa_score: 3,
      qa_score_norm: 1,
      qa_hallucination: 0,
      qa_perfect: 1,
      mem_recall: 1,
      mem_recall_judge: 1,
      mem_helpful: 2,
      mem_helpful_norm: 1,
      mem_recall_disagree: 0,
    });
    assert.equal(out.judgeFailures, 0);
    assert.equal(out.skipped, undefined);
    assert.deepEqual(
      out.verdicts.map((v) => [v.part, v.template, v.judge, v.ok, v.promptSet]),
      [
        ["qa", "realmem/qa", "judge-a", true, "membench"],
        ["memory", "realmem/memory", "judge-a", true, "membench"],
      ],
    );
    assert.match(out.verdicts[0]!.templateHash, /^[0-9a-f]{16}$/);
  });

  it("a contradicting reply and an empty context score 0 everywhere", async () => {
    const p = q[1]!;
    const file = script([
      { role: "judge", match: "Candidate reply", reply: { score: 0, reason: "uses the old plan" } },
      {
        role: "judge",
        match: "## Retrieved memory\\s+\\(nothing was retrieved\\)",
        reply: { hits: [], recall: 0, helpful: 0, reason: "empty" },
      },
    ]);
    const out = await realmemScorer.scoreProbe(
      { record: record(p, { context: { text: "", tokens: 0, used: 0 } }), probe: p, episode },
      ctxWith(file),
    );
    assert.equal(out.metrics.qa_score, 0);
    assert.equal(out.metrics.qa_hallucination, 1);
    assert.equal(out.metrics.qa_perfect, 0);
    assert.equal(out.metrics.mem_recall, 0);
    assert.equal(out.metrics.mem_helpful_norm, 0);
    assert.equal(out.metrics.mem_recall_disagree, 0);
  });

  it("recomputes recall from hits, keeps the judge's figure and flags the disagreement", async () => {
    const p = q[2]!;
    const file = script([
      { role: "judge", match: "Candidate reply", reply: { score: 2, reason: "uses one" } },
      // Repeated and out-of-range numbers count for nothing: one of two found, though the judge says 0.9.
      { role: "judge", match: "Retrieved memory", reply: { hits: [2, 2, 7], recall: 0.9, helpful: 1, reason: "x" } },
    ]);
    const input = { record: record(p), probe: p, episode };
    const byHits = await realmemScorer.scoreProbe(input, ctxWith(file));
    assert.equal(byHits.metrics.qa_score, 2);
    assert.ok(Math.abs(byHits.metrics.qa_score_norm! - 2 / 3) < 1e-12);
    assert.equal(byHits.metrics.mem_recall, 0.5);
    assert.equal(byHits.metrics.mem_recall_judge, 0.9);
    assert.equal(byHits.metrics.mem_recall_disagree, 1);
    assert.equal(byHits.metrics.mem_helpful, 1);
    assert.equal(byHits.metrics.mem_helpful_norm, 0.5);
    const byJudge = await realmemScorer.scoreProbe(input, ctxWith(file, { recall: "judge" }));
    assert.equal(byJudge.metrics.mem_recall, 0.9);
    assert.equal(byJudge.metrics.mem_recall_disagree, 1);
  });

  it("clamps a stated recall outside 0–1 and tolerates rounding (0.33 for 1/3)", async () => {
    const p = q[2]!;
    const over = script([
      { role: "judge", match: "Candidate reply", reply: { score: 1, reason: "generic" } },
      { role: "judge", match: "Retrieved memory", reply: { hits: [1, 2], recall: 1.4, helpful: 2, reason: "x" } },
    ]);
    const a = await realmemScorer.scoreProbe(
      { record: record(p), probe: p, episode },
      ctxWith(over, { recall: "judge" }),
    );
    assert.equal(a.metrics.mem_recall, 1);
    assert.equal(a.metrics.mem_recall_judge, 1);
    assert.equal(a.metrics.mem_recall_disagree, 0);
    const three: Probe = { ...p, gold: { ...p.gold, evidenceMemories: ["first", "second", "third"] } };
    const rounded = script([
      { role: "judge", match: "Candidate reply", reply: { score: 1, reason: "generic" } },
      { role: "judge", match: "\\[3\\] third", reply: { hits: [3], recall: 0.33, helpful: 1, reason: "x" } },
    ]);
    const b = await realmemScorer.scoreProbe({ record: record(three), probe: three, episode }, ctxWith(rounded));
    assert.ok(Math.abs(b.metrics.mem_recall! - 1 / 3) < 1e-12);
    assert.equal(b.metrics.mem_recall_disagree, 0);
  });

  it("malformed verdicts are judge failures scored at the bottom of each scale", async () => {
    const p = q[0]!;
    const file = script([
      { role: "judge", match: "Candidate reply", reply: "I would say a 2, roughly" },
      { role: "judge", match: "Retrieved memory", reply: '{"hits": [1], "recall": 1, "helpful": 2, "reason": ' },
    ]);
    const out = await realmemScorer.scoreProbe({ record: record(p), probe: p, episode }, ctxWith(file));
    assert.equal(out.judgeFailures, 2);
    assert.deepEqual(out.metrics, {
      qa_score: 0,
      qa_score_norm: 0,
      qa_hallucination: 1,
      qa_perfect: 0,
      mem_recall: 0,
      mem_recall_judge: 0,
      mem_helpful: 0,
      mem_helpful_norm: 0,
    });
    assert.deepEqual(out.skipped, { mem_recall_disagree: "no memory verdict could be parsed" });
    for (const v of out.verdicts) {
      assert.equal(v.ok, false);
      assert.match(v.failure!, /unusable after one repair/);
    }
  });

  it("a verdict off the scale (score 5, helpful 3) is a failure too, never clipped into range", async () => {
    const p = q[0]!;
    const file = script([
      { role: "judge", match: "Candidate reply", reply: { score: 5, reason: "great" } },
      { role: "judge", match: "Retrieved memory", reply: { hits: [1], recall: 1, helpful: 3, reason: "x" } },
    ]);
    const out = await realmemScorer.scoreProbe({ record: record(p), probe: p, episode }, ctxWith(file));
    assert.equal(out.judgeFailures, 2);
    assert.equal(out.metrics.qa_score, 0);
    assert.equal(out.metrics.mem_recall, 0);
  });

  it("no answer (no model): QA is skipped, not 0, while the retrieved memory is still judged", async () => {
    const p = q[3]!;
    const file = script([
      { role: "judge", match: "Retrieved memory", reply: { hits: [1], recall: 1, helpful: 2, reason: "x" } },
    ]);
    const out = await realmemScorer.scoreProbe(
      { record: record(p, { answer: undefined, answerSkipped: "no model configured" }), probe: p, episode },
      ctxWith(file),
    );
    assert.deepEqual(Object.keys(out.metrics).sort(), [
      "mem_helpful",
      "mem_helpful_norm",
      "mem_recall",
      "mem_recall_disagree",
      "mem_recall_judge",
    ]);
    assert.equal(out.skipped!.qa_score, "no answer: no model configured");
    assert.equal(out.skipped!.qa_score_norm, "no answer: no model configured");
    assert.deepEqual(
      out.verdicts.map((v) => v.part),
      ["memory"],
    );
  });

  it("a failed answer call scores 0 without asking the QA judge, and says why", async () => {
    const p = q[3]!;
    const file = script([
      { role: "judge", match: "Retrieved memory", reply: { hits: [1], recall: 1, helpful: 2, reason: "x" } },
    ]);
    const out = await realmemScorer.scoreProbe(
      { record: record(p, { answer: undefined, answerError: "HTTP 500" }), probe: p, episode },
      ctxWith(file),
    );
    assert.equal(out.metrics.qa_score, 0);
    assert.equal(out.metrics.qa_hallucination, 1);
    assert.equal(out.judgeFailures, 0);
    assert.equal(out.skipped!.answer, "answer call failed, scored 0: HTTP 500");
    assert.deepEqual(
      out.verdicts.map((v) => v.part),
      ["memory"],
    );
  });

  it("no judge configured: every judged metric is skipped with the reason", async () => {
    const out = await realmemScorer.scoreProbe({ record: record(q[0]!), probe: q[0]!, episode }, ctxWith(undefined));
    assert.deepEqual(out.metrics, {});
    assert.equal(out.judgeFailures, 0);
    assert.equal(Object.keys(out.skipped!).length, 9);
    assert.ok(Object.values(out.skipped!).every((r) => r === "no judge configured"));
  });

  it("a probe whose gold reply cites no memory skips Mem Recall / Helpful but is still QA-judged", async () => {
    const bare: Probe = { ...q[0]!, gold: { ...q[0]!.gold, evidenceMemories: [] } };
    const file = script([
      {
        role: "judge",
        match: "Memory records \\(the user's current state\\)\\s+\\(no memory is recorded for this message\\)",
        reply: { score: 1, reason: "generic" },
      },
    ]);
    const out = await realmemScorer.scoreProbe({ record: record(bare), probe: bare, episode }, ctxWith(file));
    assert.deepEqual(out.metrics, { qa_score: 1, qa_score_norm: 1 / 3, qa_hallucination: 0, qa_perfect: 0 });
    for (const key of ["mem_recall", "mem_helpful", "mem_helpful_norm", "mem_recall_judge", "mem_recall_disagree"]) {
      assert.equal(out.skipped![key], "no gold memory");
    }
    assert.equal(out.verdicts.length, 1);
  });

  it("a record of a setting that did not run is skipped whole", async () => {
    const file = script([]);
    const out = await realmemScorer.scoreProbe(
      { record: record(q[0]!, { status: "skipped", skipReason: "no readback" }), probe: q[0]!, episode },
      ctxWith(file),
    );
    assert.deepEqual(out.metrics, {});
    assert.equal(out.skipped!.qa_score, "not run: no readback");
  });

  it("several judges vote, ties going to the worse score; judge runs multiply the verdicts", async () => {
    const p = q[2]!;
    const file = script([
      { role: "judge", model: "a", match: "Candidate reply", reply: { score: 3, reason: "" } },
      { role: "judge", model: "b", match: "Candidate reply", reply: { score: 2, reason: "" } },
      { role: "judge", model: "c", match: "Candidate reply", reply: { score: 2, reason: "" } },
      { role: "judge", model: "a", match: "Retrieved", reply: { hits: [1, 2], recall: 1, helpful: 2, reason: "" } },
      { role: "judge", model: "b", match: "Retrieved", reply: { hits: [1], recall: 0.5, helpful: 1, reason: "" } },
      { role: "judge", model: "c", match: "Retrieved", reply: "not json" },
    ]);
    const ctx: ScoreContext = {
      judge: { judges: judges(file, ["a", "b", "c"]), runs: 1, prompts: new PromptSet() },
      options: DEFAULT_OPTIONS,
    };
    const out = await realmemScorer.scoreProbe({ record: record(p), probe: p, episode }, ctx);
    assert.equal(out.metrics.qa_score, 2);
    // Memory: recall 1, 0.5 and a failure (0) tie three ways; the worst wins.
    assert.equal(out.metrics.mem_recall, 0);
    assert.equal(out.metrics.mem_helpful, 0);
    assert.equal(out.judgeFailures, 1);
    assert.equal(out.metrics.mem_recall_disagree, 0);
    const twoRuns = await realmemScorer.scoreProbe(
      { record: record(p), probe: p, episode },
      { ...ctx, judge: { ...ctx.judge!, judges: judges(file, ["a", "b"]), runs: 2 } },
    );
    assert.equal(twoRuns.verdicts.length, 8);
    assert.deepEqual(
      twoRuns.verdicts.filter((v) => v.part === "qa").map((v) => [v.judge, v.sample]),
      [
        ["a", 0],
        ["a", 1],
        ["b", 0],
        ["b", 1],
      ],
    );
    // Two 3s and two 2s: the tie goes to 2.
    assert.equal(twoRuns.metrics.qa_score, 2);
  });

  it("--prompts points at another wording with the same variables and is recorded", async () => {
    const dir = join(TMP, "official");
    mkdirSync(join(dir, "realmem"), { recursive: true });
    writeFileSync(
      join(dir, "realmem", "qa.md"),
      "OFFICIAL QA\nQ: {{question}}\nM: {{gold_memory}}\nR: {{gold_answer}}\nC: {{answer}}\n",
    );
    const file = script([
      { role: "judge", match: "^OFFICIAL QA\\nQ: ", reply: { score: 2, reason: "" } },
      { role: "judge", match: "Retrieved memory", reply: { hits: [1], recall: 1, helpful: 1, reason: "" } },
    ]);
    const ctx = ctxWith(file, {}, { prompts: new PromptSet(dir) });
    const out = await realmemScorer.scoreProbe({ record: record(q[0]!), probe: q[0]!, episode }, ctx);
    assert.equal(out.metrics.qa_score, 2);
    assert.deepEqual(
      out.verdicts.map((v) => [v.part, v.promptSet]),
      [
        ["qa", "official"],
        ["memory", "membench"],
      ],
    );
  });
});

const SAMPLE = sharedDataset("realmem/Kenta_Tanaka_dialogues_256k.json");

describe("realmem scoring on the release sample", () => {
  it("every Kenta_Tanaka query lands in a Table 4 and a Table 12 column; none lacks gold memory", {
    skip: skipUnless(SAMPLE),
  }, async () => {
    const sample = (await loadRealMem(SAMPLE!)).episodes[0]!;
    assert.equal(sample.probes.length, 153);
    const protocol = realmemProtocol();
    const file = script([
      { role: "judge", match: "Candidate reply", reply: { score: 3, reason: "" } },
      {
        role: "judge",
        match: "Retrieved memory",
        reply: { hits: Array.from({ length: 20 }, (_, i) => i + 1), recall: 1, helpful: 2, reason: "" },
      },
    ]);
    const ctx = ctxWith(file);
    const scores: ProbeScore[] = [];
    for (const probe of sample.probes) {
      const context = protocol.buildContext(oracleMemories(probe));
      const rec = record(probe, { setting: "oracle", episodeId: sample.id, context });
      const out = await realmemScorer.scoreProbe({ record: rec, probe, episode: sample }, ctx);
      scores.push({
        ...out,
        system: "bm25",
        setting: "oracle",
        episodeId: sample.id,
        probeId: probe.id,
        labels: probe.labels,
      });
    }
    assert.equal(scores.filter((s) => s.skipped).length, 0);
    const headline = realmemScorer.aggregate!(scores, ctx);
    assert.equal(headline.mem_recall, 1);
    assert.equal(headline.qa_score_norm, 1);
    const [, t4, t12] = realmemScorer.tables!(scores, ctx) as [PaperTable, PaperTable, PaperTable];
    // Counted from the file itself: Dynamic Incremental 98, Dynamic Updating 18, Implicit Preference 35, Temporal-reasoning 2.
    assert.deepEqual(
      [
        "Static Retrieval",
        "Dynamic Updating",
        "Proactive Alignment",
        "Temporal Reasoning",
        "Single-session",
        "Multi-session",
      ].map((g) => t4.rows[0]!.n![`${g} QA`]),
      [98, 18, 35, 2, 94, 59],
    );
    const topicN = Object.fromEntries(TOPIC_ORDER.map((t) => [t, t12.rows[0]!.n![`${t} Rec.`]]).filter(([, n]) => n));
    assert.deepEqual(topicN, {
      "Career Development": 28,
      "Financial Planning": 32,
      "Knowledge Learning": 32,
      "Mental Health Support": 19,
      "Travel Planning": 42,
    });
  });
});
