import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import type { SystemConformance } from "../../systems/conformance-systems.ts";
import { asText, collect, EMBED_WORKERS_HELP, SYSTEM_HELP, SYSTEM_OPTION_HELP } from "../options.ts";

interface ConformanceFlags {
  system?: string[];
  systemOption?: string[];
  json?: boolean;
  timeout: string | number;
  embedder?: string;
  embedWorkers?: string;
  llm?: string;
  keepRemote?: boolean;
  namespacePrefix: string;
}

export function registerConformanceCommand(program: Command): void {
  program
    .command("conformance")
    .description(
      "check a memory system against the contract: namespace isolation, no future leakage, result shape, provenance ids, readback, close/reopen",
    )
    .option("--system <spec>", SYSTEM_HELP, collect)
    .option("--system-option <label.key=value>", SYSTEM_OPTION_HELP, collect)
    .option("--json", "print the reports as JSON")
    .option("--timeout <ms>", "time allowed for one check", asText, 120000)
    .option("--embedder <spec>", "embedder of systems that embed: use-lite | hashing[:DIM] | openai:MODEL | onnx:DIR")
    .option("--embed-workers <n>", EMBED_WORKERS_HELP)
    .option("--llm <spec>", "model of systems that call one: openai, openai:MODEL or scripted:FILE")
    .option("--keep-remote", "remote systems keep their users/containers at close")
    .option("--namespace-prefix <prefix>", "prefix of every namespace the checks open", "membench-conformance")
    .addHelpText(
      "after",
      `
Each check gets a fresh system from the spec, feeds a small synthetic history
(four sessions with invented marker words) at the system's granularity, and
says pass, FAIL or skip (a capability the system does not claim) and why.
Exit code 1 when a check fails. docs/systems.md describes every check.

Examples:
  membench conformance --system ./my-system.js --system bm25
  membench conformance --system 'ledger#{"extractor":"offline"}' --timeout 30000`,
    )
    .action(async (flags: ConformanceFlags) => {
      if (!flags.system?.length) throw new ConfigError("name a system to check", "system", "--system");
      const timeoutMs = Number(flags.timeout);
      if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
        throw new ConfigError(`expected a number of milliseconds, got "${flags.timeout}"`, "timeout", "--timeout");
      }
      // Loaded when the command runs, so `--help` stays light (see main.ts).
      const { modelConfigured } = await import("../../llm/create.ts");
      const { configuredChatModel, configuredEmbedWorkers, runSystemContext } = await import(
        "../../run/system-context.ts"
      );
      const embedWorkers = flags.embedWorkers === undefined ? undefined : configuredEmbedWorkers(flags.embedWorkers);
      const { formatConformance, systemConformance } = await import("../../systems/conformance-systems.ts");
      const { resolveSystems } = await import("../../systems/resolve.ts");
      const resolved = await resolveSystems(flags.system, { systemOptions: flags.systemOption });
      const status = modelConfigured({ flags: { llm: flags.llm } });
      const model = status.configured ? configuredChatModel(flags.llm) : undefined;
      const context = runSystemContext({
        embedder: flags.embedder,
        ...(embedWorkers !== undefined ? { embedWorkers } : {}),
        llm: flags.llm,
        ...(model ? { model } : {}),
        modelStatus: { configured: status.configured, detail: status.reason },
        keepRemote: flags.keepRemote,
      });
      const results: SystemConformance[] = [];
      try {
        for (const system of resolved) {
          const result = await systemConformance(system, context, {
            timeoutMs,
            namespacePrefix: flags.namespacePrefix,
          });
          results.push(result);
          if (!flags.json) process.stdout.write(`${formatConformance(result)}\n`);
        }
      } finally {
        model?.close();
      }
      const passed = results.every((r) => r.passed);
      if (flags.json) process.stdout.write(`${JSON.stringify({ passed, systems: results }, null, 2)}\n`);
      else if (results.length > 1) {
        const failed = results.filter((r) => !r.passed).map((r) => r.label);
        process.stdout.write(
          `${results.length} systems: ${failed.length ? `${failed.length} failed (${failed.join(", ")})` : "all passed"}\n`,
        );
      }
      if (!passed) process.exitCode = 1;
    });
}
