/**
 * The HTML report's charts as vega-lite specs with their data inlined: per
 * category bars with CI whiskers, the evidence waterfall, MemConflict's
 * retrieval-vs-utilisation split, Memora's MPA vs FAMA, accuracy against
 * latency and against context tokens, and the competency profile. A chart
 * without data carries the reason instead of a spec.
 */
import type { TopLevelSpec } from "vega-lite";
import { scorerFor } from "../benchmarks/index.ts";
import { bootstrapMeanCI } from "../score/bootstrap.ts";
import { waterfallMissing, waterfalls } from "./build.ts";
import { CHART_LABEL, type Headline, headlinePercent, recordValue, scoreValue } from "./headline.ts";
import type { BenchmarkSection } from "./model.ts";
import type { RunData } from "./run-data.ts";

export interface Chart {
  id: string;
  title: string;
  description: string;
  spec?: TopLevelSpec;
  /** Why there is nothing to draw. */
  empty?: string;
}

type Datum = Record<string, string | number | null>;

// Rendered in Node without a canvas, vega estimates a label's width at 0.8 em a
// character, well above its real width, and cuts labels at these limits with "…";
// they leave room for about 35 characters ("EverMemOS + OpenClaw · conditional").
const CONFIG = {
  font: "sans-serif",
  background: "white",
  axis: { labelLimit: 300, titleFontWeight: "normal" },
  legend: { labelLimit: 320 },
  view: { stroke: null },
} as const;

type Head = Pick<Chart, "id" | "title" | "description">;

/**
 * The chart drawn from `data` by `spec` (data, schema and config added), or
 * `empty` as the reason when there is no data. The figure caption carries the
 * title, so the spec itself has none.
 */
function drawn(head: Head, data: Datum[], empty: string, spec: Record<string, unknown>): Chart {
  if (!data.length) return { ...head, empty };
  return {
    ...head,
    spec: {
      $schema: "https://vega.github.io/schema/vega-lite/v6.json",
      data: { values: data },
      config: CONFIG,
      ...spec,
    } as TopLevelSpec,
  };
}

/** A nominal x axis with slanted labels. */
function slantedX(field: string, title: string | null) {
  return { field, type: "nominal", title, axis: { labelAngle: -30 } } as const;
}

/** A quantitative y axis of percentages, 0 to 100. */
function percentY(title: string, field = "value") {
  return { field, type: "quantitative", title, scale: { domain: [0, 100] } } as const;
}

type SummaryRow = RunData["summary"]["results"][number];

/** Each run's summary rows of the default setting, run by run. */
function* defaultRows(runs: readonly RunData[]): Generator<[RunData, SummaryRow]> {
  for (const run of runs) {
    for (const row of run.summary.results.filter((r) => r.setting === "default")) yield [run, row];
  }
}

/**
 * Short names for runs whose ids differ: the part of the ids that differs
 * (the leading and trailing `-`/`_`/`.` separated words they share dropped),
 * when that is unique and at most 16 characters; else r1, r2, … in order.
 */
export function shortRunNames(ids: readonly string[]): Map<string, string> {
  const unique = [...new Set(ids)];
  if (unique.length < 2) return new Map(unique.map((id) => [id, "r1"]));
  const words = unique.map((id) => id.split(/(?=[-_.])|(?<=[-_.])/));
  const shared = (pick: (w: string[], i: number) => string | undefined) => {
    let n = 0;
    const shortest = Math.min(...words.map((w) => w.length));
    while (n < shortest - 1 && words.every((w) => pick(w, n) === pick(words[0]!, n))) n++;
    return n;
  };
  const head = shared((w, i) => w[i]);
  const tail = Math.min(
    shared((w, i) => w[w.length - 1 - i]),
    Math.min(...words.map((w) => w.length)) - head - 1,
  );
  const middle = words.map((w) =>
    w
      .slice(head, w.length - Math.max(0, tail))
      .join("")
      .replace(/^[-_.]+|[-_.]+$/g, ""),
  );
  const usable = middle.every((m) => m.length > 0 && m.length <= 16) && new Set(middle).size === middle.length;
  return new Map(unique.map((id, i) => [id, usable ? middle[i]! : `r${i + 1}`]));
}

interface Namer {
  (run: RunData, system: string): string;
  /** `short = run id` for every run whose short name is used, for the captions. */
  legend: string[];
}

