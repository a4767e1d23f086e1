import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import { type ScoredRow, scoreRun } from "../../src/run/score-run.ts";
import type { ProbeScore } from "../../src/score/types.ts";
import { fixture } from "../support/shared-data.ts";

/**
 * The whole pipeline on test/fixtures/memconflict (22 questions: 15 dynamic,
 * 4 static, 3 conditional) with full-context (every earlier turn, oldest
 * first, so the judge always has five items to rank), a scripted answerer and a scripted
 * judge whose verdicts are fixed below, so every number is computed by hand.
 */
const P1 = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8";
const P2 = "c41e0b7a-2d9f-4e13-a6b8-5f07d2c9e311";

type Verdict = { aa: number; rank: number; diag?: number } | "malformed";
interface Step {
  id: string;
  kind: "dynamic" | "static" | "conditional";
  question: string;
  /** Distinguishes the judge prompts of two questions with the same text. */
  memory: string;
  /** Undefined: no answerer rule, so the answer call fails. */
  answer?: string;
  verdict: Verdict;
}

const PLAN: Step[] = [
  // Dynamic, persona 1.
  {
    id: `${P1}:3:Q_001`,
    kind: "dynamic",
    question: "Has the user moved recently?",
    memory: "Gothenburg, Sweden to Oslo",
    answer: "Yes, from Gothenburg to Oslo.",
    verdict: { aa: 1, rank: 1, diag: 1 },
  },
  {
    id: `${P1}:3:Q_002`,
    kind: "dynamic",
    question: "Where did the user live before, and where do they live now?",
    memory: "Gothenburg, Sweden to Oslo",
    answer: "Oslo now.",
    verdict: { aa: 0.5, rank: 2, diag: 1 },
  },
  {
    id: `${P1}:3:Q_003`,
    kind: "dynamic",
    question: "Has the user's workload changed recently?",
    memory: "Busy to Normal",
    answer: "Yes, it eased.",
    verdict: { aa: 1, rank: 3, diag: 1 },
  },
  {
    id: `${P1}:3:Q_004`,
    kind: "dynamic",
    question: "How has the user's work rhythm changed?",
    memory: "Busy to Normal",
    answer: "It got busier.",
    verdict: { aa: 0, rank: 0, diag: 0 },
  },
  {
    id: `${P1}:4:Q_001`,
    kind: "dynamic",
    question: "How has the user's career situation changed?",
    memory: "career status changed",
    answer: "New employer.",
    verdict: { aa: 0.5, rank: 4, diag: 0 },
  },
  {
    id: `${P1}:4:Q_002`,
    kind: "dynamic",
    question: "Which company does the user work for now?",
    memory: "Kattegat Marine Lab to Nordic",
    answer: "Kattegat Marine Lab.",
    verdict: { aa: 0, rank: 2, diag: 0 },
  },
  {
    id: `${P1}:4:Q_003`,
    kind: "dynamic",
    question: "What is the user's job title now?",
    memory: "Junior to Senior",
    answer: "Senior, previously Junior.",
    verdict: { aa: 1, rank: 5, diag: 1 },
  },
  {
    id: `${P1}:4:Q_004`,
    kind: "dynamic",
    question: "Which industry does the user work in now?",
    memory: "Research to Environmental",
    answer: "Environmental.",
    verdict: "malformed",
  },
  {
    id: `${P1}:4:Q_005`,
    kind: "dynamic",
    question: "Is the user still employed?",
    memory: "stayed Employed",
    verdict: { aa: 1, rank: 1, diag: 1 },
  },
  {
    id: `${P1}:6:Q_001`,
    kind: "dynamic",
    question: "Has the user's workload changed recently?",
    memory: "Normal to Free",
    answer: "Yes, it eased.",
    verdict: { aa: 1, rank: 1, diag: 0 },
  },
  {
    id: `${P1}:6:Q_002`,
    kind: "dynamic",
    question: "How has the user's workload changed?",
    memory: "Normal to Free",
    answer: "Less work now.",
    verdict: { aa: 0.5, rank: 1, diag: 1 },
  },
  // Dynamic, persona 2.
  {
    id: `${P2}:2:Q_001`,
    kind: "dynamic",
    question: "Has the user's social life changed recently?",
    memory: "Keeping to Oneself",
    answer: "Yes.",
    verdict: { aa: 1, rank: 2, diag: 1 },
  },
  {
    id: `${P2}:2:Q_002`,
    kind: "dynamic",
    question: "How has the user's social life changed?",
    memory: "Keeping to Oneself",
    answer: "He stays home more.",
    verdict: { aa: 0, rank: 3, diag: 0 },
  },
  {
    id: `${P2}:2:Q_003`,
    kind: "dynamic",
    question: "Has the user's relationship status changed recently?",
    memory: "Dating \\(Ines Duarte\\)",
    answer: "Yes, he got married.",
    verdict: { aa: 1, rank: 0, diag: 1 },
  },
  {
    id: `${P2}:2:Q_004`,
    kind: "dynamic",
    question: "How has the user's relationship status changed?",
    memory: "Dating \\(Ines Duarte\\)",
    answer: "From dating Ines to married.",
    verdict: { aa: 1, rank: 1, diag: 1 },
  },
  // Static.
  {
    id: `${P1}:4:Q_006`,
    kind: "static",
    question: "Where was the user born?",
    memory: "Uppsala",
    answer: "Uppsala, though Tromso was also mentioned.",
    verdict: { aa: 1, rank: 1, diag: 1 },
  },
  {
    id: `${P1}:5:Q_001`,
    kind: "static",
    question: "What did the user study at university?",
    memory: "Marine Biology",
    answer: "Marine science.",
    verdict: { aa: 0.5, rank: 2, diag: 0 },
  },
  // Parses as JSON but lacks the static diagnostic `crs`: a schema failure.
  {
    id: `${P2}:3:Q_001`,
    kind: "static",
    question: "Does the user have any siblings?",
    memory: "has siblings: Yes",
    answer: "Yes.",
    verdict: { aa: 1, rank: 1 },
  },
  {
    id: `${P2}:3:Q_002`,
    kind: "static",
    question: "How many siblings does the user have?",
    memory: "sibling count: 2",
    answer: "None, he is an only child, though 2 was said once.",
    verdict: { aa: 0, rank: 3, diag: 1 },
  },
  // Conditional (a 0.5 there is off its binary scale).
  {
    id: `${P1}:3:Q_005`,
    kind: "conditional",
    question: "For the user's beverage preference, when does the user choose Cardamom Tea?",
    memory: "Slow Sunday",
    answer: "On slow Sunday mornings at home.",
    verdict: { aa: 1, rank: 1 },
  },
  {
    id: `${P1}:5:Q_002`,
    kind: "conditional",
    question: "For the user's beverage preference, under what condition does the user pick Iced Lemon Water?",
    memory: "After long lab days",
    answer: "In winter.",
    verdict: { aa: 0.5, rank: 3 },
  },
  {
    id: `${P2}:3:Q_003`,
    kind: "conditional",
    question: "For the user's music preference, when does the user listen to Afrobeat Playlists?",
    memory: "Cooking dinner",
    answer: "On long drives.",
    verdict: { aa: 0, rank: 0 },
  },
];

