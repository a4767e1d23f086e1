import { type Command, Option } from "commander";
import { BENCHMARK_IDS } from "../../benchmarks/ids.ts";
import { realmemRetrievalTable } from "../../benchmarks/realmem/paper.ts";
import { retrievalColumns } from "../../benchmarks/retrieval-columns.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Setting } from "../../core/record.ts";
import type { Summary } from "../../run/summary.ts";
import { markdownTable, retrievalTable } from "../../run/table.ts";
import { log } from "../../util/log.ts";
import { checkRedisUrl } from "../../util/redis.ts";
import { EXIT_FAILURE, EXIT_INTERRUPTED, EXIT_OK } from "../errors.ts";
import { asText, collect, EMBED_WORKERS_HELP, SYSTEM_HELP, SYSTEM_OPTION_HELP, VARIANT_HELP } from "../options.ts";
import { LENIENT_HELP, printScores, scoreOptions, warnUnusedJudges } from "./score.ts";

interface RunFlags {
  data?: string;
  system?: string[];
  systemOption?: string[];
  systemConcurrency?: string;
  keepRemote?: boolean;
  setting?: string;
  limit?: string;
  episodes?: string;
  out?: string;
  resume?: string;
  retryFailed?: string;
  parallelUnits?: string | number;
  /** Deprecated alias of --parallel-units. */
  concurrency?: string;
  shard?: string;
  maxCost?: string;
  priceIn?: string;
  priceOut?: string;
  chunkSize?: string;
  depth?: string;
  contextTokens?: string;
  context?: string;
  tokenBudget?: string;
  embedder?: string;
  embedWorkers?: string;
  llm?: string;
  ledgerExtractor?: string;
  ledgerRetrieval?: string;
  ledgerQueryRewrite?: boolean;
  progress?: boolean;
  judges?: string;
  judgeLlm?: string;
  judgeRuns?: string;
  prompts?: string;
  scoreOption?: string[];
  lenient?: boolean;
  variant?: string;
  queue?: string;
  queueName?: string;
  queueAttempts?: string;
  queueBackoffMs?: string;
  local?: boolean;
  config?: string;
  json?: boolean;
}

const list = (v?: string) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

function num(v: string | number | undefined, flag: string): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0)
    throw new ConfigError(`expected a non-negative number, got "${v}"`, flag, `--${flag}`);
  return n;
}

