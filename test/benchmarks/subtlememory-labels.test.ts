import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { relationSubtype, relationType, source } from "../../src/benchmarks/subtlememory/labels.ts";
import { spreadTurnTimes } from "../../src/benchmarks/subtlememory/turn-times.ts";

describe("SubtleMemory relation labels", () => {
  it("maps current and legacy subtype labels to the paper's columns", () => {
    const cases: Array<[string, string, string]> = [
      ["K>1", "Multi-evidence", "complementary"],
      ["any_one", "Any-one", "complementary"],
      ["Temporal", "Temporal", "nuanced"],
      ["Context", "Contextual", "nuanced"],
      ["contradictory", "Contradictory", "contradictory"],
      ["a_user_vs_user", "Contradictory", "contradictory"],
      ["b_user_vs_non_user", "Contradictory", "contradictory"],
      ["c_non_user_vs_non_user", "Contradictory", "contradictory"],
      ["K=1", "K=1", "complementary"],
    ];
    for (const [raw, subtype, type] of cases) assert.deepEqual(relationSubtype(raw), { subtype, type }, raw);
  });

  it("accepts the paper's own names and ignores case and blanks", () => {
    assert.deepEqual(relationSubtype(" contextual "), { subtype: "Contextual", type: "nuanced" });
    assert.deepEqual(relationSubtype("Multi-evidence"), { subtype: "Multi-evidence", type: "complementary" });
    assert.equal(relationType("Nuanced"), "nuanced");
  });

  it("returns undefined for unknown labels", () => {
    assert.equal(relationSubtype("K>2"), undefined);
    assert.equal(relationSubtype("constructor"), undefined);
    assert.equal(relationType("conflicting"), undefined);
    assert.equal(source("user"), undefined);
    assert.equal(source("user-unrelated"), "user-unrelated");
  });
});

describe("SubtleMemory message times", () => {
  it("steps 30 s from the session start, keeping the offset", () => {
    assert.deepEqual(spreadTurnTimes("2025-04-01T23:59:15-05:00", undefined, 3), [
      "2025-04-01T23:59:15-05:00",
      "2025-04-01T23:59:45-05:00",
      "2025-04-02T00:00:15-05:00",
    ]);
  });

  it("shrinks the step to fit 90% of a short gap, with millisecond precision", () => {
    // 10 s gap, 4 messages: 9 s for 3 steps.
    assert.deepEqual(spreadTurnTimes("2025-04-01T10:00:00Z", "2025-04-01T10:00:10Z", 4), [
      "2025-04-01T10:00:00Z",
      "2025-04-01T10:00:03Z",
      "2025-04-01T10:00:06Z",
      "2025-04-01T10:00:09Z",
    ]);
    assert.deepEqual(spreadTurnTimes("2025-04-01T10:00:00", "2025-04-01T10:00:01", 3), [
      "2025-04-01T10:00:00",
      "2025-04-01T10:00:00.450",
      "2025-04-01T10:00:00.900",
    ]);
  });

  it("compares instants across offsets and keeps 30 s when the next session is not later", () => {
    // 10:00+08:00 is 02:00Z: the next session is 60 s later, so 4 messages get 18 s steps.
    assert.deepEqual(
      spreadTurnTimes("2025-04-01T10:00:00+08:00", "2025-04-01T02:01:00Z", 4)[3],
      "2025-04-01T10:00:54+08:00",
    );
    assert.deepEqual(spreadTurnTimes("2025-04-01T10:00:00Z", "2025-04-01T09:00:00Z", 2), [
      "2025-04-01T10:00:00Z",
      "2025-04-01T10:00:30Z",
    ]);
  });

  it("gives every message the session's day when there is no time of day, and nothing without a time", () => {
    assert.deepEqual(spreadTurnTimes("2025-04-01", undefined, 2), ["2025-04-01", "2025-04-01"]);
    assert.deepEqual(spreadTurnTimes(undefined, undefined, 2), [undefined, undefined]);
    assert.deepEqual(spreadTurnTimes("2025-04-01T10:00:00Z", "2025-04-01T10:00:10Z", 1), ["2025-04-01T10:00:00Z"]);
  });
});
