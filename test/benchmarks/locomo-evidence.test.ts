import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CATEGORY_NAMES, categoryId } from "../../src/benchmarks/locomo/categories.ts";
import { diaSession, parseEvidence } from "../../src/benchmarks/locomo/evidence.ts";

describe("LoCoMo evidence ids", () => {
  it("passes canonical ids through untouched", () => {
    assert.deepEqual(parseEvidence(["D3:7", "D10:12"]), { ids: ["D3:7", "D10:12"], unreadable: [], repaired: false });
  });

  it("splits several ids packed into one entry", () => {
    assert.deepEqual(parseEvidence(["D8:6; D9:17"]), { ids: ["D8:6", "D9:17"], unreadable: [], repaired: true });
    assert.deepEqual(parseEvidence(["D1:2, D1:3 D2:1"]).ids, ["D1:2", "D1:3", "D2:1"]);
  });

  it("repairs spacing, a stray colon and leading zeros", () => {
    const parsed = parseEvidence(["D 4 : 5", "D:11:26", "D07:03"]);
    assert.deepEqual(parsed.ids, ["D4:5", "D11:26", "D7:3"]);
    assert.deepEqual(parsed.unreadable, []);
    assert.equal(parsed.repaired, true);
  });

  it("drops duplicates, keeping first appearance", () => {
    assert.deepEqual(parseEvidence(["D2:1", "D2:1; D1:1"]).ids, ["D2:1", "D1:1"]);
  });

  it("reports what it cannot read without guessing", () => {
    const parsed = parseEvidence(["D12", "D3:4 and D5", 7, "D1:1"]);
    assert.deepEqual(parsed.ids, ["D3:4", "D1:1"]);
    assert.deepEqual(parsed.unreadable, ["D12", "D3:4 and D5", "7"]);
  });

  it("reads the session number of a canonical id", () => {
    assert.equal(diaSession("D13:2"), 13);
    assert.equal(diaSession("13:2"), undefined);
  });
});

describe("LoCoMo categories", () => {
  it("maps the data's ids to the names the reference scorer uses", () => {
    assert.deepEqual(
      [1, 2, 3, 4, 5].map((n) => CATEGORY_NAMES[categoryId(n)!]),
      ["multi-hop", "temporal", "open-domain", "single-hop", "adversarial"],
    );
    assert.equal(categoryId("4"), 4);
    assert.equal(categoryId(0), undefined);
    assert.equal(categoryId(6), undefined);
    assert.equal(categoryId("toString"), undefined);
    assert.equal(categoryId(null), undefined);
  });
});
