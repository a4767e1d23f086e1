/**
 * The membench command line. Thin: parses, calls the library, prints.
 *
 * Start-up stays light: every command is defined here with cheap imports only
 * (constants, help text), and its action imports the modules that do the work
 * (SQLite, the model client, the embedder, vega) when it runs. `--help` and
 * `--version` load commander and little else (test/cli/startup.test.ts checks
 * it; `npm run bench startup` times it). A new command keeps to that pattern.
 */
import { Command, CommanderError } from "commander";
import { settingsHelp } from "../config/settings.ts";
import { ConfigError } from "../core/errors.ts";
import { SCRIPTED_HELP } from "../llm/scripted-help.ts";
import { configureLogger } from "../util/log.ts";
import { packageVersion } from "../util/paths.ts";
import { registerConformanceCommand } from "./commands/conformance.ts";
import { registerDataCommands } from "./commands/data.ts";
import { registerDemoCommand } from "./commands/demo.ts";
import { registerDoctorCommand } from "./commands/doctor.ts";
import { registerJudgeAgreementCommand } from "./commands/judge-agreement.ts";
import { registerMergeCommand } from "./commands/merge.ts";
import { registerReportCommands } from "./commands/report.ts";
import { registerRunCommand } from "./commands/run.ts";
import { registerScoreCommands } from "./commands/score.ts";
import { registerServeCommand } from "./commands/serve.ts";
import { registerSynthCommand } from "./commands/synth.ts";
import { registerSystemsCommand } from "./commands/systems.ts";
import { registerViewCommand } from "./commands/view.ts";
import { registerWorkerCommand } from "./commands/worker.ts";
import { EXIT_OK, EXIT_USAGE, reportError, showErrorStacks } from "./errors.ts";

export function buildProgram(): Command {
  const program = new Command("membench")
    .description("Evaluate long-term memory in LLM agents: five benchmarks under one protocol.")
    .version(packageVersion())
    .option("-q, --quiet", "only errors on stderr")
    .option("-v, --verbose", "debug logging (implies --debug)")
    .option("--debug", "print the stack of an error, not only its one-line cause")
    .option("--log-json", "log as JSON lines on stderr")
    .showHelpAfterError()
    // Usage errors come back to main() as exceptions, so it picks the exit code.
    .exitOverride()
    .hook("preAction", (cmd) => {
      const o = cmd.opts<{ quiet?: boolean; verbose?: boolean; debug?: boolean; logJson?: boolean }>();
      configureLogger({ level: o.quiet ? "error" : o.verbose ? "debug" : "info", json: Boolean(o.logJson) });
      showErrorStacks(Boolean(o.debug || o.verbose));
    })
    .addHelpText(
      "after",
      `
Settings (precedence: flags > environment > membench.config.json > defaults):
${settingsHelp()}

Without a model endpoint, membench still loads data, ingests and retrieves;
answer and judge stages are reported as skipped, never scored.

Exit codes: 0 done; 1 failed (bad data, a model or system failure, failed
units, an unexpected error); 2 a configuration or usage error; 130 interrupted
(Ctrl-C: \`membench run --resume <dir>\` finishes a run; a \`run --queue\` leaves
its units queued). Errors print one line; --debug adds the stack.

Examples:
  membench doctor                                   # what works here, what will be skipped
  membench demo                                     # every format, offline, in seconds
  membench data pull locomo
  membench run locomo --data datasets/locomo --system bm25,hybrid
  membench run -c experiment.yaml --json > outcome.json
  membench report runs/locomo-* --format html --out report.html
  source <(membench completion bash)                # or zsh

${SCRIPTED_HELP}`,
    );
  registerDemoCommand(program);
  registerDoctorCommand(program);
  registerDataCommands(program);
  registerRunCommand(program);
  registerMergeCommand(program);
  registerSystemsCommand(program);
  registerConformanceCommand(program);
  registerScoreCommands(program);
  registerJudgeAgreementCommand(program);
  registerReportCommands(program);
  registerViewCommand(program);
  registerServeCommand(program);
  registerSynthCommand(program);
  registerWorkerCommand(program);
  program
    .command("completion")
    .description("print a shell completion script for bash or zsh")
    .argument("<shell>", "bash or zsh")
    .addHelpText(
      "after",
      `
Examples:
  source <(membench completion bash)         # in ~/.bashrc
  source <(membench completion zsh)          # in ~/.zshrc, after compinit
  membench completion zsh > "\${fpath[1]}/_membench"`,
    )
    .action(async (shell: string) => {
      const { completionScript, SHELLS } = await import("./completion.ts");
      if (!(SHELLS as readonly string[]).includes(shell)) {
        throw new ConfigError(`expected ${SHELLS.join(" or ")}, got "${shell}"`, "shell", "<shell>");
      }
      process.stdout.write(completionScript(shell as (typeof SHELLS)[number], program));
    });
  return program;
}

/** Runs the command line and returns its exit code (see src/cli/errors.ts). */
export async function main(argv: string[]): Promise<number> {
  // `membench … | head` closes the pipe early: stop quietly, as other tools do.
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(EXIT_OK);
    throw error;
  });
  try {
    await buildProgram().parseAsync(argv);
    // A command that finished but failed in part (`run` with failed units) says so in process.exitCode.
    return Number(process.exitCode ?? EXIT_OK) || EXIT_OK;
  } catch (error) {
    // Commander has printed its message already; --help and --version end here too, with 0.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
    return reportError(error);
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("cli/main.ts")) {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
