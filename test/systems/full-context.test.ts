import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { FullContextSystem } from "../../src/systems/full-context.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { batch, ingestAll, SMALL_HISTORY } from "./history-fixture.ts";

const ALL_TURNS = SMALL_HISTORY.flatMap((b) => b.turns);

function tokensOf(turnIds: string[]): number {
  return ALL_TURNS.filter((t) => turnIds.includes(t.id)).reduce((sum, t) => sum + countTokens(t.content), 0);
}

describe("full-context", () => {
  it("returns every turn in chronological order when the budget allows", async () => {
    const system = new FullContextSystem();
    await ingestAll(system, "ep", SMALL_HISTORY);
    const hits = await system.search("ep", { text: "anything", k: Number.POSITIVE_INFINITY });
    assert.equal(system.tokenBudget, 128_000);
    assert.deepEqual(
      hits.map((h) => h.turnIds![0]),
      ALL_TURNS.map((t) => t.id),
    );
    assert.equal(hits[0]!.kind, "turn");
    assert.deepEqual(hits[0]!.sessionIds, ["s1"]);
    assert.equal(hits[0]!.time, "2024-01-01");
    assert.ok(hits.every((h) => h.score === 1));
  });

  it("keeps the newest whole turns within the token budget, oldest of them first", async () => {
    const newestThree = ["s3-t1", "s3-t2", "s3-t3"];
    const budget = tokensOf(newestThree);
    const exact = new FullContextSystem({ tokenBudget: budget });
    await ingestAll(exact, "ep", SMALL_HISTORY);
    const hits = await exact.search("ep", { text: "", k: Number.POSITIVE_INFINITY });
    assert.deepEqual(
      hits.map((h) => h.turnIds![0]),
      newestThree,
    );

    // One token less and the oldest of the three no longer fits; no partial turn is returned.
    const tight = new FullContextSystem({ tokenBudget: budget - 1 });
    await ingestAll(tight, "ep", SMALL_HISTORY);
    const fewer = await tight.search("ep", { text: "", k: Number.POSITIVE_INFINITY });
    assert.deepEqual(
      fewer.map((h) => h.text),
      ["Did the rye sourdough rise well?", "Not really, the cat knocked the jar over."],
    );
  });

  it("ignores the query text", async () => {
    const system = new FullContextSystem({ tokenBudget: 40 });
    await ingestAll(system, "ep", SMALL_HISTORY);
    const a = await system.search("ep", { text: "Montevideo", k: 100 });
    const b = await system.search("ep", { text: "cat", k: 100 });
    assert.deepEqual(a, b);
    assert.ok(a.length > 0 && a.length < ALL_TURNS.length);
  });

  it("caps the number of turns at k, keeping the newest", async () => {
    const system = new FullContextSystem();
    await ingestAll(system, "ep", SMALL_HISTORY);
    const hits = await system.search("ep", { text: "", k: 2 });
    assert.deepEqual(
      hits.map((h) => h.turnIds![0]),
      ["s3-t2", "s3-t3"],
    );
  });

  it("orders sessions by their index, not by arrival", async () => {
    const system = new FullContextSystem();
    await ingestAll(system, "ep", [batch("b", 1, ["second"]), batch("a", 0, ["first"])]);
    const hits = await system.search("ep", { text: "", k: 10 });
    assert.deepEqual(
      hits.map((h) => h.text),
      ["first", "second"],
    );
  });

  it("returns nothing when even the newest turn is over budget", async () => {
    const system = new FullContextSystem({ tokenBudget: 3 });
    await ingestAll(system, "ep", [batch("s1", 0, ["a sentence that is clearly longer than three tokens"])]);
    assert.deepEqual(await system.search("ep", { text: "", k: 10 }), []);
  });

  it("reads back every stored turn of the given sessions, budget or not", async () => {
    const system = new FullContextSystem({ tokenBudget: 1 });
    await ingestAll(system, "ep", SMALL_HISTORY);
    const items = await system.readback("ep", ["s2", "s1"]);
    assert.deepEqual(
      items.map((i) => i.turnIds![0]),
      ["s1-t1", "s1-t2", "s1-t3", "s2-t1", "s2-t2", "s2-t3"],
    );
    assert.equal(items[3]!.text, "Next month I fly to Montevideo for a conference.");
  });

  it("rejects a negative budget", () => {
    assert.throws(() => new FullContextSystem({ tokenBudget: -5 }), ConfigError);
  });
});
