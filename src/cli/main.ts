/**
 * The membench command line. Thin: parses, calls the library, prints.
 */
import { Command } from "commander";
import { settingsHelp } from "../config/settings.ts";
import { SCRIPTED_HELP } from "../llm/scripted-model.ts";
import { configureLogger } from "../util/log.ts";
import { packageVersion } from "../util/paths.ts";
import { registerDataCommands } from "./commands/data.ts";
import { registerDemoCommand } from "./commands/demo.ts";
import { registerDoctorCommand } from "./commands/doctor.ts";
import { registerJudgeAgreementCommand } from "./commands/judge-agreement.ts";
import { registerReportCommands } from "./commands/report.ts";
import { registerRunCommand } from "./commands/run.ts";
import { registerScoreCommands } from "./commands/score.ts";
import { registerServeCommand } from "./commands/serve.ts";
import { registerViewCommand } from "./commands/view.ts";
import { reportError } from "./errors.ts";

export function buildProgram(): Command {
  const program = new Command("membench")
    .description("Evaluate long-term memory in LLM agents: five benchmarks under one protocol.")
    .version(packageVersion())
    .option("-q, --quiet", "only errors on stderr")
    .option("-v, --verbose", "debug logging")
    .option("--log-json", "log as JSON lines on stderr")
    .showHelpAfterError()
    .hook("preAction", (cmd) => {
      const o = cmd.opts<{ quiet?: boolean; verbose?: boolean; logJson?: boolean }>();
      configureLogger({ level: o.quiet ? "error" : o.verbose ? "debug" : "info", json: Boolean(o.logJson) });
    })
    .addHelpText(
      "after",
      `
Settings (precedence: flags > environment > membench.config.json > defaults):
${settingsHelp()}

Without a model endpoint, membench still loads data, ingests and retrieves;
answer and judge stages are reported as skipped, never scored.

${SCRIPTED_HELP}`,
    );
  registerDemoCommand(program);
  registerDoctorCommand(program);
  registerDataCommands(program);
  registerRunCommand(program);
  registerScoreCommands(program);
  registerJudgeAgreementCommand(program);
  registerReportCommands(program);
  registerViewCommand(program);
  registerServeCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (error) {
    return reportError(error);
  }
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith("cli/main.ts")) {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}
