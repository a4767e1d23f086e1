/**
 * Judge agreement from a scored run: the LoCoMo fixture answered by a scripted
 * model and judged (J) by three scripted judges that disagree, in two settings.
 * The κ values below are worked out by hand from the votes in VOTES.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { judgeLabels, runJudgeAgreement, sampleMajority, verdictLabels } from "../../src/run/run-labels.ts";
import { startRun } from "../../src/run/runner.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import { judgeAgreement, pairwiseAgreement } from "../../src/score/agreement.ts";
import type { VerdictRecord } from "../../src/score/judge.ts";
import { fixture } from "../support/shared-data.ts";

// The fixture's seven questions of categories 1–4 (J judges only those) and the three
// judges' votes on each answer: T = correct, F = wrong, ? = a reply that is not JSON.
const VOTES: Array<[question: string, answer: string, votes: string]> = [
  ["What is the name of Ada's cat", "Pepper the cat", "TTT"],
  ["Where did Bram move", "He moved to Utrecht.", "TTF"],
  ["How long did Cas take", "two hours, four minutes", "TTT"],
  ["What course did Noor sign up for", "She signed up for a night pottery course", "TFT"],
  ["When did Tobias win the spring regatta", "In 2021.", "TF?"],
  ["What did Noor make and who received it", "She made a teapot for her grandma", "FFF"],
  ["Would Tobias enjoy a sailing holiday", "Likely yes", "FTF"],
];
const ADVERSARIAL: Array<[string, string]> = [
  ["What did Dina run", "Not mentioned in the conversation."],
  ["What colour did Tobias choose for his boat", "Blue"],
  ["Did Noor mix the glaze herself", "No information available."],
];
const JUDGES = ["judge-a", "judge-b", "judge-c"];

// By hand. Default setting, all seven items (c's "?" on item 5 leaves it out of c's pairs):
//   a = T T T T T F F (T 5, F 2)   b = T T T F F F T (T 4, F 3)
//   a–b: n 7, agree on 1 2 3 6 → po 4/7; pe = (5·4 + 2·3)/49 = 26/49; κ = (28−26)/(49−26) = 2/23
//   a–c over 1 2 3 4 6 7: a T T T T F F, c T F T T F F → po 5/6; pe = (4·3 + 2·3)/36 = 1/2; κ = 2/3
//   b–c over 1 2 3 4 6 7: b T T T F F T, c T F T T F F → po 3/6; pe = (4·3 + 2·3)/36 = 1/2; κ = 0
// Oracle setting: item 7 is skipped there (its gold session is not ingested when it fires):
//   a = T T T T T F (T 5, F 1)   b = T T T F F F (T 3, F 3)
//   a–b: n 6, po 4/6; pe = (5·3 + 1·3)/36 = 1/2; κ = 1/3
//   a–c over 1 2 3 4 6: a T T T T F, c T F T T F → po 4/5; pe = (4·3 + 1·2)/25 = 14/25; κ = 6/11
//   b–c over 1 2 3 4 6: b T T T F F, c T F T T F → po 3/5; pe = (3·3 + 2·2)/25 = 13/25; κ = 2/12 = 1/6
const EXPECTED = [
  { group: "none/default", a: "judge-a", b: "judge-b", n: 7, agreement: 4 / 7, kappa: 2 / 23 },
  { group: "none/default", a: "judge-a", b: "judge-c", n: 6, agreement: 5 / 6, kappa: 2 / 3 },
  { group: "none/default", a: "judge-b", b: "judge-c", n: 6, agreement: 3 / 6, kappa: 0 },
  { group: "none/oracle", a: "judge-a", b: "judge-b", n: 6, agreement: 4 / 6, kappa: 1 / 3 },
  { group: "none/oracle", a: "judge-a", b: "judge-c", n: 5, agreement: 4 / 5, kappa: 6 / 11 },
  { group: "none/oracle", a: "judge-b", b: "judge-c", n: 5, agreement: 3 / 5, kappa: 1 / 6 },
];

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function script(): string {
  const rules: object[] = [];
  for (const [q, answer] of [...VOTES, ...ADVERSARIAL])
    rules.push({ role: "answerer", match: `Question: ${q}`, reply: answer });
  for (const [, answer, votes] of VOTES) {
    JUDGES.forEach((model, i) => {
      const v = votes[i];
      const reply = v === "?" ? "probably correct, I think" : { correct: v === "T", reason: `${model} says ${v}` };
      rules.push({ role: "judge", model, match: `System's answer: ${escapeRegex(answer)}\\n`, reply });
    });
  }
  return `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`;
}

const close = (actual: number, expected: number, what: string) =>
  assert.ok(Math.abs(actual - expected) < 1e-12, `${what}: ${actual} ≉ ${expected}`);

describe("judge agreement from a scored run", () => {
  const tmp = mkdtempSync(join(tmpdir(), "mb-agree-"));
  const llm = join(tmp, "script.jsonl");
  let dir = "";

  before(async () => {
    writeFileSync(llm, script());
    const outcome = await startRun({
      benchmark: "locomo",
      data: fixture("locomo"),
      systems: ["none"],
      settings: ["default", "oracle"],
      out: tmp,
      id: "run",
      llm: `scripted:${llm}`,
      progress: false,
      scoring: { judges: JUDGES, options: { j: "on" } },
    });
    assert.equal(outcome.failedUnits, 0);
    dir = outcome.dir;
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("gives pairwise κ, n and agreement per system/setting, as computed by hand", () => {
    const result = runJudgeAgreement(dir);
    assert.deepEqual(
      result.rows.map((r) => [r.group, r.a, r.b, r.n]),
      EXPECTED.map((e) => [e.group, e.a, e.b, e.n]),
    );
    for (const [i, row] of result.rows.entries()) {
      const want = EXPECTED[i]!;
      close(row.kappa, want.kappa, `${row.group} ${row.a}–${row.b} κ`);
      close(row.agreement, want.agreement, `${row.group} ${row.a}–${row.b} agreement`);
    }
    // One item per judged probe and verdict field, named after both: 7 + 6.
    assert.equal(result.table.items.length, 13);
    assert.match(result.table.items[0]!.id, /\/correct$/);
    // The malformed verdict of judge-c, once per setting, gives no label.
    assert.deepEqual(result.failed, { "judge-c": 2 });
    assert.deepEqual(result.tied, {});
  });

  it("writes a CSV that the CSV form reads back to the same κ", () => {
    const csv = join(tmp, "labels.csv");
    const fromRun = runJudgeAgreement(dir, { csv }).rows;
    const text = readFileSync(csv, "utf8");
    assert.match(text, /^id,group,judge-a,judge-b,judge-c\n/);
    assert.equal(text.trim().split("\n").length, 1 + 13);
    assert.deepEqual(judgeAgreement(csv), fromRun);
  });

  it("refuses a run without verdicts and one with a single judge", async () => {
    const noJudge = join(tmp, "no-j.jsonl");
    writeFileSync(noJudge, script());
    // LoCoMo's default scoring (F1) calls no judge.
    await scoreRun(dir, { judgeLlm: `scripted:${noJudge}`, judges: JUDGES });
    assert.throws(() => runJudgeAgreement(dir), /has no judge verdicts.*--judges a,b/);
    await scoreRun(dir, { judgeLlm: `scripted:${noJudge}`, judges: ["judge-a"], options: { j: "on" } });
    assert.throws(() => runJudgeAgreement(dir), /only one judge \(judge-a\) gave verdicts/);
  });
});

describe("judge labels from verdicts", () => {
  const verdict = (judge: string, sample: number, value: unknown, part?: string): VerdictRecord => ({
    judge,
    sample,
    template: "t",
    templateHash: "h",
    promptSet: "membench",
    ok: value !== undefined,
    ...(value !== undefined ? { value } : { failure: "not JSON" }),
    ...(part !== undefined ? { part } : {}),
  });
  const score = (probeId: string, verdicts: VerdictRecord[]) => ({
    system: "bm25",
    setting: "default" as const,
    episodeId: "e1",
    probeId,
    verdicts,
  });
  const yes = { answer: "yes", reason: "r" };
  const no = { answer: "no", reason: "r" };

  it("takes each judge's majority over its samples; a tie or all-failed gives no label", () => {
    const { table, failed, tied } = judgeLabels([
      score("p1", [
        verdict("a", 0, yes, "criterion:0"),
        verdict("a", 1, no, "criterion:0"),
        verdict("a", 2, yes, "criterion:0"), // a: yes 2–1
        verdict("b", 0, no, "criterion:0"),
        verdict("b", 1, undefined, "criterion:0"),
        verdict("b", 2, no, "criterion:0"), // b: no (one failure)
        verdict("a", 0, yes, "criterion:1"),
        verdict("a", 1, no, "criterion:1"),
        verdict("a", 2, undefined, "criterion:1"), // a: 1–1 tie
        verdict("b", 0, no, "criterion:1"),
        verdict("b", 1, no, "criterion:1"),
        verdict("b", 2, no, "criterion:1"),
      ]),
    ]);
    assert.deepEqual(table.raters, ["a", "b"]);
    assert.deepEqual(table.items, [
      { id: "e1/p1/criterion:0/answer", group: "bm25/default", labels: ["yes", "no"] },
      { id: "e1/p1/criterion:1/answer", group: "bm25/default", labels: [undefined, "no"] },
    ]);
    assert.deepEqual(failed, { a: 1, b: 1 });
    assert.deepEqual(tied, { a: 1 });
    assert.equal(sampleMajority(["x", "y", "x"]), "x");
    assert.equal(sampleMajority(["x", "y"]), undefined);
    assert.equal(sampleMajority([]), undefined);
  });

  it("labels each field of a many-field verdict apart, arrays order-free", () => {
    assert.deepEqual(verdictLabels({ hits: [3, 1], recall: 0.5, helpful: 2, reason: "r" }), [
      ["hits", "[1,3]"],
      ["recall", "0.5"],
      ["helpful", "2"],
    ]);
    assert.deepEqual(verdictLabels({ correct: false, reason: "r" }), [["correct", "false"]]);
    // Two judges on two fields of one RealMem memory verdict: helpful agrees, hits do not.
    const { table } = judgeLabels([
      score("q", [
        verdict("a", 0, { hits: [1, 2], recall: 1, helpful: 2, reason: "" }, "memory"),
        verdict("b", 0, { hits: [2], recall: 0.5, helpful: 2, reason: "" }, "memory"),
      ]),
    ]);
    const rows = pairwiseAgreement(table);
    assert.deepEqual(
      table.items.map((i) => [i.id, ...i.labels]),
      [
        ["e1/q/memory/hits", "[1,2]", "[2]"],
        ["e1/q/memory/recall", "1", "0.5"],
        ["e1/q/memory/helpful", "2", "2"],
      ],
    );
    assert.equal(rows[0]!.n, 3);
    assert.equal(rows[0]!.agreement, 1 / 3);
  });
});
