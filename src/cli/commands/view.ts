import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import { DEFAULT_HOST, DEFAULT_VIEW_PORT, isLoopback } from "../../util/http-server.ts";
import { log } from "../../util/log.ts";
import { asText, portOption, untilStopped } from "../options.ts";

interface ViewFlags {
  port: string | number;
  host: string;
}

export function registerViewCommand(program: Command): void {
  program
    .command("view")
    .description("browse runs in a local web viewer: results, per-probe drill-down, filters, diffs, verdict overrides")
    .argument("[runsDir]", "a folder of run directories, or one run directory", "runs")
    .option("--port <n>", "port to listen on (0: any free port)", asText, DEFAULT_VIEW_PORT)
    .option("--host <address>", "address to listen on", DEFAULT_HOST)
    .addHelpText(
      "after",
      `
Examples:
  membench view                     # every run under ./runs
  membench view runs/locomo-20260101-120000 --port 0`,
    )
    .action(async (runsDir: string, flags: ViewFlags) => {
      const port = portOption(flags.port);
      const dir = resolve(runsDir);
      if (!existsSync(dir)) throw new ConfigError(`no such folder: ${dir}`, "runsDir");
      if (!isLoopback(flags.host)) {
        log.warn(
          `listening on ${flags.host}, not loopback: anyone who can reach this address can read these runs and override verdicts`,
        );
      }
      const { startViewer } = await import("../../report/view/server.ts");
      const viewer = await startViewer({ runsDir: dir, host: flags.host, port });
      log.info(`membench view: ${viewer.url} (runs in ${dir}; Ctrl-C to stop)`);
      await untilStopped();
      await viewer.close().catch(() => undefined);
    });
}
