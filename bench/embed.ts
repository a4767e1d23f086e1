/**
 * The offline embedder (USE-lite) on a RealMem persona:
 *
 * 1. Its cost: each session's turns embedded in one call, as the systems embed
 *    them at ingest, in ms per turn and per session, with the embedding cache
 *    cold (a fresh folder) and then warm (a new embedder on the same folder, as a
 *    second run would open it). The model's one-time load is timed apart.
 * 2. What the cache saves across runs: `membench run` with the embedding systems
 *    (`hybrid`, `dense-session`, `ledger`) twice on the same data and one cache
 *    folder. The second run must embed nothing: counted as the vectors the cache
 *    file gained and as the texts the model was asked to embed (a hook loaded
 *    into the child, bench/embed-count.mjs). With `--embed-workers` in the build,
 *    the cold run is repeated with one worker per core.
 *
 * By default the persona's first EMBED_BENCH_SESSIONS sessions (20); `--full`
 * embeds the whole persona (1,543 turns in the shared sample: minutes here).
 *
 *   npm run bench embed [-- --full]
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { loadDataset } from "../src/benchmarks/index.ts";
import { EMBEDDING_CACHE_FILE } from "../src/embed/cache.ts";
import { createEmbedder } from "../src/embed/create.ts";
import { percentile } from "./ledger.ts";
import { realmemPrefix } from "./realmem-data.ts";
import {
  type BenchData,
  benchData,
  header,
  machineNote,
  type ResultHeader,
  ROOT,
  round,
  runHasFlag,
  runMembench,
  withTempDir,
  writeResult,
} from "./support.ts";

export const EMBED_SYSTEMS = "hybrid,dense-session,ledger";
const COUNT_HOOK = join(ROOT, "bench/embed-count.mjs");

export interface EmbedTiming {
  turns: number;
  sessions: number;
  totalMs: number;
  msPerTurn: number;
  msPerSession: number;
  sessionP95Ms: number;
}

export interface EmbedRunRow {
  run: string;
  wallMs: number;
  /** Vectors the cache file gained during the run. */
  vectorsAdded: number | null;
  /** Texts the model was asked to embed in the run's main thread; null when the hook saw none of what the cache gained (the model ran elsewhere). */
  textsEmbedded: number | null;
}

export interface EmbedResult extends ResultHeader {
  data: string;
  sessions: number;
  turns: number;
  modelLoadMs: number;
  cold: EmbedTiming;
  warm: EmbedTiming;
  /** cold ms per turn / warm ms per turn. */
  warmSpeedup: number;
  systems: string;
  embedWorkersAvailable: boolean;
  runs: EmbedRunRow[];
  /** The second run with the same data and systems embedded nothing. */
  secondRunEmbedsNothing: boolean;
}

async function timeSessions(
  embed: (texts: string[]) => Promise<unknown>,
  sessions: ReadonlyArray<{ turns: ReadonlyArray<{ content: string }> }>,
): Promise<EmbedTiming> {
  const per: number[] = [];
  let turns = 0;
  for (const s of sessions) {
    const started = performance.now();
    await embed(s.turns.map((t) => t.content));
    per.push(performance.now() - started);
    turns += s.turns.length;
  }
  const totalMs = per.reduce((a, b) => a + b, 0);
  return {
    turns,
    sessions: sessions.length,
    totalMs: round(totalMs, 1),
    msPerTurn: round(totalMs / turns, 3),
    msPerSession: round(totalMs / sessions.length, 2),
    sessionP95Ms: round(percentile(per, 95), 1),
  };
}

/** Vectors in a cache folder's file; 0 before the file exists, null when it cannot be read as the cache. */
function cacheRows(cacheDir: string): number | null {
  const path = join(cacheDir, EMBEDDING_CACHE_FILE);
  if (!existsSync(path)) return 0;
  try {
    const db = new Database(path, { readonly: true });
    try {
      return (db.prepare("SELECT count(*) AS n FROM embeddings").get() as { n: number }).n;
    } finally {
      db.close();
    }
  } catch {
    return null;
  }
}

