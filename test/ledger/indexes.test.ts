import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keepSelective } from "../../src/ledger/selective.ts";
import { SessionVectors } from "../../src/ledger/session-vectors.ts";
import { TermIndex } from "../../src/ledger/term-index.ts";
import { VectorIndex } from "../../src/ledger/vector-index.ts";

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
    const df = new TermIndex();
    for (let i = 0; i < 30; i++) df.add(i, `I like tea number${i}`);
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

function mulberry(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("term index (BM25 over turns and memories)", () => {
  it("scores BM25: a rare term outweighs a common one, two matched terms outweigh one", () => {
    const ti = new TermIndex();
    ti.add(10, "we talked about coffee and the weather");
    ti.add(11, "the weather was grey");
    ti.add(12, "weather again, the weather");
    ti.add(13, "coffee beans from Kyoto");
    const hits = ti.search(["coffee", "kyoto", "weather"], 10);
    assert.deepEqual(
      hits.map((h) => h.id),
      [13, 10, 12, 11],
    );
    assert.ok(hits.every((h, i) => i === 0 || hits[i - 1]!.score >= h.score));
    assert.deepEqual(
      ti.search(["coffee", "kyoto", "weather"], 2).map((h) => h.id),
      [13, 10],
    );
    assert.deepEqual(ti.search(["absent"], 5), []);
  });

  it("breaks equal scores by the lower id", () => {
    const ti = new TermIndex();
    ti.add(7, "pasta tonight");
    ti.add(3, "pasta tonight");
    assert.deepEqual(
      ti.search(["pasta"], 5).map((h) => h.id),
      [3, 7],
    );
  });

  it("re-adding an id replaces its text: old terms stop matching and stop counting", () => {
    const ti = new TermIndex();
    for (let i = 0; i < 20; i++) ti.add(i, `note ${i} about tea`);
    ti.add(5, "now about espresso");
    assert.equal(ti.size, 20);
    assert.deepEqual(
      ti.search(["espresso"], 5).map((h) => h.id),
      [5],
    );
    assert.ok(!ti.search(["tea"], 50).some((h) => h.id === 5));
    // 19 of 20 documents hold "tea": over a 0.9 share, so it is pruned while "espresso" is kept.
    assert.deepEqual(ti.selective(["tea", "espresso"], 10, 0.9), ["espresso"]);
    ti.remove(5);
    assert.equal(ti.size, 19);
    assert.deepEqual(ti.search(["espresso"], 5), []);
  });
});

describe("vector index", () => {
  it("finds the exact nearest neighbours through the sign-bit pass on a large set", () => {
    const dim = 40; // not a multiple of 32: the padded words must not count
    const index = new VectorIndex(dim);
    const rnd = mulberry(11);
    const vectors: Float32Array[] = [];
    for (let i = 0; i < 6000; i++) {
      const v = Array.from({ length: dim }, () => rnd() - 0.5);
      const n = Math.hypot(...v);
      vectors.push(Float32Array.from(v.map((x) => x / n)));
      index.add(1000 + i, vectors[i]!);
    }
    const q = vectors[4321]!;
    const hits = index.search(q, 5);
    assert.equal(hits.length, 5);
    assert.equal(hits[0]!.id, 1000 + 4321);
    assert.ok(Math.abs(hits[0]!.score - 1) < 1e-5);
    // Every returned neighbour is among the true top 20 by exact cosine.
    const exact = vectors
      .map((v, i) => [1000 + i, v.reduce((s, x, j) => s + x * q[j]!, 0)] as const)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([id]) => id);
    for (const h of hits) assert.ok(exact.includes(h.id), `neighbour ${h.id} is not in the exact top 20`);
  });

  it("ranks a given subset in the order an exact ranking gives it", () => {
    const index = new VectorIndex(8);
    const rnd = mulberry(5);
    for (let i = 0; i < 300; i++) {
      const v = Array.from({ length: 8 }, () => rnd() - 0.5);
      const n = Math.hypot(...v);
      index.add(i, Float32Array.from(v.map((x) => x / n)));
    }
    const q = index.get(42)!;
    const pool = [7, 42, 99, 150, 151, 299, 12345];
    const full = index
      .search(q, 300)
      .map((h) => h.id)
      .filter((id) => pool.includes(id));
    assert.deepEqual(
      index.searchAmong(q, pool, 10).map((h) => h.id),
      full,
    );
    assert.equal(index.searchAmong(q, pool, 2)[0]!.id, 42);
    assert.equal(index.searchAmong(q, pool, 2).length, 2);
  });
});
