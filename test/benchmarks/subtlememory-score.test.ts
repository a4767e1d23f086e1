import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import {
  SUBTLEMEMORY_REPORTED,
  subtlememoryTable1Gpt54,
  subtlememoryWaterfall,
  WATERFALL_COLUMNS,
} from "../../src/benchmarks/subtlememory/paper.ts";
import {
  exactReferenceVerdict,
  goldenExactMatch,
  guidanceKeys,
  judgeVars,
  normalizeReference,
  PAPER_COLUMNS,
  paperCells,
  subtlememoryScorer,
  waterfall,
} from "../../src/benchmarks/subtlememory/score.ts";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord, Setting } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import type { JudgeContext } from "../../src/score/judge.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { ProbeScore, ScoreContext } from "../../src/score/types.ts";
import { probeRecord, writeScript } from "../support/scoring.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

let episode: Episode;
const probe = (id: string): Probe => {
  const p = episode.probes.find((x) => x.id === id);
  assert.ok(p, `fixture probe ${id}`);
  return p;
};

const script = (rules: object[]): string =>
  writeScript(mkdtempSync(join(tmpdir(), "mb-sm-score-")), rules, "judge.jsonl");

function judges(file: string, names: string[], runs = 1): ScoreContext {
  const judge: JudgeContext = {
    judges: names.map((name) => ({
      name,
      model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
    })),
    runs,
    prompts: new PromptSet(),
  };
  return { judge, options: {} };
}

const score = (p: Probe, extra: Partial<ProbeRecord>, ctx: ScoreContext) =>
  subtlememoryScorer.scoreProbe({ record: probeRecord(episode, p, extra), probe: p, episode }, ctx);

// Fixture probes (test/fixtures/subtlememory/persona_1).
const ME = "related-0a01:qa0"; // complementary / Multi-evidence / user-related
const AO = "unrelated-0b02:qa0"; // complementary / Any-one / user-unrelated
const CTX_HOME = "related-0d04:qa0"; // nuanced / Contextual / user-related
const CONTR_USER = "related-0e05:qa0"; // contradictory / contradictory / user-related
const CONTR_B = "unrelated-0f06:qa0"; // contradictory / b_user_vs_non_user / user-unrelated

before(async () => {
  const data = await loadDataset("subtlememory", fixture("subtlememory"), { strict: true });
  episode = data.episodes[0]!;
});

describe("SubtleMemory exact-match bypass", () => {
  it("compares with whitespace collapsed and case folded, accepted references first", () => {
    assert.equal(normalizeReference("  Feed:\n own   COMPOST "), "feed: own compost");
    assert.equal(exactReferenceVerdict("feed:  own compost", ["Feed: own compost"], []), true);
    assert.equal(
      exactReferenceVerdict("FEED: association pellets", ["Feed: own compost"], ["Feed: association pellets"]),
      false,
    );
    // Punctuation is not normalised away: only whitespace and case are.
    assert.equal(exactReferenceVerdict("Feed own compost", ["Feed: own compost"], []), undefined);
    assert.equal(exactReferenceVerdict("x", ["x"], ["x"]), true);
    assert.equal(exactReferenceVerdict("   ", [""], [""]), undefined);
  });

  it("em is the released exact_match: golden_answer (the first accepted reference) only, same normalisation", () => {
    assert.equal(goldenExactMatch("  a FERRY ", ["A ferry", "The ferry"]), 1);
    assert.equal(goldenExactMatch("The ferry", ["A ferry", "The ferry"]), 0);
    assert.equal(goldenExactMatch("A ferry.", ["A ferry"]), 0);
    assert.equal(goldenExactMatch("", ["A ferry"]), 0);
  });

  it("decides without calling any judge: a script with no rules is never asked", async () => {
    const ctx = judges(script([]), ["judge-a"]);
    // "The ferry" is the second accepted reference: right, and an exact match of an accepted reference
    // (em_any), but not of golden_answer, the first one ("A ferry"), which is all the official em compares.
    const right = await score(probe(AO), { answer: "the  FERRY" }, ctx);
    assert.deepEqual(right.metrics, { accuracy: 1, em: 0, em_any: 1 });
    const golden = await score(probe(AO), { answer: "a  Ferry" }, ctx);
    assert.deepEqual(golden.metrics, { accuracy: 1, em: 1, em_any: 1 });
    assert.equal(right.verdicts.length, 0);
    const wrong = await score(probe(AO), { answer: "A tunnel train" }, ctx);
    assert.deepEqual(wrong.metrics, { accuracy: 0, em: 0, em_any: 0 });
    assert.equal(wrong.verdicts.length, 0);
    assert.equal(wrong.judgeFailures, 0);
  });
});

