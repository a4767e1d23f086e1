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

/**
 * Values computed independently by test/fixtures/bootstrap/reference.py, a
 * Python implementation written from the definitions that shares only the
 * PRNG (mulberry32), so its resamples are the same draws. Floats are compared
 * exactly: the same draws summed in the same order give the same doubles.
 */
describe("paired bootstrap against an independent implementation", () => {
  it("gives the reference's Δ, 95% CI and two-sided p on small inputs", () => {
    assert.deepEqual(pairedBootstrap([0, 0, 0], [1, 1, 0]), {
      delta: 0.6666666666666666,
      ci: [0.32500000000000756, 1],
      p: 0.05194805194805195,
    });
    assert.deepEqual(pairedBootstrap([1, 0, 1, 0, 1], [1, 1, 1, 1, 0]), {
      delta: 0.2,
      ci: [-0.4, 0.8],
      p: 0.6993006993006993,
    });
    assert.deepEqual(pairedBootstrap([0.2, 0.5, 0.1, 0.9], [0.4, 0.4, 0.6, 0.8], { iterations: 200, seed: 7 }), {
      delta: 0.12500000000000003,
      ci: [-0.09999999999999998, 0.35],
      p: 0.30845771144278605,
    });
  });

  it("never reports p = 0 from finitely many resamples: the smallest is 2 / (B + 1)", () => {
    // Every one of the 1000 resampled differences is above 0.
    const r = pairedBootstrap(Array(10).fill(0), [...Array(9).fill(1), 0]);
    assert.deepEqual(r.ci, [0.7, 1]);
    assert.equal(r.p, 2 / 1001);
  });

  it("is two-sided: swapping A and B mirrors the CI and keeps p", () => {
    const a = [0.2, 0.5, 0.1, 0.9, 0.3];
    const b = [0.4, 0.4, 0.6, 0.8, 0.7];
    const ab = pairedBootstrap(a, b);
    const ba = pairedBootstrap(b, a);
    close(ba.delta, -ab.delta, 1e-12);
    close(ba.ci[0], -ab.ci[1], 1e-12);
    close(ba.ci[1], -ab.ci[0], 1e-12);
    assert.equal(ba.p, ab.p);
  });

  it("converges to the exact bootstrap p from enumerating all n^n resamples", () => {
    // diffs → exact 2·min(P(mean* ≤ 0), P(mean* ≥ 0)) over the n^n equally likely resamples.
    // [1, 1, −1]: mean* ≤ 0 needs two or three draws of the last item: (6 + 1)/27, so p = 14/27. A
    // one-sided p would be 7/27; a resampler that never drew the last item would give p ≈ 0.
    const cases: Array<[number[], number, number]> = [
      [[1, 1, -1], 14 / 27, 0.5167741612919354],
      [[0, 0, 1], 16 / 27, 0.5994700264986751], // mean* ≤ 0 only when all three draws are zeros: (2/3)³
      [[2, -1, -1, 1], 13 / 16, 0.8127593620318984],
    ];
    for (const [diffs, exact, reference] of cases) {
      const { p } = pairedBootstrap(
        diffs.map(() => 0),
        diffs,
        { iterations: 20_000 },
      );
      assert.equal(p, reference, `${diffs}: the reference implementation's p`);
      // Monte Carlo error of a doubled share from 20,000 draws: 2·√(¼/20000) ≈ 0.007.
      close(p, exact, 0.02);
    }
  });
});

describe("bootstrap CIs against an independent implementation", () => {
  it("gives the reference's percentile CI, pooled and stratified", () => {
    assert.deepEqual(bootstrapMeanCI([1, 0, 1, 1, 0]), [0.2, 1]);
    assert.deepEqual(
      bootstrapMeanCI([1, 0, 1, 0.5, 0.25], ["a", "a", "a", "b", "b"], { iterations: 500, seed: 3 }),
      [0.15, 0.8],
    );
  });
});

/** A standard normal draw (Box–Muller) from the uniform stream `r`. */
const normal = (r: () => number) => Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe("the 95% level", () => {
  it("gives intervals as wide as ±1.96 standard errors on a large sample, where 90% and 99% do not", () => {
    const r = rng(2024);
    const data = Array.from({ length: 400 }, () => (r() < 0.3 ? 1 : 0));
    const m = mean(data);
    const z95 = 2 * 1.959964 * Math.sqrt((m * (1 - m)) / data.length);
    const ratio = (level?: number) => {
      const [lo, hi] = bootstrapMeanCI(data, undefined, { iterations: 2000, ...(level ? { level } : {}) });
      const stat = bootstrapStatCI(data, undefined, (s) => ({ mean: mean(s) }), {
        iterations: 2000,
        ...(level ? { level } : {}),
      }).mean!;
      assert.equal(stat[1] - stat[0], hi - lo, "bootstrapStatCI of the mean is bootstrapMeanCI");
      return (hi - lo) / z95;
    };
    // The bootstrap standard error is √((n−1)/n) of the textbook one, so a little under 1.
    const r95 = ratio();
    assert.ok(r95 > 0.95 && r95 < 1.02, `95%: ${r95}`);
    assert.ok(ratio(0.9) < 0.9, "a 90% interval is narrower (1.645/1.96 = 0.84)");
    assert.ok(ratio(0.99) > 1.2, "a 99% interval is wider (2.576/1.96 = 1.31)");
  });

  it("covers the true mean about 95% of the time on normal samples", () => {
    const coverage = (level: number) => {
      const r = rng(99);
      let covered = 0;
      const trials = 600;
      for (let k = 0; k < trials; k++) {
        const xs = Array.from({ length: 60 }, () => normal(r));
        const [lo, hi] = bootstrapMeanCI(xs, undefined, { level, seed: k + 1 });
        if (lo <= 0 && 0 <= hi) covered++;
      }
      return covered / trials;
    };
    // 600 trials: a coverage's standard error is about 0.009. Percentile intervals run a little short at n = 60.
    const c95 = coverage(0.95);
    assert.ok(c95 > 0.925 && c95 < 0.97, `95% coverage ${c95}`);
    assert.ok(coverage(0.9) < 0.925, "a 90% interval covers less");
  });

  it("paired bootstrap: p ≤ 0.05 about 5% of the time when there is no difference", () => {
    const r = rng(7);
    let twoSided = 0;
    let halved = 0;
    const trials = 600;
    for (let k = 0; k < trials; k++) {
      const a = Array.from({ length: 100 }, () => normal(r));
      const b = Array.from({ length: 100 }, () => normal(r));
      const { p, ci } = pairedBootstrap(a, b, { iterations: 500, seed: k + 1 });
      if (p <= 0.05) twoSided++;
      if (p / 2 <= 0.05) halved++;
      // The CI excludes 0 exactly when the two-sided p is small.
      if (ci[0] > 0 || ci[1] < 0) assert.ok(p <= 0.06, `CI ${ci} excludes 0 but p = ${p}`);
    }
    // Standard error ≈ 0.009 at 5%; a one-sided p (the halved one) rejects about 10% of the time.
    assert.ok(twoSided / trials > 0.025 && twoSided / trials < 0.075, `two-sided rejections ${twoSided / trials}`);
    assert.ok(halved / trials > 0.075, `one-sided rejections ${halved / trials}`);
  });
});
