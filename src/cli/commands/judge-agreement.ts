import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import type { RunAgreement } from "../../run/run-labels.ts";
import { markdownTable } from "../../run/table.ts";
import type { AgreementRow } from "../../score/agreement.ts";
import { log } from "../../util/log.ts";

const fmt = (x: number) => (Number.isNaN(x) ? "–" : x.toFixed(3));

/** The κ table; a group column (titled `groupTitle`) only when the rows have groups. */
export function agreementTable(rows: readonly AgreementRow[], groupTitle = "group"): string {
  const grouped = rows.some((r) => r.group !== undefined);
  return markdownTable(
    [...(grouped ? [groupTitle] : []), "rater A", "rater B", "n", "agreement", "kappa"],
    rows.map((r) => [...(grouped ? [r.group ?? ""] : []), r.a, r.b, String(r.n), fmt(r.agreement), fmt(r.kappa)]),
  );
}

const count = (n: number, noun: string) => `${n} ${noun}${n === 1 ? "" : "s"}`;

/** What the run's labels left out, one line per judge. */
export function leftOutLines(result: Pick<RunAgreement, "failed" | "tied">): string[] {
  const judges = [...new Set([...Object.keys(result.failed), ...Object.keys(result.tied)])];
  return judges.map((j) => {
    const parts = [
      result.failed[j] ? count(result.failed[j], "unparseable verdict") : "",
      result.tied[j] ? `${count(result.tied[j], "item")} where its samples tied` : "",
    ].filter(Boolean);
    return `- ${j}: ${parts.join(", ")}`;
  });
}

const isRunDir = (target: string) =>
  existsSync(target) && statSync(target).isDirectory() && existsSync(join(target, "config.json"));

export function registerJudgeAgreementCommand(program: Command): void {
  program
    .command("judge-agreement")
    .description("Cohen's kappa between every pair of judges of a scored run, or of raters in a labels CSV")
    .argument("<target>", "a scored run directory, or a CSV (header: id,<rater>,<rater>,…; one row per item)")
    .option("--csv <file>", "with a run directory: also write its judges' labels as a CSV this command reads")
    .addHelpText(
      "after",
      `
With a run directory, every verdict its last scoring stored counts: an item is
one verdict field of one judged part of a probe (a Memora criterion, RealMem's
qa and memory calls), and each judge's label is its majority over its
--judge-runs samples. Unparseable verdicts and tied samples give no label.
Kappa is reported per system/setting with n, the items both judges labelled.
The run needs verdicts from two or more judges (membench score DIR --judges a,b).

A labels CSV may carry a column named "group" (κ per group); empty cells are
left out of that pair. Labels compare case-insensitively.`,
    )
    .addHelpText(
      "after",
      `
Examples:
  membench judge-agreement runs/locomo-20260101-120000 --csv labels.csv
  membench judge-agreement labels.csv            # after adding a human column`,
    )
    .action(async (target: string, flags: { csv?: string }) => {
      const { judgeAgreement } = await import("../../score/agreement.ts");
      const { runJudgeAgreement } = await import("../../run/run-labels.ts");
      if (isRunDir(target)) {
        const result = runJudgeAgreement(target, { csv: flags.csv });
        process.stdout.write(`${agreementTable(result.rows, "system/setting")}\n`);
        const leftOut = leftOutLines(result);
        if (leftOut.length) process.stdout.write(`\nLeft out (no label):\n${leftOut.join("\n")}\n`);
        if (flags.csv) log.info(`labels written to ${flags.csv}`);
        return;
      }
      if (!existsSync(target)) throw new ConfigError(`no such run directory or labels CSV: ${target}`, "target");
      if (flags.csv) throw new ConfigError(`"${target}" is not a run directory (no config.json)`, "csv", "--csv");
      if (existsSync(target) && statSync(target).isDirectory()) {
        throw new ConfigError(`${target} has no config.json: not a run directory, nor a labels CSV`, "target");
      }
      process.stdout.write(`${agreementTable(judgeAgreement(target))}\n`);
    });
}