describe("SubtleMemory judge prompt", () => {
  it("picks guidance by relation type, subtype and source; non-user contradictions get their own", () => {
    assert.deepEqual(guidanceKeys(probe(ME)), {
      type: "complementary",
      subtype: "multi-evidence",
      source: "user-related",
    });
    assert.deepEqual(guidanceKeys(probe(AO)), { type: "complementary", subtype: "any-one", source: "user-unrelated" });
    assert.deepEqual(guidanceKeys(probe(CTX_HOME)), { type: "nuanced", subtype: "contextual", source: "user-related" });
    assert.deepEqual(guidanceKeys(probe(CONTR_USER)), {
      type: "contradictory",
      subtype: "contradictory",
      source: "user-related",
    });
    assert.deepEqual(guidanceKeys(probe(CONTR_B)), {
      type: "contradictory",
      subtype: "non-persona-contradiction",
      source: "user-unrelated",
    });
  });

  it("shows references, facts, guidance and the persona for a user-related question", () => {
    const prompts = new PromptSet();
    const p = probe(ME);
    const text = prompts.render(
      "subtlememory",
      "judge",
      judgeVars({ record: probeRecord(episode, p, {}), probe: p, episode }, "My answer", prompts),
    ).text;
    assert.match(
      text,
      /Accepted answers:\n- Variety: heirloom yellow pear cherry; Why: copes with morning sun and is heirloom\n- Variety: a compact heirloom cherry tomato/,
    );
    assert.match(text, /Known wrong answers:\n- Variety: beefsteak hybrid; Why: large fruit/);
    assert.match(text, /Answer to grade:\nMy answer/);
    assert.match(
      text,
      /Facts behind the case:\n- Ilse's balcony gets only morning sun\.\n- Ilse prefers heirloom seeds\./,
    );
    assert.match(text, /Relation subtype: K>1/);
    assert.match(text, /Topic: Gardening/);
    assert.match(text, /every required fact or condition-specific value/); // multi-evidence guidance
    assert.match(text, /brings the compatible pieces together/); // complementary guidance
    assert.match(text, /This question is about the user\./);
    assert.match(
      text,
      /Persona \(the only profile[^\n]*\n\{"short_persona": "A retired surveyor who gardens", "name": "Ilse Marten"/,
    );
    assert.doesNotMatch(text, /\{\{/);
  });

  it("leaves the persona out of a user-unrelated question and says when no wrong answers are given", () => {
    const prompts = new PromptSet();
    const p = probe(CONTR_B);
    const vars = judgeVars({ record: probeRecord(episode, p, {}), probe: p, episode }, "9", prompts);
    const text = prompts.render("subtlememory", "judge", vars).text;
    assert.doesNotMatch(text, /Ilse Marten/);
    assert.doesNotMatch(text, /Persona \(/);
    assert.equal(vars.persona_context_block, "");
    assert.match(text, /conflict between factual, non-persona claims/);
    assert.match(text, /is not about the user/);
    const bare = { ...p, gold: { ...p.gold, wrongAnswers: [] }, meta: {} };
    const bareVars = judgeVars({ record: probeRecord(episode, p, {}), probe: bare, episode }, "9", prompts);
    assert.equal(bareVars.known_incorrect_answers_block, "(no known wrong answers given)");
    assert.equal(bareVars.facts_block, "(no facts given)");
    assert.equal(bareVars.relation_subtype, "Contradictory");
  });
});

describe("SubtleMemory per-probe scoring", () => {
  const answer = "Heirloom yellow pear, it copes with morning sun";
  const file = () =>
    script([
      {
        role: "judge",
        match: "Answer to grade:\\nHeirloom yellow pear",
        reply: { label: "CORRECT", reason: "matches" },
      },
      {
        role: "judge",
        match: "Answer to grade:\\nBeefsteak please",
        reply: { label: "WRONG", reason: "wrong variety" },
      },
      { role: "judge", match: "Answer to grade:\\nGarbled", reply: "I think it is fine" },
      { role: "judge", match: "Answer to grade:\\nOff scale", reply: { label: "MAYBE", reason: "?" } },
    ]);

  it("scores CORRECT and WRONG verdicts and keeps each verdict", async () => {
    const ctx = judges(file(), ["judge-a"]);
    const right = await score(probe(ME), { answer }, ctx);
    assert.deepEqual(right.metrics, { accuracy: 1, em: 0, em_any: 0 });
    assert.equal(right.verdicts.length, 1);
    assert.equal(right.verdicts[0]!.ok, true);
    assert.equal(right.verdicts[0]!.judge, "judge-a");
    assert.equal(right.verdicts[0]!.template, "subtlememory/judge");
    assert.equal(right.verdicts[0]!.promptSet, "membench");
    assert.deepEqual(right.verdicts[0]!.value, { label: "CORRECT", reason: "matches" });
    const wrong = await score(probe(ME), { answer: "Beefsteak please" }, ctx);
    assert.deepEqual(wrong.metrics, { accuracy: 0, em: 0, em_any: 0 });
  });

  it("counts an unparseable or off-scale verdict as a failure scored WRONG", async () => {
    const ctx = judges(file(), ["judge-a"]);
    for (const bad of ["Garbled reply", "Off scale"]) {
      const out = await score(probe(ME), { answer: bad }, ctx);
      assert.equal(out.judgeFailures, 1, bad);
      assert.equal(out.metrics.accuracy, 0, bad);
      assert.equal(out.verdicts[0]!.ok, false);
      assert.ok(out.verdicts[0]!.failure, bad);
    }
  });

  it("skips answer metrics when there is no answer or the setting did not run", async () => {
    const ctx = judges(file(), ["judge-a"]);
    const none = await score(probe(ME), { answerSkipped: "no model configured" }, ctx);
    assert.deepEqual(none.metrics, {});
    assert.equal(none.skipped?.accuracy, "no answer: no model configured");
    assert.equal(none.skipped?.em, "no answer: no model configured");
    assert.equal(none.skipped?.em_any, "no answer: no model configured");
    const skipped = await score(probe(ME), { status: "skipped", skipReason: "no readback" }, ctx);
    assert.deepEqual(skipped.metrics, {});
    assert.match(skipped.skipped?.accuracy ?? "", /no readback/);
  });

  it("scores a failed answer call as wrong and says why", async () => {
    const out = await score(probe(ME), { answerError: "HTTP 500" }, judges(file(), ["judge-a"]));
    assert.deepEqual(out.metrics, { accuracy: 0, em: 0, em_any: 0 });
    assert.match(out.skipped?.answer ?? "", /HTTP 500/);
  });

  it("without a judge computes the exact match only and skips accuracy", async () => {
    const out = await score(probe(AO), { answer: "A ferry" }, { options: {} });
    assert.deepEqual(out.metrics, { em: 1, em_any: 1 });
    const second = await score(probe(AO), { answer: "The ferry" }, { options: {} });
    assert.deepEqual(second.metrics, { em: 0, em_any: 1 });
    assert.equal(out.skipped?.accuracy, "no judge configured");
  });
});

describe("SubtleMemory majority vote over judges and runs", () => {
  const answer = "Small heirloom cherry";
  const file = () =>
    script([
      { role: "judge", model: "judge-a", reply: { label: "CORRECT", reason: "a" } },
      { role: "judge", model: "judge-b", reply: { label: "WRONG", reason: "b" } },
      { role: "judge", model: "judge-c", reply: { label: "CORRECT", reason: "c" } },
      { role: "judge", model: "judge-d", reply: "not json at all" },
    ]);

  it("two judges that disagree tie, and a tie is WRONG", async () => {
    const out = await score(probe(ME), { answer }, judges(file(), ["judge-a", "judge-b"]));
    assert.equal(out.metrics.accuracy, 0);
    assert.deepEqual(
      out.verdicts.map((v) => [v.judge, (v.value as { label: string }).label]),
      [
        ["judge-a", "CORRECT"],
        ["judge-b", "WRONG"],
      ],
    );
  });

  it("three judges: the majority wins either way", async () => {
    const two = await score(probe(ME), { answer }, judges(file(), ["judge-a", "judge-b", "judge-c"]));
    assert.equal(two.metrics.accuracy, 1);
    const one = await score(probe(ME), { answer }, judges(file(), ["judge-a", "judge-b", "judge-d"]));
    // judge-d cannot be parsed: it votes WRONG, so WRONG wins 2:1.
    assert.equal(one.metrics.accuracy, 0);
    assert.equal(one.judgeFailures, 1);
  });

  it("every judge is sampled --judge-runs times and every sample votes", async () => {
    const out = await score(probe(ME), { answer }, judges(file(), ["judge-a", "judge-b", "judge-c"], 3));
    assert.equal(out.verdicts.length, 9);
    assert.deepEqual(
      out.verdicts.map((v) => v.sample),
      [0, 1, 2, 0, 1, 2, 0, 1, 2],
    );
    assert.equal(out.metrics.accuracy, 1);
    const tie = await score(probe(ME), { answer }, judges(file(), ["judge-a", "judge-b"], 3));
    assert.equal(tie.verdicts.length, 6);
    assert.equal(tie.metrics.accuracy, 0);
  });
});

/** Synthetic scores: `correct` of `total` questions with the given labels. */
function scores(
  spec: Array<{ type: string; subtype: string; total: number; correct: (i: number) => boolean }>,
  setting: Setting = "default",
): ProbeScore[] {
  return spec.flatMap(({ type, subtype, total, correct }) =>
    Array.from({ length: total }, (_, i) => ({
      system: "sys",
      setting,
      episodeId: "persona",
      probeId: `${subtype}-${i}`,
      labels: { relation_type: type, relation_subtype: subtype, source: i % 2 ? "user-related" : "user-unrelated" },
      metrics: { accuracy: correct(i) ? 1 : 0 },
      verdicts: [],
      judgeFailures: 0,
    })),
  );
}

const round2 = (x: number | null | undefined) => (x === null || x === undefined ? x : Math.round(x * 100) / 100);

describe("SubtleMemory published arithmetic", () => {
  it("reproduces every row of Tables 1a, 1b and 13 from whole-number counts (spec §2.3)", () => {
    const sizes = { ME: 211, AO: 150, Temp: 396, Ctx: 388, Contr: 377 };
    let rows = 0;
    for (const table of SUBTLEMEMORY_REPORTED.filter((t) => t.id === "subtlememory-main")) {
      for (const row of table.rows) {
        const count = (k: keyof typeof sizes) => Math.round(((row.cells[k] as number) * sizes[k]) / 100);
        const s = scores([
          { type: "complementary", subtype: "Multi-evidence", total: sizes.ME, correct: (i) => i < count("ME") },
          { type: "complementary", subtype: "Any-one", total: sizes.AO, correct: (i) => i < count("AO") },
          { type: "nuanced", subtype: "Temporal", total: sizes.Temp, correct: (i) => i < count("Temp") },
          { type: "nuanced", subtype: "Contextual", total: sizes.Ctx, correct: (i) => i < count("Ctx") },
          { type: "contradictory", subtype: "Contradictory", total: sizes.Contr, correct: (i) => i < count("Contr") },
        ]);
        const { cells, n } = paperCells(s);
        for (const c of PAPER_COLUMNS)
          assert.equal(round2(cells[c]), row.cells[c], `${table.source} ${row.system} ${c}`);
        assert.equal(n.All, 1522);
        rows++;
      }
    }
    assert.equal(rows, 35);
  });

  it("Mem0 / gpt-5.4 is 129+92 | 322+333 | 174 = 1050 of 1522", () => {
    const mem0 = subtlememoryTable1Gpt54.rows.find((r) => r.system === "Mem0")!;
    const s = scores([
      { type: "complementary", subtype: "Multi-evidence", total: 211, correct: (i) => i < 129 },
      { type: "complementary", subtype: "Any-one", total: 150, correct: (i) => i < 92 },
      { type: "nuanced", subtype: "Temporal", total: 396, correct: (i) => i < 322 },
      { type: "nuanced", subtype: "Contextual", total: 388, correct: (i) => i < 333 },
      { type: "contradictory", subtype: "Contradictory", total: 377, correct: (i) => i < 174 },
    ]);
    const tables = subtlememoryScorer.tables!(s, { options: {} });
    const main = tables.find((t) => t.id === "subtlememory-main")!;
    assert.deepEqual(main.columns, ["ME", "AO", "Comp", "Temp", "Ctx", "Nu", "Contr", "All"]);
    assert.equal(main.rows[0]!.label, "sys");
    for (const c of PAPER_COLUMNS) assert.equal(round2(main.rows[0]!.cells[c]), mem0.cells[c], c);
    assert.equal(main.rows[0]!.cells.All, (100 * 1050) / 1522);
    const bySource = tables.find((t) => t.id === "subtlememory-by-source")!;
    assert.deepEqual(
      bySource.rows.map((r) => [r.label, r.n?.All]),
      [
        ["user-related", 760],
        ["user-unrelated", 762],
      ],
    );
  });

  it("reproduces the Figure 3 waterfall of every system with intersection semantics (spec §6.3)", () => {
    // Oracle with gpt-5.4 answers 299 / 742 / 259 of 361 / 784 / 377 (Table 1a: 82.83, 94.64, 68.70).
    const types = [
      { type: "complementary", total: 361, sO: 299 },
      { type: "nuanced", total: 784, sO: 742 },
      { type: "contradictory", total: 377, sO: 259 },
    ];
    for (const row of subtlememoryWaterfall.rows) {
      const sP = types.map((t) => Math.round(((row.cells[`p_preserve_${t.type}`] as number) * t.sO) / 100));
      const sD = types.map((t, k) => Math.round(((row.cells[`p_retrieve_${t.type}`] as number) * sP[k]!) / 100));
      const build = (setting: Setting, correct: (k: number, i: number) => boolean) =>
        types.flatMap((t, k) =>
          scores([{ type: t.type, subtype: t.type, total: t.total, correct: (i) => correct(k, i) }], setting),
        );
      // Outside the chain the later settings are right too: only the intersection may count.
      const bySetting = {
        oracle: build("oracle", (k, i) => i < types[k]!.sO),
        perfect: build("perfect", (k, i) => i < sP[k]! || i >= types[k]!.sO),
        default: build("default", (k, i) => i < sD[k]! || i >= sP[k]!),
      };
      const out = subtlememoryScorer.crossSetting!(bySetting);
      for (const col of WATERFALL_COLUMNS)
        assert.equal(round2(100 * out[col]!), row.cells[col], `${row.system} ${col}`);
      assert.equal(out.waterfall_s_o, 1300);
      assert.equal(out.waterfall_s_p, sP[0]! + sP[1]! + sP[2]!);
      assert.equal(out.waterfall_n, 1522);
    }
  });

  it("leaves questions missing from a setting out of the chain and omits undefined ratios", () => {
    const mk = (setting: Setting, ids: string[], correct: string[]) =>
      ids.map((id) => ({
        system: "s",
        setting,
        episodeId: "e",
        probeId: id,
        labels: { relation_type: "nuanced" },
        metrics: { accuracy: correct.includes(id) ? 1 : 0 },
        verdicts: [],
        judgeFailures: 0,
      }));
    const w = waterfall({
      oracle: mk("oracle", ["a", "b", "c"], ["a", "b", "c"]),
      // c was not scored under perfect retrieval: it leaves the chain instead of failing it.
      perfect: mk("perfect", ["a", "b"], ["a"]),
      default: mk("default", ["a", "b", "c"], ["b"]),
    });
    assert.deepEqual(w, { n: 2, sO: 2, sP: 1, sD: 0, pPreserve: 0.5, pRetrieve: 0 });
    assert.deepEqual(subtlememoryScorer.crossSetting!({ default: mk("default", ["a"], ["a"]) }), {});
  });
});

const sample = sharedDataset("subtlememory/persona_7");

describe("SubtleMemory scoring on the persona_7 sample", () => {
  it("renders every judge prompt, bypasses every reference answer and counts the paper's columns", {
    skip: skipUnless(sample),
  }, async () => {
    const data = await loadDataset("subtlememory", sample!, { strict: true });
    const ep = data.episodes[0]!;
    const prompts = new PromptSet();
    for (const p of ep.probes) {
      const keys = guidanceKeys(p);
      assert.ok(!Object.values(keys).includes("default"), `${p.id}: ${JSON.stringify(keys)}`);
      const vars = judgeVars({ record: probeRecord(episode, p, {}), probe: p, episode: ep }, "answer", prompts);
      const text = prompts.render("subtlememory", "judge", vars).text;
      assert.doesNotMatch(text, /\{\{/, p.id);
      assert.equal(vars.persona_context_block !== "", p.labels.source === "user-related", p.id);
    }
    // A judge with no rules: any call would fail, so zero failures means every answer was bypassed.
    const ctx = judges(script([]), ["judge-a"]);
    const run = async (pick: (p: Probe) => string, setting: Setting) =>
      Promise.all(
        ep.probes.map(async (p) => ({
          ...(await subtlememoryScorer.scoreProbe(
            { record: probeRecord(episode, p, { answer: pick(p) }), probe: p, episode: ep },
            ctx,
          )),
          system: "s",
          setting,
          episodeId: ep.id,
          probeId: p.id,
          labels: p.labels,
        })),
      );
    const right = await run((p) => p.gold.answers[0]!, "default");
    const wrong = await run((p) => p.gold.wrongAnswers[0]!, "default");
    for (const s of [...right, ...wrong]) assert.equal(s.verdicts.length + s.judgeFailures, 0, s.probeId);
    const counts = { ME: 8, AO: 7, Comp: 15, Temp: 20, Ctx: 12, Nu: 32, Contr: 17, All: 64 };
    const r = paperCells(right);
    const w = paperCells(wrong);
    assert.deepEqual(r.n, counts);
    assert.deepEqual(w.n, counts);
    for (const c of PAPER_COLUMNS) {
      assert.equal(r.cells[c], 100, c);
      assert.equal(w.cells[c], 0, c);
    }
    const bySource = subtlememoryScorer.tables!(right, { options: {} }).find((t) => t.id === "subtlememory-by-source")!;
    assert.deepEqual(
      bySource.rows.map((x) => [x.label, x.n?.All]),
      [
        ["user-related", 30],
        ["user-unrelated", 34],
      ],
    );
  });
});
