import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { releasedReading } from "../../src/benchmarks/memora/judge-reply.ts";
import { loadMemora } from "../../src/benchmarks/memora/load.ts";
import {
  memoraTable3,
  memoraTable4,
  memoraTable5,
  TABLE3_COLUMNS,
  TABLE5_COLUMNS,
} from "../../src/benchmarks/memora/paper.ts";
import { criterionSatisfied, criterionVote, famaScore, memoraScorer } from "../../src/benchmarks/memora/score.ts";
import { ConfigError } from "../../src/core/errors.ts";
import { type Episode, Probe, type ProbeInput } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import type { JudgeContext, VerdictRecord } from "../../src/score/judge.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import type { ProbeScore, ScoreContext } from "../../src/score/types.ts";
import { probeRecord } from "../support/scoring.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

const close = (actual: number | null | undefined, expected: number, eps = 1e-9) =>
  assert.ok(actual !== null && actual !== undefined && Math.abs(actual - expected) < eps, `${actual} ≉ ${expected}`);

describe("famaScore (spec §6.1)", () => {
  it("reproduces the Appendix D remembering example (N_p 1, N_f 2, λ 2/3)", () => {
    const p = (satisfied: number) => ({ satisfied, total: 1 });
    const f = (satisfied: number) => ({ satisfied, total: 2 });
    // Only the valid task; plus one deleted task; all three; only the two deleted ones.
    close(famaScore(p(1), f(2)).fama, 1);
    close(famaScore(p(1), f(1)).fama, 1 - (2 / 3) * 0.5);
    close(famaScore(p(1), f(0)).fama, 1 / 3);
    assert.equal(famaScore(p(0), f(0)).fama, 0);
    close(famaScore(p(1), f(1)).lambda, 2 / 3);
  });

  it("takes FAA as 1 and λ as 0 without forgetting criteria, so FAMA = MPA", () => {
    const s = famaScore({ satisfied: 2, total: 3 }, { satisfied: 0, total: 0 });
    assert.deepEqual(s, { mpa: 2 / 3, faa: 1, lambda: 0, fama: 2 / 3 });
  });

  it("scores 0 without presence criteria, however well forgetting went", () => {
    assert.deepEqual(famaScore({ satisfied: 0, total: 0 }, { satisfied: 2, total: 2 }), {
      mpa: 0,
      faa: 1,
      lambda: 1,
      fama: 0,
    });
    assert.deepEqual(famaScore({ satisfied: 0, total: 0 }, { satisfied: 0, total: 0 }), {
      mpa: 0,
      faa: 1,
      lambda: 0,
      fama: 0,
    });
  });

  it("computes a mixed case by hand: 3 of 4 present, 1 of 3 forgotten", () => {
    const s = famaScore({ satisfied: 3, total: 4 }, { satisfied: 1, total: 3 });
    close(s.mpa, 0.75);
    close(s.faa, 1 / 3);
    close(s.lambda, 3 / 7);
    // 0.75 − (3/7)(2/3) = 0.75 − 2/7
    close(s.fama, 0.75 - 2 / 7);
    close(s.fama, 0.4642857142857143);
  });

  it("clamps at 0 when the penalty exceeds MPA", () => {
    const s = famaScore({ satisfied: 1, total: 4 }, { satisfied: 0, total: 4 });
    // 0.25 − 0.5 · 1 < 0
    assert.equal(s.fama, 0);
    assert.equal(s.mpa, 0.25);
  });
});

function verdict(
  answer: "yes" | "no" | undefined,
  judge = "j",
): VerdictRecord & { value?: { answer: "yes" | "no"; reason: string } } {
  const base = { judge, sample: 0, template: "memora/criterion", templateHash: "h", promptSet: "membench" };
  return answer ? { ...base, ok: true, value: { answer, reason: "" } } : { ...base, ok: false, failure: "unparseable" };
}

