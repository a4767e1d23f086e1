/**
 * The ledger's numbers: (1) retrieval against the baselines on each sample in
 * ../shared/datasets (or the project fixtures when it is absent), every system in
 * the same run and with the same embedder; (2) latency and footprint at scale on
 * a deterministic synthetic history of 100k memories.
 *
 * Memora cases also check the ledger's tallies against the release's computed
 * answers (bench/ledger-tallies.ts).
 *
 * Run alone with `npx tsx bench/ledger.ts [retrieval [--check] [case…]|latency]`.
 * Each case is reported whole and in its tuning and checking halves
 * (bench/ledger-splits.ts; `memora` is Memora's tuning half, `memora-monthly`
 * its checking half), and on each half the ledger is held to its baselines on
 * the headline measure (bench/ledger-halves.ts): a FAILURE line names each
 * half where it falls below them, and with `--check` the process exits 1. The embedder for
 * (1) is MEMBENCH_EMBEDDER or use-lite (vectors cached after the first run); the
 * 100k test uses hashing:256, as embedding 100k texts with USE-lite takes too long
 * here, and USE-lite's own query time is reported beside it.
 */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadDataset } from "../src/benchmarks/index.ts";
import type { ProbeRecord } from "../src/core/record.ts";
import { createEmbedder } from "../src/embed/create.ts";
import type { Embedder } from "../src/embed/types.ts";
import { Ledger } from "../src/ledger/ledger.ts";
import type { LedgerTurn } from "../src/ledger/types.ts";
import { VectorIndex } from "../src/ledger/vector-index.ts";
import { startRun } from "../src/run/runner.ts";
import { RunStore, STORE_FILE } from "../src/run/store.ts";
import type { ResultRow } from "../src/run/summary.ts";
import { lexicalTokens } from "../src/text/tokenize.ts";
import { type Guard, guardFailures, type HalfRows, summariseHalves, withSessionMetrics } from "./ledger-halves.ts";
import { analyseMisses, printMisses } from "./ledger-misses.ts";
import { HALVES, type Half, SPLIT_TEXT, type SplitRule } from "./ledger-splits.ts";
import { checkTallies, printTallyChecks } from "./ledger-tallies.ts";

export const SHARED = resolve(import.meta.dirname, "../../shared/datasets");
export const FIXTURES = resolve(import.meta.dirname, "../test/fixtures");

export interface Case {
  /** Name on the command line (`npx tsx bench/ledger.ts retrieval <name>…`). */
  name: string;
  bench: string;
  shared: string;
  /** The project's own fixture in the same format, used when ../shared is absent. */
  fixture?: string;
  /** How its probes are split into a tuning and a checking half (bench/ledger-splits.ts). */
  split: SplitRule;
  /** Columns: label and how to read it from a result row. */
  columns: Array<[string, (row: ResultRow) => number | undefined]>;
  /** The headline measures on which the ledger may not fall below its baselines (bench/ledger-halves.ts). */
  guards: Guard[];
  /** Depths of session-level recall added to turn-level records (`session:recall_all@k`; LoCoMo). */
  sessionKs?: number[];
  /** Depth at which the ledger's and session BM25's misses are analysed (bench/ledger-misses.ts). */
  missesAt?: number;
  /** Check the ledger's tallies against the release's computed answers (Memora; bench/ledger-tallies.ts). */
  tallies?: boolean;
}

const m = (key: string) => (row: ResultRow) => row.metrics[key];
const byLabel = (label: string, value: string, key: string) => (row: ResultRow) => row.byLabel[label]?.[value]?.[key];

/** LoCoMo recall over categories 1–4: the n-weighted mean of the per-category means, adversarial left out. */
function locomoCats14(key: string) {
  return (row: ResultRow) => {
    const groups = Object.entries(row.byLabel.category ?? {}).filter(([c]) => c !== "adversarial");
    const n = groups.reduce((s, [, g]) => s + (g.n_retrieval ?? 0), 0);
    return n ? groups.reduce((s, [, g]) => s + (g[key] ?? 0) * (g.n_retrieval ?? 0), 0) / n : undefined;
  };
}

