import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { locomoJAnchors } from "../../src/benchmarks/locomo/paper.ts";
import {
  F1_COLUMNS,
  J_COLUMNS,
  locomoF1,
  locomoScorer,
  locomoTokens,
  saysNotAvailable,
} from "../../src/benchmarks/locomo/score.ts";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import { startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { porterStem } from "../../src/score/porter-stemmer.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { ScoreContext } from "../../src/score/types.ts";
import { probeRecord, writeScript } from "../support/scoring.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

describe("Porter stemmer (NLTK's default mode)", () => {
  it("stems the algorithm's own examples and NLTK's departures", () => {
    const cases: Record<string, string> = {
      caresses: "caress",
      ponies: "poni",
      cats: "cat",
      feed: "feed",
      agreed: "agre",
      plastered: "plaster",
      motoring: "motor",
      sing: "sing",
      conflated: "conflat",
      troubled: "troubl",
      sized: "size",
      hopping: "hop",
      falling: "fall",
      hissing: "hiss",
      filing: "file",
      relational: "relat",
      conditional: "condit",
      digitizer: "digit",
      vietnamization: "vietnam",
      operator: "oper",
      decisiveness: "decis",
      hopefulness: "hope",
      sensibiliti: "sensibl",
      triplicate: "triplic",
      electrical: "electr",
      goodness: "good",
      allowance: "allow",
      adjustable: "adjust",
      replacement: "replac",
      adoption: "adopt",
      homologous: "homolog",
      effective: "effect",
      probate: "probat",
      rate: "rate",
      controll: "control",
      // NLTK departures from the 1980 algorithm.
      ties: "tie",
      died: "die",
      spied: "spi",
      dying: "die",
      sky: "sky",
      happy: "happi",
      enjoy: "enjoy",
      generously: "gener",
      radically: "radic",
      geology: "geolog",
      as: "as",
      was: "wa",
      grandmother: "grandmoth",
      minutes: "minut",
    };
    for (const [word, stem] of Object.entries(cases)) assert.equal(porterStem(word), stem, word);
  });
});

const close = (actual: number | undefined, expected: number, what = "") =>
  assert.ok(actual !== undefined && Math.abs(actual - expected) < 1e-12, `${what} ${actual} ≠ ${expected}`);

describe("LoCoMo token F1 (reference rules)", () => {
  it("drops commas, punctuation and a/an/the/and, then stems", () => {
    assert.deepEqual(locomoTokens("The cat, and a dog -- running!"), ["cat", "dog", "run"]);
    assert.deepEqual(locomoTokens("Noor's  Theatre an Andes"), ["noor", "theatr", "and"]);
  });

  // Expected values were checked against the reference script (nltk PorterStemmer) and by hand.
  it("scores single-hop, temporal and open-domain answers against the gold (open-domain: first ; part)", () => {
    // 7 answer tokens, 3 gold tokens, 3 shared: P 3/7, R 1 → 0.6.
    assert.equal(locomoF1(4, "She signed up for a night pottery course", "night pottery course"), 0.6);
    assert.equal(locomoF1(4, "Night pottery courses!", "night pottery course"), 1);
    close(locomoF1(2, "In 2021.", "2021"), 2 / 3);
    assert.equal(locomoF1(4, "Running and swimming, the cats", "run swim cat"), 1);
    assert.equal(locomoF1(4, "", "Pepper"), 0);
    assert.equal(locomoF1(3, "Likely yes", "Likely yes; he enjoys being on the water"), 1);
    // Against the whole gold it would be 2/3: only "Likely yes" counts, so 1 shared token of 8 and 2 → 0.2.
    assert.equal(
      locomoF1(3, "Probably yes, since he loves being on the water", "Likely yes; he enjoys being on the water"),
      0.2,
    );
    // Category 4 has no ; split: the whole gold counts.
    // like ye | like ye he enjoy be on water: P 1, R 2/7.
    assert.ok(Math.abs(locomoF1(4, "Likely yes", "Likely yes; he enjoys being on the water") - 4 / 9) < 1e-12);
  });

  it("counts shared tokens as a multiset, not a set", () => {
    // paris paris | paris: one shared token, P 1/2, R 1 → 2/3 (a set overlap would give 1).
    close(locomoF1(4, "paris paris", "paris"), 2 / 3);
    close(locomoF1(4, "Paris", "Paris, Paris"), 2 / 3);
    // paris paris lyon | paris lyon lyon: shared paris ×1 and lyon ×1, P 2/3, R 2/3.
    close(locomoF1(2, "paris paris lyon", "paris lyon lyon"), 2 / 3);
  });

  it("scores multi-hop answers part by part over comma-separated gold parts", () => {
    assert.equal(locomoF1(1, "a teapot, her grandmother", "a teapot, her grandmother"), 1);
    // gold "a teapot" → 2/7 against the 6 answer tokens; "her grandmother" → 1/4; mean 15/56.
    close(locomoF1(1, "She made a teapot for her grandma", "a teapot, her grandmother"), 15 / 56);
    // answer parts teapot | grandmother | mug: each gold part finds its match → (1 + 2/3) / 2.
    close(locomoF1(1, "teapot, grandmother, mug", "a teapot, her grandmother"), 5 / 6);
    close(locomoF1(1, "Paris and Lyon", "Paris, Lyon"), 2 / 3);
  });

  it("credits adversarial answers only for saying the information is not there", () => {
    assert.equal(locomoF1(5, "That is NOT mentioned in the conversation.", "blue"), 1);
    assert.equal(locomoF1(5, "No information available", ""), 1);
    assert.equal(locomoF1(5, "Blue", "blue"), 0);
    assert.equal(saysNotAvailable("I don't know"), false);
  });
});

let episodes: Map<string, Episode>;
const find = (episodeId: string, probeId: string): { episode: Episode; probe: Probe } => {
  const episode = episodes.get(episodeId)!;
  const probe = episode.probes.find((p) => p.id === probeId);
  assert.ok(probe, probeId);
  return { episode, probe };
};

function ctxWith(options: Record<string, string>, file?: string, names = ["judge"]): ScoreContext {
  if (!file) return { options };
  return {
    options,
    judge: {
      judges: names.map((name) => ({
        name,
        model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
      })),
      runs: 1,
      prompts: new PromptSet(),
    },
  };
}

before(async () => {
  const data = await loadDataset("locomo", fixture("locomo"), { strict: true });
  episodes = new Map(data.episodes.map((e) => [e.id, e]));
});

describe("LoCoMo per-probe scoring", () => {
  const score = (episodeId: string, probeId: string, extra: Partial<ProbeRecord>, ctx: ScoreContext) => {
    const { episode, probe } = find(episodeId, probeId);
    return locomoScorer.scoreProbe({ record: probeRecord(episode, probe, extra), probe, episode }, ctx);
  };

  it("keeps adversarial questions apart from the F1 of categories 1–4", async () => {
    const ctx = ctxWith({ j: "off" });
    assert.deepEqual((await score("conv-7", "conv-7:q2", { answer: "a teapot, her grandmother" }, ctx)).metrics, {
      f1: 1,
      f1_all: 1,
    });
    assert.deepEqual((await score("conv-7", "conv-7:q4", { answer: "Not mentioned." }, ctx)).metrics, {
      f1_adversarial: 1,
      f1_all: 1,
    });
    // The release's answer "No" on an adversarial item is not what the reference checks: only abstention scores.
    assert.deepEqual((await score("conv-7", "conv-7:q5", { answer: "No" }, ctx)).metrics, {
      f1_adversarial: 0,
      f1_all: 0,
    });
  });

  it("skips without an answer and scores a failed answer call as 0", async () => {
    const ctx = ctxWith({ j: "on" }, writeScript(mkdtempSync(join(tmpdir(), "mb-locomo-")), []));
    const none = await score("conv-7", "conv-7:q0", { answerSkipped: "no model configured" }, ctx);
    assert.deepEqual(none.metrics, {});
    assert.deepEqual(Object.keys(none.skipped ?? {}).sort(), ["f1", "f1_all", "j"]);
    const failed = await score("conv-7", "conv-7:q0", { answerError: "HTTP 429" }, ctx);
    assert.deepEqual(failed.metrics, { f1: 0, f1_all: 0, j: 0 });
    assert.equal(failed.verdicts.length, 0);
    assert.match(failed.skipped?.answer ?? "", /HTTP 429/);
    const { episode, probe } = find("conv-7", "conv-7:q0");
    const odd = { ...probe, labels: { category: "6" }, meta: { categoryId: 6 } };
    const unknown = await locomoScorer.scoreProbe(
      { record: probeRecord(episode, odd, { answer: "x" }), probe: odd, episode },
      ctx,
    );
    assert.deepEqual(unknown.metrics, {});
    assert.match(unknown.skipped?.f1 ?? "", /unknown category 6/);
  });

  it("with j=on asks the judge on categories 1–4 only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-locomo-"));
    const file = writeScript(dir, [
      {
        role: "judge",
        match: "Reference answer: night pottery course\\nSystem's answer: Pottery at night",
        reply: { correct: true, reason: "same course" },
      },
      { role: "judge", match: "System's answer: Sculpture", reply: { correct: false, reason: "different" } },
      { role: "judge", match: "System's answer: Unparseable", reply: "CORRECT" },
    ]);
    const ctx = ctxWith({ j: "on" }, file);
    const right = await score("conv-7", "conv-7:q0", { answer: "Pottery at night" }, ctx);
    assert.equal(right.metrics.j, 1);
    assert.equal(right.verdicts[0]!.template, "locomo/judge-j");
    assert.equal((await score("conv-7", "conv-7:q0", { answer: "Sculpture" }, ctx)).metrics.j, 0);
    const bad = await score("conv-7", "conv-7:q0", { answer: "Unparseable" }, ctx);
    assert.equal(bad.metrics.j, 0);
    assert.equal(bad.judgeFailures, 1);
    const adversarial = await score("conv-7", "conv-7:q4", { answer: "Not mentioned" }, ctx);
    assert.equal("j" in adversarial.metrics, false);
    assert.equal(adversarial.verdicts.length, 0);
    assert.match(adversarial.skipped?.j ?? "", /categories 1–4/);
    const noJudge = await score("conv-7", "conv-7:q0", { answer: "Pottery at night" }, ctxWith({ j: "on" }));
    // potteri at night | night potteri cours: P = R = 2/3.
    assert.deepEqual(Object.keys(noJudge.metrics).sort(), ["f1", "f1_all"]);
    assert.ok(Math.abs(noJudge.metrics.f1! - 2 / 3) < 1e-12);
    assert.equal(noJudge.skipped?.j, "no judge configured");
    const off = await score("conv-7", "conv-7:q0", { answer: "Sculpture" }, ctxWith({ j: "off" }, file));
    assert.equal(off.verdicts.length, 0);
    assert.equal(off.skipped, undefined);
  });

  it("J is a majority over judges, a tie counting wrong", async () => {
    const file = writeScript(mkdtempSync(join(tmpdir(), "mb-locomo-")), [
      { role: "judge", model: "a", reply: { correct: true, reason: "" } },
      { role: "judge", model: "b", reply: { correct: false, reason: "" } },
      { role: "judge", model: "c", reply: { correct: true, reason: "" } },
    ]);
    const answer = { answer: "Pottery" };
    assert.equal((await score("conv-7", "conv-7:q0", answer, ctxWith({ j: "on" }, file, ["a", "b"]))).metrics.j, 0);
    assert.equal(
      (await score("conv-7", "conv-7:q0", answer, ctxWith({ j: "on" }, file, ["a", "b", "c"]))).metrics.j,
      1,
    );
    assert.equal(
      (await score("conv-7", "conv-7:q0", answer, ctxWith({ j: "on" }, file, ["b", "c", "b"]))).metrics.j,
      0,
    );
  });
});