describe("criterionSatisfied (majority of judges)", () => {
  it("needs a strict majority for the expected answer; a tie fails", () => {
    assert.equal(criterionSatisfied([verdict("yes"), verdict("yes"), verdict("no")], "yes"), true);
    assert.equal(criterionSatisfied([verdict("yes"), verdict("no"), verdict("no")], "yes"), false);
    assert.equal(criterionSatisfied([verdict("no"), verdict("no"), verdict("yes")], "no"), true);
    assert.equal(criterionSatisfied([verdict("yes"), verdict("no")], "yes"), false);
    assert.equal(criterionSatisfied([verdict("no"), verdict("yes")], "no"), false);
  });

  it("never lets a failed verdict vote for the expected answer, even when it is 'no'", () => {
    assert.equal(criterionSatisfied([verdict(undefined)], "no"), false);
    assert.equal(criterionSatisfied([verdict(undefined)], "yes"), false);
    // Counted as "not met": no, failed, yes → 1 of 3.
    assert.equal(criterionSatisfied([verdict("no"), verdict(undefined), verdict("yes")], "no"), false);
    assert.equal(criterionSatisfied([verdict("no"), verdict("no"), verdict(undefined)], "no"), true);
    assert.equal(criterionSatisfied([], "no"), false);
  });

  it("with failed_verdicts=drop leaves every failure out, unparsable replies included", () => {
    assert.equal(criterionSatisfied([verdict("no"), verdict(undefined), verdict(undefined)], "no", "drop"), true);
    assert.equal(criterionSatisfied([verdict("no"), verdict(undefined), verdict(undefined)], "no", "worst"), false);
    assert.equal(criterionSatisfied([verdict(undefined), verdict(undefined)], "no", "drop"), false);
    assert.equal(criterionSatisfied([verdict("no"), verdict(undefined), verdict("yes")], "no", "drop"), false);
  });
});

describe("releasedReading: the released evaluator's parse of one judge reply (failed_verdicts=code)", () => {
  const cases: Array<[string, string, ReturnType<typeof releasedReading>]> = [
    ["a JSON verdict", '{"answer": "yes", "confidence": 0.9, "explanation": "listed"}', "yes"],
    ["answer case and spaces", '{"answer": " No ", "explanation": "absent"}', "no"],
    ["a fenced verdict", '```json\n{"answer": "no", "explanation": "x"}\n```', "no"],
    [
      "an answer that is not yes/no, inferred from the explanation",
      '{"answer": "partly", "explanation": "Yes, listed"}',
      "yes",
    ],
    // "not" holds "no": a plain substring test, as released.
    ["the substring 'no' inside 'not'", '{"answer": "maybe", "explanation": "It is not listed"}', "no"],
    ["both words in the explanation", '{"answer": "maybe", "explanation": "Yes and no"}', "unclear"],
    ["neither word in the explanation", '{"answer": "", "explanation": "Hard to say"}', "unclear"],
    ["a missing answer", '{"explanation": "yes"}', "yes"],
    ["plain text with 'no' only", "No, the response does not mention it.", "no"],
    ["plain text with 'yes' only", "YES - it is there", "yes"],
    ["plain text with both", "Yes it mentions the task but not the date", "unclear"],
    ["'cannot' holds 'no'", "I cannot tell", "no"],
    ["plain text with neither", "I am unsure", "unclear"],
    ["an empty reply", "", "unclear"],
    // json.loads takes the whole reply: a verdict inside prose is read as prose.
    ["JSON after prose", 'Verdict: {"answer": "yes", "explanation": "it is listed"}', "yes"],
    ["JSON after prose holding both words", 'Verdict: {"answer": "yes", "explanation": "no date"}', "unclear"],
    // The released parser raises on these, and the judge is left out.
    ["JSON that is not an object", '["yes"]', "error"],
    ["an answer that is not a string", '{"answer": true}', "error"],
    ["a null answer", '{"answer": null, "explanation": "yes"}', "error"],
    ["a confidence that is not a number", '{"answer": "yes", "confidence": "high"}', "error"],
    ["a null confidence", '{"answer": "yes", "confidence": null}', "error"],
    ["a numeric string confidence is a number", '{"answer": "yes", "confidence": "0.8"}', "yes"],
    ["a non-string explanation, when it is read", '{"answer": "unsure", "explanation": 3}', "error"],
    ["a non-string explanation, when it is not read", '{"answer": "no", "explanation": 3}', "no"],
  ];
  for (const [name, reply, expected] of cases) {
    it(name, () => assert.equal(releasedReading(reply), expected));
  }
});

/** A verdict as `judgeOnce` records it: parsed or not, with the reply text the judge sent. */
function replied(
  reply: string | undefined,
  parsed?: "yes" | "no",
): VerdictRecord & { value?: { answer: "yes" | "no"; reason: string } } {
  const base = { judge: "j", sample: 0, template: "memora/criterion", templateHash: "h", promptSet: "membench" };
  if (parsed)
    return { ...base, ok: true, value: { answer: parsed, reason: "" }, ...(reply === undefined ? {} : { reply }) };
  return reply === undefined
    ? { ...base, ok: false, failure: "HTTP 503 from the endpoint" }
    : { ...base, ok: false, failure: "unusable", reply };
}

