import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ledger } from "../../src/ledger/ledger.ts";
import { DEFAULT_RETRIEVAL } from "../../src/ledger/retrieval-params.ts";
import { clearMatches, holdRanks } from "../../src/ledger/search.ts";

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

  it("holds only clear matches: near the first one's score, and found by turn BM25 too", () => {
    const hits = [
      { id: "a", score: 10 },
      { id: "e", score: 9 },
      { id: "b", score: 8 },
      { id: "c", score: 6 },
      { id: "d", score: 4.9 },
      { id: "f", score: 4.8 },
    ];
    // Turn BM25's sessions, 0-based ranks: b's best turn is far down its list, d's is first.
    const turnRanks = new Map([
      ["a", 0],
      ["b", 14],
      ["c", 3],
      ["d", 0],
      ["e", 9],
      ["f", 10],
    ]);
    const p = { lexicalHold: 5, lexicalHoldShare: 0.5, lexicalHoldTurnRank: 10 };
    // b: turn rank 14; d: under half of a's score; f: beyond the first 5.
    assert.deepEqual(clearMatches(hits, turnRanks, p), ["a", "e", "c"]);
    assert.deepEqual(clearMatches(hits, turnRanks, { ...p, lexicalHoldTurnRank: 0 }), ["a", "e", "b", "c"]);
    assert.deepEqual(clearMatches(hits, turnRanks, { ...p, lexicalHold: 0 }), []);
    assert.deepEqual(clearMatches(hits, new Map(), p), [], "no turn found any of them");
    assert.equal(DEFAULT_RETRIEVAL.lexicalHoldTurnRank, 10);
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
    const top = async (retrieval: object, rewrites?: string[]) => {
      // The session list is silenced and recency dominates, so the newest matching session wins the fusion.
      const ledger = new Ledger({
        retrieval: { weights: { sessionLexical: 0.01, recency: 5 }, ...retrieval },
        ...(rewrites ? { rewriter: { id: "fixed", rewrite: async () => rewrites } } : {}),
      });
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
    assert.notEqual((await top({ lexicalHold: 0 }))[0], "s0", "without the hold the fusion outvotes the lexical match");
    assert.equal((await top({ lexicalHold: 5, lexicalSlack: 0 }))[0], "s0");
    assert.equal((await top({ lexicalHold: 5, lexicalSlack: 1 }))[1], "s0");
    // A rewritten query is not held to the message's own words.
    assert.notEqual((await top({ lexicalHold: 5, lexicalSlack: 0 }, ["pottery courses"]))[0], "s0");
  });
});
