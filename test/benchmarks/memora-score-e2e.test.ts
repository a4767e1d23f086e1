import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { printScores } from "../../src/cli/commands/score.ts";
import type { RunOutcome } from "../../src/run/runner.ts";
import { startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import type { ProbeScore } from "../../src/score/types.ts";
import { fixture } from "../support/shared-data.ts";

/**
 * The fixture's five weekly questions answered by a scripted model and judged
 * by three scripted judges that disagree. Each judge rule matches the answer
 * and the criterion in the rendered prompt, so it also proves the judge saw
 * both. Votes per criterion: y = yes, n = no, ? = a malformed verdict.
 */
const ANSWERS: Array<[string, string]> = [
  [
    "Question: Write meeting notes for",
    "Meeting notes: Spring Textile Exhibit Planning. Agenda: confirm loan agreements with the regional archive; rotate the Japanese woodblock prints.",
  ],
  ["Question: Am I meeting my coffee budget goal", "Your coffee goal is $25 a week and you are doing fine."],
  ["Question: What is my total food spending", "You spent about four dollars on food."],
  ["Question: What book would you recommend", "Try The Left Hand of Darkness by Ursula K. Le Guin."],
  [
    "Question: Can you recommend a book by authors I like",
    "Since you loved Jules Verne, try Twenty Thousand Leagues Under the Sea, or Earthsea by Ursula K. Le Guin.",
  ],
];

const VOTES: Array<[string, string]> = [
  // Remembering, meeting notes: 3 presence, 1 forgetting (expected no).
  ["meeting title: Spring Textile", "yyy"], // met
  ["agenda items: Confirm loan", "yny"], // met 2–1
  ["key decisions information", "nyn"], // not met 1–2
  ["deleted agenda items: Rotate", "yyn"], // forgetting broken: 2 say it is there
  // Reasoning, coffee goal: 3 presence.
  ["coffee budget goal of \\$25", "yy?"], // met 2–1, one failure
  ["actual spending amount", "n?y"], // not met: 1 of 3 (drop: 1–1, a tie, not met)
  ["UNDER BUDGET", "ynn"], // not met
  // Reasoning, food total: 1 presence.
  ["total food spending amount of \\$4\\.25", "y??"], // not met: 1 of 3 (drop: 1 of 1, met)
  // Recommending, general: 1 presence, 1 forgetting.
  ["Left Hand[\\s\\S]*preference for Ursula", "yyy"], // met
  ["Left Hand[\\s\\S]*preference for Jules Verne", "nny"], // forgetting met: 2 say no
  // Recommending, authors: 1 presence, 1 forgetting.
  ["Twenty Thousand[\\s\\S]*preference for Ursula", "yny"], // met
  ["Twenty Thousand[\\s\\S]*preference for Jules Verne", "n?y"], // a failed "no"-side vote: not met
];

const JUDGES = ["judge-a", "judge-b", "judge-c"];

function script(): string {
  // Matched on the question line of the answer prompt, never on the retrieved memories above it.
  const rules: object[] = ANSWERS.map(([match, reply]) => ({ role: "answerer", match, reply }));
  rules.push({ role: "judge", match: "could not be used", reply: "Sorry, I cannot format that." });
  for (const [match, votes] of VOTES) {
    JUDGES.forEach((model, i) => {
      const v = votes[i];
      const reply =
        v === "?"
          ? "I would lean towards yes but cannot be sure"
          : { answer: v === "y" ? "yes" : "no", reason: `${model} decided ${v}` };
      rules.push({ role: "judge", model, match, reply });
    });
  }
  return `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`;
}

function captureStdout(f: () => void): string {
  const write = process.stdout.write;
  let out = "";
  process.stdout.write = ((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  }) as typeof process.stdout.write;
  try {
    f();
  } finally {
    process.stdout.write = write;
  }
  return out;
}

const close = (actual: number | null | undefined, expected: number, what: string) =>
  assert.ok(
    actual !== null && actual !== undefined && Math.abs(actual - expected) < 1e-6,
    `${what}: ${actual} ≉ ${expected}`,
  );

// By hand, per question (mpa, faa, fama):
//   notes      MP 2/3, FA 0/1, λ 1/4 → 2/3 − 1/4 = 5/12
//   coffee     MP 1/3, no FA        → 1/3
//   food total MP 0/1               → 0
//   general    MP 1/1, FA 1/1, λ ½  → 1
//   authors    MP 1/1, FA 0/1, λ ½  → ½
const EXPECTED: Record<string, { mpa: number; fama: number; faa?: number }> = {
  content_meeting_notes_5_meeting_notes_1: { mpa: 2 / 3, faa: 0, fama: 5 / 12 },
  goal_food_expenses_coffee_5_0: { mpa: 1 / 3, fama: 1 / 3 },
  activity_food_total_5: { mpa: 0, fama: 0 },
  pref_books_general_5: { mpa: 1, faa: 1, fama: 1 },
  pref_books_authors_5: { mpa: 1, faa: 0, fama: 0.5 },
};

describe("memora scoring end to end on the fixture", () => {
  const tmp = mkdtempSync(join(tmpdir(), "memora-e2e-"));
  const file = join(tmp, "script.jsonl");
  let outcome: RunOutcome;
  let row: ScoredRow;
  let scores: ProbeScore[];

  before(async () => {
    writeFileSync(file, script());
    outcome = await startRun({
      benchmark: "memora",
      data: fixture("memora"),
      systems: ["bm25"],
      out: tmp,
      id: "run",
      llm: `scripted:${file}`,
      scoring: { judges: JUDGES },
      progress: false,
    });
    row = outcome.summary.results.find((r) => r.system === "bm25" && r.setting === "default") as ScoredRow;
    const stored = await scoreRun(outcome.dir, { judges: JUDGES, judgeLlm: `scripted:${file}` });
    scores = stored.scores;
  });
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it("scores every question by the majority of three judges per criterion", () => {
    assert.equal(outcome.failedUnits, 0);
    assert.equal(scores.length, 5);
    for (const s of scores) {
      const want = EXPECTED[s.probeId];
      assert.ok(want, s.probeId);
      close(s.metrics.mpa, want.mpa, `${s.probeId} mpa`);
      close(s.metrics.fama, want.fama, `${s.probeId} fama`);
      if (want.faa === undefined) {
        assert.equal(s.metrics.faa, undefined, `${s.probeId} faa`);
        assert.match(s.skipped?.faa ?? "", /no forgetting criteria/);
      } else close(s.metrics.faa, want.faa, `${s.probeId} faa`);
    }
  });

  it("records 36 verdicts, counts the 5 malformed ones, and keeps going", () => {
    assert.equal(
      scores.reduce((n, s) => n + s.verdicts.length, 0),
      12 * 3,
    );
    const failures = Object.fromEntries(scores.map((s) => [s.probeId, s.judgeFailures]));
    assert.deepEqual(failures, {
      content_meeting_notes_5_meeting_notes_1: 0,
      goal_food_expenses_coffee_5_0: 2,
      activity_food_total_5: 2,
      pref_books_general_5: 0,
      pref_books_authors_5: 1,
    });
    assert.equal(row.judge_failures, 5);
    assert.deepEqual(row.judges, JUDGES);
    assert.deepEqual(row.judgeFailureList?.map((f) => [f.probeId, f.judge]).sort(), [
      ["activity_food_total_5", "judge-b"],
      ["activity_food_total_5", "judge-c"],
      ["goal_food_expenses_coffee_5_0", "judge-b"],
      ["goal_food_expenses_coffee_5_0", "judge-c"],
      ["pref_books_authors_5", "judge-b"],
    ]);
  });

  it("writes the headline and per-task means into summary.json", () => {
    const summary = JSON.parse(readFileSync(join(outcome.dir, "summary.json"), "utf8"));
    const stored = summary.results.find((r: ScoredRow) => r.system === "bm25" && r.setting === "default");
    for (const r of [row, stored]) {
      // mpa (2/3 + 1/3 + 0 + 1 + 1)/5; fama (5/12 + 1/3 + 0 + 1 + ½)/5; faa over the 3 questions with FA criteria.
      close(r.metrics.mpa, 3 / 5, "mpa");
      close(r.metrics.fama, 2.25 / 5, "fama");
      close(r.metrics.faa, 1 / 3, "faa");
      const task = r.byLabel.task;
      close(task.Remembering.mpa, 2 / 3, "Remembering mpa");
      close(task.Remembering.fama, 5 / 12, "Remembering fama");
      close(task.Remembering.faa, 0, "Remembering faa");
      close(task.Reasoning.mpa, 1 / 6, "Reasoning mpa");
      close(task.Reasoning.fama, 1 / 6, "Reasoning fama");
      assert.equal(task.Reasoning.faa, undefined);
      close(task.Recommending.mpa, 1, "Recommending mpa");
      close(task.Recommending.fama, 0.75, "Recommending fama");
      close(task.Recommending.faa, 0.5, "Recommending faa");
      close(r.byLabel.duration.weekly.fama, 2.25 / 5, "weekly fama");
    }
  });

  it("fills the weekly cells of Tables 3 and 5 and leaves the rest empty", () => {
    const [t3, t4, t5] = row.tables!;
    const c3 = t3!.rows[0]!.cells;
    close(c3["Rem W"], 500 / 12, "Rem W");
    close(c3["Rec W"], 75, "Rec W");
    close(c3["Rea W"], 100 / 6, "Rea W");
    for (const k of ["Rem M", "Rem Q", "Rec M", "Rec Q", "Rea M", "Rea Q"]) assert.equal(c3[k], null, k);
    assert.deepEqual(t4!.rows[0]!.cells, { Remembering: null, Recommending: null, Reasoning: null });
    const c5 = t5!.rows[0]!.cells;
    // MPA 66.67 + 100 + 16.67; FAMA 41.67 + 75 + 16.67 → reduction −50.
    close(c5.Weekly, 550 / 3, "Weekly MPA");
    close(c5["Weekly (reduction)"], -50, "Weekly reduction");
    assert.equal(c5.Monthly, null);
    assert.equal(c5["Quarterly (reduction)"], null);
  });

  it("re-scores with failed_verdicts=drop: only the question whose lone valid vote is yes changes", async () => {
    const { scores: dropped, summary } = await scoreRun(outcome.dir, {
      judges: JUDGES,
      judgeLlm: `scripted:${file}`,
      options: { failed_verdicts: "drop" },
    });
    const by = Object.fromEntries(dropped.map((s) => [s.probeId, s.metrics]));
    assert.deepEqual(by.activity_food_total_5, { mpa: 1, fama: 1 });
    close(by.goal_food_expenses_coffee_5_0?.mpa, 1 / 3, "coffee mpa");
    // The authors question's failed vote on Jules Verne leaves a 1–1 tie: still not met.
    assert.deepEqual(by.pref_books_authors_5, { mpa: 1, fama: 0.5, faa: 0 });
    const r = summary.results.find((x) => x.system === "bm25") as ScoredRow;
    close(r.tables![0]!.rows[0]!.cells["Rea W"], (100 * (1 / 3 + 1)) / 2, "Rea W (drop)");
  });
  it("re-scores with failed_verdicts=code: the malformed replies stay in the vote as 'unclear'", async () => {
    // "I would lean towards yes but cannot be sure" holds "yes" and, inside "cannot", "no": the released
    // parser reads it as "unclear", a valid vote for neither answer. So the food total's 1 yes of 3
    // stays not met (drop made it 1 of 1), and every question scores as under worst.
    const { scores: code, summary } = await scoreRun(outcome.dir, {
      judges: JUDGES,
      judgeLlm: `scripted:${file}`,
      options: { failed_verdicts: "code" },
    });
    for (const s of code) {
      const want = EXPECTED[s.probeId]!;
      close(s.metrics.fama, want.fama, `${s.probeId} fama (code)`);
      close(s.metrics.mpa, want.mpa, `${s.probeId} mpa (code)`);
    }
    const r = summary.results.find((x) => x.system === "bm25") as ScoredRow;
    assert.equal(r.judge_failures, 5);
    assert.match(r.judgeFailureRule ?? "", /left out of the vote when the call failed/);
    const malformed = code.flatMap((s) => s.verdicts).filter((v) => !v.ok);
    assert.ok(malformed.every((v) => v.reply === "I would lean towards yes but cannot be sure"));
    // The score command says how they were counted, not "scored as the worst outcome".
    const printed = captureStdout(() => printScores(summary));
    assert.match(
      printed,
      /verdicts that failed \(5: 5 unparsable replies; left out of the vote when the call failed, and read as the released/,
    );
    assert.doesNotMatch(printed, /worst outcome/);
  });
});
