import type { Command } from "commander";
import { BENCHMARK_IDS } from "../../benchmarks/ids.ts";
import { realmemRetrievalTable } from "../../benchmarks/realmem/paper.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Setting } from "../../run/record.ts";
import type { Summary } from "../../run/summary.ts";
import { markdownTable, retrievalTable } from "../../run/table.ts";
import { log } from "../../util/log.ts";
import { checkRedisUrl } from "../../util/redis.ts";
import { collect, EMBED_WORKERS_HELP, SYSTEM_HELP, SYSTEM_OPTION_HELP } from "../options.ts";
import { LENIENT_HELP, printScores, scoreOptions } from "./score.ts";

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
  queue?: string;
  queueName?: string;
  queueAttempts?: string;
  queueBackoffMs?: string;
  local?: boolean;
}

const list = (v?: string) =>
  v
    ? v
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean)
    : [];

function num(v: string | undefined, flag: string): number | undefined {
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

const METRICS = [
  "recall_all@10",
  "recall_all@20",
  "ndcg_realmem@10",
  "ndcg_realmem@20",
  "recall_any@10",
  "recall_any@20",
  "ndcg@10",
  "ndcg@20",
];

/** Prints the retrieval table, and the paper's reported rows where we have them. */
export function printRetrieval(summary: Summary): void {
  const out: string[] = [];
  const keys = Object.keys(summary.results.find((r) => r.setting === "default")?.metrics ?? {});
  const metrics = METRICS.filter((m) => keys.includes(m));
  const shown = metrics.length ? metrics : keys.filter((k) => /@/.test(k)).slice(0, 6);
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
    .argument("[bench]", `benchmark id (${BENCHMARK_IDS.join(", ")}); omit with --resume`)
    .option("--data <path>", "the benchmark's data: a file or a folder")
    .option("--system <spec>", `${SYSTEM_HELP}; default bm25`, collect)
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
      "--concurrency <n>",
      "units (system × episode) replayed at once; answer and judge calls run apart from the replay, at MEMBENCH_CONCURRENCY (with --queue: each worker's --concurrency instead)",
      "2",
    )
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
    .option("--judges <names>", "judges for the scoring that follows (model names or scripted `model` names)")
    .option("--judge-llm <spec>", "judge model spec (default: the answer model's)")
    .option("--judge-runs <n>", "samples per judge, majority-voted")
    .option("--prompts <dir>", "your own prompt templates: <dir>/<bench>/<template>.md")
    .option("--score-option <key=value...>", "benchmark scoring options (see docs/scoring/<bench>.md)")
    .option("--lenient", LENIENT_HELP)
    .option(
      "--queue <url>",
      "run the units on a worker pool: enqueue them on this Redis (redis://host:port) for `membench worker`s, store their results here",
    )
    .option("--queue-name <name>", "BullMQ queue name (default membench)")
    .option("--queue-attempts <n>", "with --queue: attempts per unit before it is dead-lettered (default 3)")
    .option("--queue-backoff-ms <ms>", "with --queue: first retry delay, doubled at each retry (default 5000)")
    .option("--local", "with --resume of a --queue run: run what is left here instead of on the queue")
    .option("--no-progress", "no progress bar")
    .addHelpText(
      "after",
      `
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
(--llm scripted:FILE): see \`membench --help\`.`,
    )
    .action(async (bench: string | undefined, flags: RunFlags) => {
      // Loaded when the command runs, so `--help` stays light (see main.ts).
      const { resumeRun, startRun } = await import("../../run/runner.ts");
      const { parseShard } = await import("../../run/shard.ts");
      const { ledgerAliasOptions } = await import("../../run/ledger-config.ts");
      const { configuredEmbedWorkers } = await import("../../run/system-context.ts");
      let outcome: Awaited<ReturnType<typeof startRun>>;
      if (flags.resume && flags.retryFailed && flags.resume !== flags.retryFailed) {
        throw new ConfigError("--resume and --retry-failed name different runs; give one", "retry-failed");
      }
      const again = flags.resume ?? flags.retryFailed;
      const queue = queueOptions(flags);
      if (flags.local && queue) throw new ConfigError("--local and --queue contradict each other; give one", "local");
      if (again) {
        if (flags.shard)
          throw new ConfigError("--shard is kept in the run's config: resume without it", "shard", "--shard");
        outcome = await resumeRun(again, {
          progress: flags.progress,
          ...(flags.local ? { queue: false as const } : queue ? { queue } : {}),
        });
      } else {
        if (!bench) throw new ConfigError("name a benchmark (or --resume DIR)", "bench");
        if (!flags.data) throw new ConfigError("--data <path> is required", "data", "--data");
        const priceIn = num(flags.priceIn, "price-in");
        const priceOut = num(flags.priceOut, "price-out");
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
          concurrency: num(flags.concurrency, "concurrency"),
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
          scoring: scoreOptions(flags),
          ...(flags.lenient ? { lenient: true } : {}),
          ...(queue ? { queue } : {}),
        });
      }
      if (outcome.stoppedWaiting) {
        log.warn(`stopped waiting for the workers; membench run --resume ${outcome.dir} collects the rest`);
        process.exitCode = 130;
        return;
      }
      printRetrieval(outcome.summary);
      if (outcome.summary.results.some((r) => "ci" in r)) printScores(outcome.summary);
      log.info(`run stored in ${outcome.dir}`);
      if (outcome.failedUnits) {
        log.error(`${outcome.failedUnits} units failed; fix the cause and --resume ${outcome.dir}`);
        process.exitCode = 1;
      }
      const left = outcome.summary.failures;
      if (left && (left.answers || left.judgeCalls)) {
        const parts = [
          left.answers ? `${left.answers} answer call${left.answers === 1 ? "" : "s"}` : "",
          left.judgeCalls ? `${left.judgeCalls} judge call${left.judgeCalls === 1 ? "" : "s"}` : "",
        ].filter(Boolean);
        log.error(
          `${parts.join(" and ")} failed (scored as failures); once the endpoint answers, --retry-failed ${outcome.dir} asks them again`,
        );
        process.exitCode = 1;
      }
      if (left?.answersPending) {
        log.error(
          `${left.answersPending} answers not asked yet (the run stopped first); --resume ${outcome.dir} asks them`,
        );
        process.exitCode = 1;
      }
    });
}