const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function script(): string {
  const rules: unknown[] = [{ role: "judge", match: "could not be used", reply: "sorry, no JSON this time" }];
  const answered = new Set<string>();
  for (const s of PLAN) {
    if (s.answer === undefined || answered.has(s.question)) continue;
    answered.add(s.question);
    rules.push({ role: "answerer", match: `Question: ${esc(s.question)}\\nAnswer:`, reply: s.answer });
  }
  for (const s of PLAN) {
    const v = s.verdict;
    const diag = s.kind === "dynamic" ? "uocs" : "crs";
    const reply =
      v === "malformed"
        ? "I would say the answer is mostly right"
        : {
            aa: v.aa,
            first_support_rank: v.rank,
            ...(v.diag !== undefined ? { [diag]: v.diag } : {}),
            reason: "scripted",
          };
    rules.push({ role: "judge", match: `Question: ${esc(s.question)}\\n[\\s\\S]*${s.memory}`, reply });
  }
  return `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`;
}

const SRS2 = 1 / Math.log2(3);
const SRS4 = 1 / Math.log2(5);
const SRS5 = 1 / Math.log2(6);

function close(actual: number | null | undefined, expected: number, what: string) {
  assert.ok(
    typeof actual === "number" && Math.abs(actual - expected) < 1e-6,
    `${what}: expected ${expected}, got ${actual}`,
  );
}

