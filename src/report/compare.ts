/**
 * `membench compare`: two runs (or two systems) of one benchmark, aligned on
 * (episode, probe, setting). Per category: the delta of the headline metric
 * with a paired-bootstrap 95% CI, an exact McNemar p for right/wrong metrics
 * (else the bootstrap p), Holm-adjusted across the table; and the probes that
 * flipped between right and wrong.
 */
import { scorerFor } from "../benchmarks/index.ts";
import { ConfigError } from "../core/errors.ts";
import type { Setting } from "../core/record.ts";
import { markdownTable } from "../run/table.ts";
import { holm, mcnemarExact, pairedBootstrap } from "../score/bootstrap.ts";
import { escapeMarkdown as e } from "./escape.ts";
import { fmt } from "./format.ts";
import { CHART_LABEL, type Headline, headlineFor, probeMetricKey } from "./headline.ts";
import { loadRun, probeKey, type RunData } from "./run-data.ts";

export interface CompareOptions {
  systemA?: string;
  systemB?: string;
  setting?: Setting;
  /** A per-probe metric key; default: the benchmark's headline (scored, else retrieval). */
  metric?: string;
  /** The label whose values make the rows; default: the benchmark's category label. */
  label?: string;
  iterations?: number;
  seed?: number;
  /** Most changed probes listed for graded metrics. */
  maxChanges?: number;
}

export interface CompareArm {
  run: string;
  dir: string;
  system: string;
  setting: Setting;
}

export interface CompareRow {
  label: string;
  value: string;
  n: number;
  meanA: number;
  meanB: number;
  /** B − A. */
  delta: number;
  ci: [number, number];
  pBootstrap: number;
  /** Right/wrong metrics: probes only A got right, only B got right, and the exact two-sided p. */
  mcnemar?: { onlyA: number; onlyB: number; p: number };
  /** The p used for the Holm correction (McNemar when binary, else bootstrap), adjusted across the rows. */
  pHolm?: number;
}

export interface ChangedProbe {
  episodeId: string;
  probeId: string;
  setting: Setting;
  question: string;
  labels: Record<string, string>;
  a: number;
  b: number;
  direction: "right→wrong" | "wrong→right" | "up" | "down";
}

export interface Comparison {
  benchmark: string;
  metric: string;
  metricKind: "scored" | "retrieval";
  /** Every aligned value is 0 or 1. */
  binary: boolean;
  a: CompareArm;
  b: CompareArm;
  aligned: number;
  onlyInA: number;
  onlyInB: number;
  label: string;
  overall?: CompareRow;
  rows: CompareRow[];
  /** Binary metrics: every flip; graded ones: the largest changes. */
  changed: ChangedProbe[];
  notes: string[];
}

interface Value {
  episodeId: string;
  probeId: string;
  setting: Setting;
  labels: Record<string, string>;
  value: number;
}

/** Per-probe values of one system × setting under a metric. */
function values(run: RunData, system: string, setting: Setting, metric: Metric): Map<string, Value> {
  const out = new Map<string, Value>();
  const put = (x: Omit<Value, "value">, v: number | undefined) => {
    if (v !== undefined && Number.isFinite(v)) out.set(probeKey(x), { ...x, value: v });
  };
  if (metric.kind === "scored") {
    for (const s of run.scores) {
      if (s.system !== system || s.setting !== setting) continue;
      put(s, s.metrics[metric.keyOf(s.labels)]);
    }
  } else {
    for (const r of run.records) {
      if (r.system !== system || r.setting !== setting || r.status !== "done") continue;
      put(r, r.retrieval?.[metric.keyOf(r.labels)]);
    }
  }
  return out;
}

interface Metric {
  name: string;
  kind: "scored" | "retrieval";
  keyOf: (labels: Record<string, string>) => string;
}

function chooseMetric(bench: string, runs: readonly RunData[], options: CompareOptions): Metric {
  if (options.metric) {
    const key = options.metric;
    const scored = runs.every((r) => r.scores.some((s) => s.metrics[key] !== undefined));
    const retrieval = runs.every((r) => r.records.some((x) => x.retrieval?.[key] !== undefined));
    if (!scored && !retrieval) {
      throw new ConfigError(`no per-probe "${key}" in both runs (scored or retrieval metrics)`, "metric", "--metric");
    }
    return { name: key, kind: scored ? "scored" : "retrieval", keyOf: () => key };
  }
  const rows = runs.flatMap((r) => r.summary.results);
  const both = runs.map((r) => headlineFor(bench, r.summary.results));
  let headline: Headline | undefined = headlineFor(bench, rows);
  // The scored headline only when both runs have scores; otherwise both fall back to retrieval.
  if (headline?.kind === "scored" && both.some((h) => h?.kind !== "scored")) {
    headline = both.find((h) => h?.kind === "retrieval");
  }
  if (!headline) throw new ConfigError("neither scored answers nor retrieval metrics to compare", "metric", "--metric");
  const h = headline;
  return {
    name: h.kind === "scored" && bench === "memoryagentbench" ? "primary metric of each sub-dataset" : h.metric,
    kind: h.kind,
    keyOf: (labels) => probeMetricKey(bench, h, labels),
  };
}