/** The lexical baselines the ledger contains: it keeps every turn of every session they rank. */
const BASELINES = ["bm25", "bm25-session"];

const MEMORA_GUARDS: Guard[] = [{ label: "recall@10", read: m("recall@10"), against: BASELINES }];

const MEMORA_COLUMNS: Case["columns"] = [
  ["recall@10", m("recall@10")],
  ["stale@10 (lower is better)", m("stale@10")],
  ["recall_all@10", m("recall_all@10")],
];

export const CASES: Case[] = [
  {
    name: "realmem",
    bench: "realmem",
    shared: "realmem",
    fixture: "realmem",
    columns: [
      ["NDCG_realmem@10", m("ndcg_realmem@10")],
      ["recall_all@10", m("recall_all@10")],
      ["recall_all@20", m("recall_all@20")],
    ],
    split: { kind: "project" },
    guards: [{ label: "NDCG_realmem@10", read: m("ndcg_realmem@10"), against: BASELINES }],
    missesAt: 10,
  },
  {
    name: "locomo",
    bench: "locomo",
    shared: "locomo",
    fixture: "locomo",
    columns: [
      ["recall_all@10 cat1-4", locomoCats14("recall_all@10")],
      ["recall_all@10 all", m("recall_all@10")],
      // Sessions named in the top 5: where bm25-session, credited with every turn of a
      // session at turn level, is compared.
      ["session recall_all@5 cat1-4", locomoCats14("session:recall_all@5")],
    ],
    split: { kind: "question" },
    guards: [
      { label: "recall_all@10 (turns, cat1-4)", read: locomoCats14("recall_all@10"), against: ["bm25"] },
      { label: "session recall_all@5 (cat1-4)", read: locomoCats14("session:recall_all@5"), against: BASELINES },
    ],
    sessionKs: [5],
  },
  {
    name: "subtlememory",
    bench: "subtlememory",
    shared: "subtlememory",
    fixture: "subtlememory",
    columns: [
      ["recall_all@5", m("recall_all@5")],
      ["nuanced", byLabel("relation_type", "nuanced", "recall_all@5")],
      ["complementary", byLabel("relation_type", "complementary", "recall_all@5")],
      ["contradictory", byLabel("relation_type", "contradictory", "recall_all@5")],
      // The share of evidence sessions found (not all of them): the measure on which
      // plain session BM25 scores about 0.77 here, as the issue quotes.
      ["recall@5", m("recall@5")],
    ],
    split: { kind: "instance" },
    guards: [{ label: "recall_all@5", read: m("recall_all@5"), against: BASELINES }],
    missesAt: 5,
  },
  {
    name: "memora",
    bench: "memora",
    shared: "memora/weekly",
    fixture: "memora/weekly",
    split: { kind: "whole", half: "tune" },
    columns: MEMORA_COLUMNS,
    guards: MEMORA_GUARDS,
    tallies: true,
  },
  {
    name: "memora-monthly",
    bench: "memora",
    shared: "memora/monthly",
    split: { kind: "whole", half: "check" },
    columns: MEMORA_COLUMNS,
    guards: MEMORA_GUARDS,
    tallies: true,
  },
];

const SYSTEMS = ["bm25", "bm25-session", "hybrid", "hybrid-session", "ledger"];

/** The shared sample of a case when `../shared` is there, else the project's fixture (if it has one). */
export function caseData(c: Case): string | undefined {
  const shared = join(SHARED, c.shared);
  if (existsSync(shared)) return shared;
  return c.fixture ? join(FIXTURES, c.fixture) : undefined;
}

/** The cases named on the command line (all when none is), with a clear error for an unknown name. */
export function selectCases(names: readonly string[]): Case[] {
  for (const name of names) {
    if (!CASES.some((c) => c.name === name)) {
      throw new Error(`unknown case "${name}"; known: ${CASES.map((c) => c.name).join(", ")}`);
    }
  }
  return names.length ? CASES.filter((c) => names.includes(c.name)) : CASES;
}

