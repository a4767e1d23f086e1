/**
 * Ledger retrieval variants on the shared samples (the project's fixtures when
 * ../shared is absent), replayed exactly as the runner does: `replayUnit`
 * ingests each episode in timeline order and asks every probe at its place in
 * it. Each variant is a JSON override of the retrieval parameters
 * (`LedgerOptions.retrieval`; `weights` may name only the weights it changes):
 *
 *   npx tsx bench/ledger-tune.ts '{}' '{"weights":{"feedback":0}}' '{"feedbackDepth":5}'
 *
 * Tune here rather than on a store that already holds the later sessions: those
 * shape the IDF and feedback statistics, and gains found that way did not
 * survive a faithful replay (docs/ledger.md). Same embedder as the bench
 * (MEMBENCH_EMBEDDER or use-lite, cached).
 *
 * Held-out cases (bench/ledger.ts `heldOut`) are left out. `--held-out` runs
 * only them, to check a change already chosen on data it was not chosen on:
 *
 *   npx tsx bench/ledger-tune.ts --held-out '{}'
 *
 * With a model (MEMBENCH_BASE_URL and MEMBENCH_MODEL, or `--llm`), the LLM
 * paths are measured the same way: `--extractor llm` writes memories with the
 * LLM extractor and relation proposer, `--query-rewrite` rewrites each probe
 * into extra searches. Every variant then uses them, and a line under each
 * table gives the model calls made (cached ones apart) and the sessions whose
 * extraction failed (their turns are kept, as `membench serve` does):
 *
 *   npx tsx bench/ledger-tune.ts --extractor llm --query-rewrite '{}' '{"pullComplements":true}'
 *
 * `--case <name>` (repeatable) runs only the named cases: realmem, locomo,
 * subtlememory, memora (and memora-monthly with `--held-out`).
 */
import { loadDataset } from "../src/benchmarks/index.ts";
import { createEmbedder } from "../src/embed/create.ts";
import { LlmExtractor, LlmRelationProposer } from "../src/ledger/extract/llm.ts";
import type { LedgerOptions } from "../src/ledger/ledger.ts";
import { LlmQueryRewriter } from "../src/ledger/query-rewrite.ts";
import type { ManagedChatModel } from "../src/llm/create.ts";
import { modelConfigured, resolveModelSettings } from "../src/llm/create.ts";
import { checkLedgerExtractorMode, checkLedgerQueryRewrite, configuredChatModel } from "../src/run/ledger-config.ts";
import { protocolFor } from "../src/run/protocols.ts";
import { LedgerSystem } from "../src/systems/ledger.ts";
import { type Case, caseData, fmt, selectCases } from "./ledger.ts";
import { replayLedger } from "./ledger-replay.ts";

type Retrieval = NonNullable<LedgerOptions["retrieval"]>;

function parseVariants(args: readonly string[]): Array<[string, Retrieval]> {
  const texts = args.length ? args : ["{}"];
  return texts.map((text, i) => {
    try {
      const value = JSON.parse(text) as unknown;
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new Error("not a JSON object");
      return [text === "{}" ? "defaults" : text, value as Retrieval];
    } catch (error) {
      throw new Error(`variant ${i + 1} (${text}): ${(error as Error).message}`);
    }
  });
}

export interface Flags {
  heldOut: boolean;
  llm?: string;
  extractor: "offline" | "llm";
  queryRewrite: boolean;
  /** Only these cases (`--case`, repeatable); all when empty. */
  cases: string[];
  variants: string[];
}

export function parseFlags(args: readonly string[]): Flags {
  const flags: Flags = { heldOut: false, extractor: "offline", queryRewrite: false, cases: [], variants: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--held-out") flags.heldOut = true;
    else if (a === "--query-rewrite") flags.queryRewrite = true;
    else if (a === "--llm") flags.llm = value();
    else if (a === "--case") {
      const name = value();
      selectCases([name]); // throws, naming the known cases, on an unknown one
      flags.cases.push(name);
    } else if (a === "--extractor") {
      const mode = value();
      if (mode !== "offline" && mode !== "llm") throw new Error(`--extractor is offline or llm, not "${mode}"`);
      flags.extractor = mode;
    } else if (a.startsWith("--")) throw new Error(`unknown flag ${a}`);
    else flags.variants.push(a);
  }
  return flags;
}

/** Sessions whose extraction or relation call failed; the ledger keeps their turns without memories. */
class FailureCount {
  sessions = 0;
  async watch<T>(work: Promise<T>): Promise<T> {
    try {
      return await work;
    } catch (error) {
      this.sessions++;
      throw error;
    }
  }
}

