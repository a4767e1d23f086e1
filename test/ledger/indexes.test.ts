import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keepSelective } from "../../src/ledger/selective.ts";
import { SessionTerms } from "../../src/ledger/session-terms.ts";
import { SessionVectors } from "../../src/ledger/session-vectors.ts";
import { TermIndex } from "../../src/ledger/term-index.ts";
import { VectorIndex } from "../../src/ledger/vector-index.ts";
import { Bm25Ranker } from "../../src/systems/bm25.ts";

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

  it("ranks the given sessions by similarity, skips unknown ones, and replaces a session's vector", () => {
    const v = new SessionVectors();
    v.set("a", unit(1, 0, 0));
    v.set("b", unit(0.7, 0.7, 0));
    v.set("c", unit(0, 0, 1));
    const q = unit(1, 0.1, 0);
    assert.deepEqual(v.rankAmong(q, ["c", "b", "a"], 3), ["a", "b", "c"]);
    assert.deepEqual(v.rankAmong(q, ["c", "b", "nope"], 1), ["b"]);
    v.set("a", unit(0, 1, 0));
    assert.equal(v.size, 3);
    assert.deepEqual(v.rankAmong(q, ["a", "b", "c"], 2), ["b", "a"]);
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

/** A random unit vector (coordinates uniform in ±0.5 before scaling). */
function randomUnit(rnd: () => number, dim: number): Float32Array {
  const v = Array.from({ length: dim }, () => rnd() - 0.5);
  const n = Math.hypot(...v);
  return Float32Array.from(v.map((x) => x / n));
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

describe("session transcripts (BM25+)", () => {
  const words = ["tea", "kyoto", "deadline", "guitar", "sister", "budget", "flight", "garden", "the", "was"];
  const transcript = (rnd: () => number) =>
    Array.from({ length: 5 + Math.floor(rnd() * 40) }, () => words[Math.floor(rnd() * words.length)]).join(" ");

  it("ranks and scores sessions as the bm25-session baseline does, also after sessions are rewritten", () => {
    const rnd = mulberry(21);
    const ours = new SessionTerms();
    const baseline = new Bm25Ranker();
    const write = (id: string, text: string) => {
      ours.upsert(id, text);
      baseline.upsert([{ key: id, kind: "session", text, sessionId: id, turnIds: [], order: [0, 0, 0], meta: {} }]);
    };
    for (let i = 0; i < 40; i++) write(`s${i}`, transcript(rnd));
    for (let i = 0; i < 40; i += 3) write(`s${i}`, transcript(rnd));
    for (const query of [["tea", "kyoto"], ["deadline"], ["guitar", "sister", "budget", "the"]]) {
      const expected = baseline.score(query.join(" ")).sort((a, b) => b.score - a.score || a.key.localeCompare(b.key));
      const got = ours.search(query, 100);
      assert.deepEqual(
        got.map((h) => h.id),
        expected.map((h) => h.key),
      );
      for (const [i, h] of got.entries()) {
        assert.ok(Math.abs(h.score - expected[i]!.score) < 1e-9, `score of ${h.id}`);
      }
    }
  });

  it("counts a rewritten session's old terms out of the document frequencies", () => {
    const terms = new SessionTerms();
    for (let i = 0; i < 10; i++) terms.upsert(`s${i}`, "tea and kyoto");
    terms.upsert("s3", "espresso only");
    // "tea" is now in 9 of 10 sessions, "espresso" in 1.
    assert.deepEqual(terms.selective(["tea", "espresso"], 5, 0.85), ["espresso"]);
    assert.deepEqual(terms.selective(["tea", "espresso"], 5, 0.95), ["tea", "espresso"]);
    assert.deepEqual(
      terms.search(["espresso", "tea"], 1).map((h) => h.id),
      ["s3"],
    );
  });
});

describe("vector index", () => {
  it("finds the exact nearest neighbours through the sign-bit pass on a large set", () => {
    const dim = 40; // not a multiple of 32: the padded words must not count
    const index = new VectorIndex(dim);
    const rnd = mulberry(11);
    const vectors: Float32Array[] = [];
    for (let i = 0; i < 6000; i++) {
      vectors.push(randomUnit(rnd, dim));
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

  it("keeps the nearest sparse vectors (hashing-embedder-like) through the prefilter", () => {
    // Raw sign bits of vectors that are zero in most coordinates kept about 14% of
    // the exact top 10 here; the rotated sketch keeps nearly all of them.
    const dim = 256;
    const rnd = mulberry(3);
    const sparse = (base?: Float32Array) => {
      const v = new Float32Array(dim);
      if (base) for (let j = 0; j < dim; j++) if (base[j] && rnd() < 0.6) v[j] = base[j]!;
      for (let i = 0; i < 10; i++) v[Math.floor(rnd() * dim)] = rnd() < 0.5 ? -1 : 1;
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const index = new VectorIndex(dim);
    const vectors: Float32Array[] = [];
    for (let i = 0; i < 20000; i++) {
      // Most vectors share words with an earlier one, as turns of one conversation do.
      const v = sparse(i % 10 ? vectors[Math.floor(rnd() * vectors.length)] : undefined);
      vectors.push(v);
      index.add(i, v);
    }
    let found = 0;
    for (let t = 0; t < 10; t++) {
      const q = sparse(vectors[t * 1997]);
      const scores = vectors.map((v) => {
        let s = 0;
        for (let j = 0; j < dim; j++) s += v[j]! * q[j]!;
        return s;
      });
      const exact = scores
        .map((s, i) => [i, s] as const)
        .sort((a, b) => b[1] - a[1])
        .slice(0, 10);
      const got = new Set(index.search(q, 10).map((h) => h.id));
      found += exact.filter(([i]) => got.has(i)).length;
    }
    assert.ok(found >= 80, `the prefilter kept ${found} of the exact top 100`);
  });

  it("scores every vector exactly when it has no exact limit, at any size", () => {
    const dim = 16;
    const index = new VectorIndex(dim, Number.POSITIVE_INFINITY);
    const rnd = mulberry(17);
    const vectors: Float32Array[] = [];
    for (let i = 0; i < 6000; i++) {
      vectors.push(randomUnit(rnd, dim));
      index.add(i, vectors[i]!);
    }
    const q = vectors[77]!;
    const exact = vectors
      .map((v, i) => [i, v.reduce((s, x, j) => s + x * q[j]!, 0)] as const)
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, 50)
      .map(([i]) => i);
    assert.deepEqual(
      index.search(q, 50).map((h) => h.id),
      exact,
    );
  });

  it("ranks a given subset in the order an exact ranking gives it", () => {
    const index = new VectorIndex(8);
    const rnd = mulberry(5);
    for (let i = 0; i < 300; i++) {
      index.add(i, randomUnit(rnd, 8));
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
