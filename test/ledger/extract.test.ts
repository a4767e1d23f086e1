import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { headWord } from "../../src/ledger/extract/attributes.ts";
import { extractTurns } from "../../src/ledger/extract/offline.ts";
import { resolveTimeExpression } from "../../src/ledger/time.ts";
import type { LedgerTurn } from "../../src/ledger/types.ts";

function extract(content: string, role: LedgerTurn["role"] = "user", speaker?: string) {
  return extractTurns({
    sessionId: "s",
    time: "2024-03-10",
    turns: [{ id: "t", role, content, ...(speaker ? { speaker } : {}) }],
  }).map((d) => ({ subject: d.subject, kind: d.kind, attribute: d.attribute, value: d.value, condition: d.condition }));
}

describe("offline extractor", () => {
  it("reads first-person facts, preferences with conditions and other people's facts", () => {
    assert.deepEqual(extract("I live in Boston."), [
      { subject: "user", kind: "fact", attribute: "residence", value: "Boston", condition: undefined },
    ]);
    assert.deepEqual(extract("When I'm working, I prefer jazz."), [
      {
        subject: "user",
        kind: "preference",
        attribute: "preference:jazz",
        value: "jazz",
        condition: "when i'm working",
      },
    ]);
    assert.deepEqual(extract("My sister lives in Paris and she loves cats."), [
      { subject: "sister", kind: "fact", attribute: "residence", value: "Paris", condition: undefined },
    ]);
    assert.deepEqual(extract("My favorite color is green."), [
      { subject: "user", kind: "preference", attribute: "favorite:color", value: "green", condition: undefined },
    ]);
  });

  it("dates plans, schedules and events from relative expressions", () => {
    const [plan] = extractTurns({
      sessionId: "s",
      time: "2024-03-10",
      turns: [{ id: "t", role: "user", content: "I'm going to visit Rome next month." }],
    });
    assert.equal(plan?.kind, "plan");
    assert.equal(plan?.value, "visit Rome");
    assert.equal(plan?.validFrom, "2024-04-09");
    const [appointment] = extractTurns({
      sessionId: "s",
      time: "2024-03-10",
      turns: [{ id: "t", role: "user", content: "I have a dentist appointment on May 5." }],
    });
    assert.equal(appointment?.kind, "schedule");
    assert.equal(appointment?.validFrom, "2024-05-05");
  });

  it("marks negation and change cues, and skips questions and assistant advice", () => {
    const [coffee] = extractTurns({
      sessionId: "s",
      time: "2024-03-10",
      turns: [{ id: "t", role: "user", content: "I no longer like coffee." }],
    });
    assert.equal(coffee?.negated, true);
    assert.equal(coffee?.change, true);
    assert.deepEqual(extract("Do I live in Boston?"), []);
    assert.deepEqual(extract("I live in a lighthouse, says the assistant.", "assistant"), []);
  });

  it("reads preferences that ended, grew or are held in other wordings", () => {
    const drafts = (content: string) =>
      extractTurns({ sessionId: "s", time: "2024-03-10", turns: [{ id: "t", role: "user", content }] }).map((d) => [
        d.attribute,
        d.value,
        d.negated ?? false,
      ]);
    assert.deepEqual(
      drafts("I used to really like Bonobo, but his music just doesn't do it for me now."),
      [["preference:bonobo", "Bonobo", true]],
      "'used to' ends the preference",
    );
    assert.deepEqual(
      drafts("I used to be really into experimental music, but lately I'm finding myself drawn to downtempo."),
      [
        ["preference:music", "experimental music", true],
        ["preference:downtempo", "downtempo", false],
      ],
    );
    assert.deepEqual(drafts("I've been really into Kim Stanley Robinson's books lately."), [
      ["preference:book", "Kim Stanley Robinson's books", false],
    ]);
    assert.deepEqual(drafts("I'm just not into trail running anymore."), [
      ["preference:running", "trail running", true],
    ]);
    assert.deepEqual(drafts("I've always loved movies about space colonization."), [
      ["preference:colonization", "movies about space colonization", false],
    ]);
    assert.deepEqual(drafts("I'm like so tired after that meeting."), [], "'I'm like' is not a preference");
    assert.deepEqual(drafts("I'm not into it anymore."), [], "a pronoun names no attribute");
  });

  it("reads purchases, counted activity and goals as their own memories", () => {
    const drafts = (content: string) =>
      extractTurns({ sessionId: "s", time: "2024-03-10", turns: [{ id: "t", role: "user", content }] }).map((d) => [
        d.kind,
        d.attribute,
        d.value,
      ]);
    assert.deepEqual(drafts("Speaking of routines, I spent $3.41 on coffee earlier."), [
      ["event", "expense:coffee", "$3.41 on coffee"],
    ]);
    assert.deepEqual(drafts("I just grabbed a coffee for $4.78 on the way in."), [
      ["event", "expense:coffee", "$4.78 on coffee"],
    ]);
    assert.deepEqual(drafts("I actually got 7,935 steps in today."), [["event", "log:steps", "7,935 steps"]]);
    // The other wordings of a purchase, each keyed on what was bought without its time or manner.
    assert.deepEqual(drafts("Speaking of busy, I grabbed a coffee earlier, which cost me $6.36."), [
      ["event", "expense:coffee", "$6.36 on coffee"],
    ]);
    assert.deepEqual(drafts("My coffee this morning cost $8.36."), [["event", "expense:coffee", "$8.36 on coffee"]]);
    assert.deepEqual(drafts("I just grabbed a $10.25 lunch, keeping me fueled."), [
      ["event", "expense:lunch", "$10.25 on lunch"],
    ]);
    assert.deepEqual(drafts("I even spent $9.88 on lunch today using a new contactless payment method."), [
      ["event", "expense:lunch", "$9.88 on lunch"],
    ]);
    assert.deepEqual(drafts("I spent $28.50 on groceries earlier today."), [
      ["event", "expense:grocery", "$28.50 on groceries"],
    ]);
    assert.deepEqual(drafts("I also grabbed a coffee this morning; it was $3.50."), [
      ["event", "expense:coffee", "$3.50 on coffee"],
    ]);
    assert.deepEqual(drafts("Speaking of challenges, my lunch today was $21.04, which felt steep."), [
      ["event", "expense:lunch", "$21.04 on lunch"],
    ]);
    assert.deepEqual(drafts("I was thinking about how much I spent on breakfast this morning, it was $17.46."), [
      ["event", "expense:breakfast", "$17.46 on breakfast"],
    ]);
    assert.deepEqual(drafts("For me, it's the little things, like grabbing a $6.94 coffee to start the day."), [
      ["event", "expense:coffee", "$6.94 on coffee"],
    ]);
    assert.deepEqual(drafts("Not really, but I did spend $46.35 on groceries yesterday."), [
      ["event", "expense:grocery", "$46.35 on groceries"],
    ]);
    // Chat leaves the subject out.
    assert.deepEqual(drafts("Just grabbed a cortado for $4.25 at the museum cafe."), [
      ["event", "expense:cortado", "$4.25 on cortado"],
    ]);
    // A budget, a salary or a price quoted is not a purchase.
    assert.deepEqual(drafts("The budget was $300,000, but my budget was $20."), []);
    assert.deepEqual(drafts("My salary was $5,000 last month."), []);
    assert.deepEqual(drafts("I've taken 12,341 steps today."), [["event", "log:steps", "12,341 steps"]]);
    assert.deepEqual(drafts("I've taken 2,341 steps so far."), []);
    // A target is one goal keyed on the thing it limits, however many rules read the sentence.
    assert.deepEqual(drafts("My new goal is to keep coffee spending under $30 per week."), [
      ["plan", "goal:coffee", "coffee under $30 per week"],
    ]);
    assert.deepEqual(drafts("I'm cutting back on my coffee spending; my goal is to keep it under $30 per week!"), [
      ["plan", "goal:coffee", "coffee under $30 per week"],
    ]);
    assert.deepEqual(drafts("I'm trying to spend under $35 per week on breakfast to save money."), [
      ["plan", "goal:breakfast", "breakfast under $35 per week"],
    ]);
    assert.deepEqual(drafts("Yes, let's cap my coffee spending at $25 a week."), [
      ["plan", "goal:coffee", "coffee under $25 a week"],
    ]);
    assert.deepEqual(drafts("I'm really motivated to start walking 8,000 steps per day!"), [
      ["plan", "goal:step", "8,000 steps per day"],
    ]);
  });

  it("attributes a named speaker's first-person statements to that speaker", () => {
    assert.deepEqual(
      extract("I live in Lisbon now.", "assistant", "Melanie").map((d) => [d.subject, d.attribute, d.value]),
      [["melanie", "residence", "Lisbon"]],
    );
  });
});

