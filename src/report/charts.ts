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
import { waterfalls } from "./build.ts";
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
 * How charts name a system: its id, prefixed with the run id only when the
 * same system of the same benchmark comes from several runs. So one system
 * run on several benchmarks is one row of the competency profile.
 */
function namer(runs: readonly RunData[]): (run: RunData, system: string) => string {
  const count = new Map<string, number>();
  for (const run of runs) {
    for (const system of run.config.systems) {
      const key = `${run.config.benchmark}\u0000${system}`;
      count.set(key, (count.get(key) ?? 0) + 1);
    }
  }
  return (run, system) =>
    (count.get(`${run.config.benchmark}\u0000${system}`) ?? 0) > 1 ? `${run.config.id}/${system}` : system;
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
        });
      }
    }
  }
  return out;
}

function categoryChart(section: BenchmarkSection, runs: readonly RunData[]): Chart {
  const bench = section.benchmark;
  const label = CHART_LABEL[bench] ?? scorerFor(bench)?.stratifyBy ?? "category";
  const id = `categories-${bench}`;
  const h = section.headline;
  const title = `${section.title}: ${h ? h.label : "score"} by ${label}`;
  if (!h) return { id, title, description: "", empty: "no scored answers and no retrieval metrics in these runs" };
  const data = categoryData(bench, runs, h);
  const description = `Mean per-probe ${h.label} (%) by ${label}, default setting, one bar per system; whiskers are 95% bootstrap CIs (none with n < 2).`;
  const x = slantedX("category", label);
  return drawn({ id, title, description }, data, `no probe carries both a value and a ${label} label`, {
    width: { step: 24 },
    height: 220,
    layer: [
      {
        mark: "bar",
        encoding: {
          x,
          xOffset: { field: "system" },
          y: percentY(`${h.label} (%)`),
          color: { field: "system", type: "nominal", title: "system" },
        },
      },
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
        data.push({ system: name, stage, order: i, value: (100 * counts[i]!) / w.n, count: counts[i]!, n: w.n });
      });
    } else {
      graded = true;
      const means = [w.means.oracle, w.means.perfect, w.means.default];
      STAGES.forEach((stage, i) => {
        data.push({ system: name, stage, order: i, value: 100 * means[i]!, count: null, n: w.n });
      });
    }
  }
  const description = graded
    ? "Scores are graded, not right/wrong, so the stages are not chained: each bar is the mean score (%) in that setting over the probes run in all three."
    : "Share (%) of the probes run in all three settings that are right under oracle evidence (S_O), of those also right under perfect retrieval (S_P ⊆ S_O), and of those also right by default (S_D ⊆ S_P).";
  const empty = "needs the default, oracle and perfect settings of one system, with scored answers";
  return drawn({ id, title, description }, data, empty, {
    width: { step: 28 },
    height: 220,
    mark: "bar",
    encoding: {
      x: slantedX("system", "system"),
      xOffset: { field: "stage", sort: [...STAGES] },
      y: percentY(graded ? "mean score (%)" : "share of probes (%)"),
      color: { field: "stage", type: "nominal", sort: [...STAGES], title: "stage" },
    },
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

function points(sections: readonly BenchmarkSection[], runs: readonly RunData[]): Point[] {
  const out: Point[] = [];
  const nameOf = namer(runs);
  for (const section of sections) {
    const h = section.headline;
    if (!h) continue;
    for (const [run, row] of defaultRows(runs.filter((r) => r.config.benchmark === section.benchmark))) {
      const score = headlinePercent(row, h);
      if (score === undefined) continue;
      out.push({
        system: nameOf(run, row.system),
        benchmark: section.benchmark,
        metric: h.label,
        score,
        ...(Number.isFinite(row.metrics.search_ms_p95) ? { latency: row.metrics.search_ms_p95 } : {}),
        ...(Number.isFinite(row.metrics.context_tokens_mean) ? { tokens: row.metrics.context_tokens_mean } : {}),
      });
    }
  }
  return out;
}

function metricsNote(sections: readonly BenchmarkSection[]): string {
  const used = sections.filter((s) => s.headline).map((s) => `${s.benchmark}: ${s.headline!.label}`);
  return used.length ? `Score per benchmark: ${used.join("; ")}.` : "";
}

function scatter(
  id: string,
  title: string,
  field: "latency" | "tokens",
  axisTitle: string,
  sections: readonly BenchmarkSection[],
  runs: readonly RunData[],
): Chart {
  const data = points(sections, runs).filter((p) => p[field] !== undefined) as unknown as Datum[];
  const description = `One point per system and benchmark (default setting). ${metricsNote(sections)}`;
  return drawn({ id, title, description }, data, `no system has both a headline score and ${axisTitle}`, {
    width: 420,
    height: 260,
    layer: [
      {
        mark: { type: "point", filled: true, size: 80 },
        encoding: {
          x: { field, type: "quantitative", title: axisTitle, scale: { zero: true } },
          y: percentY("headline score (%)", "score"),
          color: { field: "system", type: "nominal" },
          shape: { field: "benchmark", type: "nominal" },
        },
      },
      {
        mark: { type: "text", dx: 8, align: "left", fontSize: 10 },
        encoding: {
          x: { field, type: "quantitative" },
          y: { field: "score", type: "quantitative" },
          text: { field: "system" },
        },
      },
    ],
  });
}

function profileChart(sections: readonly BenchmarkSection[], runs: readonly RunData[]): Chart {
  const id = "competency-profile";
  const title = "Competency profile across the benchmarks run";
  const data: Datum[] = points(sections, runs).map((p) => ({
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
  const description = `Headline score (%) per system and benchmark, default setting. ${metricsNote(sections)} Empty cells were not run or not scored.`;
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
