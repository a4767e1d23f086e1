/**
 * MemConflict's released scorer as options (spec/memconflict.md §6.3):
 * `rank=code` keeps any judged rank 1..5, `judge_failure=code` reads an
 * unusable reply leniently or falls back to the rule-based scorer, and
 * `empty_answer=code` zeroes every metric of an empty answer.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadMemconflict } from "../../src/benchmarks/memconflict/load.ts";
import {
  answerVariants,
  binaryValue,
  conflictSignal,
  fallbackVerdict,
  normalizeFallback,
  overlapScore,
  releasedVerdict,
  snapAa,
  supportRank,
  updateOrderSignal,
} from "../../src/benchmarks/memconflict/released-judge.ts";
import { memconflictScorer } from "../../src/benchmarks/memconflict/score.ts";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord, RetrievedRecord } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import type { JudgeContext } from "../../src/score/judge.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import { fixture } from "../support/shared-data.ts";

describe("the released parse of a judge's JSON", () => {
  it("snaps dynamic and static AA: ≥ 0.75 → 1, ≥ 0.25 → 0.5, else 0; unreadable → 0", () => {
    const cases: Array<[unknown, number]> = [
      [1, 1],
      [0.75, 1],
      [0.74, 0.5],
      [0.5, 0.5],
      [0.25, 0.5],
      [0.24, 0],
      ["0.8", 1],
      [true, 1],
      [false, 0],
      ["high", 0],
      [null, 0],
      [[1], 0],
    ];
    for (const [value, want] of cases) assert.equal(snapAa(value), want, JSON.stringify(value));
  });

  it("reads binary fields as Python's int() of the value, 1 when nonzero", () => {
    const cases: Array<[unknown, number]> = [
      [1, 1],
      [0, 0],
      [2, 1],
      [-1, 1],
      [0.9, 0], // int(0.9) is 0
      [1.5, 1],
      ["1", 1],
      ["1.0", 0], // int("1.0") raises
      [true, 1],
      ["yes", 0],
      [null, 0],
    ];
    for (const [value, want] of cases) assert.equal(binaryValue(value), want, JSON.stringify(value));
  });

  it("keeps a rank within 1..5 and reads anything else as 0", () => {
    assert.deepEqual(
      [4, 5, 6, 0, -1, "2", 2.7, true, "two", null].map((v) => supportRank(v, 5)),
      [4, 5, 0, 0, 0, 2, 2, 1, 0, 0],
    );
  });

  it("reads each type's fields, missing ones as 0", () => {
    assert.deepEqual(releasedVerdict({ aa: 0.7, uocs: "1", first_support_rank: 7 }, "dynamic", 5), {
      aa: 0.5,
      first_support_rank: 0,
      uocs: 1,
    });
    assert.deepEqual(releasedVerdict({ aa: 0.8 }, "static", 5), { aa: 1, first_support_rank: 0, crs: 0 });
    // Conditional AA is binary: int(0.9) = 0, so 0.9 earns nothing, where a dynamic 0.9 snaps to 1.
    assert.deepEqual(releasedVerdict({ aa: 0.9, first_support_rank: 3 }, "conditional", 5), {
      aa: 0,
      first_support_rank: 3,
    });
    assert.equal(releasedVerdict({ aa: 0.9 }, "dynamic", 5).aa, 1);
  });
});

describe("the released rule-based fallback", () => {
  const GOLD = "The user moved from Gothenburg, Sweden to Oslo, Norway.";

  it("normalises: lower case, _ and - as spaces, punctuation blanked, CJK kept", () => {
    assert.equal(normalizeFallback("  Oslo--Norway_(2024)! "), "oslo norway 2024");
    assert.equal(normalizeFallback("It's 住在奥斯陆."), "it s 住在奥斯陆");
  });

  it("adds the parts of the whole text split at each of ||, newlines and ; in turn", () => {
    // "||" gives "Oslo" and "Bergen; Oslo"; ";" gives "Oslo || Bergen" and "Oslo" (already there).
    assert.deepEqual(answerVariants("Oslo || Bergen; Oslo"), [
      "oslo bergen oslo",
      "oslo",
      "bergen oslo",
      "oslo bergen",
    ]);
    assert.deepEqual(answerVariants("Oslo\nBergen"), ["oslo bergen", "oslo", "bergen"]);
    assert.deepEqual(answerVariants("  "), []);
  });

  it("scores 1 for a variant equal to the gold, 0.5 for two shared tokens or half the gold's, else 0", () => {
    assert.equal(overlapScore(GOLD, "the user MOVED from Gothenburg Sweden to Oslo Norway"), 1);
    assert.equal(overlapScore("Oslo || Bergen", "Bergen."), 1);
    // Gold tokens: moved, gothenburg, sweden, oslo, norway ("the", "user", "from", "to" are stopwords).
    assert.equal(overlapScore(GOLD, "They now live in Oslo, Norway."), 0.5);
    assert.equal(overlapScore(GOLD, "Oslo."), 0);
    assert.equal(overlapScore("Yes.", "Yes, it has."), 0.5); // 1 of 1 gold token
    assert.equal(overlapScore(GOLD, ""), 0);
  });

  it("gives 0.5 when one variant of 8+ characters contains the other", () => {
    const gold = "User lived in Gothenburg Sweden before moving to Oslo";
    // One shared token of six, but "in gothenburg" (13 characters) is inside the gold.
    assert.equal(overlapScore(gold, "in Gothenburg"), 0.5);
    assert.equal(overlapScore(gold, "Gothenburg"), 0.5); // 10 characters
    assert.equal(overlapScore("Lived in Oslo by the fjord", "oslo"), 0); // 1 of 4 tokens, "oslo" too short
  });

  it("sees an update in order from a change marker and an order pair, as plain substrings", () => {
    assert.equal(updateOrderSignal("It changed from Gothenburg to Oslo."), true);
    assert.equal(updateOrderSignal("Updated: before Gothenburg, now Oslo."), true);
    assert.equal(updateOrderSignal("It changed; Oslo now."), false);
    assert.equal(updateOrderSignal("Moved from Gothenburg to Oslo."), false);
    // "to" inside "today": the released test is a substring test.
    assert.equal(updateOrderSignal("Today, a change: Oslo, from Gothenburg."), true);
  });

  it("sees conflict recognition from its marker words", () => {
    assert.equal(conflictSignal("There is conflicting information about it."), true);
    assert.equal(conflictSignal("The records are INCONSISTENT."), true);
    assert.equal(conflictSignal("I cannot confirm it."), true);
    assert.equal(conflictSignal("Uppsala, Sweden."), false);
  });

  it("scores each type from the answer alone, never finding support", () => {
    const answer = "They moved from Gothenburg to Oslo, Norway; it changed.";
    assert.deepEqual(fallbackVerdict("dynamic", GOLD, answer), { aa: 0.5, first_support_rank: 0, uocs: 1 });
    assert.deepEqual(fallbackVerdict("dynamic", GOLD, "Oslo"), { aa: 0, first_support_rank: 0, uocs: 0 });
    // CRS needs no correct answer, only a marker.
    assert.deepEqual(fallbackVerdict("static", "Uppsala, Sweden", "The records contradict each other."), {
      aa: 0,
      first_support_rank: 0,
      crs: 1,
    });
    assert.deepEqual(fallbackVerdict("conditional", "Slow Sunday mornings at home", "On slow Sunday mornings"), {
      aa: 1,
      first_support_rank: 0,
    });
  });
});

let dir: string;
let episodes: Episode[];
let count = 0;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), "memconflict-released-"));
  episodes = (await loadMemconflict(fixture("memconflict/Step4_4.jsonl"))).episodes;
});
after(() => rmSync(dir, { recursive: true, force: true }));

const DYNAMIC = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8:3:Q_002"; // gold: moved from Gothenburg, Sweden to Oslo, Norway
const STATIC = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8:4:Q_006"; // gold: conflicting information about the Birthplace

const FIVE: RetrievedRecord[] = [1, 2, 3, 4, 5].map((rank) => ({
  rank,
  text: `memory ${rank}`,
  score: 6 - rank,
  sessionIds: [String(rank)],
}));

function probeOf(id: string): { probe: Probe; episode: Episode } {
  for (const episode of episodes) {
    const probe = episode.probes.find((p) => p.id.endsWith(id));
    if (probe) return { probe, episode };
  }
  throw new Error(id);
}

/** One scripted judge per name; repair requests get garbage, so a reply used after one would show. */
function judges(rules: object[], names = ["judge-a"]): JudgeContext {
  const file = join(dir, `judges-${count++}.jsonl`);
  const lines = [{ role: "judge", match: "could not be used", reply: "repaired {" }, ...rules];
  writeFileSync(file, `${lines.map((l) => JSON.stringify({ role: "judge", ...l })).join("\n")}\n`);
  return {
    judges: names.map((name) => ({
      name,
      model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
    })),
    runs: 1,
    prompts: new PromptSet(),
  };
}