/** `--queue` and its companions, checked; undefined without `--queue`. */
function queueOptions(flags: RunFlags) {
  if (!flags.queue) {
    for (const f of ["queueName", "queueAttempts", "queueBackoffMs"] as const) {
      const flag = `--${f.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
      if (flags[f] !== undefined) throw new ConfigError(`${flag} needs --queue`, f, flag);
    }
    return undefined;
  }
  const attempts = num(flags.queueAttempts, "queue-attempts");
  if (attempts !== undefined && (!Number.isInteger(attempts) || attempts < 1)) {
    throw new ConfigError(`expected a whole number ≥ 1, got "${flags.queueAttempts}"`, "queue-attempts");
  }
  const backoffMs = num(flags.queueBackoffMs, "queue-backoff-ms");
  return {
    url: checkRedisUrl(flags.queue),
    ...(flags.queueName ? { name: flags.queueName } : {}),
    ...(attempts !== undefined ? { attempts } : {}),
    ...(backoffMs !== undefined ? { backoffMs } : {}),
  };
}

function contextKind(v: string | undefined): "memory" | "session" | undefined {
  if (v === undefined || v === "memory" || v === "session") return v;
  throw new ConfigError(`expected memory or session, got "${v}"`, "context", "--context");
}

/** Prints the retrieval table, and the paper's reported rows where we have them. */
export function printRetrieval(summary: Summary): void {
  const out: string[] = [];
  const keys = Object.keys(summary.results.find((r) => r.setting === "default")?.metrics ?? {});
  const shown = retrievalColumns(summary.benchmark, keys);
  out.push(`Retrieval, default setting (${summary.benchmark}; provenance metrics, no LLM):`, "");
  out.push(retrievalTable(summary, shown));
  if (summary.benchmark === "realmem") {
    const t = realmemRetrievalTable;
    out.push("", `Reported by the paper (${t.source}; R@k ≈ recall_all, NDCG ≈ ndcg_realmem):`, "");
    const cols = ["recall_all@10", "recall_all@20", "ndcg_realmem@10", "ndcg_realmem@20"];
    out.push(
      markdownTable(
        ["system (reported)", ...cols],
        t.rows.map((r) => [r.system, ...cols.map((c) => (r.metrics[c] ?? Number.NaN).toFixed(4))]),
      ),
    );
  }
  const skipped = summary.results.find((r) => r.setting === "default");
  if (skipped?.skipped.length) {
    out.push("", "Skipped:");
    for (const stage of skipped.skipped) out.push(`- ${stage}: ${skipped.skipReasons[stage]}`);
  }
  process.stdout.write(`${out.join("\n")}\n`);
}

export function registerRunCommand(program: Command): void {
  program
    .command("run")
    .description("replay a benchmark into memory systems; ingest, retrieve, answer when a model is configured")
    .argument("[bench]", `benchmark id (${BENCHMARK_IDS.join(", ")}); omit with --resume or --config`)
    .option("--data <path>", "the benchmark's data: a file or a folder")
    .option(
      "-c, --config <file>",
      "an experiment file (YAML): benchmarks × data × systems × settings × models × judges, one run per benchmark, data path and model (docs/experiments.md); flags given with it override its values",
    )
    .option("--system <spec>", `${SYSTEM_HELP} (default: bm25 when none is given)`, collect)
    .option("--system-option <label.key=value>", SYSTEM_OPTION_HELP, collect)
    .option(
      "--system-concurrency <n>",
      "requests at once to each remote system (its `concurrency` option, for systems that take one)",
    )
    .option("--keep-remote", "remote systems keep their users/containers at close, to inspect them")
    .option("--setting <list>", "default, oracle, perfect (comma-separated)", "default")
    .option("--limit <n>", "at most N episodes")
    .option("--episodes <ids>", "only these episode ids (comma-separated)")
    .option("--out <dir>", "parent folder of run directories", "runs")
    .option(
      "--resume <dir>",
      "finish an interrupted run: finished units are kept, the rest redone, failed answer and judge calls asked again",
    )
    .option(
      "--retry-failed <dir>",
      "after an outage: ask a run's failed answer and judge calls again, keeping all that succeeded (same as --resume)",
    )
    .option(
      "--parallel-units <n>",
      "units (system × episode) replayed at once; the model calls they make are capped apart, by MEMBENCH_CONCURRENCY (with --queue: each worker's --parallel-units instead)",
      asText,
      2,
    )
    .addOption(new Option("--concurrency <n>", "deprecated: --parallel-units").hideHelp())
    .option(
      "--shard <i/n>",
      "execute only shard i of n (1-based) of the run's units, split by unit id hash and balanced by size; `membench merge` joins the shards' run directories",
    )
    .option(
      "--max-cost <usd>",
      "refuse to start, or stop, past this many US dollars of the run's model calls (all processes)",
    )
    .option("--price-in <usd>", "USD per million input tokens of the answer model, for estimates and --max-cost")
    .option("--price-out <usd>", "USD per million output tokens of the answer model")
    .option("--chunk-size <tokens>", "MemoryAgentBench: chunk size instead of the paper's per-dataset size")
    .option("--depth <k>", "retrieval depth instead of the paper's")
    .option("--context-tokens <n>", "cap on the answerer's context, o200k tokens")
    .option("--context <kind>", "RealMem: memory (top-20 items, default) or session (top-5 whole sessions)")
    .option("--token-budget <n>", "token budget given to the systems (full-context: newest turns kept)")
    .option("--embedder <spec>", "use-lite | hashing[:DIM] | openai:MODEL | onnx:DIR")
    .option("--embed-workers <n>", EMBED_WORKERS_HELP)
    .option("--llm <spec>", "answer model: openai, openai:MODEL or scripted:FILE")
    .option(
      "--ledger-extractor <mode>",
      "alias of --system-option ledger.extractor=<mode>: auto (the model when one is configured), llm or offline (rules)",
    )
    .option(
      "--ledger-retrieval <json>",
      'alias of --system-option ledger.retrieval=<json>, e.g. \'{"pullComplements":true,"weights":{"memoryLexical":1}}\' (docs/ledger.md)',
    )
    .option(
      "--ledger-query-rewrite",
      "alias of --system-option ledger.queryRewrite=true: the model rewrites each query (one call per probe; needs a model)",
    )
    .option(
      "--judges <names>",
      "judges for the scoring that follows (model names or scripted `model` names); LoCoMo calls them only with --score-option j=on (else a warning)",
    )
    .option("--judge-llm <spec>", "judge model spec (default: the answer model's)")
    .option("--judge-runs <n>", "samples per judge, majority-voted")
    .option("--prompts <dir>", "your own prompt templates: <dir>/<bench>/<template>.md")
    .option("--score-option <key=value...>", "benchmark scoring options (see docs/scoring/<bench>.md)")
    .option("--lenient", LENIENT_HELP)
    .option("--variant <name>", VARIANT_HELP)
    .option(
      "--queue <url>",
      "run the units on a worker pool: enqueue them on this Redis (redis://host:port) for `membench worker`s, store their results here",
    )
    .option("--queue-name <name>", "BullMQ queue name (default membench)")
    .option("--queue-attempts <n>", "with --queue: attempts per unit before it is dead-lettered (default 3)")
    .option("--queue-backoff-ms <ms>", "with --queue: first retry delay, doubled at each retry (default 5000)")
    .option("--local", "with --resume of a --queue run: run what is left here instead of on the queue")
    .option("--no-progress", "no progress bar")
    .option(
      "--json",
      "print the outcome as JSON on stdout (`{exitCode, runs: [{benchmark, data, dir, exitCode, failedUnits, summary}]}`) instead of tables",
    )
    .addHelpText(
      "after",
      `
Examples:
  membench run locomo --data datasets/locomo --system bm25,hybrid
  membench run realmem --data datasets/realmem --system ledger --llm openai:gpt-4o-mini --setting default,oracle
  membench run locomo --data datasets/locomo --llm openai --judges gpt-4o --score-option j=on
  membench run -c experiment.yaml --limit 2        # an experiment file, smoke-sized
  membench run --resume runs/locomo-20260101-120000
  membench run realmem --data datasets/realmem --json > outcome.json

Systems and their options: \`membench systems\` lists every registered system
with its options, types and defaults. Examples:
  --system bm25-session,hybrid --system 'ledger#{"extractor":"offline"}'
  --system ./my-system.js --system-option my-system.topK=20
  --system a=ledger --system 'b=ledger#{"queryRewrite":true}'
Check your own system first: \`membench conformance --system ./my-system.js\`.

Without a model endpoint the run ingests and retrieves and reports the provenance
retrieval metrics; answer and judge stages are listed as skipped. Results go to
<out>/<run id>/: config.json (snapshot), run.sqlite (every probe record), summary.json.
Environment variables (MEMBENCH_*, OPENAI_*) and the scripted model's JSONL format
(--llm scripted:FILE): see \`membench --help\`.

Exit codes: 0 done; 1 units, answer or judge calls failed (the tables are printed
first; --resume finishes); 2 a usage or configuration error; 130 interrupted
(Ctrl-C: \`membench run --resume <dir>\` finishes the run).`,
    )
    .action(async (bench: string | undefined, flags: RunFlags, cmd: Command) => {
      const given = (key: string) => cmd.getOptionValueSource(key) === "cli";
      if (flags.concurrency !== undefined) {
        log.warn(
          "--concurrency is deprecated: it is --parallel-units (units at once); MEMBENCH_CONCURRENCY is the model calls at once",
        );
        if (!given("parallelUnits")) flags.parallelUnits = flags.concurrency;
      }
      const runs: RunRequest[] = [];
      if (flags.config) {
        for (const [flag, set] of [
          ["<bench>", bench],
          ["--data", flags.data],
          ["--resume", flags.resume ?? flags.retryFailed],
        ] as const) {
          if (set)
            throw new ConfigError(`${flag} goes in the experiment file, not with --config`, "config", "--config");
        }
        const { experimentRuns, readExperiment } = await import("../experiment.ts");
        const planned = experimentRuns(flags.config, readExperiment(flags.config));
        // Flags typed with --config win over the file (e.g. --limit 2 for a smoke test).
        const typed = Object.fromEntries(
          Object.entries(flags).filter(([k]) => given(k) || (k === "parallelUnits" && flags.concurrency !== undefined)),
        );
        for (const r of planned) runs.push({ bench: r.bench, flags: { ...flags, ...r.flags, ...typed } as RunFlags });
        log.info(`${flags.config}: ${planned.length} run${planned.length === 1 ? "" : "s"}`);
      } else runs.push({ bench, flags });
      const outcomes: RunReport[] = [];
      for (const [i, r] of runs.entries()) {
        const outcome = await runOnce(r, runs.length - i - 1);
        outcomes.push(outcome);
        // A queue run that stopped waiting at Ctrl-C: the user asked to stop, so the experiment stops.
        if (outcome.exitCode === EXIT_INTERRUPTED) break;
      }
      const exitCode = Math.max(EXIT_OK, ...outcomes.map((o) => o.exitCode));
      if (flags.json) process.stdout.write(`${JSON.stringify({ exitCode, runs: outcomes }, null, 2)}\n`);
      if (exitCode) process.exitCode = exitCode;
    });
}

interface RunRequest {
  bench: string | undefined;
  flags: RunFlags;
}

/** What `run --json` prints for each run. */
interface RunReport {
  benchmark: string;
  data: string;
  dir: string;
  exitCode: number;
  failedUnits: number;
  stoppedWaiting?: boolean;
  summary: Summary;
}

/**
 * Ctrl-C during a local run: say how to finish it, exit 130. A run's files are
 * consistent at any moment (a killed run resumes), so nothing needs closing.
 * A `--queue` run is left to the coordinator, which stops waiting on its own.
 */
function onInterrupt(dir: () => string | undefined, left: number): () => void {
  const stop = (signal: NodeJS.Signals) => {
    const at = dir();
    const rest = left ? ` (${left} more run${left === 1 ? "" : "s"} of the experiment did not start)` : "";
    process.stderr.write(
      at
        ? `\ninterrupted; finish with \`membench run --resume ${at}\`${rest}\n`
        : `\ninterrupted before the run directory was written: nothing to resume${rest}\n`,
    );
    // 130 for Ctrl-C; 143 for SIGTERM (128 + the signal), as shells report them.
    process.exit(signal === "SIGTERM" ? 143 : EXIT_INTERRUPTED);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  };
}

/** One run: started, or resumed; prints its tables (not with --json) and returns its report. */
async function runOnce({ bench, flags }: RunRequest, left: number): Promise<RunReport> {
  // Loaded when the command runs, so `--help` stays light (see main.ts).
  const { resumeRun, startRun } = await import("../../run/runner.ts");
  const { parseShard } = await import("../../run/shard.ts");
  const { ledgerAliasOptions } = await import("../../run/ledger-config.ts");
  const { readSnapshot } = await import("../../run/snapshot.ts");
  const { configuredEmbedWorkers } = await import("../../run/system-context.ts");
  let outcome: Awaited<ReturnType<typeof startRun>>;
  if (flags.resume && flags.retryFailed && flags.resume !== flags.retryFailed) {
    throw new ConfigError("--resume and --retry-failed name different runs; give one", "retry-failed");
  }
  const again = flags.resume ?? flags.retryFailed;
  const queue = queueOptions(flags);
  if (flags.local && queue) throw new ConfigError("--local and --queue contradict each other; give one", "local");
  let dir: string | undefined = again;
  const onQueue = Boolean(queue) || Boolean(again && !flags.local && readSnapshot(again).options.queue);
  const release = onQueue ? () => {} : onInterrupt(() => dir, left);
  try {
    if (again) {
      if (flags.shard)
        throw new ConfigError("--shard is kept in the run's config: resume without it", "shard", "--shard");
      outcome = await resumeRun(again, {
        progress: flags.progress,
        ...(flags.local ? { queue: false as const } : queue ? { queue } : {}),
      });
    } else {
      if (!bench) throw new ConfigError("name a benchmark (or --resume DIR, or --config FILE)", "bench");
      if (!flags.data) throw new ConfigError("--data <path> is required", "data", "--data");
      const priceIn = num(flags.priceIn, "price-in");
      const priceOut = num(flags.priceOut, "price-out");
      const scoring = scoreOptions(flags);
      await warnUnusedJudges(bench, scoring);
      if (!flags.system?.length) log.info("no --system given: running bm25");
      outcome = await startRun({
        benchmark: bench,
        data: flags.data,
        systems: flags.system?.length ? flags.system : ["bm25"],
        systemOptions: [
          ...ledgerAliasOptions({
            ledgerExtractor: flags.ledgerExtractor,
            ledgerRetrieval: flags.ledgerRetrieval,
            ledgerQueryRewrite: flags.ledgerQueryRewrite,
          }),
          ...(flags.systemOption ?? []),
        ],
        systemConcurrency: num(flags.systemConcurrency, "system-concurrency"),
        ...(flags.keepRemote ? { keepRemote: true } : {}),
        settings: list(flags.setting) as Setting[],
        limit: num(flags.limit, "limit"),
        episodes: list(flags.episodes),
        out: flags.out,
        concurrency: num(flags.parallelUnits, "parallel-units"),
        ...(flags.shard ? { shard: parseShard(flags.shard) } : {}),
        maxCost: num(flags.maxCost, "max-cost"),
        price:
          priceIn !== undefined || priceOut !== undefined
            ? { inputPerMTok: priceIn ?? 0, outputPerMTok: priceOut ?? 0 }
            : undefined,
        protocol: {
          chunkSize: num(flags.chunkSize, "chunk-size"),
          depth: num(flags.depth, "depth"),
          contextTokens: num(flags.contextTokens, "context-tokens"),
          context: contextKind(flags.context),
        },
        tokenBudget: num(flags.tokenBudget, "token-budget"),
        embedder: flags.embedder,
        ...(flags.embedWorkers !== undefined ? { embedWorkers: configuredEmbedWorkers(flags.embedWorkers) } : {}),
        llm: flags.llm,
        progress: flags.progress,
        scoring,
        ...(flags.lenient ? { lenient: true } : {}),
        ...(flags.variant !== undefined ? { variant: flags.variant } : {}),
        ...(queue ? { queue } : {}),
        onStart: (at) => {
          dir = at;
        },
      });
    }
  } finally {
    release();
  }
  const report: RunReport = {
    benchmark: outcome.summary.benchmark,
    data: outcome.summary.data,
    dir: outcome.dir,
    exitCode: EXIT_OK,
    failedUnits: outcome.failedUnits,
    summary: outcome.summary,
  };
  if (outcome.stoppedWaiting) {
    log.warn(`stopped waiting for the workers; membench run --resume ${outcome.dir} collects the rest`);
    return { ...report, stoppedWaiting: true, exitCode: EXIT_INTERRUPTED };
  }
  if (!flags.json) {
    printRetrieval(outcome.summary);
    if (outcome.summary.results.some((r) => "ci" in r)) printScores(outcome.summary);
  }
  log.info(`run stored in ${outcome.dir}`);
  if (outcome.failedUnits) {
    log.error(`${outcome.failedUnits} units failed; fix the cause and --resume ${outcome.dir}`);
    report.exitCode = EXIT_FAILURE;
  }
  const failures = outcome.summary.failures;
  if (failures && (failures.answers || failures.judgeCalls)) {
    const parts = [
      failures.answers ? `${failures.answers} answer call${failures.answers === 1 ? "" : "s"}` : "",
      failures.judgeCalls ? `${failures.judgeCalls} judge call${failures.judgeCalls === 1 ? "" : "s"}` : "",
    ].filter(Boolean);
    log.error(
      `${parts.join(" and ")} failed (scored as failures); once the endpoint answers, --retry-failed ${outcome.dir} asks them again`,
    );
    report.exitCode = EXIT_FAILURE;
  }
  if (failures?.answersPending) {
    log.error(
      `${failures.answersPending} answers not asked yet (the run stopped first); --resume ${outcome.dir} asks them`,
    );
    report.exitCode = EXIT_FAILURE;
  }
  return report;
}