describe("LoCoMo anchors", () => {
  it("are J numbers keyed by our J table's columns", () => {
    assert.equal(locomoJAnchors.id, "locomo-j");
    assert.equal(locomoJAnchors.metric, "j");
    for (const row of locomoJAnchors.rows) {
      for (const key of Object.keys(row.cells)) assert.ok(J_COLUMNS.includes(key), `${row.system}: ${key}`);
    }
    assert.equal(locomoJAnchors.rows.find((r) => r.system === "Mem0 (paper)")?.cells.overall, 66.88);
  });
});

describe("LoCoMo scoring end to end on the fixture", () => {
  // Per question: [question text, answer, hand-computed F1, J verdict (categories 1–4)].
  const PLAN: Array<[string, string, number, boolean?]> = [
    ["What is the name of Ada's cat", "Pepper the cat", 2 / 3, true], // single-hop: P 1/2, R 1
    ["Where did Bram move", "He moved to Utrecht.", 2 / 5, true], // single-hop: he move to utrecht → P 1/4, R 1
    ["How long did Cas take", "two hours, four minutes", 1, true], // single-hop: "and" dropped from the gold
    ["What did Dina run", "Not mentioned in the conversation.", 1], // adversarial
    ["What course did Noor sign up for", "She signed up for a night pottery course", 0.6, true], // single-hop
    ["When did Tobias win the spring regatta", "In 2021.", 2 / 3, true], // temporal
    ["What did Noor make and who received it", "She made a teapot for her grandma", 15 / 56, false], // multi-hop
    ["Would Tobias enjoy a sailing holiday", "Likely yes", 1, true], // open-domain
    ["What colour did Tobias choose for his boat", "Blue", 0], // adversarial
    ["Did Noor mix the glaze herself", "No information available.", 1], // adversarial
  ];

  it("computes F1 by category, the adversarial row apart, and J when asked", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-locomo-run-"));
    const rules: object[] = [];
    for (const [q, answer, , j] of PLAN) {
      rules.push({ role: "answerer", match: `Question: ${q}`, reply: answer });
      if (j !== undefined) {
        const escaped = answer.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
        rules.push({
          role: "judge",
          match: `System's answer: ${escaped}\\n`,
          reply: { correct: j, reason: "scripted" },
        });
      }
    }
    const llm = writeScript(out, rules);
    const outcome = await startRun({
      benchmark: "locomo",
      data: fixture("locomo"),
      systems: ["none"],
      settings: ["default"],
      out,
      id: "run",
      llm: `scripted:${llm}`,
      progress: false,
      scoring: { options: { j: "on" } },
    });
    const row = (outcome.summary.results as ScoredRow[])[0]!;
    assert.equal(row.n, 10);
    assert.equal(row.judge_failures, 0);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const main = PLAN.filter((p) => p[3] !== undefined);
    // f1 over categories 1–4 = (2/3 + 2/5 + 1 + 3/5 + 2/3 + 15/56 + 1) / 7 = 773/1176.
    assert.ok(Math.abs(row.metrics.f1! - 773 / 1176) < 1e-12);
    assert.ok(Math.abs(row.metrics.f1! - mean(main.map((p) => p[2]))) < 1e-12);
    assert.equal(row.metrics.f1_adversarial, 2 / 3);
    assert.ok(Math.abs(row.metrics.f1_all! - 1109 / 1680) < 1e-12);
    assert.equal(row.metrics.j, 6 / 7);
    const cat = row.byLabel.category!;
    assert.ok(Math.abs(cat["single-hop"]!.f1! - 2 / 3) < 1e-12);
    assert.equal(cat["multi-hop"]!.f1, 15 / 56);
    assert.equal(cat.temporal!.f1, 2 / 3);
    assert.equal(cat["open-domain"]!.f1, 1);
    assert.equal(cat.adversarial!.f1_adversarial, 2 / 3);
    assert.equal(cat["multi-hop"]!.j, 0);
    assert.equal(cat["single-hop"]!.j, 1);

    const f1 = row.tables!.find((t) => t.id === "locomo-f1")!;
    assert.deepEqual(f1.columns, [...F1_COLUMNS]);
    const cells = f1.rows[0]!.cells as Record<string, number>;
    const expected: Record<string, number> = {
      "single-hop": 200 / 3,
      "multi-hop": 1500 / 56,
      temporal: 200 / 3,
      "open-domain": 100,
      overall: 77300 / 1176,
      adversarial: 200 / 3,
      all: 110900 / 1680,
    };
    for (const [k, v] of Object.entries(expected)) assert.ok(Math.abs(cells[k]! - v) < 1e-9, k);
    assert.deepEqual(f1.rows[0]!.n, {
      "single-hop": 4,
      "multi-hop": 1,
      temporal: 1,
      "open-domain": 1,
      overall: 7,
      adversarial: 3,
      all: 10,
    });
    const j = row.tables!.find((t) => t.id === "locomo-j")!;
    assert.deepEqual(j.columns, [...J_COLUMNS]);
    assert.deepEqual(j.rows[0]!.cells, {
      "single-hop": 100,
      "multi-hop": 0,
      temporal: 100,
      "open-domain": 100,
      overall: 600 / 7,
    });
  });
});