function score(id: string, judge: JudgeContext, options: Record<string, string>, over: Partial<ProbeRecord> = {}) {
  const { probe, episode } = probeOf(id);
  const record: ProbeRecord = {
    unitId: "bm25|e",
    system: "bm25",
    episodeId: "e",
    probeId: probe.id,
    setting: "default",
    question: probe.question,
    labels: probe.labels,
    status: "done",
    retrieved: FIVE,
    context: { text: "", tokens: 0, used: 3 },
    answer: "They moved from Gothenburg to Oslo, Norway; it changed.",
    timings: { flushMs: 0, searchMs: 0 },
    ...over,
  };
  return memconflictScorer.scoreProbe({ record, probe, episode }, { judge, options });
}

describe("rank=code", () => {
  it("keeps a judged rank past the listed items, as the released parse_support_rank does", async () => {
    const j = () => judges([{ reply: { aa: 1, uocs: 1, first_support_rank: 4, reason: "r" } }]);
    const two = { retrieved: FIVE.slice(0, 2) };
    const paper = await score(DYNAMIC, j(), {}, two);
    assert.equal(paper.metrics.support_rank, 0);
    assert.equal(paper.metrics["seh@5"], 0);
    const code = await score(DYNAMIC, j(), { rank: "code" }, two);
    assert.equal(code.metrics.support_rank, 4);
    assert.deepEqual([code.metrics["seh@2"], code.metrics["seh@3"], code.metrics["seh@5"]], [0, 0, 1]);
    assert.equal(code.metrics["srs@5"], 1 / Math.log2(5));
  });
});

