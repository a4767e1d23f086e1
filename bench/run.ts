/**
 * Benchmarks: `npm run bench [-- name… ] [-- --full]`. Each prints its numbers with
 * ratios against a baseline measured in the same run; the performance benches
 * also write bench/results/<name>.json (machine, Node, date, every figure).
 *
 * With no name, every bench in DEFAULT runs (about ten minutes on a 2-core
 * machine). `--full` (or BENCH_FULL=1) runs the long versions: the ledger at
 * 1M memories, the embedder on the whole persona, throughput at concurrency 1
 * on the RealMem persona, and adds `ledger` (retrieval of the ledger against the
 * baselines on every sample, and its 100k latency).
 */
import "../test/support/clean-env.ts";
import { configureLogger } from "../src/util/log.ts";

interface Bench {
  run: (full: boolean) => Promise<unknown>;
  /** Not in the default run: only by name or with --full. */
  long?: boolean;
  what: string;
}

export const BENCHES: Record<string, Bench> = {
  loaders: {
    what: "loader MB/s against JSON.parse",
    run: async () => (await import("./loaders.ts")).runLoaderBench(),
  },
  startup: {
    what: "CLI cold start against node -e 0",
    run: async () => (await import("./startup.ts")).runStartupBench(),
  },
  harness: {
    what: "harness time per probe with a zero-latency scripted model",
    run: async () => (await import("./harness.ts")).runHarnessBench(),
  },
  throughput: {
    what: "model-bound efficiency against the stub at 200 ms per call, concurrency 1/8/32/64",
    run: async (full) => (await import("./throughput.ts")).runThroughputBench({ full }),
  },
  rerun: {
    what: "a cached re-run of a finished run: model calls and wall time ratio",
    run: async () => (await import("./rerun.ts")).runRerunBench(),
  },
  shards: {
    what: "1, 2, 4 processes on the same units (--shard + merge when built, and an --episodes split)",
    run: async () => (await import("./shards.ts")).runShardsBench(),
  },
  "ledger-scale": {
    what: "ledger ingest, search p50/p95 quiet and loaded, RSS at 10k and 100k memories (1M with --full)",
    run: async (full) => (await import("./ledger-scale.ts")).runLedgerScaleBench({ full }),
  },
  embed: {
    what: "use-lite ms per turn and session, cache cold and warm; a second run embeds nothing",
    run: async (full) => (await import("./embed.ts")).runEmbedBench({ full }),
  },
  release: {
    what: "whole-release bm25-session run against a bare BM25 loop: wall ratio, peak RSS, metrics",
    run: async () => (await import("./release.ts")).runReleaseBench(),
  },
  serve: {
    what: "membench serve against the ledger in process",
    run: async () => (await import("./serve.ts")).runServeBench(),
  },
  ledger: {
    what: "ledger retrieval against the baselines on every sample, and its latency at 100k",
    long: true,
    run: async () => (await import("./ledger.ts")).runLedgerBench(),
  },
};

/** The benches to run for the command line's arguments; throws on an unknown name. */
export function selectBenches(args: readonly string[], fullEnv = process.env.BENCH_FULL === "1") {
  const full = fullEnv || args.includes("--full");
  const names = args.filter((a) => a !== "--full" && a !== "all");
  for (const name of names) {
    if (!BENCHES[name]) throw new Error(`unknown bench "${name}"; known: ${Object.keys(BENCHES).join(", ")}, all`);
  }
  const chosen = names.length ? names : Object.keys(BENCHES).filter((n) => full || !BENCHES[n]!.long);
  return { names: chosen, full };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  let selected: ReturnType<typeof selectBenches>;
  try {
    selected = selectBenches(process.argv.slice(2));
  } catch (error) {
    console.error(`bench: ${(error as Error).message}`);
    process.exit(2);
  }
  // The runs' own progress lines would drown the tables.
  configureLogger({ level: "warn" });
  const started = performance.now();
  for (const name of selected.names) {
    const t = performance.now();
    await BENCHES[name]!.run(selected.full);
    console.log(`(${name}: ${((performance.now() - t) / 1000).toFixed(0)} s)`);
  }
  console.log(
    `\nbenches ${selected.names.join(", ")}${selected.full ? " (--full)" : ""}: ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
}
