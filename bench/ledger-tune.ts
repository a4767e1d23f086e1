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
 */
import { loadDataset } from "../src/benchmarks/index.ts";
import { createEmbedder } from "../src/embed/create.ts";
import type { LedgerOptions } from "../src/ledger/ledger.ts";
import { resolveModelSettings } from "../src/llm/create.ts";
import { protocolFor } from "../src/run/protocols.ts";
import { LedgerSystem } from "../src/systems/ledger.ts";
import { CASES, caseData, fmt } from "./ledger.ts";
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

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const heldOut = args.includes("--held-out");
  const variants = parseVariants(args.filter((a) => a !== "--held-out"));
  const s = resolveModelSettings({});
  const embedder = await createEmbedder(process.env.MEMBENCH_EMBEDDER ?? "use-lite", { cacheDir: s.cacheDir });
  // Held-out cases stay out of tuning, so they keep measuring whether the defaults carry over.
  for (const c of CASES.filter((x) => (x.heldOut ?? false) === heldOut)) {
    const data = caseData(c);
    if (!data) {
      console.log(`\n### ${c.name}: no data, skipped`);
      continue;
    }
    const dataset = await loadDataset(c.bench, data);
    const protocol = protocolFor(dataset.benchmark)();
    const episodes = dataset.episodes.map((e) => protocol.prepare(e));
    console.log(`\n### ${c.bench} (${data})\n`);
    console.log(`| variant | ${c.columns.map(([label]) => label).join(" | ")} |`);
    console.log(`|---|${c.columns.map(() => "---:").join("|")}|`);
    for (const [label, retrieval] of variants) {
      const system = new LedgerSystem({ embedder, ledger: { retrieval } });
      const row = await replayLedger(system, episodes, protocol, { benchmark: c.bench, data });
      const cells = c.columns.map(([, read]) => fmt(row ? read(row) : undefined));
      console.log(`| ${label} | ${cells.join(" | ")} |`);
    }
  }
}

try {
  await main();
} catch (error) {
  console.error(`ledger-tune: ${(error as Error).message}`);
  process.exitCode = 2;
}