export async function runEmbedBench(
  options: { sessions?: number; full?: boolean; systems?: string; source?: BenchData; resultsDir?: string } = {},
): Promise<EmbedResult> {
  const source = options.source ?? benchData("realmem", "realmem");
  const dataset = await loadDataset("realmem", source.path);
  const episode = dataset.episodes[0]!;
  const limit = options.full
    ? episode.sessions.length
    : (options.sessions ?? Number(process.env.EMBED_BENCH_SESSIONS ?? 20));
  const sessions = [...episode.sessions].sort((a, b) => a.index - b.index).slice(0, limit);
  const systems = options.systems ?? EMBED_SYSTEMS;
  const workers = await runHasFlag("--embed-workers");

  return withTempDir("mb-embed-", async (dir) => {
    // 1. The embedder alone.
    const cacheDir = join(dir, "direct-cache");
    const cold = await createEmbedder("use-lite", { cacheDir });
    const loadStart = performance.now();
    await cold.embed(["the model loads on its first call"]);
    const modelLoadMs = performance.now() - loadStart;
    const coldTiming = await timeSessions((t) => cold.embed(t), sessions);
    const warm = await createEmbedder("use-lite", { cacheDir });
    const warmTiming = await timeSessions((t) => warm.embed(t), sessions);

    // 2. Runs through membench with one cache folder.
    const data = join(dir, "data");
    mkdirSync(data);
    const file = realmemPrefix(source.path, sessions.length, data);
    const runs: EmbedRunRow[] = [];
    const run = async (label: string, cache: string, extra: string[] = []) => {
      const countFile = join(dir, `count-${runs.length}`);
      const before = cacheRows(cache);
      const child = await runMembench(
        [
          "run",
          "realmem",
          "--data",
          file,
          "--system",
          systems,
          "--out",
          join(dir, `runs-${runs.length}`),
          "--no-progress",
          ...extra,
        ],
        {
          env: { MEMBENCH_CACHE_DIR: cache, MEMBENCH_BENCH_EMBED_COUNT_FILE: countFile },
          nodeArgs: ["--import", COUNT_HOOK],
        },
      );
      const after = cacheRows(cache);
      const vectorsAdded = after === null || before === null ? null : after - before;
      const counted = readCount(countFile);
      runs.push({
        run: label,
        wallMs: round(child.wallMs, 0),
        vectorsAdded,
        textsEmbedded: counted === 0 && (vectorsAdded ?? 0) > 0 ? null : counted,
      });
    };
    const shared = join(dir, "run-cache");
    await run("first run (cache cold)", shared);
    await run("second run, same data and systems", shared);
    if (workers) {
      const n = availableParallelism();
      await run(`first run (cache cold), --embed-workers ${n}`, join(dir, "workers-cache"), [
        "--embed-workers",
        String(n),
      ]);
    }
    const second = runs[1]!;
    const secondRunEmbedsNothing = second.vectorsAdded === 0 && (second.textsEmbedded ?? 0) === 0;

    const label = `${source.label}, first ${sessions.length} of ${episode.sessions.length} sessions`;
    console.log(`\n## offline embedder (use-lite; ${label}; ${machineNote()})\n`);
    console.log(`model load (first call): ${modelLoadMs.toFixed(0)} ms\n`);
    console.log("| cache | turns | sessions | ms per turn | ms per session | session p95 | ratio to cold |");
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    for (const [name, t] of [
      ["cold", coldTiming],
      ["warm", warmTiming],
    ] as const) {
      console.log(
        `| ${name} | ${t.turns} | ${t.sessions} | ${t.msPerTurn.toFixed(2)} | ${t.msPerSession.toFixed(1)} | ${t.sessionP95Ms.toFixed(1)} | ${(t.totalMs / coldTiming.totalMs).toFixed(4)} |`,
      );
    }
    console.log(`\n\`membench run realmem --system ${systems}\` twice with one cache folder:\n`);
    console.log("| run | wall | vectors added to the cache | texts the model embedded |");
    console.log("|---|---:|---:|---:|");
    for (const r of runs) {
      console.log(
        `| ${r.run} | ${(r.wallMs / 1000).toFixed(1)} s | ${r.vectorsAdded ?? "n/a"} | ${r.textsEmbedded ?? "not seen (model off the main thread)"} |`,
      );
    }
    if (!workers) console.log("\n--embed-workers: not available in this build");
    console.log(`\nsecond run embeds nothing: ${secondRunEmbedsNothing ? "yes (target met)" : "NO (target not met)"}`);
    const result: EmbedResult = {
      ...header("embed"),
      data: label,
      sessions: sessions.length,
      turns: coldTiming.turns,
      modelLoadMs: round(modelLoadMs, 0),
      cold: coldTiming,
      warm: warmTiming,
      warmSpeedup: round(coldTiming.msPerTurn / warmTiming.msPerTurn, 1),
      systems,
      embedWorkersAvailable: workers,
      runs,
      secondRunEmbedsNothing,
    };
    writeResult("embed", result, options.resultsDir);
    return result;
  });
}

/** The hook's count, or null when the child wrote none (it did not load the hook). */
function readCount(file: string): number | null {
  return existsSync(file) ? Number(readFileSync(file, "utf8")) : null;
}

if (import.meta.url === `file://${process.argv[1]}`) await runEmbedBench({ full: process.argv.includes("--full") });
