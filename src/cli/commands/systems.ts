import type { Command } from "commander";
import type { OptionDoc } from "../../systems/options.ts";

interface SystemDoc {
  id: string;
  summary: string;
  /** With default options; absent when the defaults alone are not a valid configuration. */
  needsEmbedder?: boolean;
  options: OptionDoc[];
}

async function docs(): Promise<SystemDoc[]> {
  // Loaded when the command runs: the registry imports every system (SQLite, the ledger).
  const { systemDefinitions } = await import("../../systems/index.ts");
  const { checkSystemOptions, describeOptions } = await import("../../systems/options.ts");
  return systemDefinitions().map((d) => {
    let needsEmbedder: boolean | undefined;
    try {
      needsEmbedder = Boolean(d.needsEmbedder?.(checkSystemOptions(d, {}, d.id)));
    } catch {
      needsEmbedder = undefined;
    }
    return {
      id: d.id,
      summary: d.summary,
      ...(needsEmbedder !== undefined ? { needsEmbedder } : {}),
      options: describeOptions(d.options),
    };
  });
}

function format(systems: SystemDoc[]): string {
  const out: string[] = [];
  for (const s of systems) {
    out.push(`${s.id} — ${s.summary}${s.needsEmbedder ? " [uses the run's --embedder]" : ""}`);
    if (!s.options.length) out.push("    (no options)");
    const keyWidth = Math.max(0, ...s.options.map((o) => o.key.length));
    const typeWidth = Math.max(0, ...s.options.map((o) => o.type.length));
    for (const o of s.options) {
      const extra = [o.default !== undefined ? `default ${JSON.stringify(o.default)}` : "", o.description ?? ""].filter(
        Boolean,
      );
      out.push(`    ${o.key.padEnd(keyWidth)}  ${o.type.padEnd(typeWidth)}  ${extra.join("; ")}`.trimEnd());
    }
    out.push("");
  }
  return out.join("\n");
}

export function registerSystemsCommand(program: Command): void {
  program
    .command("systems")
    .description("list the registered memory systems with their options (types, defaults)")
    .option("--json", "print the list as JSON")
    .addHelpText(
      "after",
      `
Options are given in a spec, --system 'ledger#{"extractor":"offline"}', or one
at a time, --system-option ledger.retrieval.weights.memoryLexical=1. Your own
systems: --system ./my-system.js, --system some-package#export, or
--system http:URL (docs/systems.md).`,
    )
    .addHelpText(
      "after",
      `
Examples:
  membench systems
  membench systems --json | jq '.[].id'`,
    )
    .action(async (flags: { json?: boolean }) => {
      const systems = await docs();
      process.stdout.write(flags.json ? `${JSON.stringify(systems, null, 2)}\n` : `${format(systems)}`);
    });
}
