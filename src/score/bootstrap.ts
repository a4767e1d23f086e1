/**
 * The statistics none of the papers report: stratified bootstrap confidence
 * intervals, paired bootstrap and exact McNemar tests between two systems,
 * Holm's correction across a table, and Cohen's kappa between raters.
 */

/** Deterministic PRNG (mulberry32), so every CI is reproducible from its seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function quantile(sorted: readonly number[], q: number): number {
  if (!sorted.length) return Number.NaN;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/**
 * Items grouped by stratum for resampling. A stratum of one item resamples to
 * itself and would add no variance (a table with one probe per category would
 * get a zero-width interval), so strata smaller than two are pooled together;
 * when that pool is itself a single item it joins the smallest other stratum.
 */
export function strataGroups<T>(items: readonly T[], strata: readonly string[] | undefined): T[][] {
  const groups = new Map<string, T[]>();
  items.forEach((item, i) => {
    const key = strata?.[i] ?? "";
    const list = groups.get(key);
    if (list) list.push(item);
    else groups.set(key, [item]);
  });
  const large = [...groups.values()].filter((g) => g.length >= 2);
  const pooled = [...groups.values()].filter((g) => g.length < 2).flat();
  if (!pooled.length) return large;
  if (pooled.length >= 2 || !large.length) return [...large, pooled];
  const smallest = large.reduce((a, b) => (b.length < a.length ? b : a));
  return large.map((g) => (g === smallest ? [...g, ...pooled] : g));
}

export interface BootstrapOptions {
  iterations?: number;
  seed?: number;
  /** Confidence level (default 0.95). */
  level?: number;
}

/**
 * Percentile-bootstrap CI of the mean, resampling within each stratum (e.g. a
 * question category) so every resample keeps the categories' sizes.
 */
export function bootstrapMeanCI(
  values: readonly number[],
  strata?: readonly string[],
  options: BootstrapOptions = {},
): [number, number] {
  if (!values.length) return [Number.NaN, Number.NaN];
  const iterations = options.iterations ?? 1000;
  const level = options.level ?? 0.95;
  const random = rng(options.seed ?? 1);
  const groups = strataGroups(values, strata);
  const means: number[] = [];
  for (let it = 0; it < iterations; it++) {
    let sum = 0;
    for (const group of groups) {
      for (let j = 0; j < group.length; j++) sum += group[Math.floor(random() * group.length)]!;
    }
    means.push(sum / values.length);
  }
  means.sort((a, b) => a - b);
  return [quantile(means, (1 - level) / 2), quantile(means, 1 - (1 - level) / 2)];
}

/**
 * Percentile-bootstrap CIs of every statistic `stat` computes, resampling the
 * items within each stratum. Used for headline numbers that are not plain
 * means (macro averages over types, competency averages, ×100 tables).
 */
export function bootstrapStatCI<T>(
  items: readonly T[],
  strata: readonly string[] | undefined,
  stat: (sample: readonly T[]) => Record<string, number>,
  options: BootstrapOptions = {},
): Record<string, [number, number]> {
  if (items.length < 2) return {};
  const iterations = options.iterations ?? 1000;
  const level = options.level ?? 0.95;
  const random = rng(options.seed ?? 1);
  const groups = strataGroups(items, strata);
  const draws = new Map<string, number[]>();
  for (let it = 0; it < iterations; it++) {
    const sample: T[] = [];
    for (const group of groups) {
      for (let j = 0; j < group.length; j++) sample.push(group[Math.floor(random() * group.length)]!);
    }
    for (const [key, value] of Object.entries(stat(sample))) {
      if (!Number.isFinite(value)) continue;
      const list = draws.get(key) ?? [];
      list.push(value);
      draws.set(key, list);
    }
  }
  const out: Record<string, [number, number]> = {};
  for (const [key, values] of draws) {
    values.sort((a, b) => a - b);
    out[key] = [quantile(values, (1 - level) / 2), quantile(values, 1 - (1 - level) / 2)];
  }
  return out;
}

/**
 * Paired bootstrap of the difference of means (b − a) on aligned probes:
 * the CI of the difference and a two-sided p-value: the resampled mean
 * differences on the rarer side of zero (zero itself counts on both sides),
 * counted as (k + 1) / (B + 1) and doubled. The + 1 keeps a finite number of
 * resamples from claiming p = 0 (the smallest p is 2 / (B + 1)), which Holm
 * would carry through as certainty.
 */
export function pairedBootstrap(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions = {},
): { delta: number; ci: [number, number]; p: number } {
  if (a.length !== b.length) throw new Error("paired bootstrap needs aligned samples of equal length");
  const n = a.length;
  if (!n) return { delta: Number.NaN, ci: [Number.NaN, Number.NaN], p: Number.NaN };
  const diffs = a.map((x, i) => b[i]! - x);
  const delta = diffs.reduce((s, d) => s + d, 0) / n;
  const random = rng(options.seed ?? 1);
  const iterations = options.iterations ?? 1000;
  const level = options.level ?? 0.95;
  const stats: number[] = [];
  for (let it = 0; it < iterations; it++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += diffs[Math.floor(random() * n)]!;
    stats.push(s / n);
  }
  stats.sort((x, y) => x - y);
  const below = stats.filter((s) => s <= 0).length;
  const above = stats.filter((s) => s >= 0).length;
  return {
    delta,
    ci: [quantile(stats, (1 - level) / 2), quantile(stats, 1 - (1 - level) / 2)],
    p: Math.min(1, (2 * (Math.min(below, above) + 1)) / (iterations + 1)),
  };
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/**
 * Exact McNemar test on paired binary outcomes: `b` = probes only system A
 * got right, `c` = only system B. Two-sided binomial p-value with p = 1/2.
 */
export function mcnemarExact(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

/** Holm–Bonferroni adjusted p-values, in the input order. */
export function holm(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** Cohen's kappa between two raters' labels on the same items. */
export function cohenKappa(a: readonly string[], b: readonly string[]): number {
  if (a.length !== b.length) throw new Error("kappa needs two label lists of equal length");
  const n = a.length;
  if (!n) return Number.NaN;
  const labels = [...new Set([...a, ...b])];
  let agree = 0;
  for (let i = 0; i < n; i++) if (a[i] === b[i]) agree++;
  const po = agree / n;
  let pe = 0;
  for (const l of labels) {
    const pa = a.filter((x) => x === l).length / n;
    const pb = b.filter((x) => x === l).length / n;
    pe += pa * pb;
  }
  return pe === 1 ? 1 : (po - pe) / (1 - pe);
}
