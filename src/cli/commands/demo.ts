import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Command } from "commander";
import { fileExists } from "../../benchmarks/shared/files.ts";
import { markdownTable } from "../../run/table.ts";
import { log } from "../../util/log.ts";
import { shippedFixture } from "../../util/paths.ts";

const SYSTEMS = ["bm25", "bm25-session", "dense", "hybrid"];

/**
 * The demo: every benchmark's small dataset that ships with the project, loaded
 * through its official-format loader and replayed into the built-in systems,
 * offline. Prints the data statistics and a retrieval table.
 */
export function registerDemoCommand(program: Command): void {
  program
    .command("demo")
    .description(
      "run the built-in systems on the project's own small datasets (one per official format) and print a retrieval table",
    )
    .option("--system <ids>", "comma-separated systems", SYSTEMS.join(","))
    .option("--embedder <spec>", "embedder for dense and hybrid", "use-lite")
    .option("--out <dir>", "where the demo runs are stored (default: a temporary folder)")
    .addHelpText(
      "after",
      `
Examples:
  membench demo
  membench demo --system bm25,hybrid --embedder hashing:256 --out demo-runs

The demo checks that everything runs on this machine, offline; its numbers say
nothing about the systems (the datasets are a few episodes each).`,
    )
    .action(async (opts: { system: string; embedder: string; out?: string }) => {
      const { BENCHMARKS } = await import("../../benchmarks/index.ts");
      const { inspectDataset } = await import("../../data/inspect.ts");
      const { startRun } = await import("../../run/runner.ts");
      const systems = opts.system
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const out = opts.out ?? mkdtempSync(join(tmpdir(), "membench-demo-"));
      const dataRows: string[][] = [];
      const retrievalRows: string[][] = [];
      let skipped = "";
      // The toy episodes are shorter than the retrieval depth: one notice per system and benchmark would be ~30 lines.
      const wholeHaystack: string[] = [];
      for (const bench of BENCHMARKS) {
        const path = shippedFixture(bench.id);
        if (!fileExists(path)) continue;
        const r = inspectDataset(await bench.load(path));
        dataRows.push([
          r.benchmark,
          ...[r.episodes, r.sessions, r.turns, r.tokens, r.probes].map(String),
          `${Math.round(r.evidenceCoverage * 100)}%`,
        ]);
        log.info(`demo: ${bench.id}`);
        const outcome = await startRun({
          benchmark: bench.id,
          data: path,
          systems,
          out,
          embedder: opts.embedder,
          progress: false,
          onHaystackWarning: (message) => wholeHaystack.push(`${bench.id}/${message.split(":")[0]}`),
        });
        for (const row of outcome.summary.results) {
          const m = row.metrics;
          const k = m["recall_all@10"] !== undefined ? 10 : 5;
          retrievalRows.push([
            bench.id,
            row.system,
            String(m.n_retrieval ?? 0),
            m[`recall_all@${k}`] === undefined ? "–" : `${m[`recall_all@${k}`]!.toFixed(3)} @${k}`,
            m[`ndcg@${k}`] === undefined ? "–" : m[`ndcg@${k}`]!.toFixed(3),
            String(Math.round(m.context_tokens_mean ?? 0)),
          ]);
          if (row.skipped.includes("answer")) skipped = row.skipReasons.answer ?? "";
        }
      }
      const lines = [
        "membench demo: the project's own datasets, one per official format, replayed offline.",
        "It checks the plumbing (load, ingest, retrieve, measure), not quality: the datasets are tiny.",
        "",
        markdownTable(["benchmark", "episodes", "sessions", "turns", "tokens", "probes", "evidence"], dataRows),
        "",
        "Retrieval from provenance (default setting; MemoryAgentBench has no evidence labels):",
        "",
        markdownTable(["benchmark", "system", "n", "recall_all", "ndcg", "ctx tokens"], retrievalRows),
        "",
        `Answer and judge stages: skipped${skipped ? ` (${skipped})` : ""}.`,
        ...(wholeHaystack.length
          ? [
              `Retrieval depth reaches the whole haystack for ${wholeHaystack.length} system × benchmark pairs (toy episodes are shorter than the depth): their retrieval is not tested here.`,
            ]
          : []),
        `Runs stored in ${out}. Next: \`membench run <bench> --data <path> --system bm25,hybrid\` on a release (\`membench data pull <bench>\`).`,
      ];
      process.stdout.write(`${lines.join("\n")}\n`);
    });
}
