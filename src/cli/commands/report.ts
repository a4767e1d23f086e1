/**
 * `membench report`, `membench compare` and `membench export`: thin wrappers
 * over src/report. Results go to stdout or --out; messages to stderr.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import { SETTINGS, type Setting } from "../../core/record.ts";
import type { CompareOptions, Comparison } from "../../report/compare.ts";
import { EXPORT_FORMATS, isExportFormat, isReportFormat, REPORT_FORMATS } from "../../report/formats.ts";
import { log } from "../../util/log.ts";
import { asText } from "../options.ts";

interface ReportFlags {
  format: string;
  out?: string;
  iterations?: string | number;
  seed?: string | number;
}

interface CompareFlags {
  systemA?: string;
  systemB?: string;
  setting?: string;
  metric?: string;
  label?: string;
  format: string;
  out?: string;
  iterations?: string | number;
  seed?: string | number;
}

function whole(value: string | number | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) {
    throw new ConfigError(`expected a whole number ≥ ${min}, got "${value}"`, flag, `--${flag}`);
  }
  return n;
}

function emit(text: string, out: string | undefined, what: string): void {
  if (!out) {
    process.stdout.write(text);
    return;
  }
  const path = resolve(out);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  log.info(`${what} written to ${path}`);
}

function setting(value: string | undefined): Setting | undefined {
  if (value === undefined) return undefined;
  if (!(SETTINGS as readonly string[]).includes(value)) {
    throw new ConfigError(`expected one of ${SETTINGS.join(", ")}, got "${value}"`, "setting", "--setting");
  }
  return value as Setting;
}

export function registerReportCommands(program: Command): void {
  program
    .command("report")
    .description(
      "report one or more runs: the papers' tables with their reported rows beside ours, retrieval, cost, latency, what was skipped",
    )
    .argument("<runDirs...>", "run directories; runs of one benchmark share its tables")
    .option(
      "--format <format>",
      `${REPORT_FORMATS.join(" | ")}, or an official format (${EXPORT_FORMATS.join(" | ")}, as membench export)`,
      "md",
    )
    .option("--out <file>", "write here instead of stdout (a folder for the realmem and memora formats)")
    .option("--iterations <n>", "bootstrap resamples of every CI", asText, 1000)
    .option("--seed <n>", "bootstrap seed", asText, 1)
    .addHelpText(
      "after",
      `
Examples:
  membench report runs/locomo-20260101-120000
  membench report runs/locomo-* runs/realmem-* --format html --out report.html
  membench report runs/realmem-20260101-120000 --format realmem --out official/`,
    )
    .action(async (dirs: string[], flags: ReportFlags) => {
      if (isExportFormat(flags.format)) {
        if (dirs.length !== 1) {
          throw new ConfigError(`the ${flags.format} format exports one run at a time`, "format", "--format");
        }
        await exportCommand(dirs[0]!, flags.format, flags.out);
        return;
      }
      if (!isReportFormat(flags.format)) {
        throw new ConfigError(
          `expected one of ${[...REPORT_FORMATS, ...EXPORT_FORMATS].join(", ")}, got "${flags.format}"`,
          "format",
          "--format",
        );
      }
      const { renderReport } = await import("../../report/report.ts");
      const text = await renderReport(dirs, flags.format, {
        iterations: whole(flags.iterations, "iterations", 1),
        seed: whole(flags.seed, "seed", 0),
      });
      emit(text, flags.out, `${flags.format} report`);
    });

  program
    .command("compare")
    .description(
      "compare runs of one benchmark on aligned probes: per-category deltas with paired-bootstrap CIs, McNemar p, flipped probes",
    )
    .argument("<runA>", "the baseline run directory")
    .argument("<runB>", "the run compared with it")
    .argument("[more...]", "further runs, each compared with runA")
    .option("--system-a <id>", "system of runA (default: its only system, or each system both runs share)")
    .option("--system-b <id>", "system of runB (the same run twice compares two of its systems)")
    .option("--setting <setting>", "default, oracle or perfect", "default")
    .option("--metric <key>", "a per-probe metric (default: the benchmark's headline, else a retrieval metric)")
    .option("--label <key>", "the label whose values make the rows (default: the benchmark's category)")
    .option("--format <format>", "md | json", "md")
    .option("--out <file>", "write here instead of stdout")
    .option("--iterations <n>", "paired-bootstrap resamples", asText, 1000)
    .option("--seed <n>", "bootstrap seed", asText, 1)
    .addHelpText(
      "after",
      `
Examples:
  membench compare runs/a runs/b                              # the systems both runs share
  membench compare runs/a runs/a --system-a bm25 --system-b ledger
  membench compare runs/a runs/b --metric recall_all@10 --format json`,
    )
    .action(async (runA: string, runB: string, more: string[], flags: CompareFlags) => {
      const { compareRuns, comparisonMarkdown } = await import("../../report/compare.ts");
      if (flags.format !== "md" && flags.format !== "json") {
        throw new ConfigError(`expected md or json, got "${flags.format}"`, "format", "--format");
      }
      const options: CompareOptions = {
        systemA: flags.systemA,
        systemB: flags.systemB,
        setting: setting(flags.setting),
        metric: flags.metric,
        label: flags.label,
        iterations: whole(flags.iterations, "iterations", 1),
        seed: whole(flags.seed, "seed", 0),
      };
      const comparisons: Comparison[] = [runB, ...more].flatMap((other) => compareRuns(runA, other, options));
      const text =
        flags.format === "json" ? `${JSON.stringify(comparisons, null, 2)}\n` : comparisonMarkdown(comparisons);
      emit(text, flags.out, "comparison");
    });

  program
    .command("export")
    .description("write a run in the files the papers' own evaluators read (RealMem, SubtleMemory, Memora)")
    .argument("<runDir>", "a run directory")
    .requiredOption("--format <format>", EXPORT_FORMATS.join(" | "))
    .requiredOption("--out <path>", "a folder (realmem, memora) or a file (subtlememory leaderboard.json)")
    .addHelpText(
      "after",
      `
Examples:
  membench export runs/realmem-20260101-120000 --format realmem --out official/realmem
  membench export runs/subtlememory-20260101-120000 --format subtlememory --out leaderboard.json`,
    )
    .action(async (dir: string, flags: { format: string; out: string }) => {
      await exportCommand(dir, flags.format, flags.out);
    });
}

async function exportCommand(dir: string, format: string, out: string | undefined): Promise<void> {
  if (!out) throw new ConfigError(`the ${format} format writes files: give --out`, "out", "--out");
  const { exportOfficial } = await import("../../report/official/export.ts");
  const written = await exportOfficial(dir, format, out);
  log.info(`${format} export: ${written.length} file${written.length === 1 ? "" : "s"} under ${resolve(out)}`);
  for (const path of written) log.debug(path);
}
