import type { Command } from "commander";
import { log } from "../../util/log.ts";
import { printRetrieval } from "./run.ts";
import { printScores } from "./score.ts";

interface MergeFlags {
  out: string;
  preferLater?: boolean;
}

export function registerMergeCommand(program: Command): void {
  program
    .command("merge")
    .description("join the run directories of a run's shards (run --shard i/n) into one run directory")
    .argument("<dirs...>", "the shards' run directories")
    .requiredOption("--out <dir>", "the merged run's directory (not the parent folder, unlike run --out)")
    .option(
      "--prefer-later",
      "a unit two directories finished with different records: take the later one instead of refusing",
    )
    .addHelpText(
      "after",
      `
The directories must be shards of one run: the same config apart from the
shard. Each unit is taken from the directory that finished it; one finished
twice with the same records (a shard run again) is counted once. Model usage
is summed over every directory. The merged directory is a run like any other:
report, score and view it; units no shard finished are left for
\`membench run --resume <dir>\`. The data must be where the shards read it.`,
    )
    .addHelpText(
      "after",
      `
Examples:
  membench merge runs/locomo-*-shard-1of2 runs/locomo-*-shard-2of2 --out runs/locomo-merged`,
    )
    .action(async (dirs: string[], flags: MergeFlags) => {
      // Loaded when the command runs, so `--help` stays light (see main.ts).
      const { mergeRuns } = await import("../../run/merge.ts");
      const outcome = await mergeRuns(dirs, { out: flags.out, preferLater: flags.preferLater });
      printRetrieval(outcome.summary);
      if (outcome.summary.results.some((r) => "ci" in r)) printScores(outcome.summary);
      for (const d of outcome.duplicates)
        log.info(
          `unit ${d.unit} finished by ${d.dirs.length} directories with the same records: counted once (from ${d.took})`,
        );
      for (const c of outcome.conflicts)
        log.warn(
          `unit ${c.unit} finished by ${c.dirs.join(" and ")} with different records: took the later, ${c.took}`,
        );
      if (outcome.missingShards.length) log.warn(`no directory holds shard ${outcome.missingShards.join(", ")}`);
      log.info(`${outcome.units - outcome.unfinished.length} of ${outcome.units} units merged into ${outcome.dir}`);
      if (outcome.unfinished.length) {
        log.error(
          `${outcome.unfinished.length} units no directory finished; membench run --resume ${outcome.dir} runs them`,
        );
        process.exitCode = 1;
      }
    });
}