describe("tasks", () => {
  const drafts = (content: string) =>
    extractTurns({ sessionId: "s", time: "2024-03-10", turns: [{ id: "t", role: "user", content }] }).map((d) => [
      d.attribute,
      d.value,
    ]);

  it("keys a task on its verb and object, without its time, place or purpose", () => {
    assert.deepEqual(drafts("I need to remember to buy groceries later today."), [
      ["todo:buy:grocery", "buy groceries"],
    ]);
    assert.deepEqual(drafts("I need to book a flight for my vacation soon."), [["todo:book:flight", "book a flight"]]);
    assert.deepEqual(drafts("I need to optimize some database queries at work."), [
      ["todo:optimiz:query", "optimize some database queries"],
    ]);
    assert.deepEqual(drafts("I also need to prepare for a code review meeting later today."), [
      ["todo:prepar:meeting", "prepare for a code review meeting"],
    ]);
  });

  it("reads a task done or dropped under the same key, however it is worded", () => {
    assert.deepEqual(drafts("I actually finished buying groceries, so you can remove that from my to-do list."), [
      ["todo:buy:grocery", "not buying groceries"],
    ]);
    assert.deepEqual(drafts('Actually, I already completed the "Fix critical bug" task yesterday.'), [
      ["todo:fix:bug", "not Fix critical bug"],
    ]);
    assert.deepEqual(drafts("I actually just booked my flight for vacation."), [
      ["todo:book:flight", "not booked my flight"],
    ]);
    assert.deepEqual(drafts('I\'d like to remove "Setup home network security" from my work tasks to-do list.'), [
      ["todo:set:security", "not Setup home network security"],
    ]);
  });

  it("takes no chat for a task", () => {
    for (const chat of [
      "I need to go now.",
      "I need to think about it.",
      "I need to increase it.",
      "I need to update the meeting notes titled 'Sprint Planning'.",
      "I need to sign off for a bit.",
    ])
      assert.deepEqual(drafts(chat), [], chat);
  });
});