describe("criterionSatisfied with failed_verdicts=code (the released evaluator)", () => {
  it("keeps an unparsable reply in the vote, read from its wording", () => {
    const plainNo = replied("No, it does not mention Jules Verne.");
    assert.equal(criterionVote(plainNo, "code"), "no");
    assert.equal(criterionSatisfied([plainNo], "no", "code"), true);
    // membench's own rules count the same reply as a failure.
    assert.equal(criterionSatisfied([plainNo], "no", "worst"), false);
    assert.equal(criterionSatisfied([plainNo], "no", "drop"), false);
  });

  it("leaves out only a judge whose call failed or whose reply the released parser raises on", () => {
    const transport = replied(undefined);
    assert.equal(criterionVote(transport, "code"), undefined);
    assert.equal(criterionSatisfied([replied('{"answer":"yes"}', "yes"), transport], "yes", "code"), true);
    assert.equal(criterionSatisfied([replied('{"answer":"yes"}', "yes"), replied("[1]")], "yes", "code"), true);
    assert.equal(criterionSatisfied([transport, transport], "yes", "code"), false);
  });

  it("counts 'unclear' as a valid vote for neither answer", () => {
    const unclear = replied("Hard to tell from the response.");
    assert.equal(criterionVote(unclear, "code"), "unclear");
    // 1 correct of 2 valid: not a strict majority.
    assert.equal(criterionSatisfied([replied('{"answer":"yes"}', "yes"), unclear], "yes", "code"), false);
    assert.equal(criterionSatisfied([replied('{"answer":"yes"}', "yes"), unclear], "yes", "drop"), true);
    assert.equal(criterionSatisfied([unclear], "no", "code"), false);
  });

  it("reads a usable reply's text, not membench's parse of it", () => {
    // Our parser finds the JSON inside the prose; the released one reads the prose.
    const prose = replied('Verdict: {"answer": "no", "reason": "yes, a deleted item is listed"}', "no");
    assert.equal(criterionVote(prose, "worst"), "no");
    assert.equal(criterionVote(prose, "code"), "unclear");
    // A verdict stored without its reply votes its parsed answer.
    assert.equal(criterionVote(replied(undefined, "yes"), "code"), "yes");
  });
});