/**
 * Expected values, by hand from PLAN. Ranks (malformed → 0): dynamic 1,2,3,0,4,2,5,0,1,1,1,2,3,0,1;
 * static 1,2,0,3; conditional 1,3,0. AA on the paper scale: dynamic 7/15 (1s at Q1, Q3, job title,
 * workload-6, social-1, relationship-3/4; the answer call of "still employed" fails, so 0), static 1/4,
 * conditional 1/3. The code scale adds the three dynamic halves (8.5/15) and the static half (1.5/4);
 * the conditional half stays 0.
 */
const DYN = {
  "seh@2": 8 / 15,
  "seh@3": 10 / 15,
  "seh@5": 12 / 15,
  "srs@2": (5 + 3 * SRS2) / 15,
  "srs@3": (5 + 3 * SRS2 + 2 * 0.5) / 15,
  "srs@5": (5 + 3 * SRS2 + 2 * 0.5 + SRS4 + SRS5) / 15,
  uocs: 8 / 15,
};
const STAT = {
  "seh@2": 2 / 4,
  "seh@3": 3 / 4,
  "seh@5": 3 / 4,
  "srs@2": (1 + SRS2) / 4,
  "srs@3": (1 + SRS2 + 0.5) / 4,
  "srs@5": (1 + SRS2 + 0.5) / 4,
  crs: 2 / 4,
};
const COND = {
  "seh@2": 1 / 3,
  "seh@3": 2 / 3,
  "seh@5": 2 / 3,
  "srs@2": 1 / 3,
  "srs@3": 1.5 / 3,
  "srs@5": 1.5 / 3,
};

let out: string;
let runDir: string;
let row: ScoredRow;
let records: ProbeRecord[];

before(async () => {
  out = mkdtempSync(join(tmpdir(), "memconflict-e2e-"));
  const file = join(out, "script.jsonl");
  writeFileSync(file, script());
  const outcome = await startRun({
    benchmark: "memconflict",
    data: fixture("memconflict/Step4_4.jsonl"),
    systems: ["full-context"],
    llm: `scripted:${file}`,
    out,
    id: "e2e",
    progress: false,
  });
  assert.equal(outcome.failedUnits, 0);
  runDir = outcome.dir;
  row = outcome.summary.results.find((r) => r.system === "full-context" && r.setting === "default") as ScoredRow;
  records = readRecords(runDir);
});
after(() => rmSync(out, { recursive: true, force: true }));

