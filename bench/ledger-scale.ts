/**
 * The ledger at scale: ingest turns/s, search p50/p95 and resident memory at
 * 10k and 100k memories (and 1M with `--full`), on the synthetic history of
 * bench/ledger.ts (one memory per turn, hashing:256 vectors, a file store as
 * `membench serve --db` keeps one). Each size is built in a fresh child process
 * so its RSS is that size's alone; RSS per 100k is (RSS after ingest and the
 * first searches − RSS before) scaled to 100k memories.
 *
 * Search is timed as bench/ledger.ts times it (hybrid, lexical, and the FTS5
 * baseline in the same run), first quiet, then with every other core busy (one
 * spinning child process per other core): the target is a hybrid p95
 * under 20 ms at 100k on a loaded machine. The machine's load average is kept
 * beside each figure, as other work on it changes "quiet".
 *
 *   npm run bench ledger-scale            (10k, 100k)
 *   npm run bench ledger-scale -- --full  (10k, 100k, 1M; the 1M store is ~3 GB on disk)
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createEmbedder } from "../src/embed/create.ts";
import { ingest, latencyQueries, printSearchLatency, type SearchLatency, searchLatency } from "./ledger.ts";
import { header, machineNote, type ResultHeader, ROOT, round, writeResult } from "./support.ts";

export const SCALE_SIZES = [10_000, 100_000];
export const FULL_SCALE_SIZES = [10_000, 100_000, 1_000_000];
/** The target: hybrid search p95 at 100k memories with the machine loaded. */
export const LOADED_P95_TARGET_MS = 20;

export interface ScaleRow {
  size: number;
  memories: number;
  ingestSeconds: number;
  turnsPerSecond: number;
  /** The SQLite store on disk (with its WAL), bytes. */
  storeBytes: number;
  rssBeforeBytes: number;
  rssAfterBytes: number;
  /**
   * Resident memory per 100k memories: the growth over the next smaller size's,
   * per 100k more memories (`marginal`); for the smallest size, its whole growth
   * per 100k (`average`, which includes fixed costs: SQLite's caches, compiled code).
   */
  rssPer100kBytes: number;
  rssPer100kBasis: "marginal" | "average";
  maxRssBytes: number;
  quiet: SearchLatency;
  busy: SearchLatency;
  /** Processes spinning during the busy passes. */
  spinners: number;
  loadAvg: { quiet: number; busy: number };
}

export interface ScaleResult extends ResultHeader {
  embedder: string;
  /** Search queries per pass (three passes each, quiet and busy). */
  queries: number;
  rows: ScaleRow[];
  target: { size: number; p95Ms: number; loaded: true };
  /** Hybrid p95 at 100k with the other cores busy under the target; absent when 100k was not run. */
  withinTarget?: boolean;
}

const spinners = (n: number): ChildProcess[] =>
  Array.from({ length: n }, () => spawn(process.execPath, ["-e", "for(;;){}"], { stdio: "ignore" }));

const fileBytes = (path: string) => statSync(path, { throwIfNoEntry: false })?.size ?? 0;