/** The model's part of a variant: LLM extractor and proposer, query rewriter, as the flags ask. */
function modelParts(flags: Flags, model: ManagedChatModel | undefined) {
  const failures = new FailureCount();
  const ledger: Omit<LedgerOptions, "path" | "embedder" | "retrieval"> = {};
  if (model && flags.extractor === "llm") {
    const extractor = new LlmExtractor(model);
    const proposer = new LlmRelationProposer(model);
    // A session fails at its first failed call, so counting both counts sessions.
    ledger.extractor = { id: extractor.id, extract: (input) => failures.watch(extractor.extract(input)) };
    ledger.proposer = {
      id: proposer.id,
      propose: (existing, incoming) => failures.watch(proposer.propose(existing, incoming)),
    };
    ledger.onExtractionError = "keep-turns";
  }
  if (model && flags.queryRewrite) ledger.rewriter = new LlmQueryRewriter(model);
  return { ledger, failures: model && flags.extractor === "llm" ? failures : undefined };
}

function usageLine(label: string, model: ManagedChatModel, failures: FailureCount | undefined): string {
  const { roles } = model.accounting.snapshot();
  const parts = (["extractor", "retriever"] as const)
    .filter((r) => roles[r].calls + roles[r].errors > 0)
    .map((r) => `${r} ${roles[r].calls} calls (${roles[r].cachedCalls} cached, ${roles[r].errors} failed)`);
  if (failures) parts.push(`${failures.sessions} sessions kept without memories`);
  return `- ${label}: ${parts.join("; ") || "no model calls"}`;
}

export interface TuneOptions {
  /** Where a case's data is (default: the shared sample, else the fixture). */
  dataOf?: (c: Case) => string | undefined;
  print?: (line: string) => void;
}

export async function tune(flags: Flags, options: TuneOptions = {}): Promise<void> {
  const print = options.print ?? ((line: string) => console.log(line));
  const dataOf = options.dataOf ?? caseData;
  const { heldOut } = flags;
  const variants = parseVariants(flags.variants);
  const wantsModel = flags.extractor === "llm" || flags.queryRewrite;
  const status = modelConfigured({ flags: { llm: flags.llm } });
  if (wantsModel) {
    const modelStatus = { configured: status.configured, detail: status.reason };
    checkLedgerExtractorMode(flags.extractor, modelStatus);
    checkLedgerQueryRewrite(flags.queryRewrite, modelStatus);
    print(`model: ${status.reason}`);
  }
  const s = resolveModelSettings({});
  const embedder = await createEmbedder(process.env.MEMBENCH_EMBEDDER ?? "use-lite", { cacheDir: s.cacheDir });
  // Held-out cases stay out of tuning, so they keep measuring whether the defaults carry over.
  const chosen = selectCases(flags.cases).filter((x) => (x.heldOut ?? false) === heldOut);
  if (!chosen.length) throw new Error(`no case to run${heldOut ? " (--held-out runs only memora-monthly)" : ""}`);
  for (const c of chosen) {
    const data = dataOf(c);
    if (!data) {
      print(`\n### ${c.name}: no data, skipped`);
      continue;
    }
    const dataset = await loadDataset(c.bench, data);
    const protocol = protocolFor(dataset.benchmark)();
    const episodes = dataset.episodes.map((e) => protocol.prepare(e));
    print(`\n### ${c.bench} (${data})\n`);
    print(`| variant | ${c.columns.map(([label]) => label).join(" | ")} |`);
    print(`|---|${c.columns.map(() => "---:").join("|")}|`);
    const usage: string[] = [];
    for (const [label, retrieval] of variants) {
      // One model stack per variant, so its calls are counted apart (the cache is shared on disk).
      const model = wantsModel ? configuredChatModel(flags.llm) : undefined;
      const parts = modelParts(flags, model);
      const system = new LedgerSystem({ embedder, ledger: { ...parts.ledger, retrieval } });
      try {
        const row = await replayLedger(system, episodes, protocol, { benchmark: c.bench, data });
        const cells = c.columns.map(([, read]) => fmt(row ? read(row) : undefined));
        print(`| ${label} | ${cells.join(" | ")} |`);
      } finally {
        if (model) {
          usage.push(usageLine(label, model, parts.failures));
          model.close();
        }
      }
    }
    if (usage.length) print(`\n${usage.join("\n")}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    await tune(parseFlags(process.argv.slice(2)));
  } catch (error) {
    console.error(`ledger-tune: ${(error as Error).message}`);
    process.exitCode = 2;
  }
}
