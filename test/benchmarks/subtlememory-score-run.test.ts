/**
 * End to end on the SubtleMemory fixture: a scripted answerer answers in all
 * three settings (it can tell them apart by the context it is shown), a
 * scripted judge grades what the exact-match bypass leaves open, and every
 * metric of summary.json is checked against values worked out by hand below.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import { fixture } from "../support/shared-data.ts";

// The full-context system shows every session by default; perfect retrieval reads back only the
// question's gold sessions; the oracle shows them as "[session …]" transcripts. Two texts from
// different cases appear together only in the default context.
const ORACLE = "\\[session [\\s\\S]*";
const DEFAULT = "^(?=[\\s\\S]*Tollund Glass Museum opens at 9)(?=[\\s\\S]*Korvia harbour ferry before)[\\s\\S]*";
const Q = {
  A: "Question: Fill the seed order card", // complementary / Multi-evidence / user-related / Gardening
  B: "Question: What kind of vessel crosses Korvia harbour", // complementary / Any-one / unrelated / Transport
  C: "Question: How much was a single ferry crossing", // nuanced / Temporal / unrelated / Transport
  D: "Question: How much is a single ferry crossing", // nuanced / Temporal / unrelated / Transport
  E: "Question: Fill the home feeding card", // nuanced / Contextual / user-related / Gardening
  F: "Question: Fill the allotment feeding card", // nuanced / Contextual / user-related / Gardening
  G: "Question: Fill the watering card", // contradictory / user-related / Gardening
  H: "Question: When does the Tollund Glass Museum open", // contradictory (b_user_vs_non_user) / unrelated / Museums
};

// Answers by setting; ✓/✗ is the verdict, "=" an exact (bypass) match of a reference, "J" a judge call.
const ANSWERS: Record<keyof typeof Q, { oracle: string; perfect: string; default: string }> = {
  // oracle ✓= (case and spacing differ) | perfect ✓J | default ✗J
  A: {
    oracle: "variety:  heirloom yellow pear cherry;  WHY: copes with morning sun and is heirloom",
    perfect: "Heirloom yellow pear cherry; suits morning-only sun",
    default: "Yellow pear heirloom cherry",
  },
  B: { oracle: "A ferry", perfect: "A bridge", default: "The ferry" }, // ✓= | ✗= | ✓=
  C: { oracle: "3 crowns", perfect: "3 crowns", default: "3 crowns" }, // ✓= | ✓= | ✓=
  D: { oracle: "4 crowns", perfect: "3 crowns", default: "4 crowns" }, // ✓= | ✗= | ✓=
  E: { oracle: "Feed: own compost", perfect: "Feed: own compost", default: "Feed: own compost" }, // ✓= ✓= ✓=
  F: {
    oracle: "Feed: own compost", // ✗=
    perfect: "Feed: the association's supplied feed", // ✓=
    default: "Feed: own compost", // ✗=
  },
  G: {
    oracle: "Time: needs confirmation, dawn vs after sunset", // ✓J
    perfect: "Time: dawn", // ✗=
    default: "Time: needs confirmation - dawn or after sunset", // ✓=
  },
  H: { oracle: "10", perfect: "It is unclear: 9 or 10", default: "9" }, // ✗= | ✓= | ✗=
};

function answererRules(): object[] {
  const rules: object[] = [];
  for (const [setting, prefix] of [
    ["oracle", ORACLE],
    ["default", DEFAULT],
    ["perfect", ""],
  ] as const) {
    for (const [k, q] of Object.entries(Q)) {
      rules.push({ role: "answerer", match: `${prefix}${q}`, reply: ANSWERS[k as keyof typeof Q][setting] });
    }
  }
  return rules;
}

// User-related questions only match when the persona is in the judge prompt.
const PERSONA = "[\\s\\S]*Persona \\(the only profile[\\s\\S]*Ilse Marten";
const judgeRules = [
  {
    role: "judge",
    match: `Answer to grade:\\nYellow pear heirloom cherry${PERSONA}`,
    reply: { label: "WRONG", reason: "no reason given" },
  },
  {
    role: "judge",
    match: `Answer to grade:\\nHeirloom yellow pear cherry; suits morning-only sun${PERSONA}`,
    reply: { label: "CORRECT", reason: "both facts" },
  },
  {
    role: "judge",
    match: `Answer to grade:\\nTime: needs confirmation, dawn vs after sunset${PERSONA}`,
    reply: { label: "CORRECT", reason: "keeps the conflict open" },
  },
];

function write(dir: string, name: string, rules: object[]): string {
  const file = join(dir, name);
  writeFileSync(file, rules.map((r) => JSON.stringify(r)).join("\n"));
  return file;
}

const row = (rows: ScoredRow[], system: string, setting: string) =>
  rows.find((r) => r.system === system && r.setting === setting)!;

describe("SubtleMemory scoring end to end on the fixture", () => {
  it("scores all three settings and the waterfall, by hand", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-sm-run-"));
    const llm = write(out, "script.jsonl", [...answererRules(), ...judgeRules]);
    const outcome = await startRun({
      benchmark: "subtlememory",
      data: fixture("subtlememory"),
      systems: ["full-context"],
      settings: ["default", "oracle", "perfect"],
      out,
      id: "run",
      llm: `scripted:${llm}`,
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    const rows = outcome.summary.results as ScoredRow[];
    const oracle = row(rows, "full-context", "oracle");
    const perfect = row(rows, "full-context", "perfect");
    const standard = row(rows, "full-context", "default");

    // Oracle: A B C D E G right, F H wrong. Perfect: A C E F H right. Default: B C D E G right.
    assert.equal(oracle.metrics.accuracy, 6 / 8);
    assert.equal(perfect.metrics.accuracy, 5 / 8);
    assert.equal(standard.metrics.accuracy, 5 / 8);
    // em_any = answer equals an accepted reference: default B C D E G; oracle A B C D E (G was judged).
    assert.equal(standard.metrics.em_any, 5 / 8);
    assert.equal(oracle.metrics.em_any, 5 / 8);
    assert.equal(perfect.metrics.em_any, 4 / 8); // C E F H
    // em = the released exact_match, against golden_answer (the first accepted reference) only: default
    // B "The ferry" is the second reference of "A ferry", so C D E G; oracle A B C D E; perfect C E F H.
    assert.equal(standard.metrics.em, 4 / 8);
    assert.equal(oracle.metrics.em, 5 / 8);
    assert.equal(perfect.metrics.em, 4 / 8);
    for (const r of [oracle, perfect, standard]) {
      assert.equal(r.judge_failures, 0);
      assert.ok(!r.skipped.includes("judge"));
      assert.deepEqual(r.judges, ["judge"]);
      assert.equal(r.promptSet, "membench");
    }

    // By label, default setting.
    assert.equal(standard.byLabel.source!["user-related"]!.accuracy, 2 / 4); // A✗ E✓ F✗ G✓
    assert.equal(standard.byLabel.source!["user-unrelated"]!.accuracy, 3 / 4); // B✓ C✓ D✓ H✗
    assert.equal(standard.byLabel.topic!.Gardening!.accuracy, 2 / 4);
    assert.equal(standard.byLabel.topic!.Transport!.accuracy, 1);
    assert.equal(standard.byLabel.topic!.Museums!.accuracy, 0);
    assert.equal(standard.byLabel.relation_type!.complementary!.accuracy, 1 / 2);
    assert.equal(standard.byLabel.relation_type!.nuanced!.accuracy, 3 / 4);
    assert.equal(standard.byLabel.relation_type!.contradictory!.accuracy, 1 / 2);
    assert.equal(standard.byLabel.relation_subtype!.Temporal!.accuracy, 1);

    // The paper's layout, default setting.
    const main = standard.tables!.find((t) => t.id === "subtlememory-main")!;
    assert.deepEqual(main.rows[0]!.cells, {
      ME: 0,
      AO: 100,
      Comp: 50,
      Temp: 100,
      Ctx: 50,
      Nu: 75,
      Contr: 50,
      All: 62.5,
    });
    assert.deepEqual(main.rows[0]!.n, { ME: 1, AO: 1, Comp: 2, Temp: 2, Ctx: 2, Nu: 4, Contr: 2, All: 8 });
    const oracleMain = oracle.tables!.find((t) => t.id === "subtlememory-main")!;
    assert.equal(oracleMain.rows[0]!.label, "full-context (oracle)");
    assert.deepEqual(oracleMain.rows[0]!.cells, {
      ME: 100,
      AO: 100,
      Comp: 100,
      Temp: 100,
      Ctx: 50,
      Nu: 75,
      Contr: 50,
      All: 75,
    });
    const bySource = standard.tables!.find((t) => t.id === "subtlememory-by-source")!;
    assert.deepEqual(
      bySource.rows.map((r) => [r.label, r.cells.All]),
      [
        ["user-related", 50],
        ["user-unrelated", 75],
      ],
    );
    const byTopic = standard.tables!.find((t) => t.id === "subtlememory-by-topic")!;
    assert.deepEqual(
      byTopic.rows.map((r) => [r.label, r.cells.All, r.cells.Contr]),
      [
        ["Gardening", 50, 100],
        ["Museums", 0, 0],
        ["Transport", 100, null],
      ],
    );

    // Waterfall: S_O = {A,B,C,D,E,G}, S_P = S_O ∩ {A,C,E,F,H} = {A,C,E}, S_D = S_P ∩ {B,C,D,E,G} = {C,E}.
    assert.equal(standard.metrics.waterfall_n, 8);
    assert.equal(standard.metrics.waterfall_s_o, 6);
    assert.equal(standard.metrics.waterfall_s_p, 3);
    assert.equal(standard.metrics.waterfall_s_d, 2);
    assert.equal(standard.metrics.p_preserve, 3 / 6);
    assert.equal(standard.metrics.p_retrieve, 2 / 3);
    // complementary: S_O {A,B}, S_P {A}, S_D {} · nuanced: {C,D,E}, {C,E}, {C,E} · contradictory: {G}, {}, –
    assert.equal(standard.metrics.p_preserve_complementary, 1 / 2);
    assert.equal(standard.metrics.p_retrieve_complementary, 0);
    assert.equal(standard.metrics.p_preserve_nuanced, 2 / 3);
    assert.equal(standard.metrics.p_retrieve_nuanced, 1);
    assert.equal(standard.metrics.p_preserve_contradictory, 0);
    assert.equal("p_retrieve_contradictory" in standard.metrics, false);
    assert.equal("p_preserve" in oracle.metrics, false);

    // Re-scored by three named judges that split 2:1 on A's default answer, and by two that tie.
    const split = write(out, "judges.jsonl", [
      {
        role: "judge",
        model: "judge-a",
        match: "Answer to grade:\\nYellow pear heirloom cherry",
        reply: { label: "CORRECT", reason: "a" },
      },
      {
        role: "judge",
        model: "judge-c",
        match: "Answer to grade:\\nYellow pear heirloom cherry",
        reply: { label: "CORRECT", reason: "c" },
      },
      ...judgeRules,
    ]);
    const three = await scoreRun(join(out, "run"), {
      judgeLlm: `scripted:${split}`,
      judges: ["judge-a", "judge-b", "judge-c"],
    });
    const rescored = row(three.summary.results as ScoredRow[], "full-context", "default");
    assert.deepEqual(rescored.judges, ["judge-a", "judge-b", "judge-c"]);
    assert.equal(rescored.metrics.accuracy, 6 / 8);
    assert.equal(rescored.metrics.p_retrieve, 3 / 3); // A joins S_D
    const aScore = three.scores.find((s) => s.setting === "default" && s.probeId === "related-0a01:qa0")!;
    assert.equal(aScore.verdicts.length, 3);
    const two = await scoreRun(join(out, "run"), { judgeLlm: `scripted:${split}`, judges: ["judge-a", "judge-b"] });
    assert.equal(row(two.summary.results as ScoredRow[], "full-context", "default").metrics.accuracy, 5 / 8);
  });

  it("a judge that cannot answer counts WRONG; with no model nothing is scored", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-sm-run-"));
    const llm = write(out, "answers.jsonl", answererRules());
    const outcome = await startRun({
      benchmark: "subtlememory",
      data: fixture("subtlememory"),
      systems: ["full-context"],
      settings: ["default"],
      out,
      id: "run",
      llm: `scripted:${llm}`,
      progress: false,
    });
    // The answerer's script has no judge rule: every judged probe fails to parse and counts WRONG.
    const judged = row(outcome.summary.results as ScoredRow[], "full-context", "default");
    assert.equal(judged.judge_failures, 1); // only A's default answer needs a judge
    assert.equal(judged.metrics.accuracy, 5 / 8);
    // No answers at all: nothing is scored, and the rows say why.
    const bare = await startRun({
      benchmark: "subtlememory",
      data: fixture("subtlememory"),
      systems: ["none"],
      settings: ["default"],
      out,
      id: "bare",
      progress: false,
    });
    const r = row(bare.summary.results as ScoredRow[], "none", "default");
    assert.equal("accuracy" in r.metrics, false);
    assert.equal("em" in r.metrics, false);
    assert.equal("em_any" in r.metrics, false);
    assert.ok(r.skipped.includes("answer"));
    assert.ok(r.skipped.includes("judge"));
  });
});
