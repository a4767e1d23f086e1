import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { Ledger } from "../../src/ledger/ledger.ts";
import { asksOpenTasks } from "../../src/ledger/open-tasks.ts";
import type { LedgerTurn } from "../../src/ledger/types.ts";

let seq = 0;
function session(id: string, time: string, ...lines: string[]) {
  const turns: LedgerTurn[] = lines.map((content) => ({ id: `${id}#${seq++}`, role: "user", content }));
  return { sessionId: id, time, turns };
}

describe("open tasks", () => {
  it("recognises a question about what is still to do", () => {
    assert.ok(asksOpenTasks("What tasks remain on my todo list this week?"));
    assert.ok(asksOpenTasks("Which to-do items are still open?"));
    assert.ok(!asksOpenTasks("How did the task force meeting go?"));
  });

  it("lists the tasks told and not since done or dropped, newest first, as of the question time", async () => {
    const l = new Ledger();
    await l.add("a", session("t1", "2024-03-01", "I need to remember to buy groceries later today."));
    await l.add("a", session("t2", "2024-03-02", "I need to book a flight for my vacation soon."));
    await l.add("a", session("t3", "2024-03-03", "I need to fix a critical bug in the code today."));
    await l.add(
      "a",
      session("d1", "2024-03-04", "I actually finished buying groceries, so remove that from my to-do list."),
    );
    // Done "yesterday", told after the task: it still closes it.
    await l.add("a", session("d3", "2024-03-05", 'I already completed the "Fix critical bug" task yesterday.'));
    await l.add("a", session("chat", "2024-03-06", "We talked about the weather and the tasks at work."));
    const [first] = await l.search("a", "What tasks remain on my to-do list?", { k: 3 });
    assert.equal(
      first?.text,
      "[open tasks] 1 told and not since done or dropped\n- 2024-03-02: book a flight (session t2)",
    );
    assert.deepEqual(first?.sessionIds, ["t2"]);

    const [then] = await l.search("a", "What tasks remain on my to-do list?", { k: 3, at: "2024-03-03T12:00:00Z" });
    assert.deepEqual(then?.sessionIds, ["t3", "t2", "t1"]);

    // Other questions get ordinary results.
    const plain = await l.search("a", "When is the flight?", { k: 3 });
    assert.ok(plain.every((h) => !h.text.startsWith("[open tasks]")));
  });
});