describe("memconflict scoring end to end on the fixture (paper scale, the default)", () => {
  it("ran every question, with one failed answer call and at least five items to rank everywhere", () => {
    assert.equal(records.length, 22);
    assert.equal(row.n, 22);
    const failed = records.filter((r) => r.answerError !== undefined).map((r) => r.probeId);
    assert.deepEqual(failed, [`${P1}:4:Q_005`]);
    assert.equal(row.metrics.answer_failures, 1);
    for (const r of records) assert.ok(r.retrieved.length >= 5, r.probeId);
  });

  it("per-type AA, UOCS, CRS, SEH@k, SRS@k and EUG match the hand computation", () => {
    const m = row.metrics;
    assert.deepEqual([m.dynamic_n, m.static_n, m.conditional_n], [15, 4, 3]);
    close(m.dynamic_aa, 7 / 15, "dynamic_aa");
    close(m.static_aa, 1 / 4, "static_aa");
    close(m.conditional_aa, 1 / 3, "conditional_aa");
    for (const [kind, expected] of [
      ["dynamic", DYN],
      ["static", STAT],
      ["conditional", COND],
    ] as const) {
      for (const [key, value] of Object.entries(expected)) close(m[`${kind}_${key}`], value, `${kind}_${key}`);
    }
    assert.equal(m.conditional_uocs, undefined);
    assert.equal(m.dynamic_crs, undefined);
    close(m.dynamic_eug, 10 / 15 - 7 / 15, "dynamic_eug");
    close(m.static_eug, 3 / 4 - 1 / 4, "static_eug");
    close(m.conditional_eug, 2 / 3 - 1 / 3, "conditional_eug");
  });

  it("macro averages over the three types are the headline", () => {
    const m = row.metrics;
    close(m.aa, (7 / 15 + 1 / 4 + 1 / 3) / 3, "aa");
    for (const k of ["seh@2", "seh@3", "seh@5", "srs@2", "srs@3", "srs@5"] as const) {
      close(m[k], (DYN[k] + STAT[k] + COND[k]) / 3, k);
    }
    close(m.eug, (3 / 15 + 2 / 4 + 1 / 3) / 3, "eug");
    close(m.uocs, 8 / 15, "uocs");
    close(m.crs, 2 / 4, "crs");
  });

  it("wrong answers split into retrieval and utilisation failures per type and overall", () => {
    const m = row.metrics;
    // Dynamic wrong (AA 0 after the binary scale): Q2 r2 UF, work rhythm r0 RF, career r4 RF, company r2 UF,
    // industry (malformed) r0 RF, still employed (failed answer) r1 UF, workload-6 Q2 r1 UF, social Q2 r3 UF.
    assert.deepEqual([m.dynamic_failures, m.dynamic_rf_count, m.dynamic_uf_count], [8, 3, 5]);
    close(m.dynamic_rf_over_failures, 3 / 8, "dynamic_rf_over_failures");
    close(m.dynamic_uf_over_all, 5 / 15, "dynamic_uf_over_all");
    // Static: major r2 UF, siblings (no crs) r0 RF, sibling count r3 UF. Conditional: lemon water r3 UF, afrobeat r0 RF.
    assert.deepEqual([m.static_failures, m.static_rf_count, m.static_uf_count], [3, 1, 2]);
    assert.deepEqual([m.conditional_failures, m.conditional_rf_count, m.conditional_uf_count], [2, 1, 1]);
    close(m.conditional_rf_over_all, 1 / 3, "conditional_rf_over_all");
    assert.deepEqual([m.failures, m.rf_count, m.uf_count], [13, 5, 8]);
    close(m.rf_over_failures, 5 / 13, "rf_over_failures");
    close(m.uf_over_all, 8 / 22, "uf_over_all");
  });

  it("judge failures are counted and listed; the failed answer is noted on its probe", () => {
    assert.equal(row.judge_failures, 2);
    assert.deepEqual(row.judgeFailureList?.map((f) => f.probeId).sort(), [`${P1}:4:Q_004`, `${P2}:3:Q_001`].sort());
    assert.deepEqual(row.judges, ["judge"]);
    assert.equal(row.promptSet, "membench");
    assert.ok(!row.skipped.includes("judge"));
  });

  it("provenance ranks agree with the runner's seh_prov/srs_prov and are kept apart from the judge's", () => {
    for (const kind of ["dynamic", "static", "conditional"]) {
      const mine = records.filter((r) => r.labels.conflict_type === kind);
      for (const k of [2, 3, 5]) {
        for (const metric of ["seh_prov", "srs_prov"]) {
          const runner = mine.reduce((a, r) => a + (r.retrieval?.[`${metric}@${k}`] ?? Number.NaN), 0) / mine.length;
          close(row.metrics[`${kind}_${metric}@${k}`], runner, `${kind}_${metric}@${k}`);
        }
      }
    }
    const byType = (k: string) => ["dynamic", "static", "conditional"].map((t) => row.metrics[`${t}_seh_prov@${k}`]!);
    close(row.metrics["seh_prov_macro@3"], byType("3").reduce((a, b) => a + b) / 3, "seh_prov_macro@3");
  });

  it("tables() gives Tables 3, 4 and 7 in the paper's layout with our numbers", () => {
    const [t3, t4, t7] = row.tables ?? [];
    assert.deepEqual([t3?.id, t4?.id, t7?.id], ["table3", "table4", "table7"]);
    const c3 = t3!.rows[0]!.cells;
    assert.equal(t3!.rows[0]!.label, "full-context");
    close(c3.dynamic_uocs, 8 / 15, "T3 dynamic_uocs");
    close(c3.static_crs, 2 / 4, "T3 static_crs");
    close(c3.aa, (7 / 15 + 1 / 4 + 1 / 3) / 3, "T3 aa");
    close(t4!.rows[0]!.cells["conditional_srs@3"], 1.5 / 3, "T4 conditional_srs@3");
    close(t4!.rows[0]!.cells["srs@3"], (DYN["srs@3"] + STAT["srs@3"] + COND["srs@3"]) / 3, "T4 srs@3");
    close(t7!.rows[0]!.cells.static_eug, 0.5, "T7 static_eug");
    assert.deepEqual(t3!.rows[0]!.n, {
      dynamic_aa: 15,
      dynamic_uocs: 15,
      static_aa: 4,
      static_crs: 4,
      conditional_aa: 3,
      aa: 22,
    });
  });

  it("byLabel cells use the same aggregate: the dynamic cell's AA is the dynamic AA", () => {
    const dyn = row.byLabel.conflict_type?.dynamic as Record<string, number> | undefined;
    close(dyn?.aa, 7 / 15, "byLabel dynamic aa");
    close(dyn?.["seh@3"], 10 / 15, "byLabel dynamic seh@3");
  });
});

