import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseRetrievalOverrides } from "../../src/ledger/retrieval-overrides.ts";

describe("retrieval overrides", () => {
  it("accepts the parameters and weights the ledger has, with values of their type", () => {
    const value = { pullComplements: true, depth: 100, weights: { memoryLexical: 1 } };
    assert.deepEqual(parseRetrievalOverrides(value), value);
    assert.deepEqual(parseRetrievalOverrides({}), {});
  });

  it("names the key that is unknown, of the wrong type or out of range", () => {
    assert.throws(
      () => parseRetrievalOverrides({ pullComplement: true }),
      /^Error: pullComplement: .*known: .*pullComplements/,
    );
    assert.throws(
      () => parseRetrievalOverrides({ weights: { memLex: 1 } }),
      /^Error: weights\.memLex: .*known: .*memoryLexical/,
    );
    assert.throws(() => parseRetrievalOverrides({ depth: "x" }), /^Error: depth: .*number/);
    assert.throws(() => parseRetrievalOverrides({ weights: { recency: -1 } }), /^Error: weights\.recency: /);
    assert.throws(() => parseRetrievalOverrides([]), /^Error: \(root\): .*object/);
  });
});
