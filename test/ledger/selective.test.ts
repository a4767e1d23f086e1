import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DocumentFrequencies, keepSelective } from "../../src/ledger/selective.ts";
import { SessionVectors } from "../../src/ledger/session-vectors.ts";

describe("pruning common query terms", () => {
  it("keeps the terms found in at most the given share of the documents", () => {
    const df = new Map([
      ["coffee", 3],
      ["like", 60],
      ["boston", 5],
    ]);
    assert.deepEqual(keepSelective(["coffee", "like", "boston", "unseen"], df, 100, 0.05), ["coffee", "boston"]);
  });

  it("keeps only the rarest known term when every term is common", () => {
    const df = new Map([
      ["a", 90],
      ["b", 40],
      ["c", 70],
    ]);
    assert.deepEqual(keepSelective(["a", "b", "c", "zzz"], df, 100, 0.05), ["b"]);
  });

  it("leaves small collections alone and prunes large ones by their own counts", () => {
    const df = new DocumentFrequencies();
    for (let i = 0; i < 30; i++) df.add(`I like tea number${i}`);
    assert.deepEqual(df.selective(["like", "number7", "like"], 100, 0.05), ["like", "number7"]);
    assert.deepEqual(df.selective(["like", "number7"], 20, 0.05), ["number7"]);
  });
});

describe("session centroids", () => {
  const unit = (...xs: number[]) => {
    const n = Math.hypot(...xs);
    return Float32Array.from(xs.map((x) => x / n));
  };

  it("ranks sessions by similarity, replaces a session's vector, and filters to the visible ones", () => {
    const v = new SessionVectors();
    v.set("a", unit(1, 0, 0));
    v.set("b", unit(0.7, 0.7, 0));
    v.set("c", unit(0, 0, 1));
    const q = unit(1, 0.1, 0);
    assert.deepEqual(v.rank(q, 3), ["a", "b", "c"]);
    assert.deepEqual(
      v.rank(q, 1, (id) => id !== "a"),
      ["b"],
    );
    v.set("a", unit(0, 1, 0));
    assert.equal(v.size, 3);
    assert.deepEqual(v.rank(q, 2), ["b", "a"]);
    assert.deepEqual([...(v.get("c") ?? [])], [0, 0, 1]);
  });
});
