import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import type { ScoredRow, ScoreRunOptions } from "../../run/score-run.ts";
import type { Summary } from "../../run/summary.ts";
import { markdownTable } from "../../run/table.ts";
import { describeJudgeFailures, failureCauseOf } from "../../score/judge-failures.ts";
import { WORST_OUTCOME } from "../../score/types.ts";
import { log } from "../../util/log.ts";
import { asText } from "../options.ts";

export interface ScoreFlags {
  data?: string;
  answers?: string;
  retrievals?: string;
  name?: string;
  judges?: string;
  judgeLlm?: string;
  judgeRuns?: string | number;
  prompts?: string;
  scoreOption?: string[];
  out?: string;
  lenient?: boolean;
}

/** `--lenient` for run and score. */
export const LENIENT_HELP =
  "load the data leniently: records strict mode refuses (e.g. an unknown category) become warnings; a run keeps it for --resume and score";

export function scoreOptions(flags: ScoreFlags): ScoreRunOptions {
  const options: Record<string, string> = {};
  for (const kv of flags.scoreOption ?? []) {
    const i = kv.indexOf("=");
    if (i <= 0) throw new ConfigError(`expected key=value, got "${kv}"`, "score-option", "--score-option");
    options[kv.slice(0, i)] = kv.slice(i + 1);
  }
  const runs = flags.judgeRuns === undefined ? undefined : Number(flags.judgeRuns);
  if (runs !== undefined && (!Number.isInteger(runs) || runs < 1)) {
    throw new ConfigError(`expected a whole number ≥ 1, got "${flags.judgeRuns}"`, "judge-runs", "--judge-runs");
  }
  return {
    judges: flags.judges
      ?.split(",")
      .map((s) => s.trim())
      .filter(Boolean),
    judgeLlm: flags.judgeLlm,
    judgeRuns: runs,
    prompts: flags.prompts,
    options,
    ...(flags.lenient ? { lenient: true } : {}),
  };
}

/**
 * `--judges` that the scoring would not use (LoCoMo's default metric is token
 * F1; only `--score-option j=on` calls a judge): said, not silently dropped.
 */
export async function warnUnusedJudges(bench: string, scoring: ScoreRunOptions): Promise<void> {
  if (!scoring.judges?.length) return;
  const { getBenchmark, scorerFor } = await import("../../benchmarks/index.ts");
  const { callsJudge } = await import("../../score/types.ts");
  const id = getBenchmark(bench).id;
  const scorer = scorerFor(id);
  if (!scorer || callsJudge(scorer, scoring.options ?? {})) return;
  const how = id === "locomo" ? "add --score-option j=on for J, the LLM-judge accuracy" : `see docs/scoring/${id}.md`;
  log.warn(`--judges ${scoring.judges.join(",")} is not used: ${id} scoring calls no judge with these options; ${how}`);
}

const fmt = (x: number | undefined) =>
  x === undefined || Number.isNaN(x) ? "–" : Math.abs(x) >= 10 ? x.toFixed(1) : x.toFixed(4);

