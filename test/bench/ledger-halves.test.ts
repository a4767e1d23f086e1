import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRetrievalArgs } from "../../bench/ledger.ts";
import { guardFailures, type HalfRows, withSessionMetrics } from "../../bench/ledger-halves.ts";
import { probeKey, splitProbes } from "../../bench/ledger-splits.ts";
import { loadDataset } from "../../src/benchmarks/index.ts";
import type { Episode, Probe } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import type { ResultRow } from "../../src/run/summary.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

function probe(id: string, labels: Record<string, string>, meta: Record<string, unknown> = {}): Probe {
  return {
    id,
    question: `question ${id}`,
    position: { at: "end" },
    labels,
    meta,
    gold: { answers: [], evidenceSessionIds: ["s1", "s2"], evidenceTurnIds: [], evidenceMemories: [] },
  } as unknown as Probe;
}

function episode(id: string, probes: Probe[]): Episode {
  return { id, sessions: [], probes } as unknown as Episode;
}

function row(system: string, metrics: Record<string, number>): ResultRow {
  return {
    system,
    setting: "default",
    n: 10,
    metrics,
    byLabel: {},
    skipped: [],
    skipReasons: {},
    latency: {},
    cost: { calls: 0, cachedCalls: 0, inputTokens: 0, outputTokens: 0, contextTokensMean: 0 },
  };
}

describe("bench/ledger-splits", () => {
  it("keeps every probe of an instance in one half and splits each relation type", () => {
    const probes: Probe[] = [];
    for (const relation of ["nuanced", "contradictory"]) {
      for (let i = 0; i < 6; i++) {
        for (const qa of [0, 1]) {
          probes.push(
            probe(`${relation}-${i}:qa${qa}`, { relation_type: relation }, { instanceId: `${relation}-${i}` }),
          );
        }
      }
    }
    const halves = splitProbes({ kind: "instance" }, [episode("p", probes)]);
    assert.equal(halves.size, 24);
    for (const relation of ["nuanced", "contradictory"]) {
      for (let i = 0; i < 6; i++) {
        const a = halves.get(probeKey("p", `${relation}-${i}:qa0`));
        assert.equal(a, halves.get(probeKey("p", `${relation}-${i}:qa1`)), "both questions of an instance together");
      }
      const tune = probes.filter(
        (p) => p.labels.relation_type === relation && halves.get(probeKey("p", p.id)) === "tune",
      ).length;
      assert.equal(tune, 6, `${relation}: three of six instances tune`);
    }
    // The same probes give the same split whatever their order.
    assert.deepEqual(
      [...splitProbes({ kind: "instance" }, [episode("p", [...probes].reverse())])].sort(),
      [...halves].sort(),
    );
  });

  it("balances projects by query count, every query of a project in one half", () => {
    const counts: Record<string, number> = { travel: 42, finance: 32, learning: 32, career: 28, health: 19 };
    const probes = Object.entries(counts).flatMap(([project, n]) =>
      Array.from({ length: n }, (_, i) => probe(`${project}-${i}`, {}, { project })),
    );
    const halves = splitProbes({ kind: "project" }, [episode("k", probes)]);
    const halfOf = (project: string) => halves.get(probeKey("k", `${project}-0`));
    // 42 → tune; 32 (finance, by name) → check; 32 → check (32 < 42); 28 → tune (64 > 42); 19 → check (64 < 70).
    assert.deepEqual(
      Object.keys(counts).map((p) => [p, halfOf(p)]),
      [
        ["travel", "tune"],
        ["finance", "check"],
        ["learning", "check"],
        ["career", "tune"],
        ["health", "check"],
      ],
    );
  });

  it("puts a whole sample in one half", () => {
    const halves = splitProbes({ kind: "whole", half: "check" }, [episode("m", [probe("a", {}), probe("b", {})])]);
    assert.deepEqual([...halves.values()], ["check", "check"]);
  });

  it("splits the SubtleMemory fixture by instance and the LoCoMo fixture by question within category", async () => {
    const subtle = await loadDataset("subtlememory", fixture("subtlememory"));
    const halves = splitProbes({ kind: "instance" }, subtle.episodes);
    const byInstance = new Map<string, Set<string>>();
    for (const e of subtle.episodes) {
      for (const p of e.probes) {
        const id = String(p.meta?.instanceId);
        const set = byInstance.get(id) ?? new Set();
        set.add(halves.get(probeKey(e.id, p.id))!);
        byInstance.set(id, set);
      }
    }
    assert.ok(
      [...byInstance.values()].every((s) => s.size === 1),
      "an instance never straddles the halves",
    );
    const locomo = await loadDataset("locomo", fixture("locomo/locomo10-mini.json"));
    const lh = splitProbes({ kind: "question" }, locomo.episodes);
    assert.equal(lh.size, locomo.episodes.flatMap((e) => e.probes).length);
    assert.ok(new Set(lh.values()).size === 2 || lh.size < 2, "both halves are used");
  });

  it("splits the RealMem sample persona by project into halves of 70 and 83 queries", {
    skip: skipUnless(sharedDataset("realmem")),
  }, async () => {
    const realmem = await loadDataset("realmem", sharedDataset("realmem")!);
    const halves = [...splitProbes({ kind: "project" }, realmem.episodes).values()];
    assert.equal(halves.filter((h) => h === "tune").length, 70);
    assert.equal(halves.filter((h) => h === "check").length, 83);
  });
});

