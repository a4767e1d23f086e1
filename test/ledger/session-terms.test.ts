import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ledger } from "../../src/ledger/ledger.ts";
import { SessionTerms } from "../../src/ledger/session-terms.ts";

describe("session terms for lexical feedback", () => {
  const terms = () => {
    const t = new SessionTerms();
    t.upsert("wine-1", "We planned the sommelier exam: tasting notes, varietals, tasting grid.");
    t.upsert("wine-2", "Sommelier flashcards for the varietals of Burgundy.");
    t.upsert("money-1", "The brokerage account needs the card; the tasting menu was expensive.");
    t.upsert("money-2", "Brokerage fees and the pension plan.");
    t.upsert("chat", "Weather is nice today, the exam is near.");
    return t;
  };

  it("takes the words shared by the top sessions and rare elsewhere, not the query's own", () => {
    const t = terms();
    // "tasting" is said twice in wine-1, so it leads; the rest tie and go alphabetically.
    assert.deepEqual(t.expansion(["wine-1"], 10), ["tasting", "exam", "sommelier", "varietals"]);
    assert.deepEqual(t.expansion(["wine-1"], 10, new Set(["tasting", "exam"])), ["sommelier", "varietals"]);
    assert.deepEqual(t.expansion(["wine-1"], 1), ["tasting"]);
  });

  it("leaves out words of one session only and words in most sessions", () => {
    const t = terms();
    const words = t.expansion(["wine-1", "money-1"], 20);
    assert.ok(!words.includes("grid"), "a word found in one session carries no thread signal");
    assert.ok(words.includes("brokerage") && words.includes("sommelier"));
    t.upsert("x", "the exam and tasting and brokerage");
    t.upsert("y", "exam tasting brokerage sommelier");
    assert.ok(!t.expansion(["wine-1", "money-1"], 20).includes("tasting"), "tasting is now in 4 of 7 sessions");
  });

  it("re-indexing a session replaces its counts", () => {
    const t = terms();
    t.upsert("wine-2", "Nothing about drinks here, only the pension plan again.");
    assert.ok(!t.expansion(["wine-1"], 20).includes("varietals"), "varietals is now in one session only");
    assert.equal(t.size, 5);
  });

  it("carries a chatty query from the session it matched to the rest of its thread", async () => {
    const sessions = [
      "Let's build the sommelier study plan: varietals, tasting grid, flashcards.",
      "I booked the dentist for Friday.",
      "Sommelier flashcards done; then the varietals of Burgundy and a tasting.",
      "My car needs new tyres before winter.",
    ];
    const top = async (lexicalFeedback: number) => {
      // Lexical only and no recency prior, so the feedback list is the one difference.
      const ledger = new Ledger({ retrieval: { weights: { lexicalFeedback, recency: 0 } } });
      for (const [i, content] of sessions.entries()) {
        await ledger.add("ns", {
          sessionId: `s${i + 1}`,
          sessionIndex: i,
          turns: [{ id: `t${i}`, role: "user", content }],
        });
      }
      const hits = await ledger.search("ns", "Okay, the study plan is going fine. What's after it?", { k: 2 });
      return hits.map((h) => h.sessionIds[0]);
    };
    assert.deepEqual(await top(0), ["s1"], "without feedback only the session sharing the query's words is found");
    assert.deepEqual(await top(0.5), ["s1", "s3"]);
  });
});
