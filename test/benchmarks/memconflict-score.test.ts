import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadMemconflict } from "../../src/benchmarks/memconflict/load.ts";
import {
  memconflictPaperTables,
  memconflictTable3,
  memconflictTable4,
  memconflictTable7,
  type ReportedTable,
} from "../../src/benchmarks/memconflict/paper.ts";
import {
  aggregateMemconflict,
  diagnosticsOf,
  formatRetrieved,
  memconflictScorer,
  memconflictTables,
} from "../../src/benchmarks/memconflict/score.ts";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord, RetrievedRecord } from "../../src/core/record.ts";
import { createChatModel } from "../../src/llm/create.ts";
import type { JudgeContext } from "../../src/score/judge.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import { rankUnits, retrievalMetrics } from "../../src/score/retrieval.ts";
import type { ProbeScore, ScoreContext } from "../../src/score/types.ts";
import { fixture } from "../support/shared-data.ts";

const SRS2 = 1 / Math.log2(3);
const close = (actual: number | undefined | null, expected: number, eps = 1e-9) =>
  assert.ok(
    actual !== undefined && actual !== null && Math.abs(actual - expected) <= eps,
    `expected ${expected}, got ${actual}`,
  );

let dir: string;
let episodes: Episode[];
let scriptCount = 0;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "memconflict-score-"));
  episodes = (await loadMemconflict(fixture("memconflict/Step4_4.jsonl"))).episodes;
});
after(() => rmSync(dir, { recursive: true, force: true }));

function probe(id: string): { probe: Probe; episode: Episode } {
  for (const episode of episodes) {
    const found = episode.probes.find((p) => p.id.endsWith(id));
    if (found) return { probe: found, episode };
  }
  throw new Error(`no probe ${id}`);
}

// Fixture probes of each conflict type (persona 7d3f…): their gold evidence sessions are in the comments.
const DYNAMIC = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8:3:Q_002"; // Residence, sessions 0 and 3
const STATIC = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8:4:Q_006"; // Birthplace, sessions 0 and 4
const CONDITIONAL = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8:3:Q_005"; // Cardamom Tea, session 0

const FIVE: RetrievedRecord[] = [
  { rank: 1, text: "Neighbor mentioned living in Bergen.", score: 5, time: "2022-02-11", sessionIds: ["2"] },
  { rank: 2, text: "User just moved to Oslo from Gothenburg.", score: 4, time: "2022-03-08", sessionIds: ["3"] },
  { rank: 3, text: "User lives in Gothenburg.", score: 3, time: "2022-01-04", sessionIds: ["0"] },
  { rank: 4, text: "User likes cardamom tea on slow Sundays.", score: 2, sessionIds: ["0"] },
  { rank: 5, text: "User works at a marine lab.", score: 1, sessionIds: ["1"] },
];

function record(p: Probe, over: Partial<ProbeRecord> = {}): ProbeRecord {
  return {
    unitId: "bm25|e",
    system: "bm25",
    episodeId: "e",
    probeId: p.id,
    setting: "default",
    question: p.question,
    labels: p.labels,
    status: "done",
    retrieved: FIVE,
    context: { text: "", tokens: 0, used: 3 },
    answer: "some answer",
    timings: { flushMs: 0, searchMs: 0 },
    ...over,
  };
}

type Rule = { match?: string; model?: string; reply: unknown };

/** Judges scripted by `rules` (role judge); the repair turn after an unusable reply gets garbage again. */
function judges(rules: Rule[], names = ["judge-a"], prompts = new PromptSet()): JudgeContext {
  const file = join(dir, `judge-${scriptCount++}.jsonl`);
  const lines = [
    { role: "judge", match: "could not be used", reply: "still {not json" },
    ...rules.map((r) => ({ role: "judge", ...r })),
  ];
  writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
  return {
    judges: names.map((name) => ({
      name,
      model: createChatModel({ spec: { kind: "scripted", file, name }, cache: false }),
    })),
    runs: 1,
    prompts,
  };
}

const verdict = (aa: number, rank: number, extra: Record<string, unknown> = {}) => ({
  aa,
  first_support_rank: rank,
  reason: "scripted",
  ...extra,
});

async function score(id: string, judge: JudgeContext | undefined, over: Partial<ProbeRecord> = {}, aa = "paper") {
  const { probe: p, episode } = probe(id);
  const ctx: ScoreContext = { judge, options: { aa } };
  return memconflictScorer.scoreProbe({ record: record(p, over), probe: p, episode }, ctx);
}