describe("attribute keys", () => {
  it("key a phrase on its last content word, singular", () => {
    assert.equal(headWord("green teas"), "tea");
    assert.equal(headWord("groceries"), "grocery");
    assert.equal(headWord("horror movies"), "movie");
    assert.equal(headWord("sunny beaches"), "beach");
    assert.equal(headWord("lunch boxes"), "box");
    assert.equal(headWord("reading glasses"), "glass");
    assert.equal(headWord("chess"), "chess");
    assert.equal(headWord("the bus"), "bus");
    assert.equal(headWord("2024"), undefined);
  });
});

describe("time expressions", () => {
  it("resolves relative and explicit dates against the session date", () => {
    const at = "2024-03-10T12:00:00Z";
    assert.equal(resolveTimeExpression("yesterday I ran", at)?.day, "2024-03-09");
    assert.equal(resolveTimeExpression("two weeks ago", at)?.day, "2024-02-25");
    assert.equal(resolveTimeExpression("on May 5, 2023", at)?.day, "2023-05-05");
    assert.equal(resolveTimeExpression("last March", at)?.day, "2023-03-01");
    assert.equal(resolveTimeExpression("next Friday", at)?.day, "2024-03-15");
    assert.equal(resolveTimeExpression("no date here", at), undefined);
  });
});