/**
 * How charts name a system: its id, prefixed with a short name of its run
 * (shortRunNames) only when the same system of the same benchmark comes from
 * several runs, the same in every chart. So one system run on several
 * benchmarks is one row of the competency profile.
 */
function namer(runs: readonly RunData[]): Namer {
  const count = new Map<string, number>();
  for (const run of runs) {
    for (const system of run.config.systems) {
      const key = `${run.config.benchmark}\u0000${system}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  const prefixed = runs.filter((run) =>
    run.config.systems.some((system) => (count.get(`${run.config.benchmark}\u0000${system}`) ?? 0) > 1),
  );
  const short = shortRunNames(prefixed.map((r) => r.config.id));
  const name = ((run: RunData, system: string) =>
    (count.get(`${run.config.benchmark}\u0000${system}`) ?? 0) > 1
      ? `${short.get(run.config.id)}/${system}`
      : system) as Namer;
  name.legend = [...short].map(([id, s]) => `${s} = run ${id}`);
  return name;
}

/** The caption's note on shortened run names, when there are any. */
function runLegend(nameOf: Namer): string {
  return nameOf.legend.length ? ` Runs: ${nameOf.legend.join("; ")}.` : "";
}

/** Per category label value and system (default setting): mean of the per-probe headline with its CI. */
export function categoryData(bench: string, runs: readonly RunData[], headline: Headline): Datum[] {
  const label = CHART_LABEL[bench] ?? scorerFor(bench)?.stratifyBy;
  if (!label) return [];
  const nameOf = namer(runs);
  const out: Datum[] = [];
  for (const run of runs) {
    for (const system of run.config.systems) {
      const pairs: Array<[string, number]> = [];
      if (headline.kind === "scored") {
        for (const s of run.scores) {
          if (s.system !== system || s.setting !== "default") continue;
          const v = scoreValue(bench, headline, s);
          const group = s.labels[label];
          if (v !== undefined && group !== undefined) pairs.push([group, v]);
        }
      } else {
        for (const r of run.records) {
          if (r.system !== system || r.setting !== "default") continue;
          const v = recordValue(headline, r);
          const group = r.labels[label];
          if (v !== undefined && group !== undefined) pairs.push([group, v]);
        }
      }
      for (const group of [...new Set(pairs.map(([g]) => g))].sort()) {
        const values = pairs.filter(([g]) => g === group).map(([, v]) => v);
        const mean = values.reduce((a, b) => a + b, 0) / values.length;
        const ci = values.length >= 2 ? bootstrapMeanCI(values) : undefined;
        out.push({
          system: nameOf(run, system),
          category: group,
          value: 100 * mean,
          lo: ci ? 100 * ci[0] : null,
          hi: ci ? 100 * ci[1] : null,
          n: values.length,
          mark: mean === 0 ? ZERO : "",
        });
      }
    }
  }
  if (!out.length) return out;
  // A system with no value in a category gets an explicit "–", so a missing bar never reads as a zero.
  const systems = [...new Set(runs.flatMap((run) => run.config.systems.map((system) => nameOf(run, system))))];
  const categories = [...new Set(out.map((d) => String(d.category)))].sort();
  for (const system of systems) {
    for (const category of categories) {
      if (out.some((d) => d.system === system && d.category === category)) continue;
      out.push({ system, category, value: null, lo: null, hi: null, n: 0, mark: MISSING });
    }
  }
  return out;
}

/** What the bar charts print at the foot of a bar that is zero, and where a value is missing. */
export const ZERO = "0";
export const MISSING = "–";

/**
 * Layers that tell a zero from a missing value on a bar chart: a short line
 * in the series colour and a "0" on the axis for a zero, a "–" for a missing
 * value (the data's `mark` field: ZERO, MISSING or "").
 */
function zeroAndMissing(x: object, xOffset: object, color: object): object[] {
  return [
    {
      transform: [{ filter: `datum.mark === '${ZERO}'` }],
      mark: { type: "tick", thickness: 3, bandSize: 14 },
      encoding: { x, xOffset, y: { field: "value", type: "quantitative" }, color },
    },
    {
      transform: [{ filter: "datum.mark !== ''" }],
      mark: { type: "text", dy: -9, fontSize: 11, fontWeight: "bold" },
      encoding: {
        x,
        xOffset,
        y: { datum: 0, type: "quantitative" },
        text: { field: "mark" },
        color: { value: "#333" },
      },
    },
  ];
}

function categoryChart(section: BenchmarkSection, runs: readonly RunData[]): Chart {
  const bench = section.benchmark;
  const label = CHART_LABEL[bench] ?? scorerFor(bench)?.stratifyBy ?? "category";
  const id = `categories-${bench}`;
  const h = section.headline;
  const title = `${section.title}: ${h ? h.label : "score"} by ${label}`;
  if (!h) return { id, title, description: "", empty: "no scored answers and no retrieval metrics in these runs" };
  const data = categoryData(bench, runs, h);
  const nameOf = namer(runs);
  const description =
    `Mean per-probe ${h.label} (%) by ${label}, default setting, one bar per system; whiskers are 95% bootstrap CIs (none with n < 2). ` +
    `"0" under a bar marks a zero; "–" marks a system with no value there (not run or not scored).${runLegend(nameOf)}`;
  const x = slantedX("category", label);
  const xOffset = { field: "system" };
  // Every system in the legend, those with only "–" too.
  const systems = [...new Set(data.map((d) => String(d.system)))].sort();
  const color = { field: "system", type: "nominal", title: "system", scale: { domain: systems } };
  return drawn({ id, title, description }, data, `no probe carries both a value and a ${label} label`, {
    width: { step: 24 },
    height: 220,
    layer: [
      {
        transform: [{ filter: "datum.value !== null" }],
        mark: "bar",
        encoding: {
          x,
          xOffset,
          y: percentY(`${h.label} (%)`),
          color,
        },
      },
      ...zeroAndMissing(x, xOffset, color),
      {
        mark: { type: "rule", color: "black" },
        encoding: {
          x,
          xOffset: { field: "system" },
          y: { field: "lo", type: "quantitative" },
          y2: { field: "hi" },
        },
      },
    ],
  });
}

const STAGES = ["oracle: gold evidence", "preserved: perfect retrieval", "retrieved: default"] as const;

function waterfallChart(section: BenchmarkSection, runs: readonly RunData[]): Chart {
  const bench = section.benchmark;
  const id = `waterfall-${bench}`;
  const title = `${section.title}: evidence waterfall (oracle → preserved → retrieved)`;
  const nameOf = namer(runs);
  const found = waterfalls(bench, runs, {});
  const data: Datum[] = [];
  let graded = false;
  for (const { run, system, waterfall: w } of found) {
    const name = nameOf(run, system);
    if (w.chained) {
      const counts = [w.overall.sO, w.overall.sP, w.overall.sD];
      STAGES.forEach((stage, i) => {
        const value = (100 * counts[i]!) / w.n;
        data.push({ system: name, stage, order: i, value, count: counts[i]!, n: w.n, mark: value === 0 ? ZERO : "" });
      });
    } else {
      graded = true;
      const means = [w.means.oracle, w.means.perfect, w.means.default];
      STAGES.forEach((stage, i) => {
        const value = 100 * means[i]!;
        data.push({ system: name, stage, order: i, value, count: null, n: w.n, mark: value === 0 ? ZERO : "" });
      });
    }
  }
  const description =
    (graded
      ? "Scores are graded, not right/wrong, so the stages are not chained: each bar is the mean score (%) in that setting over the probes run in all three."
      : "Share (%) of the probes run in all three settings that are right under oracle evidence (S_O), of those also right under perfect retrieval (S_P ⊆ S_O), and of those also right by default (S_D ⊆ S_P).") +
    ` "0" marks a zero.${runLegend(nameOf)}`;
  const empty = waterfallMissing(runs);
  const x = slantedX("system", "system");
  const xOffset = { field: "stage", sort: [...STAGES] };
  const color = { field: "stage", type: "nominal", sort: [...STAGES], title: "stage" };
  return drawn({ id, title, description }, data, empty, {
    width: { step: 28 },
    height: 220,
    layer: [
      {
        mark: "bar",
        encoding: { x, xOffset, y: percentY(graded ? "mean score (%)" : "share of probes (%)"), color },
      },
      ...zeroAndMissing(x, xOffset, color),
    ],
  });
}

const KINDS = ["dynamic", "static", "conditional"] as const;

function memconflictChart(runs: readonly RunData[]): Chart {
  const id = "memconflict-split";
  const title = "MemConflict: retrieval vs utilisation failures";
  const description =
    "Per system and conflict type: share of questions answered right, wrong with no supporting memory in the top 3 " +
    "(retrieval failure), and wrong although the top 3 held support (utilisation failure). Default setting.";
  const nameOf = namer(runs);
  const data: Datum[] = [];
  for (const [run, row] of defaultRows(runs)) {
    for (const kind of [...KINDS, "all"] as const) {
      const prefix = kind === "all" ? "" : `${kind}_`;
      const rf = row.metrics[`${prefix}rf_over_all`];
      const uf = row.metrics[`${prefix}uf_over_all`];
      if (rf === undefined || uf === undefined) continue;
      const name = `${nameOf(run, row.system)} · ${kind}`;
      data.push({ row: name, outcome: "answered right", order: 0, value: 100 * (1 - rf - uf) });
      data.push({ row: name, outcome: "retrieval failure", order: 1, value: 100 * rf });
      data.push({ row: name, outcome: "utilisation failure", order: 2, value: 100 * uf });
    }
  }
  return drawn({ id, title, description }, data, "no judged MemConflict answers in these runs", {
    width: 420,
    height: { step: 22 },
    mark: "bar",
    encoding: {
      y: { field: "row", type: "nominal", title: null, sort: null },
      // Shares sum to 100 up to rounding; without a fixed domain the axis can run on to 110.
      x: {
        field: "value",
        type: "quantitative",
        stack: "zero",
        title: "share of questions (%)",
        scale: { domain: [0, 100] },
      },
      color: {
        field: "outcome",
        type: "nominal",
        sort: ["answered right", "retrieval failure", "utilisation failure"],
        scale: { range: ["#59a14f", "#e15759", "#f28e2b"] },
      },
      order: { field: "order" },
    },
  });
}

function memoraChart(runs: readonly RunData[]): Chart {
  const id = "memora-fama";
  const title = "Memora: memory-presence accuracy (MPA) vs FAMA";
  const description =
    "Per task, default setting: MPA counts the rubric items the answer got right; FAMA takes off the share of " +
    "forgotten (deleted or updated) memories the answer still used. The gap is the forgetting penalty (Table 5's reduction).";
  const nameOf = namer(runs);
  const data: Datum[] = [];
  for (const [run, row] of defaultRows(runs)) {
    const tasks = row.byLabel.task ?? {};
    const groups: Array<[string, Record<string, number>]> = [
      ...Object.entries(tasks).sort(([a], [b]) => a.localeCompare(b)),
      ["all tasks", row.metrics],
    ];
    for (const [task, m] of groups) {
      if (m.mpa === undefined || m.fama === undefined) continue;
      const system = nameOf(run, row.system);
      data.push({ system, task, measure: "MPA", value: 100 * m.mpa, reduction: 100 * (m.fama - m.mpa) });
      data.push({ system, task, measure: "FAMA", value: 100 * m.fama, reduction: 100 * (m.fama - m.mpa) });
    }
  }
  return drawn({ id, title, description }, data, "no judged Memora answers in these runs", {
    width: { step: 22 },
    height: 200,
    mark: "bar",
    encoding: {
      column: { field: "system", type: "nominal", title: null },
      x: slantedX("task", null),
      xOffset: { field: "measure", sort: ["MPA", "FAMA"] },
      y: percentY("score (%)"),
      color: { field: "measure", type: "nominal", sort: ["MPA", "FAMA"], scale: { range: ["#4e79a7", "#e15759"] } },
    },
  });
}

interface Point {
  system: string;
  benchmark: string;
  metric: string;
  score: number;
  latency?: number;
  tokens?: number;
}

/**
 * One point per system and benchmark on the headline (default setting). A row
 * without the scored headline (an unscored run beside a scored one) is put on
 * the section's retrieval headline instead, as `<benchmark> (<metric>)`, so no
 * system vanishes; `everyRetrieval` adds that column for the scored rows too,
 * so it compares them all.
 */
function points(sections: readonly BenchmarkSection[], runs: readonly RunData[], everyRetrieval = false): Point[] {
  const out: Point[] = [];
  const nameOf = namer(runs);
  for (const section of sections) {
    const h = section.headline;
    if (!h) continue;
    const fallback = section.retrievalHeadline;
    for (const [run, row] of defaultRows(runs.filter((r) => r.config.benchmark === section.benchmark))) {
      const extra = {
        ...(Number.isFinite(row.metrics.search_ms_p95) ? { latency: row.metrics.search_ms_p95 } : {}),
        ...(Number.isFinite(row.metrics.context_tokens_mean) ? { tokens: row.metrics.context_tokens_mean } : {}),
      };
      const system = nameOf(run, row.system);
      const score = headlinePercent(row, h);
      if (score !== undefined) out.push({ system, benchmark: section.benchmark, metric: h.label, score, ...extra });
      if (!fallback || (score !== undefined && !everyRetrieval)) continue;
      const retrieval = headlinePercent(row, fallback);
      if (retrieval === undefined) continue;
      out.push({
        system,
        benchmark: `${section.benchmark} (${fallback.metric})`,
        metric: fallback.label,
        score: retrieval,
        ...extra,
      });
    }
  }
  return out;
}

function metricsNote(sections: readonly BenchmarkSection[]): string {
  const used = sections
    .filter((s) => s.headline)
    .map(
      (s) =>
        `${s.benchmark}: ${s.headline!.label}${
          s.retrievalHeadline ? `, and ${s.retrievalHeadline.metric} for runs without scored answers` : ""
        }`,
    );
  return used.length ? `Score per benchmark: ${used.join("; ")}.` : "";
}

const SCATTER = { width: 420, height: 260, fontSize: 10 };
/** Rough width of a character of the label font; vega's own estimate without a canvas is wider still. */
const CHAR_PX = 0.62 * SCATTER.fontSize;

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

const overlaps = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * Where each point's label goes, in data units (its left edge and middle), or
 * nothing when every place near the point is taken: labels never overlap each
 * other or a point, so two runs combined stay readable (the legend still names
 * every colour). Positions are computed on the chart's own scales, which the
 * spec fixes (no "nice" rounding).
 */
export function placeLabels(
  data: ReadonlyArray<{ x: number; y: number; text: string }>,
  xMax: number,
  size = SCATTER,
): Array<{ lx: number; ly: number } | undefined> {
  const px = (x: number) => (x / xMax) * size.width;
  const py = (y: number) => size.height - (y / 100) * size.height;
  const half = size.fontSize * 0.6;
  const taken: Box[] = data.map((d) => ({ x0: px(d.x) - 5, y0: py(d.y) - 5, x1: px(d.x) + 5, y1: py(d.y) + 5 }));
  // Already-placed labels of the same text at the same spot say it once.
  const said = new Map<string, { lx: number; ly: number }>();
  return data.map((d) => {
    const x = px(d.x);
    const y = py(d.y);
    const width = d.text.length * CHAR_PX;
    const spot = `${d.text}\u0000${Math.round(x)}\u0000${Math.round(y)}`;
    if (said.has(spot)) return undefined;
    const candidates: Array<[number, number]> = [
      [8, 0],
      [-8 - width, 0],
      [8, -12],
      [8, 12],
      [-width / 2, -14],
      [-width / 2, 14],
      [-8 - width, -12],
      [-8 - width, 12],
      [8, -24],
      [8, 24],
    ];
    for (const [dx, dy] of candidates) {
      const box = { x0: x + dx, y0: y + dy - half, x1: x + dx + width, y1: y + dy + half };
      if (box.x0 < 0 || box.x1 > size.width || box.y0 < -4 || box.y1 > size.height + 4) continue;
      if (taken.some((t) => overlaps(t, box))) continue;
      taken.push(box);
      const at = { lx: ((x + dx) / size.width) * xMax, ly: ((size.height - (y + dy)) / size.height) * 100 };
      said.set(spot, at);
      return at;
    }
    return undefined;
  });
}

function scatter(
  id: string,
  title: string,
  field: "latency" | "tokens",
  axisTitle: string,
  sections: readonly BenchmarkSection[],
  runs: readonly RunData[],
): Chart {
  const found = points(sections, runs).filter((p) => p[field] !== undefined);
  const xMax = Math.max(1, ...found.map((p) => p[field]!)) * 1.08;
  const places = placeLabels(
    found.map((p) => ({ x: p[field]!, y: p.score, text: p.system })),
    xMax,
  );
  const data = found.map((p, i) => ({ ...p, lx: places[i]?.lx ?? null, ly: places[i]?.ly ?? null })) as Datum[];
  const unlabelled = places.filter((p) => !p).length;
  const description =
    `One point per system and benchmark (default setting). ${metricsNote(sections)}` +
    `${unlabelled ? ` Labels that would overlap are left off (${unlabelled}); the colour legend names every system.` : ""}` +
    runLegend(namer(runs));
  const x = { field, type: "quantitative", title: axisTitle, scale: { domain: [0, xMax], nice: false } };
  return drawn({ id, title, description }, data, `no system has both a headline score and ${axisTitle}`, {
    width: SCATTER.width,
    height: SCATTER.height,
    layer: [
      {
        mark: { type: "point", filled: true, size: 80 },
        encoding: {
          x,
          y: percentY("headline score (%)", "score"),
          color: { field: "system", type: "nominal" },
          shape: { field: "benchmark", type: "nominal" },
        },
      },
      {
        transform: [{ filter: "datum.lx !== null" }],
        mark: { type: "text", align: "left", baseline: "middle", fontSize: SCATTER.fontSize },
        encoding: {
          x: { field: "lx", type: "quantitative" },
          y: { field: "ly", type: "quantitative" },
          text: { field: "system" },
        },
      },
    ],
  });
}

function profileChart(sections: readonly BenchmarkSection[], runs: readonly RunData[]): Chart {
  const id = "competency-profile";
  const title = "Competency profile across the benchmarks run";
  const data: Datum[] = points(sections, runs, true).map((p) => ({
    system: p.system,
    column: p.benchmark,
    metric: p.metric,
    score: p.score,
  }));
  // MemoryAgentBench's four competencies are a profile of their own: add them as columns.
  const nameOf = namer(runs);
  for (const [run, row] of defaultRows(runs.filter((r) => r.config.benchmark === "memoryagentbench"))) {
    for (const c of ["AR", "TTL", "LRU", "SF"]) {
      const v = row.metrics[c];
      if (v !== undefined && Number.isFinite(v)) {
        data.push({ system: nameOf(run, row.system), column: `MAB ${c}`, metric: c, score: v });
      }
    }
  }
  const description = `Headline score (%) per system and benchmark, default setting. ${metricsNote(sections)} Empty cells were not run or not scored.${runLegend(nameOf)}`;
  return drawn({ id, title, description }, data, "no benchmark in these runs has a headline score", {
    width: { step: 90 },
    height: { step: 28 },
    encoding: {
      x: { field: "column", type: "nominal", title: null, axis: { labelAngle: -20, orient: "top" } },
      y: { field: "system", type: "nominal", title: null },
    },
    layer: [
      {
        mark: "rect",
        encoding: {
          color: {
            field: "score",
            type: "quantitative",
            title: "score (%)",
            scale: { domain: [0, 100], scheme: "blues" },
          },
        },
      },
      {
        mark: { type: "text", fontSize: 11 },
        encoding: {
          text: { field: "score", type: "quantitative", format: ".1f" },
          color: { condition: { test: "datum.score > 60", value: "white" }, value: "black" },
        },
      },
    ],
  });
}

/** The charts of one benchmark section. */
export function sectionCharts(section: BenchmarkSection, runs: readonly RunData[]): Chart[] {
  const mine = runs.filter((r) => r.config.benchmark === section.benchmark);
  const charts = [categoryChart(section, mine)];
  if (section.benchmark !== "memoryagentbench") charts.push(waterfallChart(section, mine));
  if (section.benchmark === "memconflict") charts.push(memconflictChart(mine));
  if (section.benchmark === "memora") charts.push(memoraChart(mine));
  return charts;
}

/** The charts across every benchmark run. */
export function overviewCharts(sections: readonly BenchmarkSection[], runs: readonly RunData[]): Chart[] {
  return [
    profileChart(sections, runs),
    scatter("accuracy-latency", "Score vs retrieval latency", "latency", "search latency p95 (ms)", sections, runs),
    scatter("accuracy-tokens", "Score vs context size", "tokens", "context tokens per probe (mean)", sections, runs),
  ];
}
