import { resolve } from "node:path";
import type { Command } from "commander";
import { BENCHMARK_IDS } from "../../benchmarks/ids.ts";
import { ConfigError } from "../../core/errors.ts";
import { log } from "../../util/log.ts";
import { VARIANT_HELP } from "../options.ts";

// Each action imports what it needs when it runs, so `--help` loads no loader (see main.ts).
const benchList = () => BENCHMARK_IDS.join(", ");
/** `unified` is membench's own format: there is no release to download. */
const releasedList = () => BENCHMARK_IDS.filter((id) => id !== "unified").join(", ");

export function registerDataCommands(program: Command): void {
  const data = program
    .command("data")
    .description("inspect, convert and download benchmark data")
    .addHelpText(
      "after",
      `
Examples:
  membench data pull locomo
  membench data inspect locomo datasets/locomo
  membench data convert locomo datasets/locomo --out locomo.jsonl`,
    );

  data
    .command("inspect")
    .description("load a benchmark's data and print its statistics and anything suspicious")
    .argument("<bench>", `benchmark id (${benchList()})`)
    .argument("<path>", "a file or a folder; a folder loads every episode it holds, recursively")
    .option("--json", "print the statistics as JSON")
    .option("--strict", "treat suspicious records (e.g. unknown labels) as errors instead of warnings")
    .option("--variant <name>", VARIANT_HELP)
    .addHelpText(
      "after",
      `
Examples:
  membench data inspect locomo datasets/locomo
  membench data inspect longmemeval datasets/longmemeval/longmemeval_s.json --json
  membench data inspect memoryagentbench datasets/mab --variant all`,
    )
    .action(async (bench: string, path: string, opts: { json?: boolean; strict?: boolean; variant?: string }) => {
      const { loadDataset } = await import("../../benchmarks/index.ts");
      const { formatInspect, inspectDataset, sessionNotes } = await import("../../data/inspect.ts");
      const dataset = await loadDataset(bench, path, {
        strict: opts.strict ?? false,
        ...(opts.variant !== undefined ? { variant: opts.variant } : {}),
      });
      const report = inspectDataset(dataset);
      process.stdout.write(
        opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatInspect(report, sessionNotes(dataset))}\n`,
      );
    });

  data
    .command("convert")
    .description("write a benchmark's data in membench's unified JSONL format (one episode per line)")
    .argument("<bench>", `benchmark id (${benchList()})`)
    .argument("<path>", "a file or a folder of the official release")
    .requiredOption("--out <file>", "output .jsonl file")
    .addHelpText(
      "after",
      `
Example:
  membench data convert realmem datasets/realmem --out realmem.jsonl
  membench run unified --data realmem.jsonl     # runs and scores as RealMem`,
    )
    .action(async (bench: string, path: string, opts: { out: string }) => {
      const { loadDataset } = await import("../../benchmarks/index.ts");
      const { writeUnified } = await import("../../benchmarks/unified/format.ts");
      const dataset = await loadDataset(bench, path, { strict: true });
      const n = await writeUnified(dataset, opts.out);
      log.info(`wrote ${n} ${dataset.benchmark} episodes to ${opts.out}`);
    });

  data
    .command("pull")
    .description("download a benchmark's official release, record its revision and hashes, and check it loads")
    .argument("<bench>", `benchmark id (${releasedList()})`)
    .option("--dest <dir>", "destination folder (default: datasets/<bench>)")
    .addHelpText(
      "after",
      `
Examples:
  membench data pull locomo
  membench data pull longmemeval --dest /data/longmemeval

The release is downloaded at the revision membench pins; membench-release.json
in the destination records its URLs, sizes and SHA-256 hashes.`,
    )
    .action(async (bench: string, opts: { dest?: string }) => {
      const { getBenchmark } = await import("../../benchmarks/index.ts");
      const { inspectDataset } = await import("../../data/inspect.ts");
      const { pullRelease } = await import("../../data/pull.ts");
      const def = getBenchmark(bench);
      if (def.id === "unified") {
        throw new ConfigError(
          "unified is membench's own format (`data convert` writes it): there is no release to pull",
          "bench",
          "<bench>",
        );
      }
      const dest = resolve(opts.dest || `datasets/${def.id}`);
      const result = await pullRelease(def, dest, {
        onFile: (url, i, total) => log.info(`[${i + 1}/${total}] ${url}`),
      });
      const dataset = await def.load(dest, { strict: false });
      const report = inspectDataset(dataset, { tokens: false });
      log.info(`recorded ${result.files.length} files in ${result.manifest}`);
      process.stdout.write(
        `${def.id}: ${report.episodes} episodes, ${report.probes} probes loaded from ${dest}` +
          (report.warnings.length ? ` (${report.warnings.length} warnings: run data inspect)` : "") +
          "\n",
      );
    });
}