describe("memconflict scorer: golden arithmetic", () => {
  it("SRS at ranks 1, 2, 3 is 1, 0.6309, 0.5 (and SEH/SRS are cut at each K)", async () => {
    const expected: Record<number, number> = { 1: 1, 2: 0.6309, 3: 0.5, 4: 0.4307, 5: 0.3869 };
    for (const rank of [1, 2, 3, 4, 5]) {
      const out = await score(DYNAMIC, judges([{ reply: verdict(1, rank, { uocs: 1 }) }]));
      assert.equal(out.metrics.support_rank, rank);
      close(out.metrics["srs@5"], expected[rank]!, 5e-5);
      assert.equal(out.metrics["seh@5"], 1);
      assert.equal(out.metrics["seh@3"], rank <= 3 ? 1 : 0);
      assert.equal(out.metrics["seh@2"], rank <= 2 ? 1 : 0);
      assert.equal(out.metrics["srs@3"], rank <= 3 ? out.metrics["srs@5"] : 0);
      assert.equal(out.metrics["srs@2"], rank <= 2 ? out.metrics["srs@5"] : 0);
    }
    assert.equal((await score(DYNAMIC, judges([{ reply: verdict(1, 2, { uocs: 1 }) }]))).metrics["srs@3"], SRS2);
  });

  it("Table 7 equals Table 4 SEH@3 minus Table 3 AA, cell by cell (paper numbers, spec §7)", () => {
    for (const t7 of memconflictTable7.rows) {
      const aa = memconflictTable3.rows.find((r) => r.system === t7.system)!.cells;
      const seh = memconflictTable4.rows.find((r) => r.system === t7.system)!.cells;
      for (const kind of ["dynamic", "static", "conditional"]) {
        // Both inputs are rounded to 4 decimals, so their difference may be off by one unit in the last place.
        close(seh[`${kind}_seh@3`]! - aa[`${kind}_aa`]!, t7.cells[`${kind}_eug`]!, 1.01e-4);
      }
      close(seh["seh@3"]! - aa.aa!, t7.cells.eug!, 1.01e-4);
    }
    // Recomputed by hand: A-Mem dynamic 0.5205 − 0.3596 = 0.1609; Letta static 0.4167 − 0.2223 = 0.1944.
    close(0.5205 - 0.3596, memconflictTable7.rows[0]!.cells.dynamic_eug!, 1e-9);
    close(0.4167 - 0.2223, memconflictTable7.rows[2]!.cells.static_eug!, 1e-9);
  });

  it("aggregate() reproduces the paper's averages and EUG from its per-type AA and SEH@3", () => {
    for (const t3 of memconflictTable3.rows) {
      const t4 = memconflictTable4.rows.find((r) => r.system === t3.system)!.cells;
      const t7 = memconflictTable7.rows.find((r) => r.system === t3.system)!.cells;
      // One stand-in question per type whose values are the paper's per-type means.
      const scores = (["dynamic", "static", "conditional"] as const).map((kind) => {
        const aa = t3.cells[`${kind}_aa`]!;
        const seh = t4[`${kind}_seh@3`]!;
        return scoreOf(kind, { aa, "seh@3": seh, "srs@3": t4[`${kind}_srs@3`]!, ...diagnosticsOf(aa, seh) });
      });
      const m = aggregateMemconflict(scores);
      close(m.aa, t3.cells.aa!, 1.01e-4);
      close(m["seh@3"], t4["seh@3"]!, 1.01e-4);
      close(m["srs@3"], t4["srs@3"]!, 1.01e-4);
      for (const kind of ["dynamic", "static", "conditional"]) close(m[`${kind}_eug`], t7[`${kind}_eug`]!, 1.01e-4);
      close(m.eug, t7.eug!, 1.01e-4);
    }
  });

  it("paper.ts tables use the same columns as tables() and every row is complete", () => {
    const ours = memconflictTables([scoreOf("dynamic", { aa: 1 })], { options: { aa: "paper" } });
    assert.deepEqual(
      ours.map((t) => [t.id, t.columns]),
      memconflictPaperTables.map((t: ReportedTable) => [t.id, t.columns]),
    );
    for (const t of memconflictPaperTables) {
      assert.equal(t.rows.length, 6);
      for (const r of t.rows) assert.deepEqual(Object.keys(r.cells), t.columns);
    }
    assert.equal(memconflictTable3.rows.find((r) => r.system === "MemOS")!.cells.aa, 0.5539);
  });
});