describe("judge_failure=code", () => {
  it("reads an off-scale verdict the released way: AA snapped, the rank kept", async () => {
    const reply = { aa: 0.7, uocs: 1, first_support_rank: 2, reason: "r" };
    const worst = await score(DYNAMIC, judges([{ reply }]), {});
    assert.deepEqual([worst.metrics.aa, worst.metrics.support_rank, worst.metrics.uocs], [0, 0, 0]);
    const code = await score(DYNAMIC, judges([{ reply }]), { judge_failure: "code", aa: "code" });
    assert.deepEqual([code.metrics.aa, code.metrics.support_rank, code.metrics.uocs], [0.5, 2, 1]);
    assert.equal(code.metrics["seh@3"], 1);
    assert.equal(code.judgeFailures, 1, "still counted: membench's check refused it");
    assert.match(code.verdicts[0]!.failure ?? "", /no repair asked/);
    // On the paper's binary scale the snapped half credit is still wrong; 0.8 snaps to full credit.
    const paperScale = await score(DYNAMIC, judges([{ reply }]), { judge_failure: "code" });
    assert.equal(paperScale.metrics.aa, 0);
    const high = await score(DYNAMIC, judges([{ reply: { ...reply, aa: 0.8 } }]), { judge_failure: "code" });
    assert.equal(high.metrics.aa, 1);
  });

  it("scores a reply without JSON by the rule-based fallback: overlap, markers, no support", async () => {
    const j = () => judges([{ reply: "The answer looks right to me." }]);
    const out = await score(DYNAMIC, j(), { judge_failure: "code", aa: "code" });
    assert.equal(out.metrics.aa, 0.5);
    assert.equal(out.metrics.uocs, 1);
    assert.equal(out.metrics.support_rank, 0);
    assert.equal(out.metrics["seh@5"], 0);
    assert.deepEqual([out.metrics.eug, out.metrics.rf, out.metrics.uf], [-0.5, 0, 0]);
    assert.equal(out.verdicts[0]!.reply, "The answer looks right to me.");
  });

  it("falls back the same way when the judge call itself fails", async () => {
    // No rule for judge-b: its call fails before any reply.
    const out = await score(
      STATIC,
      judges([], ["judge-b"]),
      { judge_failure: "code" },
      {
        answer: "The birthplace records contradict each other.",
      },
    );
    assert.equal(out.verdicts[0]!.ok, false);
    assert.equal(out.verdicts[0]!.reply, undefined);
    assert.deepEqual([out.metrics.aa, out.metrics.crs, out.metrics.support_rank], [0, 1, 0]);
  });

  it("leaves usable verdicts as they are", async () => {
    const reply = { aa: 1, uocs: 1, first_support_rank: 1, reason: "r" };
    const out = await score(DYNAMIC, judges([{ reply }]), { judge_failure: "code" });
    assert.deepEqual([out.metrics.aa, out.metrics.uocs, out.metrics.support_rank, out.judgeFailures], [1, 1, 1, 0]);
  });

  it("says how failed verdicts were counted", () => {
    assert.match(memconflictScorer.failedVerdictRule?.({}) ?? "", /^scored as the worst outcome \(AA 0, rank 0/);
    assert.match(memconflictScorer.failedVerdictRule?.({ judge_failure: "code" }) ?? "", /rule-based fallback/);
  });
});

describe("empty_answer=code", () => {
  it("zeroes every metric of an empty answer without asking a judge, as the released scorer does", async () => {
    const j = () => judges([{ reply: { aa: 1, uocs: 1, first_support_rank: 1, reason: "r" } }]);
    const judged = await score(DYNAMIC, j(), {}, { answer: "" });
    assert.equal(judged.verdicts.length, 1, "by default an empty answer is judged like any other");
    assert.equal(judged.metrics["seh@3"], 1);
    const code = await score(DYNAMIC, j(), { empty_answer: "code" }, { answer: "" });
    assert.deepEqual(code.verdicts, []);
    const { support_rank_prov: _prov, ...metrics } = code.metrics;
    assert.deepEqual(metrics, {
      support_rank: 0,
      "seh@2": 0,
      "srs@2": 0,
      "seh@3": 0,
      "srs@3": 0,
      "seh@5": 0,
      "srs@5": 0,
      aa: 0,
      uocs: 0,
      eug: 0,
      rf: 1,
      uf: 0,
    });
    assert.match(code.skipped?.answer ?? "", /empty answer/);
    // A blank answer that is not empty is judged, as released ("" is the only missing answer).
    const blank = await score(DYNAMIC, j(), { empty_answer: "code" }, { answer: " " });
    assert.equal(blank.verdicts.length, 1);
  });
});

describe("options", () => {
  it("declares every released behaviour, each defaulting to the paper's or membench's rule", () => {
    const options = memconflictScorer.options ?? {};
    assert.deepEqual(Object.fromEntries(Object.entries(options).map(([k, o]) => [k, [o.default, ...o.values]])), {
      aa: ["paper", "paper", "code"],
      rank: ["paper", "paper", "code"],
      judge_failure: ["worst", "worst", "code"],
      empty_answer: ["judge", "judge", "code"],
    });
  });
});
