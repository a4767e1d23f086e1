import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkTallies } from "../../bench/ledger-tallies.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

const weekly = sharedDataset("memora/weekly");

describe("ledger tally check", () => {
  it("checks each aggregation question's tally against the release's computed answer", async () => {
    const rows = await checkTallies(fixture("memora/weekly"));
    assert.deepEqual(
      rows.map((r) => [r.questionId, r.expected, r.found, r.exact]),
      [
        ["goal_food_expenses_coffee_5_0", "goal 25", "goal 25", true],
        ["activity_food_total_5", "4.25 over 1 entry", "4.25 over 1 entry", true],
      ],
    );
  });

  it("gets every total, goal, top week and open task of the weekly sample exactly", {
    skip: skipUnless(weekly),
  }, async () => {
    const rows = await checkTallies(weekly!);
    assert.equal(rows.length, 6);
    assert.deepEqual(
      rows.filter((r) => !r.exact).map((r) => `${r.question}: ${r.expected} vs ${r.found}`),
      [],
    );
  });
});