function pairSystems(a: RunData, b: RunData, options: CompareOptions): Array<[string, string]> {
  const check = (run: RunData, system: string, flag: string) => {
    if (!run.config.systems.includes(system)) {
      throw new ConfigError(
        `run ${run.config.id} has no system "${system}" (it has ${run.config.systems.join(", ")})`,
        flag.slice(2),
        flag,
      );
    }
  };
  if (options.systemA || options.systemB) {
    const sa = options.systemA ?? (a.config.systems.length === 1 ? a.config.systems[0] : undefined);
    const sb = options.systemB ?? (b.config.systems.length === 1 ? b.config.systems[0] : undefined);
    if (!sa || !sb) throw new ConfigError("name both --system-a and --system-b", "system-a", "--system-a");
    check(a, sa, "--system-a");
    check(b, sb, "--system-b");
    return [[sa, sb]];
  }
  if (a.dir === b.dir) {
    throw new ConfigError("comparing a run with itself needs --system-a and --system-b", "system-a", "--system-a");
  }
  if (a.config.systems.length === 1 && b.config.systems.length === 1)
    return [[a.config.systems[0]!, b.config.systems[0]!]];
  const shared = a.config.systems.filter((s) => b.config.systems.includes(s));
  if (!shared.length) {
    throw new ConfigError(
      `the runs share no system (${a.config.systems.join(", ")} vs ${b.config.systems.join(", ")}); name them with --system-a and --system-b`,
      "system-a",
      "--system-a",
    );
  }
  return shared.map((s) => [s, s]);
}

function row(
  label: string,
  value: string,
  pairs: ReadonlyArray<[Value, Value]>,
  binary: boolean,
  options: CompareOptions,
): CompareRow {
  const xa = pairs.map(([x]) => x.value);
  const xb = pairs.map(([, y]) => y.value);
  const boot = pairedBootstrap(xa, xb, { iterations: options.iterations, seed: options.seed });
  const mean = (xs: number[]) => xs.reduce((s, v) => s + v, 0) / xs.length;
  const out: CompareRow = {
    label,
    value,
    n: pairs.length,
    meanA: mean(xa),
    meanB: mean(xb),
    delta: boot.delta,
    ci: boot.ci,
    pBootstrap: boot.p,
  };
  if (binary) {
    const onlyA = pairs.filter(([x, y]) => x.value === 1 && y.value === 0).length;
    const onlyB = pairs.filter(([x, y]) => x.value === 0 && y.value === 1).length;
    out.mcnemar = { onlyA, onlyB, p: mcnemarExact(onlyA, onlyB) };
  }
  return out;
}

/** Compares two loaded runs; one comparison per pair of systems. */
export function compareLoaded(runA: RunData, runB: RunData, options: CompareOptions = {}): Comparison[] {
  const bench = runA.config.benchmark;
  if (runB.config.benchmark !== bench) {
    throw new ConfigError(
      `runs of different benchmarks (${bench} vs ${runB.config.benchmark}) cannot be aligned`,
      "runs",
    );
  }
  const setting = options.setting ?? "default";
  const metric = chooseMetric(bench, [runA, runB], options);
  const label = options.label ?? CHART_LABEL[bench] ?? scorerFor(bench)?.stratifyBy ?? "category";
  return pairSystems(runA, runB, options).map(([sa, sb]) => {
    const va = values(runA, sa, setting, metric);
    const vb = values(runB, sb, setting, metric);
    const pairs: Array<[Value, Value]> = [];
    for (const [key, x] of va) {
      const y = vb.get(key);
      if (y) pairs.push([x, y]);
    }
    const binary =
      pairs.length > 0 && pairs.every(([x, y]) => (x.value === 0 || x.value === 1) && (y.value === 0 || y.value === 1));
    const notes: string[] = [];
    if (!pairs.length) notes.push("no probe has a value in both arms: nothing to compare");
    const rows: CompareRow[] = [];
    const groups = [...new Set(pairs.map(([x]) => x.labels[label]).filter((v): v is string => v !== undefined))].sort();
    for (const value of groups) {
      rows.push(
        row(
          label,
          value,
          pairs.filter(([x]) => x.labels[label] === value),
          binary,
          options,
        ),
      );
    }
    const adjusted = holm(rows.map((r) => (r.mcnemar ? r.mcnemar.p : r.pBootstrap)));
    rows.forEach((r, i) => {
      r.pHolm = adjusted[i];
    });
    const questions = new Map(runA.records.map((r) => [probeKey(r), r.question]));
    const changed: ChangedProbe[] = pairs
      .filter(([x, y]) => x.value !== y.value)
      .map(([x, y]) => ({
        episodeId: x.episodeId,
        probeId: x.probeId,
        setting,
        question: questions.get(probeKey(x)) ?? "",
        labels: x.labels,
        a: x.value,
        b: y.value,
        direction: binary ? (x.value === 1 ? "right→wrong" : "wrong→right") : y.value < x.value ? "down" : "up",
      }));
    if (!binary) {
      changed.sort((p, q) => Math.abs(q.b - q.a) - Math.abs(p.b - p.a));
      const max = options.maxChanges ?? 50;
      if (changed.length > max) {
        notes.push(`graded metric: the ${max} largest of ${changed.length} changes are listed`);
        changed.length = max;
      }
    }
    return {
      benchmark: bench,
      metric: metric.name,
      metricKind: metric.kind,
      binary,
      a: { run: runA.config.id, dir: runA.dir, system: sa, setting },
      b: { run: runB.config.id, dir: runB.dir, system: sb, setting },
      aligned: pairs.length,
      onlyInA: va.size - pairs.length,
      onlyInB: vb.size - pairs.length,
      label,
      ...(pairs.length ? { overall: row("all", "all", pairs, binary, options) } : {}),
      rows,
      changed,
      notes,
    };
  });
}