/** Runs in the child: builds one size and measures it. */
async function measureSize(size: number, queryCount: number): Promise<ScaleRow> {
  const hashing = await createEmbedder("hashing:256");
  const dir = mkdtempSync(join(tmpdir(), "mb-ledger-scale-"));
  try {
    global.gc?.();
    const rssBeforeBytes = process.memoryUsage().rss;
    const path = join(dir, "ledger.sqlite");
    const { ledger, seconds, turnsPerSecond } = await ingest(size, hashing, path);
    const queries = latencyQueries(queryCount);
    const vectors = await hashing.embed(queries);
    const quietLoad = loadavg()[0]!;
    const quiet = searchLatency(ledger, queries, vectors);
    global.gc?.();
    const rssAfterBytes = process.memoryUsage().rss;
    const busyCount = Math.max(1, availableParallelism() - 1);
    const spinning = spinners(busyCount);
    let busy: SearchLatency;
    let busyLoad: number;
    try {
      await new Promise((r) => setTimeout(r, 300));
      busy = searchLatency(ledger, queries, vectors);
      busyLoad = loadavg()[0]!;
    } finally {
      for (const child of spinning) child.kill("SIGKILL");
    }
    const memories = ledger.store.memoryCount("bench");
    ledger.close();
    const storeBytes = fileBytes(path) + fileBytes(`${path}-wal`);
    return {
      size,
      memories,
      ingestSeconds: round(seconds, 1),
      turnsPerSecond: round(turnsPerSecond, 0),
      storeBytes,
      rssBeforeBytes,
      rssAfterBytes,
      rssPer100kBytes: Math.round(((rssAfterBytes - rssBeforeBytes) / memories) * 100_000),
      rssPer100kBasis: "average",
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
      quiet: roundLatency(quiet),
      busy: roundLatency(busy),
      spinners: busyCount,
      loadAvg: { quiet: round(quietLoad, 2), busy: round(busyLoad, 2) },
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const roundLatency = (s: SearchLatency): SearchLatency =>
  Object.fromEntries(
    Object.entries(s).map(([k, v]) => [k, { p50: round(v.p50, 2), p95: round(v.p95, 2) }]),
  ) as SearchLatency;

/**
 * One size in a fresh process (`--expose-gc`, so RSS is read after a collection);
 * a large one gets a larger heap, as the default limit is too small for 1M memories.
 */
function measureInChild(size: number, large: boolean, queries: number): Promise<ScaleRow> {
  return new Promise((done, fail) => {
    const heap = large ? ["--max-old-space-size=12288"] : [];
    const child = spawn(
      process.execPath,
      [
        ...heap,
        "--expose-gc",
        "--import",
        "tsx",
        join(ROOT, "bench/ledger-scale.ts"),
        "--child",
        String(size),
        String(queries),
      ],
      { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
    );
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString();
    });
    child.on("error", fail);
    child.on("close", (code) => {
      if (code !== 0) return fail(new Error(`ledger-scale child for ${size} exited ${code}`));
      try {
        done(JSON.parse(out.trim().split("\n").at(-1)!) as ScaleRow);
      } catch (error) {
        fail(new Error(`ledger-scale child for ${size}: unreadable output ${out.slice(-500)} (${error})`));
      }
    });
  });
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

export async function runLedgerScaleBench(
  options: { sizes?: number[]; full?: boolean; queries?: number; resultsDir?: string } = {},
): Promise<ScaleResult> {
  const queries = options.queries ?? 200;
  const sizes = options.sizes ?? (options.full ? FULL_SCALE_SIZES : SCALE_SIZES);
  console.log(`\n## ledger at scale (synthetic, one memory per turn, hashing:256, file store; ${machineNote()})\n`);
  const rows: ScaleRow[] = [];
  for (const size of sizes) {
    const row = await measureInChild(size, size >= 1_000_000, queries);
    const smaller = rows.at(-1);
    if (smaller) {
      const growth = (r: ScaleRow) => r.rssAfterBytes - r.rssBeforeBytes;
      row.rssPer100kBytes = Math.round(((growth(row) - growth(smaller)) / (row.memories - smaller.memories)) * 100_000);
      row.rssPer100kBasis = "marginal";
    }
    rows.push(row);
    console.log(`### ${size.toLocaleString("en")} memories\n`);
    printSearchLatency(row.quiet, `search quiet (load avg ${row.loadAvg.quiet})`);
    console.log("");
    printSearchLatency(row.busy, `search with ${row.spinners} other core(s) busy (load avg ${row.loadAvg.busy})`);
    console.log("");
  }
  console.log(
    "| memories | ingest turns/s | hybrid p50 / p95 quiet | hybrid p50 / p95 busy | busy / quiet p95 | RSS per 100k | peak RSS | store on disk |",
  );
  console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(
      `| ${r.memories} | ${r.turnsPerSecond} | ${r.quiet.full.p50.toFixed(1)} / ${r.quiet.full.p95.toFixed(1)} ms | ${r.busy.full.p50.toFixed(1)} / ${r.busy.full.p95.toFixed(1)} ms | ${(r.busy.full.p95 / r.quiet.full.p95).toFixed(2)} | ${mb(r.rssPer100kBytes)}${r.rssPer100kBasis === "average" ? " (average)" : ""} | ${mb(r.maxRssBytes)} | ${mb(r.storeBytes)} |`,
    );
  }
  const at100k = rows.find((r) => r.size === 100_000);
  const result: ScaleResult = {
    ...header("ledger-scale"),
    embedder: "hashing:256",
    queries,
    rows,
    target: { size: 100_000, p95Ms: LOADED_P95_TARGET_MS, loaded: true },
    ...(at100k ? { withinTarget: at100k.busy.full.p95 < LOADED_P95_TARGET_MS } : {}),
  };
  if (at100k) {
    console.log(
      `\nhybrid search p95 at 100k, other cores busy: ${at100k.busy.full.p95.toFixed(1)} ms (target under ${LOADED_P95_TARGET_MS} ms: ${result.withinTarget ? "met" : "NOT met"})`,
    );
  }
  console.log(
    "RSS per 100k: the growth over the next smaller size per 100k more memories; (average): the smallest size's whole growth, fixed costs included",
  );
  writeResult("ledger-scale", result, options.resultsDir);
  return result;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const at = process.argv.indexOf("--child");
  if (at >= 0) {
    const row = await measureSize(Number(process.argv[at + 1]), Number(process.argv[at + 2] ?? 200));
    process.stdout.write(`${JSON.stringify(row)}\n`);
  } else {
    await runLedgerScaleBench({ full: process.argv.includes("--full") });
  }
}