describe("memconflict re-scored on the released code's scale", () => {
  let rescored: ScoredRow;
  let scores: ProbeScore[];
  before(async () => {
    const outcome = await scoreRun(runDir, { options: { aa: "code" } });
    rescored = outcome.summary.results.find((r) => r.system === "full-context" && r.setting === "default") as ScoredRow;
    scores = outcome.scores;
  });

  it("keeps half credit for dynamic and static, not for conditional; retrieval numbers do not move", () => {
    const m = rescored.metrics;
    close(m.dynamic_aa, 8.5 / 15, "dynamic_aa");
    close(m.static_aa, 1.5 / 4, "static_aa");
    close(m.conditional_aa, 1 / 3, "conditional_aa");
    close(m.aa, (8.5 / 15 + 1.5 / 4 + 1 / 3) / 3, "aa");
    close(m.eug, (1.5 / 15 + 1.5 / 4 + 1 / 3) / 3, "eug");
    close(m["seh@3"], (DYN["seh@3"] + STAT["seh@3"] + COND["seh@3"]) / 3, "seh@3");
    close(m.uocs, 8 / 15, "uocs");
  });

  it("counts a half answer as answered in the failure split", () => {
    const m = rescored.metrics;
    assert.deepEqual([m.dynamic_failures, m.dynamic_rf_count, m.dynamic_uf_count], [5, 2, 3]);
    assert.deepEqual([m.static_failures, m.static_rf_count, m.static_uf_count], [2, 1, 1]);
    assert.deepEqual([m.conditional_failures, m.conditional_rf_count, m.conditional_uf_count], [2, 1, 1]);
    assert.match(rescored.tables?.[0]?.note ?? "", /0 \/ 0\.5 \/ 1/);
  });

  it("stores per-probe scores with the failed answer noted and the malformed verdict scored worst", () => {
    const employed = scores.find((s) => s.probeId === `${P1}:4:Q_005`)!;
    assert.equal(employed.metrics.aa, 0);
    assert.equal(employed.metrics.support_rank, 1);
    assert.match(employed.skipped?.answer ?? "", /answer call failed/);
    const industry = scores.find((s) => s.probeId === `${P1}:4:Q_004`)!;
    assert.equal(industry.judgeFailures, 1);
    assert.deepEqual([industry.metrics.aa, industry.metrics.uocs, industry.metrics.support_rank], [0, 0, 0]);
  });
});
