import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { chunk } from "../../src/embed/batch.ts";
import { cosine, normalizeInPlace, toUnitVector } from "../../src/embed/types.ts";

describe("cosine", () => {
  it("is 1 for parallel, 0 for orthogonal and -1 for opposite vectors", () => {
    assert.ok(Math.abs(cosine([1, 2, 3], [2, 4, 6]) - 1) < 1e-12);
    assert.equal(cosine([1, 0], [0, 5]), 0);
    assert.ok(Math.abs(cosine(new Float32Array([1, -1]), new Float32Array([-2, 2])) + 1) < 1e-6);
  });

  it("is 0 against the zero vector instead of NaN", () => {
    assert.equal(cosine([0, 0, 0], [1, 2, 3]), 0);
  });

  it("refuses vectors of different lengths", () => {
    assert.throws(() => cosine([1, 2], [1, 2, 3]), RangeError);
  });
});

describe("normalisation", () => {
  it("scales to unit length and leaves the zero vector alone", () => {
    const v = toUnitVector([3, 4]);
    assert.ok(Math.abs(v[0]! - 0.6) < 1e-6 && Math.abs(v[1]! - 0.8) < 1e-6);
    assert.deepEqual([...normalizeInPlace(new Float32Array(3))], [0, 0, 0]);
  });
});

describe("chunk", () => {
  it("splits into consecutive batches with a short last one", () => {
    assert.deepEqual(chunk([1, 2, 3, 4, 5], 2), [[1, 2], [3, 4], [5]]);
    assert.deepEqual(chunk([], 3), []);
    assert.throws(() => chunk([1], 0), RangeError);
  });
});