describe("bench/ledger-halves guard", () => {
  const guard = {
    label: "recall_all@5",
    read: (r: ResultRow) => r.metrics["recall_all@5"],
    against: ["bm25", "bm25-session"],
  };
  const rows = (ledger: number, bm25: number, session: number): ResultRow[] => [
    row("bm25", { "recall_all@5": bm25 }),
    row("bm25-session", { "recall_all@5": session }),
    row("ledger", { "recall_all@5": ledger }),
  ];

  it("fails a half where the ledger is more than 0.01 under the best baseline, naming it", () => {
    const halves: HalfRows = new Map([
      ["all", rows(0.7, 0.6, 0.7)],
      ["tune", rows(0.594, 0.5, 0.656)],
      ["check", rows(0.844, 0.75, 0.75)],
    ]);
    assert.deepEqual(guardFailures("subtlememory", halves, [guard]), [
      "FAILURE: subtlememory, tune half: ledger recall_all@5 0.594 < bm25-session 0.656 − 0.01",
    ]);
  });

  it("holds within the margin and when a baseline did not run", () => {
    const halves: HalfRows = new Map([
      ["tune", rows(0.691, 0.5, 0.7)],
      ["check", [row("bm25", { "recall_all@5": 0.2 }), row("ledger", { "recall_all@5": 0.3 })]],
    ]);
    assert.deepEqual(guardFailures("x", halves, [guard]), []);
  });

  it("adds session-level recall to turn-level records", () => {
    const record = {
      episodeId: "c",
      probeId: "q1",
      retrieval: { "recall_all@10": 0 },
      retrieved: [
        { rank: 1, text: "", score: 1, sessionIds: ["s2"], turnIds: ["D2:1"] },
        { rank: 2, text: "", score: 1, sessionIds: ["s2"], turnIds: ["D2:4"] },
        { rank: 3, text: "", score: 1, sessionIds: ["s1"], turnIds: ["D1:3"] },
      ],
    } as unknown as ProbeRecord;
    const [out] = withSessionMetrics([record], [episode("c", [probe("q1", {})])], [1, 2]);
    assert.equal(out!.retrieval!["session:recall_all@1"], 0);
    assert.equal(out!.retrieval!["session:recall_all@2"], 1, "the second distinct session is s1");
    assert.equal(out!.retrieval!["recall_all@10"], 0, "the record's own metrics stay");
  });

  it("reads --check and case names, and refuses an unknown flag", () => {
    const args = parseRetrievalArgs(["--check", "subtlememory"]);
    assert.equal(args.check, true);
    assert.deepEqual(
      args.cases.map((c) => c.name),
      ["subtlememory"],
    );
    assert.throws(() => parseRetrievalArgs(["--fast"]), /unknown flag --fast/);
  });
});
