/**
 * The SubtleMemory-style waterfall for any benchmark whose probes ran in the
 * oracle, perfect and default settings: questions answerable from the gold
 * evidence (oracle), of those still answerable from what the system wrote
 * (perfect retrieval: preserved), of those still answered when the system
 * retrieves by itself (default: retrieved). Chained over aligned probe ids, so
 * it needs a right/wrong per-probe outcome; with graded scores only the mean
 * per setting is shown, and said so.
 */
import type { Setting } from "../core/record.ts";
import { rng } from "../score/bootstrap.ts";
import { probeKey } from "./run-data.ts";

export interface Outcome {
  episodeId: string;
  probeId: string;
  setting: Setting;
  value: number;
  labels: Record<string, string>;
}

interface Triple {
  o: number;
  p: number;
  d: number;
  group: string;
}

export interface ChainCounts {
  n: number;
  sO: number;
  sP: number;
  sD: number;
  pPreserve?: number;
  pRetrieve?: number;
}

export interface Waterfall {
  /** Right/wrong outcomes: the three stages are chained sets. */
  chained: boolean;
  /** Probes present in all three settings. */
  n: number;
  overall: ChainCounts;
  byGroup: Record<string, ChainCounts>;
  /** Mean outcome per setting over the aligned probes, 0–1. */
  means: Record<Setting, number>;
  /** 95% bootstrap CIs of p_preserve / p_retrieve overall and per group (`p_preserve_<group>`). */
  ci: Record<string, [number, number]>;
}

const isBinary = (values: Iterable<number>) => {
  for (const v of values) if (v !== 0 && v !== 1) return false;
  return true;
};

function chain(triples: readonly Triple[]): ChainCounts {
  const sO = triples.filter((t) => t.o === 1);
  const sP = sO.filter((t) => t.p === 1);
  const sD = sP.filter((t) => t.d === 1);
  return {
    n: triples.length,
    sO: sO.length,
    sP: sP.length,
    sD: sD.length,
    ...(sO.length ? { pPreserve: sP.length / sO.length } : {}),
    ...(sP.length ? { pRetrieve: sD.length / sP.length } : {}),
  };
}

function ratios(triples: readonly Triple[], groups: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  const put = (suffix: string, c: ChainCounts) => {
    if (c.pPreserve !== undefined) out[`p_preserve${suffix}`] = c.pPreserve;
    if (c.pRetrieve !== undefined) out[`p_retrieve${suffix}`] = c.pRetrieve;
  };
  put("", chain(triples));
  for (const g of groups) {
    put(`_${g}`, chain(triples.filter((t) => t.group === g)));
  }
  return out;
}

function quantile(sorted: readonly number[], q: number): number {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** The waterfall of one system, from its per-probe outcomes in every setting; undefined without all three. */
export function waterfallOf(
  outcomes: readonly Outcome[],
  groupLabel?: string,
  options: { iterations?: number; seed?: number } = {},
): Waterfall | undefined {
  const by: Record<Setting, Map<string, Outcome>> = { default: new Map(), oracle: new Map(), perfect: new Map() };
  for (const o of outcomes) by[o.setting].set(probeKey(o), o);
  if (!by.oracle.size || !by.perfect.size || !by.default.size) return undefined;
  const triples: Triple[] = [];
  for (const [key, o] of by.oracle) {
    const p = by.perfect.get(key);
    const d = by.default.get(key);
    if (!p || !d) continue;
    triples.push({ o: o.value, p: p.value, d: d.value, group: groupLabel ? (o.labels[groupLabel] ?? "") : "" });
  }
  if (!triples.length) return undefined;
  const chained = isBinary(triples.flatMap((t) => [t.o, t.p, t.d]));
  const mean = (pick: (t: Triple) => number) => triples.reduce((s, t) => s + pick(t), 0) / triples.length;
  const groups = groupLabel ? [...new Set(triples.map((t) => t.group))].sort() : [];
  const byGroup = Object.fromEntries(groups.map((g) => [g, chain(triples.filter((t) => t.group === g))]));
  const ci: Record<string, [number, number]> = {};
  if (chained && triples.length >= 2) {
    const iterations = options.iterations ?? 1000;
    const random = rng(options.seed ?? 1);
    const strata = groups.length ? groups.map((g) => triples.filter((t) => t.group === g)) : [triples];
    const samples = new Map<string, number[]>();
    for (let it = 0; it < iterations; it++) {
      const resample: Triple[] = [];
      for (const s of strata) for (let j = 0; j < s.length; j++) resample.push(s[Math.floor(random() * s.length)]!);
      for (const [k, v] of Object.entries(ratios(resample, groups))) {
        const list = samples.get(k) ?? [];
        list.push(v);
        samples.set(k, list);
      }
    }
    for (const [k, values] of samples) {
      if (values.length < 0.95 * iterations) continue;
      values.sort((a, b) => a - b);
      ci[k] = [quantile(values, 0.025), quantile(values, 0.975)];
    }
  }
  return {
    chained,
    n: triples.length,
    overall: chain(triples),
    byGroup,
    means: { oracle: mean((t) => t.o), perfect: mean((t) => t.p), default: mean((t) => t.d) },
    ci,
  };
}