const sample = sharedDataset("locomo/26.json");

describe("LoCoMo F1 on the conversation-26 sample", () => {
  it("matches the reference script's per-category sums", { skip: skipUnless(sample) }, async () => {
    const data = await loadDataset("locomo", sample!, { strict: true });
    const ep = data.episodes[0]!;
    // The release's own answer text: adversarial items without one carry only the trap answer.
    const raw = (p: Probe) => (p.meta?.answerSynthesized ? (p.gold.wrongAnswers[0] ?? "") : (p.gold.answers[0] ?? ""));
    const sums = new Map<string, { sum: number; n: number }>();
    for (const [i, p] of ep.probes.entries()) {
      const answer =
        i % 7 === 0
          ? "Not mentioned in the conversation"
          : i % 3 === 0
            ? `${raw(p)}, I think`
            : i % 3 === 1
              ? p.question
              : raw(ep.probes[i - 1]!);
      const out = await locomoScorer.scoreProbe(
        { record: probeRecord(ep, p, { answer }), probe: p, episode: ep },
        { options: { j: "off" } },
      );
      const value = out.metrics.f1 ?? out.metrics.f1_adversarial;
      assert.equal(out.metrics.f1_all, value);
      const e = sums.get(p.labels.category!) ?? { sum: 0, n: 0 };
      sums.set(p.labels.category!, { sum: e.sum + value!, n: e.n + 1 });
    }
    // Same answers through the reference evaluation.py (nltk 3.8 PorterStemmer).
    const reference: Record<string, [number, number]> = {
      "multi-hop": [11.222222222222221, 32],
      temporal: [9.66904761904762, 37],
      "open-domain": [2.257390648567119, 13],
      "single-hop": [17.05285971338603, 70],
      adversarial: [7, 47],
    };
    for (const [category, [sum, n]] of Object.entries(reference)) {
      assert.equal(sums.get(category)?.n, n, category);
      close(sums.get(category)?.sum, sum, category);
    }
  });
});