const tmp = mkdtempSync(join(tmpdir(), "memora-score-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

let episode: Episode;
const probe = (id: string) => {
  const p = episode.probes.find((x) => x.id === id);
  assert.ok(p, id);
  return p;
};
before(async () => {
  const ds = await loadMemora(fixture("memora"));
  episode = ds.episodes[0]!;
});

const record = (p: Probe, extra: Partial<ProbeRecord>, ep: Episode = episode): ProbeRecord =>
  probeRecord(ep, p, extra, "none");

/** One scripted judge per name, all reading the same rule file. */
function judges(rules: object[], names: string[], runs = 1): JudgeContext {
  const file = join(tmp, `judges-${Math.random().toString(36).slice(2)}.jsonl`);
  writeFileSync(file, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return {
    judges: names.map((name) => ({
      name,
      model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
    })),
    runs,
    prompts: new PromptSet(),
  };
}

const yes = { answer: "yes", reason: "it says so" };
const no = { answer: "no", reason: "it does not" };
// Every repair request after a malformed reply gets another malformed reply.
const repair = { role: "judge", match: "could not be used", reply: "still thinking" };

const ctx = (judge?: JudgeContext, options: Record<string, string> = {}): ScoreContext => ({
  judge,
  options: { failed_verdicts: "worst", ...options },
});

describe("memoraScorer.scoreProbe", () => {
  const bookAnswer = "You might enjoy The Dispossessed by Ursula K. Le Guin.";

  it("judges every criterion against the answer and scores a correct answer 1", async () => {
    const j = judges(
      [
        { role: "judge", match: "Dispossessed[\\s\\S]*preference for Ursula K. Le Guin", reply: yes },
        { role: "judge", match: "Dispossessed[\\s\\S]*preference for Jules Verne", reply: no },
      ],
      ["judge-a"],
    );
    const p = probe("pref_books_general_5");
    const out = await memoraScorer.scoreProbe({ record: record(p, { answer: bookAnswer }), probe: p, episode }, ctx(j));
    assert.deepEqual(out.metrics, { mpa: 1, fama: 1, faa: 1 });
    assert.equal(out.judgeFailures, 0);
    assert.deepEqual(
      out.verdicts.map((v) => [v.judge, v.part, v.ok, (v.value as { answer: string }).answer, v.template]),
      [
        ["judge-a", "criterion:0", true, "yes", "memora/criterion"],
        ["judge-a", "criterion:1", true, "no", "memora/criterion"],
      ],
    );
    assert.equal(out.skipped, undefined);
  });

  it("penalises a recalled obsolete preference by λ", async () => {
    const j = judges([{ role: "judge", match: "Dispossessed", reply: yes }], ["judge-a"]);
    const p = probe("pref_books_general_5");
    const out = await memoraScorer.scoreProbe({ record: record(p, { answer: bookAnswer }), probe: p, episode }, ctx(j));
    // Presence met, forgetting broken: 1 − ½·1.
    assert.deepEqual(out.metrics, { mpa: 1, fama: 0.5, faa: 0 });
  });

  it("counts a malformed verdict as a failure and never as a satisfied 'no'", async () => {
    const j = judges(
      [
        repair,
        { role: "judge", match: "preference for Ursula", reply: yes },
        { role: "judge", match: "preference for Jules Verne", reply: "NO, it does not mention him" },
      ],
      ["judge-a"],
    );
    const p = probe("pref_books_general_5");
    const out = await memoraScorer.scoreProbe({ record: record(p, { answer: bookAnswer }), probe: p, episode }, ctx(j));
    assert.deepEqual(out.metrics, { mpa: 1, fama: 0.5, faa: 0 });
    assert.equal(out.judgeFailures, 1);
    const failed = out.verdicts.find((v) => !v.ok);
    assert.equal(failed?.part, "criterion:1");
    assert.match(failed?.failure ?? "", /unusable after one repair/);
  });

  it("fails a verdict whose JSON does not fit the schema", async () => {
    const j = judges(
      [
        repair,
        { role: "judge", match: "UNDER BUDGET", reply: { answer: "unclear", reason: "?" } },
        { role: "judge", reply: yes },
      ],
      ["judge-a"],
    );
    const p = probe("goal_food_expenses_coffee_5_0");
    const answer = "Your coffee budget is $25 and you spent $4.25.";
    const out = await memoraScorer.scoreProbe({ record: record(p, { answer }), probe: p, episode }, ctx(j));
    // 2 of 3 presence criteria; a reasoning question has no forgetting criteria, so FAMA = MPA.
    close(out.metrics.mpa, 2 / 3);
    close(out.metrics.fama, 2 / 3);
    assert.equal(out.metrics.faa, undefined);
    assert.match(out.skipped?.faa ?? "", /no forgetting criteria/);
    assert.equal(out.judgeFailures, 1);
  });

  it("failed_verdicts=code keeps a non-JSON reply in the vote, as the released code does (drop does not)", async () => {
    // One judge answers the forgetting criterion in prose. The released parser reads "no" from it: the
    // criterion is met and FAMA is 1. Dropping the reply (`drop`) or counting it as "not met"
    // (`worst`) both give 1 − ½·1 = 0.5: the gap the issue measured as FAMA 17.73 → 21.63.
    const rules = [
      { role: "judge", match: "preference for Ursula", reply: yes },
      { role: "judge", match: "preference for Jules Verne", reply: "No, it does not mention him." },
    ];
    const p = probe("pref_books_general_5");
    const score = (failed: string) =>
      memoraScorer.scoreProbe(
        { record: record(p, { answer: bookAnswer }), probe: p, episode },
        ctx(judges(rules, ["judge-a"]), { failed_verdicts: failed }),
      );
    const code = await score("code");
    assert.deepEqual(code.metrics, { mpa: 1, fama: 1, faa: 1 });
    assert.equal(code.judgeFailures, 1, "still a verdict membench could not parse");
    const failed = code.verdicts.find((v) => !v.ok);
    assert.equal(failed?.reply, "No, it does not mention him.");
    assert.match(failed?.failure ?? "", /no repair asked/, "one reply per call, as the released code reads it");
    assert.ok(
      code.verdicts.every((v) => typeof v.reply === "string"),
      "every reply is kept for the released reading",
    );
    assert.deepEqual((await score("drop")).metrics, { mpa: 1, fama: 0.5, faa: 0 });
    assert.deepEqual((await score("worst")).metrics, { mpa: 1, fama: 0.5, faa: 0 });
  });

  it("failed_verdicts=code leaves out a judge whose call failed, and the others decide", async () => {
    // judge-b has no rule, so each of its calls fails before any reply.
    const rules = [
      { role: "judge", model: "judge-a", match: "preference for Ursula", reply: yes },
      { role: "judge", model: "judge-a", match: "preference for Jules Verne", reply: "It is not mentioned" },
      { role: "judge", model: "judge-c", reply: '{"answer": "maybe", "explanation": "no sign of it"}' },
    ];
    const p = probe("pref_books_general_5");
    const out = await memoraScorer.scoreProbe(
      { record: record(p, { answer: bookAnswer }), probe: p, episode },
      ctx(judges(rules, ["judge-a", "judge-b", "judge-c"]), { failed_verdicts: "code" }),
    );
    // Le Guin: a yes, c "no" (from "no sign") → 1 of 2, not met. Verne: a "no", c "no" → met.
    assert.deepEqual(out.metrics, { mpa: 0, fama: 0, faa: 1 });
    const b = out.verdicts.filter((v) => v.judge === "judge-b");
    assert.equal(b.length, 2);
    assert.ok(b.every((v) => !v.ok && v.reply === undefined));
  });

  it("says how failed verdicts were counted under each option", () => {
    const rule = (failed: string) => memoraScorer.failedVerdictRule?.({ failed_verdicts: failed });
    assert.equal(rule("worst"), "scored as the worst outcome");
    assert.match(rule("drop") ?? "", /^left out of the vote/);
    assert.match(rule("code") ?? "", /call failed.*read as the released code reads them/);
  });

  it("votes over judges × samples", async () => {
    // Sample 0 and sample 1 of one judge are the same script, so use two judges and two runs: 4 votes.
    const j = judges(
      [
        { role: "judge", model: "judge-a", match: "Dispossessed", reply: yes },
        { role: "judge", model: "judge-b", reply: no },
      ],
      ["judge-a", "judge-b"],
      2,
    );
    const p = probe("pref_books_general_5");
    const out = await memoraScorer.scoreProbe({ record: record(p, { answer: bookAnswer }), probe: p, episode }, ctx(j));
    assert.equal(out.verdicts.length, 2 * 2 * 2);
    // 2 yes, 2 no on each criterion: a tie fails both, whatever the expected answer.
    assert.deepEqual(out.metrics, { mpa: 0, fama: 0, faa: 0 });
  });

  it("skips the judged metrics when there is no answer, never scoring 0 or 1", async () => {
    const p = probe("pref_books_general_5");
    const out = await memoraScorer.scoreProbe(
      { record: record(p, { answerSkipped: "no model configured" }), probe: p, episode },
      ctx(judges([{ reply: yes }], ["judge-a"])),
    );
    assert.deepEqual(out.metrics, {});
    assert.deepEqual(out.verdicts, []);
    assert.deepEqual(out.skipped, {
      mpa: "no answer: no model configured",
      fama: "no answer: no model configured",
      faa: "no answer: no model configured",
    });
  });

  it("scores a failed answer call as wrong, forgetting criteria included", async () => {
    const p = probe("content_meeting_notes_5_meeting_notes_1");
    const out = await memoraScorer.scoreProbe(
      { record: record(p, { answerError: "HTTP 500" }), probe: p, episode },
      ctx(judges([{ reply: yes }], ["judge-a"])),
    );
    assert.deepEqual(out.metrics, { mpa: 0, fama: 0, faa: 0 });
    assert.deepEqual(out.verdicts, []);
    assert.match(out.skipped?.answer ?? "", /answer call failed.*HTTP 500/);
  });

  it("skips the judged metrics with no judge configured", async () => {
    const p = probe("activity_food_total_5");
    const out = await memoraScorer.scoreProbe({ record: record(p, { answer: "$4.25" }), probe: p, episode }, ctx());
    assert.deepEqual(out.metrics, {});
    assert.equal(out.skipped?.fama, "no judge configured");
    assert.equal(out.skipped?.mpa, "no judge configured");
    assert.match(out.skipped?.faa ?? "", /no forgetting criteria/);
  });

  it("skips a record whose setting did not apply", async () => {
    const p = probe("activity_food_total_5");
    const out = await memoraScorer.scoreProbe(
      { record: record(p, { status: "skipped", skipReason: "no readback" }), probe: p, episode },
      ctx(),
    );
    assert.deepEqual(out.metrics, {});
    assert.equal(out.skipped?.fama, "setting skipped: no readback");
  });

  it("scores a question without criteria 0 without calling a judge", async () => {
    const bare: ProbeInput = { id: "bare", question: "Anything?", position: { at: "end" }, gold: {} };
    const p = Probe.parse(bare);
    const out = await memoraScorer.scoreProbe({ record: record(p, { answer: "x" }), probe: p, episode }, ctx());
    assert.deepEqual(out.metrics, { mpa: 0, fama: 0 });
  });

  it("scores a question with only forgetting criteria 0 even when all are met", async () => {
    const p = Probe.parse({
      id: "fa-only",
      question: "What is on my list?",
      position: { at: "end" },
      gold: { criteria: [{ text: "Does the response mention the deleted task: X?", kind: "absence", expected: "no" }] },
    } satisfies ProbeInput);
    const out = await memoraScorer.scoreProbe(
      { record: record(p, { answer: "Nothing." }), probe: p, episode },
      ctx(judges([{ role: "judge", reply: no }], ["judge-a"])),
    );
    assert.deepEqual(out.metrics, { mpa: 0, fama: 0, faa: 1 });
  });

  it("rejects an unknown failed_verdicts value", async () => {
    const p = probe("activity_food_total_5");
    await assert.rejects(
      memoraScorer.scoreProbe(
        { record: record(p, { answer: "x" }), probe: p, episode },
        ctx(undefined, { failed_verdicts: "ignore" }),
      ),
      ConfigError,
    );
  });

  it("renders a user's own template from --prompts with the extra variables", async () => {
    const dir = join(tmp, "official");
    mkdirSync(join(dir, "memora"), { recursive: true });
    writeFileSync(
      join(dir, "memora", "criterion.md"),
      "RESPONSE: {{response}}\nQUESTION: {{criterion}}\nType: {{evaluation_type}}\nAsked: {{question}} on {{question_date}}\n",
    );
    const j = judges(
      [
        {
          role: "judge",
          match:
            "^RESPONSE: \\$4\\.25\\nQUESTION: Does the response mention the total food spending amount of \\$4\\.25\\?\\nType: memory_presence\\nAsked: What is my total food spending this week\\? on 2025-06-02$",
          reply: yes,
        },
      ],
      ["judge-a"],
    );
    const p = probe("activity_food_total_5");
    const out = await memoraScorer.scoreProbe(
      { record: record(p, { answer: "$4.25" }), probe: p, episode },
      ctx({ ...j, prompts: new PromptSet(dir) }),
    );
    assert.deepEqual(out.metrics, { mpa: 1, fama: 1 });
    assert.equal(out.verdicts[0]?.promptSet, "official");
  });

  it("our template asks about the reply and the criterion only", async () => {
    const text = new PromptSet().render("memora", "criterion", {
      response: "RESPONSE-TEXT",
      criterion: "CRITERION-TEXT",
    }).text;
    assert.match(text, /RESPONSE-TEXT/);
    assert.match(text, /CRITERION-TEXT/);
    assert.match(text, /"answer": "yes" or "no"/);
  });
});

function score(task: string, duration: string, mpa: number, fama: number, faa?: number): ProbeScore {
  return {
    system: "bm25",
    setting: "default",
    episodeId: `${duration}/p`,
    probeId: `${task}-${duration}-${mpa}-${fama}`,
    labels: { task, duration },
    metrics: { mpa, fama, ...(faa !== undefined ? { faa } : {}) },
    verdicts: [],
    judgeFailures: 0,
  };
}

describe("memoraScorer.tables", () => {
  // Per cell: two questions, the cell mean by hand in the comment.
  const scores: ProbeScore[] = [
    score("Remembering", "weekly", 1, 0.8, 0.5),
    score("Remembering", "weekly", 0.5, 0.4, 0.5), // MPA .75, FAMA .6
    score("Remembering", "monthly", 0.6, 0.2, 0),
    score("Remembering", "monthly", 0.4, 0.2, 0), // .5, .2
    score("Remembering", "quarterly", 0.3, 0.1, 0), // .3, .1
    score("Recommending", "weekly", 1, 1, 1),
    score("Recommending", "weekly", 1, 0.5, 0), // 1, .75
    score("Recommending", "monthly", 0.5, 0.25, 0.5), // .5, .25
    score("Recommending", "quarterly", 0.2, 0, 0), // .2, 0
    score("Reasoning", "weekly", 0.5, 0.5),
    score("Reasoning", "weekly", 0, 0), // .25, .25
    score("Reasoning", "monthly", 0.1, 0.1), // .1, .1
    score("Reasoning", "quarterly", 1, 1), // 1, 1
  ];
  const ctx0: ScoreContext = { options: { failed_verdicts: "worst" } };

  it("lays out Table 3 as task × duration FAMA ×100 in the paper's column order", () => {
    const [t3] = memoraScorer.tables!(scores, ctx0);
    assert.equal(t3!.id, memoraTable3.id);
    assert.deepEqual(t3!.columns, memoraTable3.columns);
    assert.deepEqual(t3!.columns, ["Rem W", "Rem M", "Rem Q", "Rec W", "Rec M", "Rec Q", "Rea W", "Rea M", "Rea Q"]);
    const row = t3!.rows[0]!;
    assert.equal(row.label, "bm25");
    const expected = [60, 20, 10, 75, 25, 0, 25, 10, 100];
    for (const [i, c] of t3!.columns.entries()) close(row.cells[c], expected[i]!);
    assert.deepEqual(Object.values(row.n!), [2, 2, 1, 2, 1, 1, 2, 1, 1]);
  });

  it("sums durations into Table 4 and tasks into Table 5 with the FAMA reduction", () => {
    const [, t4, t5] = memoraScorer.tables!(scores, ctx0);
    assert.deepEqual(t4!.columns, memoraTable4.columns);
    close(t4!.rows[0]!.cells.Remembering, 60 + 20 + 10);
    close(t4!.rows[0]!.cells.Recommending, 75 + 25 + 0);
    close(t4!.rows[0]!.cells.Reasoning, 25 + 10 + 100);
    assert.deepEqual(t5!.columns, memoraTable5.columns);
    const c = t5!.rows[0]!.cells;
    // Weekly MPA 75 + 100 + 25 = 200, FAMA 60 + 75 + 25 = 160.
    close(c.Weekly, 200);
    close(c["Weekly (reduction)"], -40);
    // Monthly MPA 50 + 50 + 10 = 110, FAMA 20 + 25 + 10 = 55.
    close(c.Monthly, 110);
    close(c["Monthly (reduction)"], -55);
    // Quarterly MPA 30 + 20 + 100 = 150, FAMA 10 + 0 + 100 = 110.
    close(c.Quarterly, 150);
    close(c["Quarterly (reduction)"], -40);
  });

  it("leaves cells empty rather than summing part of them", () => {
    const weeklyOnly = scores.filter((s) => s.labels.duration === "weekly");
    const noReasoning = scores.filter((s) => s.labels.task !== "Reasoning");
    const [t3, t4] = memoraScorer.tables!(weeklyOnly, ctx0);
    assert.equal(t3!.rows[0]!.cells["Rem M"], null);
    assert.deepEqual(t4!.rows[0]!.cells, { Remembering: null, Recommending: null, Reasoning: null });
    const [, , t5] = memoraScorer.tables!(noReasoning, ctx0);
    assert.equal(t5!.rows[0]!.cells.Weekly, null);
    assert.equal(t5!.rows[0]!.cells["Weekly (reduction)"], null);
  });

  it("names the setting when it is not the default", () => {
    const [t3] = memoraScorer.tables!(
      scores.map((s) => ({ ...s, setting: "oracle" as const })),
      ctx0,
    );
    assert.equal(t3!.rows[0]!.label, "bm25 (oracle)");
  });
});

describe("paper.ts (spec §7)", () => {
  const t3Sum = (system: string, keys: string[]) => {
    const row = memoraTable3.rows.find((r) => r.system === system);
    assert.ok(row, system);
    return keys.reduce((acc, k) => acc + row.cells[k]!, 0);
  };

  it("has every row complete, 14 systems in Tables 3 and 5", () => {
    assert.equal(memoraTable3.rows.length, 14);
    assert.equal(memoraTable5.rows.length, 14);
    assert.equal(memoraTable4.rows.length, 17);
    for (const t of [memoraTable3, memoraTable4, memoraTable5]) {
      for (const r of t.rows) assert.deepEqual(Object.keys(r.cells), t.columns, `${t.id} ${r.system}`);
      assert.equal(new Set(t.rows.map((r) => r.system)).size, t.rows.length);
    }
  });

  it("Table 4 is the sum of Table 3's durations, except the one slip §11.9 names", () => {
    const mismatches: string[] = [];
    for (const r of memoraTable4.rows.filter((x) => !x.system.startsWith("Average"))) {
      for (const task of memoraTable4.columns) {
        const keys = TABLE3_COLUMNS.filter((c) => c.task === task).map((c) => c.key);
        const diff = t3Sum(r.system, keys) - r.cells[task]!;
        if (Math.abs(diff) > 0.011) mismatches.push(`${r.system} ${task} ${diff.toFixed(2)}`);
      }
    }
    assert.deepEqual(mismatches, ["Qwen3-32B (w/ reasoning) Reasoning 0.66"]);
  });

  it("Table 4's averages are the means of their groups", () => {
    for (const avg of memoraTable4.rows.filter((x) => x.system.startsWith("Average"))) {
      const members = memoraTable4.rows.filter((x) => x.group === avg.group && x !== avg);
      for (const task of memoraTable4.columns) {
        const mean = members.reduce((acc, m) => acc + m.cells[task]!, 0) / members.length;
        assert.ok(Math.abs(mean - avg.cells[task]!) < 0.006, `${avg.system} ${task}: ${mean}`);
      }
    }
  });

  // §11.9 says ±0.1; three cells are off by 0.14–0.25 (Qwen3-32B and Gemini w/o reasoning monthly, Gemini w/
  // reasoning quarterly), more than rounding to one decimal explains, so the bound here is 0.3.
  it("Table 5's MPA + reduction is Table 3's FAMA sum, except the cells §11.9 names", () => {
    const off: string[] = [];
    for (const r of memoraTable5.rows) {
      for (const d of TABLE5_COLUMNS) {
        const keys = TABLE3_COLUMNS.filter((c) => c.duration === d.duration).map((c) => c.key);
        const diff = r.cells[d.mpa]! + r.cells[d.reduction]! - t3Sum(r.system, keys);
        if (Math.abs(diff) > 0.3) off.push(`${r.system} ${d.duration} ${diff.toFixed(2)}`);
      }
    }
    assert.deepEqual(off, [
      "Claude Sonnet 4.5 (w/o reasoning) monthly 4.68",
      "GPT-5.2 (w/o reasoning) monthly 3.76",
      "Qwen3-32B (w/ reasoning) weekly -0.66",
      "A-Mem monthly 1.08",
      "LangMem monthly 1.02",
      "MemoryOS weekly -0.54",
      "Nemori quarterly -1.49",
    ]);
  });
});

const samples = sharedDataset("memora");

describe("memora scoring on the shared samples", () => {
  it("with a judge that says yes to everything, FAMA is 1 − λ per question", {
    skip: skipUnless(samples),
  }, async () => {
    const ds = await loadMemora(samples!);
    const j = judges([{ role: "judge", reply: yes }], ["judge-a"]);
    const scores: ProbeScore[] = [];
    for (const ep of ds.episodes) {
      for (const p of ep.probes) {
        const out = await memoraScorer.scoreProbe(
          { record: record(p, { answer: "Everything you ever told me." }, ep), probe: p, episode: ep },
          ctx(j),
        );
        scores.push({
          ...out,
          system: "yes-man",
          setting: "default",
          episodeId: ep.id,
          probeId: p.id,
          labels: p.labels,
        });
      }
    }
    // 15 questions each: criteria weekly 44 presence / 27 forgetting, monthly 46 / 89 (spec §3.3 recount).
    assert.equal(scores.length, 30);
    assert.equal(
      scores.reduce((n, s) => n + s.verdicts.length, 0),
      71 + 135,
    );
    for (const s of scores) assert.equal(s.metrics.mpa, 1);
    const [t3, , t5] = memoraScorer.tables!(scores, ctx(j));
    const c3 = t3!.rows[0]!.cells;
    // Mean of 1 − N_f/(N_p + N_f) over each task's five questions, from the criteria counts of the samples.
    const want: Record<string, number> = {
      "Rem W": 60.3333,
      "Rec W": 56.7619,
      "Rea W": 100,
      "Rem M": 43.2558,
      "Rec M": 28.6688,
      "Rea M": 100,
    };
    for (const [k, v] of Object.entries(want)) assert.ok(Math.abs(c3[k]! - v) < 1e-4, `${k}: ${c3[k]}`);
    assert.equal(c3["Rem Q"], null);
    const c5 = t5!.rows[0]!.cells;
    assert.equal(c5.Weekly, 300);
    assert.ok(Math.abs(c5["Weekly (reduction)"]! - (60.3333 + 56.7619 + 100 - 300)) < 1e-3);
  });
});
