import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { longmemevalAnchors } from "../../src/benchmarks/longmemeval/paper.ts";
import {
  longmemevalScorer,
  TABLE_COLUMNS,
  taskAveragedAccuracy,
  templateFor,
} from "../../src/benchmarks/longmemeval/score.ts";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import { startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { ProbeScore, ScoreContext } from "../../src/score/types.ts";
import { probeRecord, writeScript } from "../support/scoring.ts";
import { fixture } from "../support/shared-data.ts";

let episodes: Map<string, Episode>;
const find = (id: string): { episode: Episode; probe: Probe } => {
  const episode = episodes.get(id);
  assert.ok(episode, id);
  return { episode, probe: episode.probes[0]! };
};

const write = (rules: object[]): string => writeScript(mkdtempSync(join(tmpdir(), "mb-lme-")), rules);

function judged(file: string, names = ["judge"], runs = 1): ScoreContext {
  return {
    judge: {
      judges: names.map((name) => ({
        name,
        model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
      })),
      runs,
      prompts: new PromptSet(),
    },
    options: {},
  };
}

// Each rule fits one template only, by a phrase that template alone has.
const TEMPLATE_RULES = [
  {
    role: "judge",
    match: "off by one[\\s\\S]*Reply to grade: Eighteen days",
    reply: { correct: true, reason: "within one" },
  },
  {
    role: "judge",
    match: "latest value[\\s\\S]*Reply to grade: It was 25:30, now 24 minutes 10 seconds",
    reply: { correct: true, reason: "updated" },
  },
  {
    role: "judge",
    match: "Rubric: [\\s\\S]*Reply to grade: Try a balcony herb kit",
    reply: { correct: true, reason: "uses the balcony" },
  },
  {
    role: "judge",
    match: "cannot be answered from[\\s\\S]*Reply to grade: You never mentioned Oslo",
    reply: { correct: true, reason: "abstains" },
  },
  {
    role: "judge",
    match: "cannot be answered from[\\s\\S]*Reply to grade: 12 days",
    reply: { correct: false, reason: "made up" },
  },
  {
    role: "judge",
    match: "Correct answer: Lisbon\\n\\nReply to grade: You moved to Lisbon",
    reply: { correct: true, reason: "same city" },
  },
  { role: "judge", match: "Reply to grade: Two plants", reply: { correct: false, reason: "three" } },
  { role: "judge", match: "Reply to grade: Garbled", reply: "yes" },
];

before(async () => {
  const data = await loadDataset("longmemeval", fixture("longmemeval"), { strict: true });
  episodes = new Map(data.episodes.map((e) => [e.id, e]));
});

describe("LongMemEval judge templates", () => {
  it("chooses the prompt by question type, abstention first", () => {
    assert.equal(templateFor("single-session-user", false), "judge-default");
    assert.equal(templateFor("single-session-assistant", false), "judge-default");
    assert.equal(templateFor("multi-session", false), "judge-default");
    assert.equal(templateFor("temporal-reasoning", false), "judge-temporal");
    assert.equal(templateFor("knowledge-update", false), "judge-knowledge-update");
    assert.equal(templateFor("single-session-preference", false), "judge-preference");
    assert.equal(templateFor("temporal-reasoning", true), "judge-abstention");
    assert.equal(templateFor("something-new", false), "judge-default");
  });

  it("fills every template with the question, the gold answer (or rubric) and the reply", () => {
    const prompts = new PromptSet();
    for (const t of [
      "judge-default",
      "judge-temporal",
      "judge-knowledge-update",
      "judge-preference",
      "judge-abstention",
    ]) {
      const text = prompts.render("longmemeval", t, {
        question: "Q?",
        answer: "GOLD",
        response: "REPLY",
        question_type: "x",
        question_date: "d",
      }).text;
      assert.match(text, /Q\?/, t);
      assert.match(text, /GOLD/, t);
      assert.match(text, /Reply to grade: REPLY/, t);
      assert.match(text, /"correct": true or false/, t);
    }
  });
});

describe("LongMemEval per-probe scoring", () => {
  const score = (id: string, extra: Partial<ProbeRecord>, ctx: ScoreContext, edit: Partial<Probe> = {}) => {
    const { episode, probe } = find(id);
    const p = { ...probe, ...edit };
    return longmemevalScorer.scoreProbe({ record: probeRecord(episode, p, extra), probe: p, episode }, ctx);
  };

  it("judges each type with its own prompt", async () => {
    const ctx = judged(write(TEMPLATE_RULES));
    const ssu = await score("e47b1c01", { answer: "You moved to Lisbon." }, ctx);
    assert.deepEqual(ssu.metrics, { accuracy: 1 });
    assert.equal(ssu.verdicts[0]!.template, "longmemeval/judge-default");
    const ms = await score("9c3d7a22", { answer: "Two plants." }, ctx);
    assert.deepEqual(ms.metrics, { accuracy: 0 });
    const ku = await score("71aa0d44", { answer: "It was 25:30, now 24 minutes 10 seconds." }, ctx);
    assert.deepEqual(ku.metrics, { accuracy: 1 });
    assert.equal(ku.verdicts[0]!.template, "longmemeval/judge-knowledge-update");
    // The same question as a plain temporal one, and as a preference one with a rubric.
    const temporal = await score("gpt4_5f1e8b33_abs", { answer: "Eighteen days" }, ctx, {
      id: "t1",
      labels: { question_type: "temporal-reasoning", abstention: "no" },
    });
    assert.deepEqual(temporal.metrics, { accuracy: 1 });
    assert.equal(temporal.verdicts[0]!.template, "longmemeval/judge-temporal");
    const pref = await score("9c3d7a22", { answer: "Try a balcony herb kit" }, ctx, {
      labels: { question_type: "single-session-preference", abstention: "no" },
    });
    assert.deepEqual(pref.metrics, { accuracy: 1 });
    assert.equal(pref.verdicts[0]!.template, "longmemeval/judge-preference");
  });

  it("judges _abs questions for abstention and reports them twice", async () => {
    const ctx = judged(write(TEMPLATE_RULES));
    const right = await score("gpt4_5f1e8b33_abs", { answer: "You never mentioned Oslo, so I can't say." }, ctx);
    assert.deepEqual(right.metrics, { accuracy: 1, abstention_accuracy: 1 });
    assert.equal(right.verdicts[0]!.template, "longmemeval/judge-abstention");
    const wrong = await score("gpt4_5f1e8b33_abs", { answer: "12 days" }, ctx);
    assert.deepEqual(wrong.metrics, { accuracy: 0, abstention_accuracy: 0 });
  });

  it("counts a verdict that is not the JSON asked for as a failure scored wrong", async () => {
    const out = await score("e47b1c01", { answer: "Garbled" }, judged(write(TEMPLATE_RULES)));
    assert.equal(out.judgeFailures, 1);
    assert.deepEqual(out.metrics, { accuracy: 0 });
    assert.equal(out.verdicts[0]!.ok, false);
  });

  it("votes over judges: a 1–1 split is wrong, 2–1 for is right", async () => {
    const file = write([
      { role: "judge", model: "a", reply: { correct: true, reason: "" } },
      { role: "judge", model: "b", reply: { correct: false, reason: "" } },
      { role: "judge", model: "c", reply: { correct: true, reason: "" } },
    ]);
    assert.equal((await score("e47b1c01", { answer: "Lisbon" }, judged(file, ["a", "b"]))).metrics.accuracy, 0);
    const three = await score("e47b1c01", { answer: "Lisbon" }, judged(file, ["a", "b", "c"], 2));
    assert.equal(three.metrics.accuracy, 1);
    assert.equal(three.verdicts.length, 6);
  });

  it("skips without an answer or a judge, and scores a failed answer call wrong", async () => {
    const ctx = judged(write(TEMPLATE_RULES));
    const none = await score("gpt4_5f1e8b33_abs", { answerSkipped: "no model configured" }, ctx);
    assert.deepEqual(none.metrics, {});
    assert.deepEqual(Object.keys(none.skipped ?? {}).sort(), ["abstention_accuracy", "accuracy"]);
    const noJudge = await score("e47b1c01", { answer: "Lisbon" }, { options: {} });
    assert.deepEqual(noJudge.metrics, {});
    assert.equal(noJudge.skipped?.accuracy, "no judge configured");
    const failed = await score("gpt4_5f1e8b33_abs", { answerError: "timeout" }, ctx);
    assert.deepEqual(failed.metrics, { accuracy: 0, abstention_accuracy: 0 });
    assert.match(failed.skipped?.answer ?? "", /timeout/);
  });
});

describe("LongMemEval aggregation", () => {
  const s = (type: string, accuracy: number, abs = false): ProbeScore => ({
    system: "sys",
    setting: "default",
    episodeId: `${type}-${Math.random()}`,
    probeId: "p",
    labels: { question_type: type, abstention: abs ? "yes" : "no" },
    metrics: abs ? { accuracy, abstention_accuracy: accuracy } : { accuracy },
    verdicts: [],
    judgeFailures: 0,
  });

  it("reports overall, task-averaged and abstention accuracy as the reference script does", () => {
    // single-session-user 3/3, multi-session 0/1 (+1 abstention right), knowledge-update 1/2.
    const scores = [
      s("single-session-user", 1),
      s("single-session-user", 1),
      s("single-session-user", 1),
      s("multi-session", 0),
      s("multi-session", 1, true),
      s("knowledge-update", 1),
      s("knowledge-update", 0),
    ];
    const agg = longmemevalScorer.aggregate!(scores, { options: {} });
    assert.equal(agg.accuracy, 5 / 7);
    assert.equal(agg.task_averaged_accuracy, (1 + 1 / 2 + 1 / 2) / 3);
    assert.equal(agg.abstention_accuracy, 1);
    assert.equal(taskAveragedAccuracy([]), undefined);
    const [table] = longmemevalScorer.tables!(scores, { options: {} });
    assert.deepEqual(table!.columns, [...TABLE_COLUMNS]);
    const { "task-averaged": taskAveraged, ...cells } = table!.rows[0]!.cells;
    assert.ok(Math.abs((taskAveraged as number) - (100 * 2) / 3) < 1e-9);
    assert.deepEqual(cells, {
      "single-session-user": 100,
      "single-session-preference": null,
      "single-session-assistant": null,
      "multi-session": 50,
      "temporal-reasoning": null,
      "knowledge-update": 50,
      overall: (100 * 5) / 7,
      abstention: 100,
    });
  });

  it("lines the published anchors up with our table's columns", () => {
    for (const row of longmemevalAnchors.rows) {
      for (const key of Object.keys(row.cells)) assert.ok(TABLE_COLUMNS.includes(key), `${row.system}: ${key}`);
    }
    assert.equal(longmemevalAnchors.id, "longmemeval-qa");
    assert.equal(longmemevalAnchors.rows.find((r) => r.system === "Zep (paper, gpt-4o)")?.cells.overall, 71.2);
  });
});

describe("LongMemEval scoring end to end on the fixture", () => {
  it("answers, judges and tabulates the four questions", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-lme-run-"));
    const llm = join(out, "script.jsonl");
    writeFileSync(
      llm,
      [
        { role: "answerer", match: "Question: Which city did I say I moved to", reply: "You moved to Lisbon." },
        { role: "answerer", match: "Question: How many houseplants", reply: "Two plants." },
        {
          role: "answerer",
          match: "Question: How many days passed",
          reply: "You never mentioned Oslo, so I can't say.",
        },
        {
          role: "answerer",
          match: "Question: What is my current personal best",
          reply: "It was 25:30, now 24 minutes 10 seconds.",
        },
        ...TEMPLATE_RULES,
      ]
        .map((r) => JSON.stringify(r))
        .join("\n"),
    );
    const outcome = await startRun({
      benchmark: "longmemeval",
      data: fixture("longmemeval"),
      systems: ["full-context"],
      settings: ["default"],
      out,
      id: "run",
      llm: `scripted:${llm}`,
      progress: false,
    });
    const row = (outcome.summary.results as ScoredRow[])[0]!;
    assert.equal(row.n, 4);
    assert.equal(row.judge_failures, 0);
    // single-session-user ✓, multi-session ✗, temporal-reasoning (abstention) ✓, knowledge-update ✓.
    assert.equal(row.metrics.accuracy, 3 / 4);
    assert.equal(row.metrics.task_averaged_accuracy, (1 + 0 + 1 + 1) / 4);
    assert.equal(row.metrics.abstention_accuracy, 1);
    assert.equal(row.byLabel.question_type!["multi-session"]!.accuracy, 0);
    assert.equal(row.byLabel.question_type!["knowledge-update"]!.accuracy, 1);
    assert.equal(row.byLabel.abstention!.yes!.accuracy, 1);
    assert.equal(row.byLabel.abstention!.no!.accuracy, 2 / 3);
    const table = row.tables!.find((t) => t.id === "longmemeval-qa")!;
    assert.deepEqual(table.rows[0]!.cells, {
      "single-session-user": 100,
      "single-session-preference": null,
      "single-session-assistant": null,
      "multi-session": 0,
      "temporal-reasoning": 100,
      "knowledge-update": 100,
      "task-averaged": 75,
      overall: 75,
      abstention: 100,
    });
  });
});
