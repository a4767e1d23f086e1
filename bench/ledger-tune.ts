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
 * Every column is printed for the case's tuning half and its checking half
 * (bench/ledger-splits.ts). Choose on the tuning half; keep a change only if
 * the checking half agrees. `memora` is Memora's tuning half and
 * `memora-monthly` its checking half; `--held-out` runs only the cases that
 * are wholly a checking half:
 *
 *   npx tsx bench/ledger-tune.ts --held-out '{}'
 *
 * `--baselines` first prints bm25, bm25-session and hybrid on the same halves
 * (one runner pass per case; they do not depend on the variants).
 * `--no-vectors` replays the ledger with no embedder (lexical lists only).
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
 * subtlememory, memora, memora-monthly.
 */

import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadDataset, protocolFor } from "../src/benchmarks/index.ts";
import type { Episode } from "../src/core/model.ts";
import type { ProbeRecord } from "../src/core/record.ts";
import { createEmbedder } from "../src/embed/create.ts";
import { LlmExtractor, LlmRelationProposer } from "../src/ledger/extract/llm.ts";
import type { LedgerOptions } from "../src/ledger/ledger.ts";
import { LlmQueryRewriter } from "../src/ledger/query-rewrite.ts";
import type { ManagedChatModel } from "../src/llm/create.ts";
import { modelConfigured, resolveModelSettings } from "../src/llm/create.ts";
import { checkLedgerExtractorMode, checkLedgerQueryRewrite, configuredChatModel } from "../src/run/ledger-config.ts";
import { startRun } from "../src/run/runner.ts";
import { RunStore, STORE_FILE } from "../src/run/store.ts";
import { LedgerSystem } from "../src/systems/ledger.ts";
import { type Case, caseData, checkOnly, fmt, selectCases } from "./ledger.ts";
import { type HalfRows, summariseHalves, withSessionMetrics } from "./ledger-halves.ts";
import { replayLedgerRecords } from "./ledger-replay.ts";
import { HALVES, type Half } from "./ledger-splits.ts";

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
  /** Print bm25, bm25-session and hybrid on the same halves first. */
  baselines: boolean;
  /** The ledger with no embedder (lexical lists only), as `ledger#{"vectors":false}` in a run. */
  noVectors: boolean;
  llm?: string;
  extractor: "offline" | "llm";
  queryRewrite: boolean;
  /** Only these cases (`--case`, repeatable); all when empty. */
  cases: string[];
  variants: string[];
}

export function parseFlags(args: readonly string[]): Flags {
  const flags: Flags = {
    heldOut: false,
    baselines: false,
    noVectors: false,
    extractor: "offline",
    queryRewrite: false,
    cases: [],
    variants: [],
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--held-out") flags.heldOut = true;
    else if (a === "--baselines") flags.baselines = true;
    else if (a === "--no-vectors") flags.noVectors = true;
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

const BASELINE_SYSTEMS = ["bm25", "bm25-session", "hybrid"];

/** The halves a case's probes fall in. */
function halvesOf(c: Case): Half[] {
  return c.split.kind === "whole" ? [c.split.half] : [...HALVES];
}

/** The baselines on the case's halves, from one runner pass (they do not depend on the variants). */
async function baselineRows(c: Case, data: string, episodes: readonly Episode[], embedder: string): Promise<HalfRows> {
  const out = mkdtempSync(join(tmpdir(), "mb-ledger-tune-"));
  try {
    const run = await startRun({ benchmark: c.bench, data, systems: BASELINE_SYSTEMS, out, progress: false, embedder });
    const file = join(run.dir, STORE_FILE);
    let records: ProbeRecord[] = [];
    if (existsSync(file)) {
      const store = new RunStore(file);
      try {
        records = store.records();
      } finally {
        store.close();
      }
    }
    if (c.sessionKs) records = withSessionMetrics(records, episodes, c.sessionKs);
    return summariseHalves({ benchmark: c.bench, data }, c.split, episodes, records, BASELINE_SYSTEMS);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
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
  const embedderSpec = process.env.MEMBENCH_EMBEDDER ?? "use-lite";
  const embedder = await createEmbedder(embedderSpec, { cacheDir: s.cacheDir });
  const chosen = selectCases(flags.cases).filter((x) => !heldOut || checkOnly(x));
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
    print(`\n### ${c.name} (${data})\n`);
    const halves = halvesOf(c);
    const heads = c.columns.flatMap(([label]) => halves.map((h) => `${label} ${h}`));
    print(`| variant | ${heads.join(" | ")} |`);
    print(`|---|${heads.map(() => "---:").join("|")}|`);
    const line = (label: string, rows: HalfRows, system: string) => {
      const cells = c.columns.flatMap(([, read]) =>
        halves.map((h) => {
          const row = rows.get(h)?.find((r) => r.system === system);
          return fmt(row ? read(row) : undefined);
        }),
      );
      print(`| ${label} | ${cells.join(" | ")} |`);
    };
    if (flags.baselines) {
      const rows = await baselineRows(c, data, dataset.episodes, embedderSpec);
      for (const system of BASELINE_SYSTEMS) line(`(${system})`, rows, system);
    }
    const usage: string[] = [];
    for (const [label, retrieval] of variants) {
      // One model stack per variant, so its calls are counted apart (the cache is shared on disk).
      const model = wantsModel ? configuredChatModel(flags.llm) : undefined;
      const parts = modelParts(flags, model);
      const system = new LedgerSystem({
        ...(flags.noVectors ? {} : { embedder }),
        ledger: { ...parts.ledger, retrieval },
      });
      try {
        let records = await replayLedgerRecords(system, episodes, protocol);
        if (c.sessionKs) records = withSessionMetrics(records, dataset.episodes, c.sessionKs);
        line(
          label,
          summariseHalves({ benchmark: c.bench, data }, c.split, dataset.episodes, records, ["ledger"]),
          "ledger",
        );
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