/** Headline scores of each row, with their CIs, and what was skipped. */
export function printScores(summary: Summary): void {
  const rows = summary.results as ScoredRow[];
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r.ci ?? {})))].filter(
    (k) => !/_ms_|^recall|^ndcg|^seh_prov|^srs_prov|^stale|context_tokens/.test(k),
  );
  const lines = [`Scores (${summary.benchmark}; 95% bootstrap CIs):`, ""];
  lines.push(
    markdownTable(
      ["system", "setting", "n", ...keys, "judge failures"],
      rows.map((r) => [
        r.system,
        r.setting,
        String(r.n),
        ...keys.map((k) => {
          const ci = r.ci?.[k];
          return r.metrics[k] === undefined
            ? "–"
            : `${fmt(r.metrics[k])}${ci ? ` [${fmt(ci[0])}, ${fmt(ci[1])}]` : ""}`;
        }),
        String(r.judge_failures ?? 0),
      ]),
    ),
  );
  const skipped = rows.filter((r) => r.skipped.length);
  if (skipped.length) {
    lines.push("", "Skipped:");
    for (const r of skipped)
      for (const s of r.skipped) lines.push(`- ${r.system}/${r.setting} ${s}: ${r.skipReasons[s]}`);
  }
  const failures = rows.flatMap((r) => r.judgeFailureList ?? []);
  if (failures.length) {
    // Every row of one scoring shares the options, so the first rule given is the rule.
    const rule = rows.find((r) => r.judgeFailureRule)?.judgeFailureRule ?? WORST_OUTCOME;
    lines.push("", `Judge verdicts that failed (${failures.length}: ${describeJudgeFailures(failures)}; ${rule}):`);
    for (const f of failures.slice(0, 20))
      lines.push(`- ${f.episodeId}/${f.probeId} (${f.judge}, ${failureCauseOf(f)}): ${f.reason.slice(0, 160)}`);
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

export function registerScoreCommands(program: Command): void {
  program
    .command("score")
    .description(
      "score a stored run again (other judges or prompts), or the answers and retrievals of a system run elsewhere",
    )
    .argument("<target>", "a run directory, or a benchmark id with --data and --answers and/or --retrievals")
    .option("--data <path>", "with a benchmark id: its data")
    .option("--answers <file>", "with a benchmark id: JSONL of {question_id, hypothesis[, episode_id]}")
    .option(
      "--retrievals <file>",
      "with a benchmark id: JSONL of {question_id, items: [{text, sessionIds?, turnIds?, score?}][, episode_id]}, ranked best first: adds the provenance retrieval metrics",
    )
    .option(
      "--name <name>",
      "with --answers or --retrievals: the row's name, the system they came from (default: answers)",
    )
    .option("--judges <names>", "comma-separated judge names: model names, or the `model` field of scripted rules")
    .option(
      "--judge-llm <spec>",
      "judge model spec: openai, openai:MODEL or scripted:FILE (default: settings / the run's --llm)",
    )
    .option("--judge-runs <n>", "samples per judge, majority-voted", asText, 1)
    .option("--prompts <dir>", "your own prompt templates: <dir>/<bench>/<template>.md (default: membench's)")
    .option("--score-option <key=value...>", "benchmark scoring options (see docs/scoring/<bench>.md)")
    .option("--out <dir>", "with --answers or --retrievals: parent folder of the new run directory", "runs")
    .option("--lenient", LENIENT_HELP)
    .addHelpText(
      "after",
      `
A system run elsewhere names questions, sessions and turns by the data's own ids:
\`membench data convert <bench> <path> --out data.jsonl\` writes them (episode id,
probes[].id, sessions[].id, sessions[].turns[].id); docs/external-results.md.
Environment variables (MEMBENCH_*, OPENAI_*) and the scripted model's JSONL format
(--judge-llm scripted:FILE): see \`membench --help\`.`,
    )
    .addHelpText(
      "after",
      `
Examples:
  membench score runs/locomo-20260101-120000 --judges gpt-4o --score-option j=on
  membench score runs/realmem-20260101-120000 --judge-llm scripted:judge.jsonl --judges j1,j2
  membench score longmemeval --data datasets/longmemeval --answers answers.jsonl --name my-agent`,
    )
    .action(async (target: string, flags: ScoreFlags) => {
      const { scoreRun } = await import("../../run/score-run.ts");
      const { scoreExternalRun } = await import("../../run/answers.ts");
      const options = scoreOptions(flags);
      if (existsSync(join(target, "config.json"))) {
        const { readSnapshot } = await import("../../run/snapshot.ts");
        const recorded = readSnapshot(target, "target", "<target>").options;
        // Options not given again are the run's own (score-run.ts keeps them).
        await warnUnusedJudges(recorded.benchmark, {
          ...options,
          options: { ...(recorded.scoring?.options ?? {}), ...options.options },
        });
        for (const flag of ["answers", "retrievals", "name"] as const) {
          if (flags[flag])
            throw new ConfigError(`${target} is a run directory: --${flag} goes with a benchmark id`, flag);
        }
        const { summary } = await scoreRun(target, options);
        printScores(summary);
        const failed = summary.failures?.answers ?? 0;
        // Scoring cannot ask an answer again: a failed one scores as wrong until the run asks it.
        if (failed) log.warn(`${failed} answer calls failed; membench run --retry-failed ${target} asks them again`);
        return;
      }
      if (!flags.data || !(flags.answers || flags.retrievals)) {
        throw new ConfigError(
          `"${target}" is not a run directory; to score a system run elsewhere give a benchmark id with --data and --answers and/or --retrievals`,
          "target",
        );
      }
      await warnUnusedJudges(target, options);
      const outcome = await scoreExternalRun(
        target,
        flags.data,
        { answers: flags.answers, retrievals: flags.retrievals },
        { ...options, out: flags.out, name: flags.name },
      );
      if (flags.retrievals) {
        // run.ts imports this file: load its printer when needed rather than in a cycle.
        const { printRetrieval } = await import("./run.ts");
        printRetrieval(outcome.summary);
      }
      if (flags.answers) printScores(outcome.summary);
      log.info(`scored run stored in ${outcome.dir}`);
    });
}