export function fmt(x: number | undefined): string {
  return x === undefined || !Number.isFinite(x) ? "–" : x.toFixed(3);
}

/** A case whose probes are all in its checking half: no parameter is chosen on it. */
export function checkOnly(c: Case): boolean {
  return c.split.kind === "whole" && c.split.half === "check";
}

/** A table of the rows: each column for the tuning and the checking half side by side. */
export function printHalves(c: Case, rows: HalfRows, print: (line: string) => void = console.log): void {
  const halves = HALVES.filter((h) => rows.has(h));
  const sizes = halves.map((h) => `${h} ${rows.get(h)![0]?.n ?? 0} probes`).join(", ");
  print(`Halves (${SPLIT_TEXT[c.split.kind]}): ${sizes}\n`);
  const heads = c.columns.flatMap(([label]) => halves.map((h) => `${label} ${h}`));
  print(`| system | ${heads.join(" | ")} |`);
  print(`|---|${heads.map(() => "---:").join("|")}|`);
  const read = (half: Half, system: string, get: Case["columns"][number][1]) => {
    const row = rows.get(half)?.find((r) => r.system === system);
    return row ? get(row) : undefined;
  };
  for (const row of rows.get("all") ?? []) {
    const cells = c.columns.flatMap(([, get]) => halves.map((h) => fmt(read(h, row.system, get))));
    print(`| ${row.system} | ${cells.join(" | ")} |`);
  }
  print("");
}

/**
 * Every system on each case, whole and by half. Returns the guard's FAILURE
 * lines (bench/ledger-halves.ts), also printed under each case.
 */
