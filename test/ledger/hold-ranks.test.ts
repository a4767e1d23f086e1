import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ledger } from "../../src/ledger/ledger.ts";
import { holdRanks } from "../../src/ledger/search.ts";

describe("holding the session BM25+ list's first sessions near their rank", () => {
  it("places each held session at most `slack` positions below its own rank", () => {
    const fused = ["x", "y", "z", "b", "w", "a"];
    // a is lexical rank 1, b rank 2.
    assert.deepEqual(holdRanks(fused, ["a", "b"], 0), ["a", "b", "x", "y", "z", "w"]);
    assert.deepEqual(holdRanks(fused, ["a", "b"], 1), ["x", "a", "b", "y", "z", "w"]);
    assert.deepEqual(holdRanks(fused, ["a", "b"], 2), ["x", "y", "a", "b", "z", "w"]);
    // A held session the fusion already ranks higher stays where the fusion put it.
    assert.deepEqual(holdRanks(["b", "x", "a"], ["a", "b"], 1), ["b", "a", "x"]);
    assert.deepEqual(holdRanks(fused, [], 0), fused);
  });

  it("keeps every session once, a held one missing from the order included", () => {
    const out = holdRanks(["x", "y"], ["q", "x"], 5);
    assert.deepEqual(out, ["x", "y", "q"]);
  });

  it("keeps a clear lexical match first when the other lists outvote it", async () => {
    const sessions = [
      "We compared three sommelier certification courses and their tasting exams.",
      "Lunch was fine today; the cooking courses start soon.",
      "I watered the plants and looked at pottery courses.",
    ];
    const top = async (retrieval: object) => {
      // The session list is silenced and recency dominates, so the newest matching session wins the fusion.
      const ledger = new Ledger({ retrieval: { weights: { sessionLexical: 0.01, recency: 5 }, ...retrieval } });
      for (const [i, content] of sessions.entries()) {
        await ledger.add("ns", {
          sessionId: `s${i}`,
          sessionIndex: i,
          turns: [{ id: `t${i}`, role: "user", content }],
        });
      }
      const hits = await ledger.search("ns", "which sommelier courses did we compare?", { k: 3 });
      ledger.close();
      return hits.map((h) => h.sessionIds[0]);
    };
    assert.notEqual((await top({}))[0], "s0", "without the hold the fusion outvotes the lexical match");
    assert.equal((await top({ lexicalHold: 5, lexicalSlack: 0 }))[0], "s0");
    assert.equal((await top({ lexicalHold: 5, lexicalSlack: 1 }))[1], "s0");
  });
});
