import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  aggregateMab,
  cleanMovieName,
  iclPrediction,
  levenshtein,
  lmeTemplate,
  memoryagentbenchScorer,
  recommendationLines,
  recsysRecall,
  tablesMab,
} from "../../src/benchmarks/memoryagentbench/score.ts";
import { Episode, type EpisodeInput, Probe, type ProbeInput } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import type { JudgeContext } from "../../src/score/judge.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { ProbeScore, ScoreContext } from "../../src/score/types.ts";
import { probeRecord } from "../support/scoring.ts";

const tmp = mkdtempSync(join(tmpdir(), "mab-score-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

let fileNo = 0;
function scriptFile(rules: object[]): string {
  const file = join(tmp, `script-${fileNo++}.jsonl`);
  writeFileSync(file, rules.map((r) => JSON.stringify(r)).join("\n"));
  return file;
}

/** Judges from one script; each judge is the scripted model of its name. */
function judges(rules: object[], names = ["judge-a"], runs = 1): JudgeContext {
  const file = scriptFile(rules);
  return {
    judges: names.map((name) => ({
      name,
      model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
    })),
    runs,
    prompts: new PromptSet(),
  };
}

function probeOf(sub: string, input: Partial<ProbeInput> & { answers: string[] }): Probe {
  const { answers, labels, ...rest } = input;
  return Probe.parse({
    id: `${sub}_no0`,
    question: "q?",
    position: { at: "end" },
    labels: { sub_dataset: sub, competency: "AR", metric: "subem", ...labels },
    gold: { answers },
    ...rest,
  });
}

function episodeOf(probe: Probe, meta: Record<string, unknown> = {}): Episode {
  const input: EpisodeInput = {
    id: `${probe.labels.sub_dataset}:0`,
    benchmark: "memoryagentbench",
    sessions: [],
    probes: [probe],
    labels: { sub_dataset: probe.labels.sub_dataset! },
    meta,
  };
  return Episode.parse(input);
}

function recordOf(probe: Probe, answer: Partial<Pick<ProbeRecord, "answer" | "answerSkipped" | "answerError">>) {
  return probeRecord({ id: `${probe.labels.sub_dataset}:0` }, probe, answer, "sys");
}

const noJudge: ScoreContext = { options: { icl_parse: "strict", averages: "complete" } };

async function score(probe: Probe, answer: string | Partial<ProbeRecord>, ctx: ScoreContext = noJudge, meta = {}) {
  const record = recordOf(probe, typeof answer === "string" ? { answer } : answer);
  return memoryagentbenchScorer.scoreProbe({ record, probe, episode: episodeOf(probe, meta) }, ctx);
}

describe("memoryagentbench string metrics", () => {
  it("scores RULER QA on the better of raw and parsed output, per metric", async () => {
    const probe = probeOf("ruler_qa1_197K", { answers: ["1911"] });
    const out = await score(probe, "Answer: The arches were finished in 1911.\nThey took nine years.");
    assert.equal(out.metrics.subem, 1);
    assert.equal(out.metrics.em, 0);
    // parsed "arches were finished in 1911": P 1/5, R 1 → 1/3 (raw has 10 tokens → 2/11)
    assert.ok(Math.abs(out.metrics.f1! - 1 / 3) < 1e-12);
    // ROUGE-L keeps articles: parsed has 6 tokens → 2/7
    assert.ok(Math.abs(out.metrics.rougeL! - 2 / 7) < 1e-12);
    assert.equal(out.judgeFailures, 0);
    assert.equal(out.skipped, undefined);

    const alias = probeOf("ruler_qa1_197K", { answers: ["Tessaly", "in Tessaly"] });
    const parsedWins = await score(alias, "Answer: Tessaly");
    assert.equal(parsedWins.metrics.em, 1, "raw 'answer tessaly' fails EM, the parsed line passes");
  });

  it("scores FactConsolidation by SubEM and DetectiveQA by EM", async () => {
    const fc = probeOf("factconsolidation_sh_262k", { answers: ["Orrin"] });
    assert.equal((await score(fc, "The capital is Orrin.")).metrics.subem, 1);
    assert.equal((await score(fc, "Vask")).metrics.subem, 0);
    const det = probeOf("detective_qa", { answers: ["B"] });
    assert.equal((await score(det, "Answer: B\nThe gardener had the key.")).metrics.em, 1);
    assert.equal((await score(det, "A. The niece")).metrics.em, 0);
  });

  it("scores classification on the parsed first line only, strictly by default", async () => {
    const probe = probeOf("icl_banking77_5900shot_balance", { answers: ["12"] });
    const strict = await score(probe, "label: 12");
    assert.equal(strict.metrics.em, 0, '"label: 12" against "12" is wrong under the paper\'s strict match');
    assert.equal(strict.metrics.subem, 1);
    const lenient = await score(probe, "label: 12", { options: { icl_parse: "lenient" } });
    assert.equal(lenient.metrics.em, 1);
    assert.equal((await score(probe, "12\nlabel: 40")).metrics.em, 1);
    assert.equal((await score(probe, "40\nlabel: 12")).metrics.em, 0, "only the first line counts");
    assert.equal(iclPrediction("Label: LABEL: 7", "lenient"), "7");
    assert.equal(iclPrediction("Answer: 7", "strict"), "7");
  });

  it("scores EventQA on the parsed output and adds the raw-output recall", async () => {
    const gold = "Debbie waited for her father at the end of the driveway.";
    const probe = probeOf("eventqa_full", { answers: [gold] });
    const exact = await score(probe, `${gold}\nThen she went inside.`);
    assert.deepEqual([exact.metrics.em, exact.metrics.subem, exact.metrics.eventqa_recall], [1, 1, 1]);
    // Normalisation forgives the missing full stop; the raw-output recall does not.
    const loose = await score(probe, "I think debbie waited for her father at the end of the driveway");
    assert.deepEqual([loose.metrics.em, loose.metrics.subem, loose.metrics.eventqa_recall], [0, 1, 0]);
  });
});

describe("memoryagentbench movie recommendation", () => {
  const entity2id = {
    "<http://dbpedia.org/resource/The_Quiet_Tide_(1998)>": 1021,
    "<http://dbpedia.org/resource/Harbor_Lights>": 87,
    "<http://dbpedia.org/resource/Sea-Wolves>": 4410,
    "<http://dbpedia.org/resource/Glass_Vault_(2004)>": 12,
    "<http://dbpedia.org/resource/Harbor_Nights>": 13,
    "<http://dbpedia.org/resource/Salt_Marsh>": 14,
    "<http://dbpedia.org/resource/Green_Bands>": 15,
  };
  const catalogFile = join(tmp, "entity2id.json");
  writeFileSync(catalogFile, JSON.stringify(entity2id));
  const output =
    "Here are my picks:\n1. The Quiet Tide (1998)\n2. Glass Vault\n3. Harbour Light\n4. Salt Marsh\n5. Green Band\n6. Sea Wolves\n";

  it("cleans catalog names and output lines as the reference does", () => {
    assert.equal(cleanMovieName("<http://dbpedia.org/resource/The_Quiet_Tide_(1998)>"), "the quiet tide");
    assert.equal(cleanMovieName("<http://dbpedia.org/resource/Sea-Wolves>"), "sea wolves");
    assert.deepEqual(recommendationLines(output), [
      "The Quiet Tide",
      "Glass Vault",
      "Harbour Light",
      "Salt Marsh",
      "Green Band",
      "Sea Wolves",
    ]);
    assert.deepEqual(recommendationLines("Salt Marsh, Harbor Lights"), ["Salt Marsh", "Harbor Lights"]);
    assert.equal(levenshtein("harbour light", "harbor lights"), 2);
    assert.equal(levenshtein("harbour light", "harbor nights"), 3);
  });

  it("snaps each line to the nearest catalog title and computes Recall@1/5/10", async () => {
    const probe = probeOf("recsys_redial_full", { answers: ["1021", "87", "4410"] });
    const out = await score(probe, output, { options: { entity2id: catalogFile } });
    // predicted: quiet tide, glass vault, harbor lights (distance 2), salt marsh, green bands, sea wolves
    assert.deepEqual(out.metrics, { "recall@1": 1 / 3, "recall@5": 2 / 3, "recall@10": 1 });
  });

  it("skips Recall@k when gold ids cannot be named, and says how to fix it", async () => {
    const probe = probeOf("recsys_redial_full", { answers: ["1021", "87"] });
    const out = await score(probe, output);
    assert.deepEqual(out.metrics, {});
    assert.match(out.skipped?.["recall@5"] ?? "", /entity2id/);
    const unknown = await score(probeOf("recsys_redial_full", { answers: ["999"] }), output, {
      options: { entity2id: catalogFile },
    });
    assert.match(unknown.skipped?.["recall@5"] ?? "", /999 is not in/);
  });

  it("matches gold titles exactly when no catalog is given", () => {
    const result = recsysRecall(output, ["The Quiet Tide", "Harbor Lights"]);
    assert.deepEqual(result, { ok: true, recall: { "recall@1": 0.5, "recall@5": 0.5, "recall@10": 0.5 } });
  });
});

describe("memoryagentbench LongMemEval judge", () => {
  const cat = probeOf("longmemeval_s*", {
    question: "What did I name the cat I adopted?",
    answers: ["Pistachio"],
    labels: { question_type: "single-session-user" },
    meta: { questionId: "a41f0c2e" },
  });
  const rules = [
    { role: "judge", model: "judge-b", reply: { correct: false, reason: "b disagrees" } },
    { role: "judge", match: "answer:\\nHer name is Pistachio", reply: { correct: true, reason: "names the cat" } },
    { role: "judge", match: "answer:\\nBiscuit", reply: { correct: false, reason: "wrong name" } },
    { role: "judge", match: "answer:\\ngarbled", reply: "I would say yes" },
  ];

  it("counts a correct verdict as 1 and keeps the verdict", async () => {
    const out = await score(cat, "Her name is Pistachio.", { judge: judges(rules), options: {} });
    assert.equal(out.metrics.accuracy, 1);
    assert.equal(out.metrics.subem, 1);
    assert.equal(out.judgeFailures, 0);
    assert.equal(out.verdicts.length, 1);
    assert.equal(out.verdicts[0]!.template, "memoryagentbench/lme-judge");
    assert.equal(out.verdicts[0]!.part, "single-session-user");
    assert.deepEqual(out.verdicts[0]!.value, { correct: true, reason: "names the cat" });
  });

  it("counts a wrong verdict as 0", async () => {
    const out = await score(cat, "Biscuit", { judge: judges(rules), options: {} });
    assert.equal(out.metrics.accuracy, 0);
    assert.equal(out.judgeFailures, 0);
  });

  it("counts a malformed verdict as a judge failure and as wrong", async () => {
    const out = await score(cat, "garbled", { judge: judges(rules), options: {} });
    assert.equal(out.metrics.accuracy, 0);
    assert.equal(out.judgeFailures, 1);
    assert.equal(out.verdicts[0]!.ok, false);
    assert.match(out.verdicts[0]!.failure ?? "", /JSON/);
  });

  it("breaks a tie between judges towards wrong, and follows a majority", async () => {
    const tie = await score(cat, "Her name is Pistachio.", {
      judge: judges(rules, ["judge-a", "judge-b"]),
      options: {},
    });
    assert.equal(tie.metrics.accuracy, 0);
    assert.equal(tie.verdicts.length, 2);
    const most = await score(cat, "Her name is Pistachio.", {
      judge: judges(rules, ["judge-a", "judge-b", "judge-c"]),
      options: {},
    });
    assert.equal(most.metrics.accuracy, 1);
  });

  it("picks the template by question type, abstention first", async () => {
    assert.equal(lmeTemplate("temporal-reasoning", "q1"), "lme-judge-temporal");
    assert.equal(lmeTemplate("knowledge-update", "q1"), "lme-judge-knowledge-update");
    assert.equal(lmeTemplate("single-session-preference", "q1"), "lme-judge-preference");
    assert.equal(lmeTemplate("multi-session", "q1"), "lme-judge");
    assert.equal(lmeTemplate("temporal-reasoning", "q1_abs"), "lme-judge-abstention");
    const abs = probeOf("longmemeval_s*", {
      question: "What did I name the dog I adopted?",
      answers: ["You never mentioned a dog."],
      labels: { question_type: "single-session-user" },
      meta: { questionId: "b93d7e10_abs" },
    });
    const judge = judges([
      {
        role: "judge",
        match: "cannot be answered from the earlier conversations",
        reply: { correct: true, reason: "ok" },
      },
    ]);
    const out = await score(abs, "You never told me about a dog.", { judge, options: {} });
    assert.equal(out.verdicts[0]!.template, "memoryagentbench/lme-judge-abstention");
    assert.equal(out.metrics.accuracy, 1);
  });

  it("skips the judged accuracy without a judge but still computes the string metrics", async () => {
    const out = await score(cat, "Pistachio");
    assert.equal(out.metrics.accuracy, undefined);
    assert.equal(out.skipped?.accuracy, "no judge configured");
    assert.equal(out.metrics.em, 1);
    assert.equal(out.verdicts.length, 0);
  });

  it("skips every metric when there is no answer, and scores a failed answer call as wrong", async () => {
    const skipped = await score(cat, { answerSkipped: "no model configured" }, { judge: judges(rules), options: {} });
    assert.deepEqual(skipped.metrics, {});
    assert.equal(skipped.skipped?.accuracy, "no model configured");
    assert.equal(skipped.skipped?.subem, "no model configured");
    const failed = await score(cat, { answerError: "HTTP 500" }, { judge: judges(rules), options: {} });
    assert.deepEqual(failed.metrics, { accuracy: 0, em: 0, subem: 0, f1: 0, rougeL: 0 });
    assert.match(failed.skipped?.answer ?? "", /HTTP 500/);
    assert.equal(failed.verdicts.length, 0);
  });
});

describe("memoryagentbench summary judge", () => {
  const probe = probeOf("infbench_sum_eng_shots2", {
    question: "Write a summary.",
    answers: [
      "Mara Quell leaves her mill town, works for a forger in the capital, and returns home after burning the map.",
    ],
    meta: {
      keypoints: [
        "Mara leaves the mill town with a map.",
        "She works for a printer who forges papers.",
        "She burns the map.",
      ],
    },
  });
  const summary = "Mara Quell leaves her mill town. She works for a forger. She burns the map. It is a moving book.";
  const fluent = { role: "judge", match: "reads as proper prose", reply: { fluency: 1, reason: "fluent" } };
  const recall = {
    role: "judge",
    match: "numbered key points",
    reply: { supported_key_points: [1, 3, 3], reason: "two of three" },
  };
  const precision = {
    role: "judge",
    match: "Summary to check:",
    reply: { sentence_count: 4, supported_sentences: 3, reason: "commentary" },
  };

  it("scores fluency × F1(precision, recall) from the three calls", async () => {
    const out = await score(probe, summary, { judge: judges([fluent, recall, precision]), options: {} });
    const r = 2 / 3; // key points 1 and 3, the repeated 3 counted once
    const p = 3 / 4;
    assert.ok(Math.abs(out.metrics.sum_f1! - (2 * p * r) / (p + r)) < 1e-12);
    assert.ok(Math.abs(out.metrics.sum_f1! - 0.7058823529) < 1e-9);
    assert.equal(out.metrics.sum_fluency, 1);
    assert.equal(out.metrics.sum_recall, r);
    assert.equal(out.metrics.sum_precision, p);
    assert.deepEqual(
      out.verdicts.map((v) => [v.part, v.ok]),
      [
        ["fluency", true],
        ["recall", true],
        ["precision", true],
      ],
    );
    assert.equal(typeof out.metrics.f1, "number");
    assert.equal(typeof out.metrics.rougeL, "number");
  });

  it("zeroes the score of a summary judged not fluent", async () => {
    const notFluent = { ...fluent, reply: { fluency: 0, reason: "repeats itself" } };
    const out = await score(probe, summary, { judge: judges([notFluent, recall, precision]), options: {} });
    assert.equal(out.metrics.sum_f1, 0);
    assert.equal(out.metrics.sum_recall, 2 / 3);
  });

  it("counts an out-of-range or inconsistent verdict as a failure scored 0", async () => {
    const badRecall = { ...recall, reply: { supported_key_points: [1, 5], reason: "there is no key point 5" } };
    const out = await score(probe, summary, { judge: judges([fluent, badRecall, precision]), options: {} });
    assert.equal(out.judgeFailures, 1);
    assert.equal(out.metrics.sum_recall, 0);
    assert.equal(out.metrics.sum_f1, 0);
    const badPrecision = { ...precision, reply: { sentence_count: 2, supported_sentences: 3, reason: "?" } };
    const out2 = await score(probe, summary, { judge: judges([fluent, recall, badPrecision]), options: {} });
    assert.equal(out2.judgeFailures, 1);
    assert.equal(out2.metrics.sum_precision, 0);
    assert.equal(out2.metrics.sum_f1, 0);
  });

  it("skips the judged metrics without a judge or without key points", async () => {
    const none = await score(probe, summary);
    assert.equal(none.skipped?.sum_f1, "no judge configured");
    assert.equal(none.metrics.sum_f1, undefined);
    assert.equal(typeof none.metrics.rougeL, "number");
    const bare = Probe.parse({ ...probe, meta: {} });
    const out = await score(bare, summary, { judge: judges([fluent, recall, precision]), options: {} });
    assert.match(out.skipped?.sum_f1 ?? "", /key points/);
    assert.equal(out.verdicts.length, 0);
  });
});

describe("memoryagentbench aggregation and tables", () => {
  function scoreOf(sub: string, metrics: Record<string, number>): ProbeScore {
    return {
      metrics,
      verdicts: [],
      judgeFailures: 0,
      system: "bm25",
      setting: "default",
      episodeId: `${sub}:0`,
      probeId: "p",
      labels: { sub_dataset: sub },
    };
  }
  const scores = [
    scoreOf("ruler_qa1_197K", { subem: 1, em: 0, f1: 0.5, rougeL: 0.5 }),
    scoreOf("ruler_qa1_197K", { subem: 0, em: 0, f1: 0, rougeL: 0 }),
    scoreOf("factconsolidation_sh_262k", { subem: 1, em: 1, f1: 1, rougeL: 1 }),
    scoreOf("factconsolidation_mh_262k", { subem: 0, em: 0, f1: 0, rougeL: 0 }),
    scoreOf("factconsolidation_mh_6k", { subem: 1, em: 1, f1: 1, rougeL: 1 }),
    scoreOf("icl_nlu_8296shot_balance", { em: 1, subem: 1, f1: 1, rougeL: 1 }),
  ];

  it("reports per-sub-dataset means ×100 and only the averages whose datasets are all there", () => {
    const agg = aggregateMab(scores, { options: {} });
    assert.equal(agg["ruler_qa1_197K/subem"], 50);
    assert.equal(agg["ruler_qa1_197K/f1"], 25);
    assert.equal(agg["ruler_qa1_197K/n"], 2);
    assert.equal(agg["SH-QA"], 50);
    assert.equal(agg["FC-SH"], 100);
    assert.equal(agg["FC-MH"], 0, "the 262K set is the FC-MH column, not the 6K ablation");
    assert.equal(agg["factconsolidation_mh_6k/subem"], 100);
    assert.equal(agg.SF, 50);
    for (const key of ["MH-QA", "AR", "MCC", "TTL", "LRU", "overall"]) assert.equal(agg[key], undefined, key);
  });

  it("averages what is there with averages=available", () => {
    const agg = aggregateMab(scores, { options: { averages: "available" } });
    assert.equal(agg.AR, 50);
    assert.equal(agg.MCC, 100);
    assert.equal(agg.TTL, 100);
    assert.equal(agg.overall, (50 + 100 + 50) / 3);
  });

  it("lays our row out as Table 3 and Table 7, null where a dataset was not scored", () => {
    const [t3, t7] = tablesMab(scores, { options: {} });
    assert.equal(t3!.id, "table3");
    assert.equal(t3!.columns.length, 15);
    assert.equal(t3!.rows[0]!.label, "bm25");
    const cells = t3!.rows[0]!.cells;
    assert.equal(cells["SH-QA"], 50);
    assert.equal(cells["MH-QA"], null);
    assert.equal(cells.MCC, null);
    assert.equal(cells.SF, 50);
    assert.equal(cells.Overall, null);
    assert.deepEqual(t3!.rows[0]!.n, { "SH-QA": 2, "FC-SH": 1, "FC-MH": 1, MCC: 1 });
    assert.deepEqual(t7!.rows[0]!.cells, { BANKING77: null, CLINC150: null, NLU: 100, "TREC-C": null, "TREC-F": null });
  });
});