function scoreOf(kind: string, metrics: Record<string, number>, setting: "default" | "oracle" = "default"): ProbeScore {
  return {
    metrics,
    verdicts: [],
    judgeFailures: 0,
    system: "bm25",
    setting,
    episodeId: "e",
    probeId: `p${Math.random()}`,
    labels: { conflict_type: kind },
  };
}

describe("memconflict scorer: one probe", () => {
  it("a correct dynamic answer: AA 1, UOCS 1, support at rank 2, no failure", async () => {
    const out = await score(DYNAMIC, judges([{ match: "live before", reply: verdict(1, 2, { uocs: 1 }) }]));
    assert.equal(out.judgeFailures, 0);
    assert.equal(out.verdicts.length, 1);
    assert.equal(out.verdicts[0]!.ok, true);
    assert.equal(out.verdicts[0]!.template, "memconflict/judge-dynamic");
    assert.deepEqual(out.metrics, {
      support_rank_prov: 2, // session positions 2, 3, 0, 1: session 3 (gold) comes second
      aa: 1,
      uocs: 1,
      support_rank: 2,
      "seh@2": 1,
      "srs@2": SRS2,
      "seh@3": 1,
      "srs@3": SRS2,
      "seh@5": 1,
      "srs@5": SRS2,
      eug: 0,
      rf: 0,
      uf: 0,
    });
    assert.equal(out.skipped, undefined);
  });

  it("half credit is wrong on the paper's scale and 0.5 on the code's; conditional has no half credit", async () => {
    const half = [{ reply: verdict(0.5, 1, { uocs: 1, crs: 1 }) }];
    const paper = await score(DYNAMIC, judges(half), {}, "paper");
    assert.equal(paper.metrics.aa, 0);
    assert.equal(paper.metrics.uf, 1, "a half answer with support in the top 3 is a utilisation failure");
    assert.equal(paper.metrics.eug, 1);
    const code = await score(DYNAMIC, judges(half), {}, "code");
    assert.equal(code.metrics.aa, 0.5);
    assert.equal(code.metrics.uf, 0, "the released code counts 0.5 as answered");
    assert.equal(code.metrics.rf, 0);
    assert.equal(code.metrics.eug, 0.5);
    assert.equal((await score(STATIC, judges(half), {}, "code")).metrics.aa, 0.5);
    assert.equal((await score(CONDITIONAL, judges(half), {}, "code")).metrics.aa, 0);
  });

  it("wrong answers split into retrieval failures (no support in the top 3) and utilisation failures", async () => {
    const rf = await score(STATIC, judges([{ reply: verdict(0, 4, { crs: 0 }) }]));
    assert.deepEqual(
      [rf.metrics.aa, rf.metrics.rf, rf.metrics.uf, rf.metrics["seh@3"], rf.metrics["seh@5"]],
      [0, 1, 0, 0, 1],
    );
    assert.equal(rf.metrics.crs, 0);
    const uf = await score(STATIC, judges([{ reply: verdict(0, 3, { crs: 1 }) }]));
    assert.deepEqual([uf.metrics.aa, uf.metrics.rf, uf.metrics.uf, uf.metrics.crs], [0, 0, 1, 1]);
    assert.equal(uf.metrics.uocs, undefined, "UOCS is for dynamic questions only");
    const cond = await score(CONDITIONAL, judges([{ reply: verdict(1, 4) }]));
    assert.equal(cond.metrics.aa, 1);
    assert.equal(cond.metrics.eug, -1);
    assert.equal(cond.metrics.crs, undefined);
    assert.equal(cond.metrics.uocs, undefined);
  });

  it("an unparseable verdict is a counted failure scored as the worst outcome, and scoring goes on", async () => {
    const out = await score(DYNAMIC, judges([{ reply: "The answer looks right to me." }]));
    assert.equal(out.judgeFailures, 1);
    assert.equal(out.verdicts[0]!.ok, false);
    assert.match(out.verdicts[0]!.failure ?? "", /unusable/);
    assert.equal(out.metrics.aa, 0);
    assert.equal(out.metrics.uocs, 0);
    assert.equal(out.metrics.support_rank, 0);
    assert.equal(out.metrics["seh@5"], 0);
    assert.equal(out.metrics.rf, 1);
  });

  it("a verdict off the scale or without its type's diagnostic is a failure, not a guess", async () => {
    const offScale = await score(DYNAMIC, judges([{ reply: verdict(0.7, 1, { uocs: 1 }) }]));
    assert.equal(offScale.judgeFailures, 1);
    assert.equal(offScale.metrics.aa, 0);
    const noCrs = await score(STATIC, judges([{ reply: verdict(1, 1) }]));
    assert.equal(noCrs.judgeFailures, 1);
    assert.deepEqual([noCrs.metrics.aa, noCrs.metrics.crs, noCrs.metrics.support_rank], [0, 0, 0]);
    const badRank = await score(CONDITIONAL, judges([{ reply: verdict(1, 6) }]));
    assert.equal(badRank.judgeFailures, 1);
  });

  it("a rank past the listed items points at nothing and counts as not found", async () => {
    const out = await score(DYNAMIC, judges([{ reply: verdict(1, 4, { uocs: 1 }) }]), { retrieved: FIVE.slice(0, 2) });
    assert.equal(out.metrics.support_rank, 0);
    assert.equal(out.metrics["seh@5"], 0);
  });

  it("no answer model: answer metrics are skipped (never 0), support still comes from the judge", async () => {
    const out = await score(DYNAMIC, judges([{ reply: verdict(1, 1, { uocs: 1 }) }]), {
      answer: undefined,
      answerSkipped: "no model configured",
    });
    for (const key of ["aa", "uocs", "eug", "rf", "uf"]) {
      assert.equal(out.metrics[key], undefined, key);
      assert.equal(out.skipped?.[key], "no answer: no model configured");
    }
    assert.equal(out.metrics["seh@3"], 1);
    assert.equal(out.metrics.support_rank, 1);
  });

  it("a failed answer call is a wrong answer whatever the judge says", async () => {
    const out = await score(STATIC, judges([{ reply: verdict(1, 1, { crs: 1 }) }]), {
      answer: undefined,
      answerError: "HTTP 500 from the endpoint",
    });
    assert.equal(out.metrics.aa, 0);
    assert.equal(out.metrics.crs, 0);
    assert.equal(out.metrics.uf, 1);
    assert.match(out.skipped?.answer ?? "", /HTTP 500.*wrong answer/);
  });

  it("no judge configured: judged metrics skipped with the reason, provenance rank still computed", async () => {
    const out = await score(STATIC, undefined);
    assert.deepEqual(out.metrics, { support_rank_prov: 3 }); // positions 2, 3, 0: session 3 is not gold here, 0 is
    assert.equal(out.verdicts.length, 0);
    assert.equal(out.skipped?.aa, "no judge configured");
    assert.equal(out.skipped?.crs, "no judge configured");
    assert.equal(out.skipped?.["srs@3"], "no judge configured");
    assert.equal(out.skipped?.uocs, undefined);
  });

  it("the provenance rank agrees with the runner's seh_prov/srs_prov positions", async () => {
    const { probe: p } = probe(DYNAMIC);
    const shuffled = [FIVE[4]!, FIVE[4]!, FIVE[0]!, FIVE[2]!];
    const out = await score(DYNAMIC, undefined, { retrieved: shuffled });
    const runner = retrievalMetrics(rankUnits(shuffled, "session"), new Set(p.gold.evidenceSessionIds), {
      ks: [5],
      supportKs: [2, 3, 5],
    });
    assert.equal(out.metrics.support_rank_prov, 3);
    assert.equal(runner["seh_prov@2"], 0);
    assert.equal(runner["srs_prov@3"], 0.5);
    const noProvenance = await score(DYNAMIC, undefined, { retrieved: [{ rank: 1, text: "x", score: 1 }] });
    assert.equal(noProvenance.metrics.support_rank_prov, undefined);
  });

  it("several judges vote per field; ties and failures go to the worse outcome", async () => {
    const two = judges(
      [
        { model: "judge-a", reply: verdict(1, 1, { uocs: 1 }) },
        { model: "judge-b", reply: verdict(0, 3, { uocs: 1 }) },
      ],
      ["judge-a", "judge-b"],
    );
    const tie = await score(DYNAMIC, two);
    assert.deepEqual([tie.metrics.aa, tie.metrics.support_rank, tie.metrics.uocs], [0, 3, 1]);
    const three = judges(
      [
        { model: "judge-a", reply: verdict(1, 2, { uocs: 1 }) },
        { model: "judge-b", reply: verdict(1, 2, { uocs: 0 }) },
        { model: "judge-c", reply: "garbage" },
      ],
      ["judge-a", "judge-b", "judge-c"],
    );
    const out = await score(DYNAMIC, three);
    assert.equal(out.judgeFailures, 1);
    assert.deepEqual([out.metrics.aa, out.metrics.support_rank, out.metrics.uocs], [1, 2, 0]);
    assert.deepEqual(
      out.verdicts.map((v) => [v.judge, v.ok]),
      [
        ["judge-a", true],
        ["judge-b", true],
        ["judge-c", false],
      ],
    );
  });

  it("the judge reads the question, gold, supporting memory, the type's competitor and the numbered top 5", async () => {
    // The rule only fires when every piece is in the prompt; otherwise the scripted judge fails.
    const must = [
      "Question: Where was the user born\\?",
      "Uppsala, Sweden",
      "born in Tromso and grew up above the Arctic Circle",
      "Answer to grade:\\nUppsala, though she also says Tromso",
      "1\\. \\[2022-02-11\\] Neighbor mentioned living in Bergen\\.",
      "5\\. User works at a marine lab\\.",
      "an integer from 0 to 5",
    ];
    const rule = { match: must.map((m) => `(?=[\\s\\S]*${m})`).join(""), reply: verdict(1, 3, { crs: 1 }) };
    const out = await score(STATIC, judges([rule]), { answer: "Uppsala, though she also says Tromso" });
    assert.equal(out.judgeFailures, 0, out.verdicts[0]?.failure);
    assert.equal(out.metrics.crs, 1);
    assert.equal(formatRetrieved([]), "(no memories were retrieved)");
    assert.equal(formatRetrieved([...FIVE, { ...FIVE[0]!, rank: 6 }]).split("\n").length, 5);
  });

  it("--prompts overrides a template and the verdict names the prompt set", async () => {
    const own = join(dir, "official");
    mkdirSync(join(own, "memconflict"), { recursive: true });
    writeFileSync(join(own, "memconflict", "judge-conditional.md"), "OWN WORDING {{question}} / {{retrieved}}");
    const ctx = judges([{ match: "^OWN WORDING", reply: verdict(1, 1) }], ["judge-a"], new PromptSet(own));
    const out = await score(CONDITIONAL, ctx);
    assert.equal(out.judgeFailures, 0);
    assert.equal(out.verdicts[0]!.promptSet, "official");
    assert.equal(out.metrics.aa, 1);
  });

  it("an unknown conflict type is skipped, not judged", async () => {
    const { probe: p, episode } = probe(DYNAMIC);
    const odd = { ...p, labels: { ...p.labels, conflict_type: "temporal_conflict" } };
    const out = await memconflictScorer.scoreProbe(
      { record: record(odd), probe: odd, episode },
      { judge: judges([{ reply: verdict(1, 1, { uocs: 1 }) }]), options: { aa: "paper" } },
    );
    assert.equal(out.verdicts.length, 0);
    assert.match(out.skipped?.aa ?? "", /unknown conflict type "temporal_conflict"/);
  });
});

