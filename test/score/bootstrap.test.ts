import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  bootstrapMeanCI,
  bootstrapStatCI,
  cohenKappa,
  holm,
  mcnemarExact,
  pairedBootstrap,
  rng,
  strataGroups,
} from "../../src/score/bootstrap.ts";

const close = (a: number, b: number, eps = 1e-4) => assert.ok(Math.abs(a - b) < eps, `${a} != ${b}`);

describe("statistics", () => {
  it("the PRNG is deterministic per seed", () => {
    const a = rng(7);
    const b = rng(7);
    assert.deepEqual([a(), a(), a()], [b(), b(), b()]);
    assert.notEqual(rng(8)(), rng(7)());
  });

  it("bootstrap CI brackets the mean and is reproducible", () => {
    const values = Array.from({ length: 200 }, (_, i) => (i % 4 === 0 ? 0 : 1));
    const [lo, hi] = bootstrapMeanCI(values);
    assert.ok(lo < 0.75 && hi > 0.75 && hi - lo < 0.15, `${lo} ${hi}`);
    assert.deepEqual(bootstrapMeanCI(values), [lo, hi]);
  });

  it("stratified resampling keeps stratum sizes: a constant-per-stratum metric has a zero-width CI", () => {
    const values = [...Array(30).fill(1), ...Array(10).fill(0)];
    const strata = [...Array(30).fill("a"), ...Array(10).fill("b")];
    const [lo, hi] = bootstrapMeanCI(values, strata);
    close(lo, 0.75);
    close(hi, 0.75);
    const [ulo, uhi] = bootstrapMeanCI(values);
    assert.ok(uhi - ulo > 0.05, "unstratified resampling varies the mix");
  });

  it("paired bootstrap finds a clear improvement and no difference on identical systems", () => {
    const a = Array.from({ length: 100 }, (_, i) => (i < 40 ? 1 : 0));
    const b = Array.from({ length: 100 }, (_, i) => (i < 70 ? 1 : 0));
    const r = pairedBootstrap(a, b);
    close(r.delta, 0.3);
    assert.ok(r.ci[0] > 0.15 && r.p < 0.01);
    const same = pairedBootstrap(a, a);
    assert.equal(same.delta, 0);
    assert.equal(same.p, 1);
    assert.throws(() => pairedBootstrap([1], [1, 0]), /aligned/);
  });

  it("exact McNemar matches the binomial tail", () => {
    // b=1, c=9: 2 * P(X <= 1 | n=10, p=.5) = 2 * 11/1024
    close(mcnemarExact(1, 9), 22 / 1024);
    close(mcnemarExact(9, 1), 22 / 1024);
    assert.equal(mcnemarExact(0, 0), 1);
    assert.equal(mcnemarExact(5, 5), 1);
  });

  it("Holm adjusts in step-down order and keeps monotonicity", () => {
    const adjusted = holm([0.01, 0.04, 0.03]);
    close(adjusted[0]!, 0.03);
    close(adjusted[2]!, 0.06);
    close(adjusted[1]!, 0.06);
  });

  it("Cohen's kappa on a textbook table", () => {
    // 50 items: both yes 20, both no 15, a-yes/b-no 5, a-no/b-yes 10 → po = .7, pe = .5 → κ = .4
    const a = [...Array(20).fill("y"), ...Array(15).fill("n"), ...Array(5).fill("y"), ...Array(10).fill("n")];
    const b = [...Array(20).fill("y"), ...Array(15).fill("n"), ...Array(5).fill("n"), ...Array(10).fill("y")];
    close(cohenKappa(a, b), 0.4);
    assert.equal(cohenKappa(["x", "x"], ["x", "x"]), 1);
  });
});

describe("bootstrap of any statistic", () => {
  it("gives the CI of a macro average, not of the pooled mean", () => {
    const items = [
      ...Array.from({ length: 90 }, () => ({ type: "a", v: 1 })),
      ...Array.from({ length: 10 }, () => ({ type: "b", v: 0 })),
    ];
    const macro = (xs: readonly { type: string; v: number }[]) => {
      const by = (t: string) => xs.filter((x) => x.type === t);
      const m = (ys: { v: number }[]) => ys.reduce((s, y) => s + y.v, 0) / ys.length;
      return { macro: (m(by("a")) + m(by("b"))) / 2, pooled: m([...xs]) };
    };
    const ci = bootstrapStatCI(
      items,
      items.map((x) => x.type),
      macro,
    );
    // every stratum is constant, so both statistics are fixed: macro .5, pooled .9
    close(ci.macro![0], 0.5);
    close(ci.macro![1], 0.5);
    close(ci.pooled![0], 0.9);
  });
});

describe("strata of one item", () => {
  it("are pooled so a table with one probe per category still gets an interval", () => {
    const values = [1, 0, 1, 1];
    const [lo, hi] = bootstrapMeanCI(values, ["a", "b", "c", "d"]);
    assert.ok(hi - lo > 0, `interval ${lo}..${hi} has width`);
  });

  it("leave larger strata alone and join the smallest when a single item is left over", () => {
    assert.deepEqual(strataGroups([1, 2, 3, 4, 5, 6], ["a", "a", "b", "b", "b", "c"]), [
      [1, 2, 6],
      [3, 4, 5],
    ]);
    assert.deepEqual(strataGroups([1, 2, 3, 4], ["a", "a", "b", "c"]), [
      [1, 2],
      [3, 4],
    ]);
    assert.deepEqual(strataGroups([1, 2, 3], ["a", "a", "a"]), [[1, 2, 3]]);
  });
});