/** Compares two run directories (the same one twice for two systems of one run). */
export function compareRuns(dirA: string, dirB: string, options: CompareOptions = {}): Comparison[] {
  const a = loadRun(dirA);
  const b = dirB === dirA ? a : loadRun(dirB);
  return compareLoaded(a, b, options);
}

const pct = (x: number) => fmt(100 * x, 1);
const pv = (p: number | undefined) =>
  p === undefined || !Number.isFinite(p) ? "–" : p < 0.001 ? "<0.001" : p.toFixed(3);

function rowCells(r: CompareRow, binary: boolean): string[] {
  return [
    e(r.value),
    String(r.n),
    pct(r.meanA),
    pct(r.meanB),
    `${r.delta >= 0 ? "+" : ""}${pct(r.delta)}`,
    `[${pct(r.ci[0])}, ${pct(r.ci[1])}]`,
    ...(binary ? [r.mcnemar ? `${r.mcnemar.onlyA} / ${r.mcnemar.onlyB}` : "–", pv(r.mcnemar?.p)] : [pv(r.pBootstrap)]),
    r.pHolm === undefined ? "–" : pv(r.pHolm),
  ];
}

export function comparisonMarkdown(comparisons: readonly Comparison[]): string {
  const out: string[] = [];
  for (const c of comparisons) {
    const arm = (x: CompareArm) => `${e(x.run)}/${e(x.system)} (${x.setting})`;
    out.push(`## ${e(c.benchmark)}: A = ${arm(c.a)} vs B = ${arm(c.b)}`, "");
    out.push(
      `Metric: \`${e(c.metric)}\` (${c.metricKind === "scored" ? "scored answers" : "retrieval, no scored answers"}; ${
        c.binary ? "right/wrong" : "graded"
      }), ×100. Aligned probes: ${c.aligned} (only in A: ${c.onlyInA}, only in B: ${c.onlyInB}). ` +
        `Δ = B − A with a paired-bootstrap 95% CI; ${
          c.binary ? "p from the exact McNemar test on the discordant probes" : "p from the paired bootstrap"
        }; Holm-adjusted across the ${e(c.label)} rows.`,
      "",
    );
    const header = [
      e(c.label),
      "n",
      "A",
      "B",
      "Δ",
      "95% CI",
      ...(c.binary ? ["only A right / only B right", "McNemar p"] : ["p"]),
      "p (Holm)",
    ];
    const rows = c.rows.map((r) => rowCells(r, c.binary));
    if (c.overall) rows.push(rowCells({ ...c.overall, value: "all", pHolm: undefined }, c.binary));
    if (rows.length) out.push(markdownTable(header, rows), "");
    for (const note of c.notes) out.push(`> ${e(note)}`, "");
    const title = c.binary ? `Flipped probes (${c.changed.length})` : `Changed probes (${c.changed.length})`;
    out.push(`### ${title}`, "");
    if (!c.changed.length) out.push("None.", "");
    else {
      out.push(
        markdownTable(
          ["episode", "probe", e(c.label), "A", "B", "change", "question"],
          c.changed.map((p) => [
            e(p.episodeId),
            e(p.probeId),
            e(p.labels[c.label] ?? ""),
            fmt(p.a, c.binary ? 0 : 3),
            fmt(p.b, c.binary ? 0 : 3),
            p.direction,
            e(p.question.length > 120 ? `${p.question.slice(0, 117)}…` : p.question),
          ]),
        ),
        "",
      );
    }
  }
  return `${out.join("\n").trimEnd()}\n`;
}