describe("memconflict scorer: aggregate and tables", () => {
  const d = (aa: number, rank: number, uocs: number, prov?: number) =>
    scoreOf("dynamic", {
      aa,
      uocs,
      support_rank: rank,
      "seh@3": rank >= 1 && rank <= 3 ? 1 : 0,
      "srs@3": rank >= 1 && rank <= 3 ? 1 / Math.log2(rank + 1) : 0,
      ...diagnosticsOf(aa, rank >= 1 && rank <= 3 ? 1 : 0),
      ...(prov !== undefined ? { support_rank_prov: prov } : {}),
    });
  const s = (aa: number, hit: number, crs: number) =>
    scoreOf("static", { aa, crs, "seh@3": hit, "srs@3": hit, ...diagnosticsOf(aa, hit) });
  const scores = [
    d(1, 1, 1, 1),
    d(0, 0, 0, 4), // retrieval failure
    d(0, 2, 1, 0), // utilisation failure
    d(0.5, 3, 1, 2), // answered (code scale)
    s(1, 1, 1),
    s(0, 1, 0), // utilisation failure
  ];

  it("per type, macro over the types present, UOCS/CRS for their type, failures as counts and rates", () => {
    const m = aggregateMemconflict(scores);
    close(m.dynamic_aa, 1.5 / 4);
    close(m["dynamic_seh@3"], 3 / 4);
    close(m["dynamic_srs@3"], (1 + SRS2 + 0.5) / 4);
    close(m.dynamic_eug, 3 / 4 - 1.5 / 4);
    close(m.dynamic_uocs, 3 / 4);
    close(m.static_aa, 1 / 2);
    close(m.static_crs, 1 / 2);
    close(m.static_eug, 1 / 2);
    assert.equal(m.dynamic_n, 4);
    assert.equal(m.static_n, 2);
    assert.equal(m.conditional_aa, undefined);
    close(m.aa, (1.5 / 4 + 1 / 2) / 2);
    close(m["seh@3"], (3 / 4 + 1) / 2);
    close(m.eug, (3 / 8 + 1 / 2) / 2);
    close(m.uocs, 3 / 4);
    close(m.crs, 1 / 2);
    assert.deepEqual(
      [m.dynamic_failures, m.dynamic_rf_count, m.dynamic_uf_count, m.dynamic_rf_over_failures, m.dynamic_rf_over_all],
      [2, 1, 1, 0.5, 0.25],
    );
    assert.deepEqual(
      [m.static_failures, m.static_rf_count, m.static_uf_count, m.static_uf_over_failures],
      [1, 0, 1, 1],
    );
    assert.deepEqual([m.failures, m.rf_count, m.uf_count], [3, 1, 2]);
    close(m.rf_over_failures, 1 / 3);
    close(m.uf_over_all, 2 / 6);
    // Provenance ranks 1, 4, 0, 2 on the dynamic questions only.
    close(m["dynamic_seh_prov@3"], 2 / 4);
    close(m["dynamic_srs_prov@5"], (1 + 1 / Math.log2(5) + SRS2) / 4);
    close(m["seh_prov_macro@3"], 2 / 4);
    assert.equal(m["static_seh_prov@3"], undefined);
  });

  it("a type without failures has no share over failures (not 0/0)", () => {
    const m = aggregateMemconflict([s(1, 1, 1)]);
    assert.equal(m.static_failures, 0);
    assert.equal(m.static_rf_over_all, 0);
    assert.equal(m.static_rf_over_failures, undefined);
  });

  it("tables() lays our numbers out as Tables 3, 4 and 7, with counts and empty cells for absent types", () => {
    const [t3, t4, t7] = memconflictTables(scores, { options: { aa: "code" } });
    assert.equal(t3!.rows.length, 1);
    assert.equal(t3!.rows[0]!.label, "bm25");
    close(t3!.rows[0]!.cells.dynamic_aa, 1.5 / 4);
    assert.equal(t3!.rows[0]!.cells.conditional_aa, null);
    close(t3!.rows[0]!.cells.aa, (1.5 / 4 + 1 / 2) / 2);
    assert.equal(t3!.rows[0]!.n?.dynamic_uocs, 4);
    assert.equal(t3!.rows[0]!.n?.static_crs, 2);
    assert.equal(t3!.rows[0]!.n?.aa, 6);
    assert.match(t3!.note ?? "", /0 \/ 0\.5 \/ 1/);
    close(t4!.rows[0]!.cells["static_srs@3"], 1);
    close(t4!.rows[0]!.cells["dynamic_srs@3"], (1 + SRS2 + 0.5) / 4);
    close(t7!.rows[0]!.cells.eug, (3 / 8 + 1 / 2) / 2);
    const oracle = memconflictTables([scoreOf("static", { aa: 1 }, "oracle")], { options: { aa: "paper" } });
    assert.equal(oracle[0]!.rows[0]!.label, "bm25 (oracle)");
    assert.match(oracle[0]!.note ?? "", /binary/);
    assert.deepEqual(memconflictTables([], { options: {} }), []);
  });

  it("declares its option, the judge need and the stratifying label", () => {
    assert.equal(memconflictScorer.bench, "memconflict");
    assert.equal(memconflictScorer.needsJudge, true);
    assert.equal(memconflictScorer.stratifyBy, "conflict_type");
    assert.deepEqual(memconflictScorer.options?.aa?.values, ["paper", "code"]);
    assert.equal(memconflictScorer.options?.aa?.default, "paper");
  });
});