export async function runRetrievalComparison(
  cases: readonly Case[] = CASES,
  embedder = process.env.MEMBENCH_EMBEDDER ?? "use-lite",
): Promise<string[]> {
  console.log(`\n## ledger retrieval vs baselines (embedder ${embedder}, every system in one run)\n`);
  const failures: string[] = [];
  for (const c of cases) {
    const data = caseData(c);
    if (!data || !existsSync(data)) {
      console.log(
        `${c.name}: no data (${c.fixture ? "" : "no project fixture; "}../shared/datasets/${c.shared} absent), skipped\n`,
      );
      continue;
    }
    const out = mkdtempSync(join(tmpdir(), "mb-ledger-bench-"));
    try {
      const started = performance.now();
      const run = await startRun({ benchmark: c.bench, data, systems: SYSTEMS, out, progress: false, embedder });
      const seconds = ((performance.now() - started) / 1000).toFixed(0);
      const source = data.startsWith(SHARED) ? "shared sample" : "project fixture";
      const tuned = checkOnly(c) ? ", a checking half: no parameter was chosen on it" : "";
      const dataset = await loadDataset(c.bench, data);
      const store = new RunStore(join(run.dir, STORE_FILE));
      let records: ProbeRecord[];
      try {
        records = store.records();
      } finally {
        store.close();
      }
      if (c.sessionKs) records = withSessionMetrics(records, dataset.episodes, c.sessionKs);
      const rows = summariseHalves({ benchmark: c.bench, data }, c.split, dataset.episodes, records, SYSTEMS);
      console.log(`### ${c.name} — ${source}${tuned} (${seconds} s)\n`);
      console.log(`| system | ${c.columns.map(([label]) => label).join(" | ")} | search p95 ms |`);
      console.log(`|---|${c.columns.map(() => "---:").join("|")}|---:|`);
      for (const row of rows.get("all") ?? []) {
        const cells = c.columns.map(([, read]) => fmt(read(row)));
        console.log(`| ${row.system} | ${cells.join(" | ")} | ${fmt(row.metrics.search_ms_p95)} |`);
      }
      console.log("");
      printHalves(c, rows);
      const failed = guardFailures(c.name, rows, c.guards);
      const measures = c.guards.map((g) => `${g.label} vs ${g.against.join(", ")}`).join("; ");
      console.log(failed.length ? `${failed.join("\n")}\n` : `no-regression guard holds on every half (${measures})\n`);
      failures.push(...failed);
      if (c.tallies) printTallyChecks(`${c.name}, ledger`, await checkTallies(data));
      if (c.missesAt) {
        for (const system of ["ledger", "bm25-session"]) {
          printMisses(
            `${c.bench}, ${system}, recall_all@${c.missesAt}`,
            analyseMisses(
              dataset.episodes,
              records.filter((r) => r.system === system),
              c.missesAt,
            ),
          );
        }
      }
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  return failures;
}

// ---------------------------------------------------------------- synthetic scale test

const PEOPLE = ["sister", "brother", "mom", "dad", "friend", "boss", "cousin", "neighbor"];
const PLACES = ["Boston", "Denver", "Austin", "Lisbon", "Osaka", "Bergen", "Quito", "Perth", "Leeds", "Turin"];
const NOUNS = ["coffee", "tea", "jazz", "sushi", "hiking", "chess", "pottery", "tennis", "ramen", "poetry", "cycling"];
const WORDS =
  "alpha bravo cedar delta ember fjord garnet harbor indigo juniper kestrel lumen meadow nectar orchid pylon quartz raven sierra tundra umber velvet willow xenon yarrow zephyr".split(
    " ",
  );

/** A deterministic PRNG (mulberry32), so every run builds the same history. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One user turn that the offline extractor turns into exactly one memory. */
export function syntheticTurn(i: number, rnd: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const tag = `${pick(WORDS)}${i % 997}`;
  switch (i % 4) {
    case 0:
      return `I live in ${pick(PLACES)} near the ${tag} district.`;
    case 1:
      return `I love ${pick(NOUNS)} ${tag} on most days.`;
    case 2:
      return `My ${pick(PEOPLE)} works as a ${tag} engineer.`;
    default:
      return `I'm going to visit the ${tag} museum with ${pick(PEOPLE)}s.`;
  }
}

export function sessionsOf(turns: number, perSession: number, rnd: () => number) {
  const out: Array<{ sessionId: string; sessionIndex: number; time: string; turns: LedgerTurn[] }> = [];
  for (let s = 0; s * perSession < turns; s++) {
    const batch: LedgerTurn[] = [];
    for (let j = 0; j < perSession && s * perSession + j < turns; j++) {
      const i = s * perSession + j;
      batch.push({ id: `t${i}`, role: "user", content: syntheticTurn(i, rnd) });
    }
    const day = new Date(Date.UTC(2020, 0, 1) + s * 3_600_000).toISOString();
    out.push({ sessionId: `s${s}`, sessionIndex: s, time: day, turns: batch });
  }
  return out;
}

export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

/** A ledger holding `turns` synthetic turns (one memory each), and how fast they went in. */
export async function ingest(turns: number, embedder: Embedder | undefined, path?: string) {
  const ledger = new Ledger({ embedder, path });
  const sessions = sessionsOf(turns, 20, prng(7));
  const started = performance.now();
  for (const s of sessions) await ledger.add("bench", s);
  const seconds = (performance.now() - started) / 1000;
  return { ledger, seconds, turnsPerSecond: turns / seconds };
}

/**
 * How much of the exact nearest-turn lists the sketch prefilter keeps: the turn
 * vectors are read back from the store and ranked both ways, exactly by brute
 * force and through a `VectorIndex` as search ranks them.
 */
function prefilterRecall(ledger: Ledger, queries: Float32Array[]) {
  const stored = ledger.store.vectors("bench", "turns");
  const dim = stored[0]?.vector.length ?? 0;
  const index = new VectorIndex(dim);
  for (const v of stored) index.add(v.rowid, v.vector);
  const exact = new VectorIndex(dim, Number.POSITIVE_INFINITY);
  for (const v of stored) exact.add(v.rowid, v.vector);
  let top20 = 0;
  let top200 = 0;
  for (const q of queries) {
    const truth = exact.search(q, 200).map((h) => h.id);
    const found = new Set(index.search(q, 200).map((h) => h.id));
    top20 += truth.slice(0, 20).filter((id) => found.has(id)).length / Math.min(20, truth.length || 1);
    top200 += truth.filter((id) => found.has(id)).length / (truth.length || 1);
  }
  return { queries: queries.length, top20: top20 / queries.length, top200: top200 / queries.length };
}

/** The search queries of the latency measure (200 by default): synthetic turns and questions about them, always the same. */
export function latencyQueries(count = 200): string[] {
  const rnd = prng(99);
  return Array.from({ length: count }, (_, i) => {
    const text = syntheticTurn(i * 7 + 3, rnd);
    return i % 2 ? `Where does my ${PEOPLE[i % PEOPLE.length]} work? ${text.split(" ").slice(3, 6).join(" ")}` : text;
  });
}

export type SearchKind = "full" | "lexical" | "fts";
export type SearchLatency = Record<SearchKind, { p50: number; p95: number }>;

/**
 * Search latency on a ledger built by `ingest`: the ledger's hybrid search (query
 * vectors given, so embedding is excluded), its lexical search, and the baseline
 * measured in the same run: one plain FTS5 bm25 query over the turns (any query
 * term), the least a SQLite-backed lexical search pays per query. Three
 * interleaved passes; each percentile is the median over the passes, as one pass
 * swings by a third when the machine's other core is busy.
 */
export function searchLatency(ledger: Ledger, queries: readonly string[], vectors: Float32Array[]): SearchLatency {
  const ftsQueries = queries.map((q) => [...new Set(lexicalTokens(q))].map((t) => `"${t}"`).join(" OR "));
  for (let i = 0; i < Math.min(20, queries.length); i++) {
    ledger.searchWithVector("bench", queries[i]!, vectors[i], { k: 10 });
    ledger.findTurns("bench", ftsQueries[i]!, 10);
  }
  const passes: Array<Record<SearchKind, number[]>> = [];
  for (let pass = 0; pass < 3; pass++) {
    const times: Record<SearchKind, number[]> = { full: [], lexical: [], fts: [] };
    queries.forEach((q, i) => {
      let t = performance.now();
      ledger.searchWithVector("bench", q, vectors[i], { k: 10 });
      times.full.push(performance.now() - t);
      t = performance.now();
      ledger.searchWithVector("bench", q, undefined, { k: 10 });
      times.lexical.push(performance.now() - t);
      t = performance.now();
      ledger.findTurns("bench", ftsQueries[i]!, 10);
      times.fts.push(performance.now() - t);
    });
    passes.push(times);
  }
  const median3 = (xs: number[]) => [...xs].sort((a, b) => a - b)[1]!;
  const stat = (key: SearchKind, p: number) => median3(passes.map((x) => percentile(x[key], p)));
  const kinds: SearchKind[] = ["full", "lexical", "fts"];
  return Object.fromEntries(kinds.map((k) => [k, { p50: stat(k, 50), p95: stat(k, 95) }])) as SearchLatency;
}

/** The rows of the search table, with ratios to the FTS5 baseline measured in the same run. */
export function printSearchLatency(stats: SearchLatency, heading = "search (200 queries, median of 3 passes)"): void {
  const row = (label: string, key: SearchKind) => {
    const { p50, p95 } = stats[key];
    const ratio = key === "fts" ? "1 / 1" : `${(p50 / stats.fts.p50).toFixed(1)} / ${(p95 / stats.fts.p95).toFixed(1)}`;
    console.log(`| ${label} | ${p50.toFixed(1)} / ${p95.toFixed(1)} ms | ${ratio} |`);
  };
  console.log(`| ${heading} | p50 / p95 | ratio to baseline p50 / p95 |`);
  console.log("|---|---:|---:|");
  row("ledger, hybrid (hashing:256 float vectors, sign-bit sketch prefilter), query embedding excluded", "full");
  row("ledger, lexical only", "lexical");
  row("baseline: one FTS5 bm25 query over the turns", "fts");
}

export async function runLatencyBench(size = Number(process.env.LEDGER_BENCH_SIZE ?? 100_000)): Promise<void> {
  const hashing = await createEmbedder("hashing:256");
  console.log(`\n## ledger latency and footprint (synthetic, ${size} turns → ${size} memories)\n`);
  const small = Math.min(size, 10_000);
  const lexical = await ingest(small, undefined);
  const lexicalBytes = lexical.ledger.store.bytes();
  lexical.ledger.close();
  const { ledger, seconds, turnsPerSecond } = await ingest(size, hashing);
  const memories = ledger.store.memoryCount("bench");
  const bytes = ledger.store.bytes();
  const queries = latencyQueries();
  const embedStart = performance.now();
  const vectors = await hashing.embed(queries);
  const hashingQueryMs = (performance.now() - embedStart) / queries.length;
  const stats = searchLatency(ledger, queries, vectors);
  const recall = prefilterRecall(ledger, vectors.slice(0, 20));
  ledger.close();
  const useLite = await useLiteQueryTime(queries.slice(0, 20));
  printSearchLatency(stats);
  console.log("");
  console.log("| measure | value |");
  console.log("|---|---:|");
  console.log(`| memories in the store | ${memories} |`);
  console.log(
    `| turn-vector prefilter: exact top 20 / top 200 found in its top 200 (${recall.queries} queries) | ${recall.top20.toFixed(3)} / ${recall.top200.toFixed(3)} |`,
  );
  console.log(`| query embedding, hashing:256 | ${hashingQueryMs.toFixed(3)} ms |`);
  console.log(`| query embedding, use-lite | ${useLite} |`);
  console.log(
    `| ingest with hashing:256 embeddings | ${turnsPerSecond.toFixed(0)} turns/s (${seconds.toFixed(0)} s) |`,
  );
  console.log(`| ingest without embeddings (${small} turns) | ${lexical.turnsPerSecond.toFixed(0)} turns/s |`);
  console.log(`| store size per 1k turns, with vectors | ${(bytes / (size / 1000) / 1024).toFixed(0)} KiB |`);
  console.log(
    `| store size per 1k turns, without vectors | ${(lexicalBytes / (small / 1000) / 1024).toFixed(0)} KiB |`,
  );
}

/** USE-lite's time for one query, beside the hashing embedder's (the 100k test embeds with hashing). */
async function useLiteQueryTime(queries: readonly string[]): Promise<string> {
  try {
    const lite = await createEmbedder("use-lite", { cache: false });
    await lite.embed(["warm up"]);
    const t: number[] = [];
    for (const q of queries) {
      const s = performance.now();
      await lite.embed([q]);
      t.push(performance.now() - s);
    }
    return `p50 ${percentile(t, 50).toFixed(1)} ms, p95 ${percentile(t, 95).toFixed(1)} ms (512-dim, one query per call)`;
  } catch (error) {
    return `unavailable (${(error as Error).message})`;
  }
}

export async function runLedgerBench(): Promise<void> {
  await runRetrievalComparison();
  await runLatencyBench();
}

/** `retrieval [--check] [case…]`: the flag and the case names. */
export function parseRetrievalArgs(args: readonly string[]): { check: boolean; cases: Case[] } {
  const check = args.includes("--check");
  const unknown = args.find((a) => a.startsWith("--") && a !== "--check");
  if (unknown) throw new Error(`unknown flag ${unknown}; retrieval takes --check and case names`);
  return { check, cases: selectCases(args.filter((a) => !a.startsWith("--"))) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[2] ?? "all";
  let args: { check: boolean; cases: Case[] };
  try {
    args = parseRetrievalArgs(which === "retrieval" ? process.argv.slice(3) : []);
  } catch (error) {
    console.error(`bench/ledger: ${(error as Error).message}`);
    process.exit(2);
  }
  if (which === "all" || which === "retrieval") {
    const failures = await runRetrievalComparison(args.cases);
    if (failures.length) {
      console.log(`\n${failures.length} no-regression FAILURE(s):\n${failures.join("\n")}`);
      if (args.check) process.exitCode = 1;
    }
  }
  if (which === "all" || which === "latency") await runLatencyBench();
}
