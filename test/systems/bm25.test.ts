import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Bm25System } from "../../src/systems/bm25.ts";
import { lexicalTokens } from "../../src/text/tokenize.ts";
import { batch, ingestAll, SMALL_HISTORY } from "./history-fixture.ts";

/** BM25+ as documented in bm25.ts, written out independently of minisearch. */
function bm25Plus(termsPerDoc: string[][], doc: number, query: string[]): number {
  const n = termsPerDoc.length;
  const lengths = termsPerDoc.map((terms) => new Set(terms).size);
  const avg = lengths.reduce((a, b) => a + b, 0) / n;
  let score = 0;
  for (const term of new Set(query)) {
    const tf = termsPerDoc[doc]!.filter((t) => t === term).length;
    if (tf === 0) continue;
    const df = termsPerDoc.filter((terms) => terms.includes(term)).length;
    const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    score += idf * (0.5 + (tf * 2.2) / (tf + 1.2 * (1 - 0.7 + (0.7 * lengths[doc]!) / avg)));
  }
  return score;
}

describe("bm25 (turn unit)", () => {
  it("ranks the turn holding the query's rare words first, with provenance", async () => {
    const system = new Bm25System();
    await ingestAll(system, "ep", SMALL_HISTORY);
    const hits = await system.search("ep", { text: "What rye starter did I use?", k: 3 });
    assert.equal(system.id, "bm25");
    assert.equal(hits[0]!.text, "I tried baking sourdough with a rye starter.");
    assert.deepEqual(hits[0]!.sessionIds, ["s3"]);
    assert.deepEqual(hits[0]!.turnIds, ["s3-t1"]);
    assert.equal(hits[0]!.kind, "turn");
    assert.equal(hits[0]!.time, "2024-03-01");
    assert.deepEqual(hits[0]!.meta, { role: "user", sessionIndex: 2 });
    // Only turns that share a term come back: "rye" is in two turns, "starter" in one.
    assert.deepEqual(
      hits.map((h) => h.turnIds![0]),
      ["s3-t1", "s3-t2"],
    );
  });

  it("scores with plain BM25+, not minisearch's score times matched terms", async () => {
    const system = new Bm25System();
    await ingestAll(system, "ep", SMALL_HISTORY);
    const docs = SMALL_HISTORY.flatMap((b) => b.turns.map((t) => lexicalTokens(t.content)));
    const query = "rye starter";
    const [top] = await system.search("ep", { text: query, k: 1 });
    const expected = bm25Plus(docs, 6, lexicalTokens(query));
    assert.ok(Math.abs(top!.score - expected) < 1e-9, `${top!.score} vs ${expected}`);
  });

  it("returns nothing for a query made only of stopwords or unknown words", async () => {
    const system = new Bm25System();
    await ingestAll(system, "ep", SMALL_HISTORY);
    assert.deepEqual(await system.search("ep", { text: "what did you do with it", k: 5 }), []);
    assert.deepEqual(await system.search("ep", { text: "zzyzx", k: 5 }), []);
  });

  it("breaks score ties by timeline order, earlier session first", async () => {
    const system = new Bm25System();
    // Same text in three sessions, ingested out of order: equal scores everywhere.
    await ingestAll(system, "ep", [
      batch("late", 2, ["the lighthouse keeper"]),
      batch("early", 0, ["the lighthouse keeper"]),
      batch("middle", 1, ["the lighthouse keeper"]),
    ]);
    const hits = await system.search("ep", { text: "lighthouse", k: 3 });
    assert.equal(new Set(hits.map((h) => h.score)).size, 1);
    assert.deepEqual(
      hits.map((h) => h.sessionIds![0]),
      ["early", "middle", "late"],
    );
  });

  it("replaces a re-ingested turn instead of indexing it twice", async () => {
    const system = new Bm25System();
    await ingestAll(system, "ep", [batch("s1", 0, ["my bicycle is red"])]);
    await system.ingest("ep", batch("s1", 0, ["my bicycle is green"]));
    const hits = await system.search("ep", { text: "bicycle", k: 5 });
    assert.deepEqual(
      hits.map((h) => h.text),
      ["my bicycle is green"],
    );
    assert.deepEqual(await system.search("ep", { text: "red", k: 5 }), []);
  });
});

describe("bm25-session (session unit)", () => {
  it("ranks the session with the query's rare word first", async () => {
    const system = new Bm25System({ unit: "session" });
    await ingestAll(system, "ep", SMALL_HISTORY);
    // "cat" is in s1 and s3; "Montevideo" only in s2, twice.
    const hits = await system.search("ep", { text: "cat Montevideo", k: 3 });
    assert.equal(system.id, "bm25-session");
    assert.deepEqual(
      hits.map((h) => h.sessionIds![0]),
      ["s2", "s1", "s3"],
    );
    assert.equal(hits[0]!.kind, "session");
    assert.deepEqual(hits[0]!.turnIds, ["s2-t1", "s2-t2", "s2-t3"]);
    assert.equal(
      hits[0]!.text,
      "user: Next month I fly to Montevideo for a conference.\nassistant: Montevideo in March should be warm.\nuser: I packed sunscreen already.",
    );
  });

  it("indexes a session fed turn by turn as one growing unit", async () => {
    const system = new Bm25System({ unit: "session" });
    await system.open("ep");
    const whole = batch("s1", 0, ["I keep bees on the roof.", "How many hives?", "Three hives of bees."]);
    for (const turn of whole.turns) await system.ingest("ep", { ...whole, turns: [turn] });
    const hits = await system.search("ep", { text: "hives", k: 5 });
    assert.equal(hits.length, 1);
    assert.deepEqual(hits[0]!.turnIds, ["s1-t1", "s1-t2", "s1-t3"]);
    assert.equal(hits[0]!.text.split("\n").length, 3);
  });

  it("uses the speaker's name in the transcript when the data has one", async () => {
    const system = new Bm25System({ unit: "session" });
    await ingestAll(system, "ep", [
      {
        sessionId: "s1",
        sessionIndex: 0,
        turns: [
          { id: "a", role: "user", speaker: "Caroline", content: "I went hiking." },
          { id: "b", role: "assistant", speaker: "Melanie", content: "Where?" },
        ],
      },
    ]);
    const [hit] = await system.search("ep", { text: "Caroline hiking", k: 1 });
    assert.equal(hit!.text, "Caroline: I went hiking.\nMelanie: Where?");
  });
});
