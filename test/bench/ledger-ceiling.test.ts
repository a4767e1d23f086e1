import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  hiddenTargets,
  oracleExtractor,
  oracleProposer,
  oracleRewriter,
  plantedFacts,
  realmemPoints,
} from "../../bench/ledger-ceiling.ts";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { fixture } from "../support/shared-data.ts";

const subtle = (await loadDataset("subtlememory", fixture("subtlememory"))).episodes;
const planted = plantedFacts(subtle);
const realmem = (await loadDataset("realmem", fixture("realmem"))).episodes;

describe("ledger ceiling with a perfect writer", () => {
  it("maps each evidence session to the hidden fact it was written around", () => {
    const [p] = planted.get("unrelated-persona_1-ctr-b-00003-s1") ?? [];
    assert.equal(p?.key, "set:unrelated-ctr-b-00003");
    assert.equal(p?.relation, "contradictory");
    assert.ok(p?.fact.length);
  });

  it("writes the facts of one set under one key, linked with their true relation", async () => {
    const [s1, s2] = ["related-persona_1-related-export-a1f0-s1", "related-persona_1-related-export-a1f0-s2"];
    const l = new Ledger({ extractor: oracleExtractor(planted, "keyed"), proposer: oracleProposer(planted) });
    for (const [i, id] of [s1, s2].entries())
      await l.add("a", {
        sessionId: id,
        time: `2024-01-0${i + 1}`,
        turns: [{ id: `${id}#0`, role: "user", content: "Hello there." }],
      });
    const facts = l.export("a").memories.filter((m) => m.attribute.startsWith("set:"));
    assert.deepEqual(
      facts.map((m) => [m.sessionId, m.value]),
      [s1, s2].map((id) => [id, planted.get(id)![0]!.fact]),
    );
    const relation = planted.get(s2)![0]!.relation;
    const expected =
      relation === "contradictory" ? "contradicts" : relation === "nuanced" ? "conditional" : "complements";
    assert.deepEqual(
      l.export("a").links.map((x) => x.relation),
      [expected],
    );
    // The plain variant keeps each fact under a key of its own: nothing links them.
    const u = new Ledger({ extractor: oracleExtractor(planted, "facts"), proposer: oracleProposer(planted) });
    for (const id of [s1, s2])
      await u.add("a", { sessionId: id, turns: [{ id: `${id}#0`, role: "user", content: "Hi." }] });
    assert.equal(u.export("a").links.length, 0);
  });

  it("reads RealMem's memory points keyed by project and attribute name", () => {
    const points = realmemPoints(realmem);
    const all = [...points.values()].flat();
    assert.ok(all.length > 0);
    for (const p of all) assert.match(p.key, /^point:[^:]+:.+/);
    assert.ok(
      all.every((p) => p.relation === undefined),
      "RealMem names no relation: the rules decide",
    );
  });

  it("a perfect query rewrites each question into its hidden facts, or its gold memories", async () => {
    const subtleTargets = hiddenTargets(subtle);
    const probe = subtle.flatMap((e) => e.probes).find((p) => Array.isArray(p.meta?.facts))!;
    assert.deepEqual(await oracleRewriter(subtleTargets).rewrite(probe.question), probe.meta?.facts);
    const realmemProbe = realmem.flatMap((e) => e.probes).find((p) => p.gold.evidenceMemories.length)!;
    assert.deepEqual(
      await oracleRewriter(hiddenTargets(realmem)).rewrite(realmemProbe.question),
      realmemProbe.gold.evidenceMemories,
    );
    assert.deepEqual(await oracleRewriter(subtleTargets).rewrite("a question no probe asks"), []);
  });
});
