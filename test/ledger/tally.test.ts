import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { createEmbedder } from "../../src/embed/create.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { amountOf, periodOf, talliesAskedFor } from "../../src/ledger/tally.ts";
import type { LedgerTurn } from "../../src/ledger/types.ts";

let seq = 0;
function session(id: string, time: string, ...lines: string[]) {
  const turns: LedgerTurn[] = lines.map((content) => ({ id: `${id}#${seq++}`, role: "user", content }));
  return { sessionId: id, time, turns };
}

const ATTRIBUTES = ["expense:coffee", "expense:lunch", "log:steps", "goal:coffee", "preference:jazz"];

describe("tallies", () => {
  it("asks for the attributes a question names, else the family it names, and only when it aggregates", () => {
    assert.deepEqual(talliesAskedFor("How much have I spent on coffee this week?", ATTRIBUTES), ["expense:coffee"]);
    assert.deepEqual(talliesAskedFor("How many steps have I taken so far?", ATTRIBUTES), ["log:steps"]);
    assert.deepEqual(talliesAskedFor("What is my total food spending this week?", ATTRIBUTES), [
      "expense:coffee",
      "expense:lunch",
    ]);
    assert.deepEqual(talliesAskedFor("Which week did I have the most steps?", ATTRIBUTES), ["log:steps"]);
    assert.deepEqual(talliesAskedFor("Where did I get coffee on Monday?", ATTRIBUTES), []);
    assert.deepEqual(talliesAskedFor("How much do I like jazz?", ATTRIBUTES), []);
  });

  it("reads the period a question compares over", () => {
    assert.equal(periodOf("Am I meeting my daily step goal?"), "day");
    assert.equal(periodOf("Which week in this month did I have the most steps?"), "week");
    assert.equal(periodOf("How much did I spend on dinner this month?"), "month");
    assert.equal(periodOf("How much have I spent on coffee so far?"), undefined);
  });

  it("reads the amount at the start of an entry", () => {
    assert.deepEqual(amountOf("$3.41 on coffee"), { unit: "$", value: 3.41 });
    assert.deepEqual(amountOf("7,935 steps"), { unit: "steps", value: 7935 });
    assert.equal(amountOf("coffee under $30 per week"), undefined);
  });

  it("returns every entry of an aggregated quantity first, with its sum and the standing goal", async () => {
    const l = new Ledger({ embedder: await createEmbedder("hashing:256") });
    await l.add("a", session("goal", "2024-03-01", "My goal is to keep my coffee spending under $30 per week."));
    await l.add("a", session("c1", "2024-03-02", "I spent $3.41 on coffee before work."));
    await l.add("a", session("trip", "2024-03-03", "We talked about the trip to Lisbon and the museums there."));
    await l.add("a", session("c2", "2024-03-04", "I just grabbed a coffee for $4.50 on the way in."));
    await l.add("a", session("c3", "2024-03-06", "My coffee this morning cost $6.25."));
    await l.add("a", session("goal2", "2024-03-05", "I'm trying to keep my coffee spending under $25 per week now."));
    const [first, ...rest] = await l.search("a", "Am I within my coffee budget? How much have I spent so far?", {
      k: 3,
    });
    assert.equal(first?.kind, "memory");
    assert.match(first!.text, /^\[tally\] expense:coffee: 3 entries/);
    assert.match(first!.text, /- 2024-03-02: \$3\.41 on coffee \(session c1\)/);
    assert.match(first!.text, /Sum of the 3 entries: \$14\.16/);
    // Every version of the goal, in time order, the standing one marked.
    assert.match(
      first!.text,
      /Goal stated 2024-03-01: coffee under \$30 per week \(session goal; replaced on 2024-03-05\)\nGoal stated 2024-03-05: coffee under \$25 per week \(session goal2; standing\)/,
    );
    assert.deepEqual(first!.sessionIds, ["goal", "goal2", "c1", "c2", "c3"]);
    // The tally takes one of the k places.
    assert.equal(rest.length, 2);

    // As of an earlier time, only what had been told by then.
    const [then] = await l.search("a", "Am I meeting my coffee goal so far?", { k: 3, at: "2024-03-04T12:00:00Z" });
    assert.match(then!.text, /2 entries/);
    assert.match(then!.text, /Sum of the 2 entries: \$7\.91/);
    assert.match(then!.text, /Goal stated 2024-03-01: coffee under \$30 per week \(session goal; standing\)/);
    assert.doesNotMatch(then!.text, /\$25/);

    // A question about weeks gets the sum of each week of the month (days 1–7, 8–14, …).
    await l.add("a", session("c4", "2024-03-09", "I spent $2.00 on coffee at the station."));
    const [weekly] = await l.search("a", "Which week did I spend the most on coffee?", { k: 3 });
    assert.match(
      weekly!.text,
      /^By week:\n {2}2024-03 week 1 \(2024-03-01 to 2024-03-07\): \$14\.16 \(3 entries\)\n {2}2024-03 week 2 \(2024-03-08 to 2024-03-14\): \$2\.00 \(1 entry\)$/m,
    );

    // A forgotten entry no longer counts.
    const c2 = l.export("a").memories.find((m) => m.sessionId === "c2" && m.attribute === "expense:coffee")!;
    l.forget("a", c2.id);
    const [after] = await l.search("a", "How much have I spent on coffee so far?", { k: 3 });
    assert.match(after!.text, /Sum of the 3 entries: \$11\.66/);
    // Not asked about the goal: entries only.
    assert.doesNotMatch(after!.text, /Goal stated/);
    assert.deepEqual(after!.sessionIds, ["c1", "c3", "c4"]);

    // One entry is still a tally; a goal named by the question counts though its entries are keyed otherwise.
    const m = new Ledger();
    await m.add("a", session("g", "2024-03-01", "Yes, let's cap my coffee spending at $25 a week."));
    await m.add("a", session("c", "2024-03-02", "Just grabbed a cortado for $4.25 at the cafe."));
    const [one] = await m.search("a", "Am I meeting my coffee budget goal?", { k: 3 });
    assert.match(
      one!.text,
      /^\[tally\] expense:cortado: 1 entry\nGoal stated 2024-03-01: coffee under \$25 a week \(session g; standing\)/,
    );
    assert.match(one!.text, /Sum of the 1 entry: \$4\.25$/);

    // No aggregation asked: ordinary results only.
    const plain = await l.search("a", "Where was the coffee I had before work?", { k: 3 });
    assert.ok(plain.every((h) => !h.text.startsWith("[tally]")));
  });
});
