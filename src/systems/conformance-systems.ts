/**
 * The conformance kit run against systems named like a run names them (specs,
 * definitions, instances): what `membench conformance` prints. Each check gets a
 * fresh system from the system's own definition and options (an instance is
 * reused as it is); every system made is disposed afterwards.
 */
import { type ConformanceOptions, type ConformanceReport, runConformance } from "./conformance.ts";
import type { SystemContext } from "./definition.ts";
import { disposeSystems, makeSystem, type ResolvedSystem, type SystemSource } from "./resolve.ts";
import type { MemorySystem } from "./types.ts";

export interface SystemConformance extends ConformanceReport {
  label: string;
  spec?: string;
  source: SystemSource;
  options: unknown;
}

export async function systemConformance(
  resolved: ResolvedSystem,
  context: SystemContext,
  options: ConformanceOptions = {},
): Promise<SystemConformance> {
  // The first system is made before any check: a system that refuses its options
  // (a model it needs, a server that does not answer) fails here, once, with its own error.
  const made: MemorySystem[] = [await makeSystem(resolved, context)];
  let unused: MemorySystem | undefined = made[0];
  try {
    const report = await runConformance(async () => {
      if (unused) {
        const first = unused;
        unused = undefined;
        return first;
      }
      const system = await makeSystem(resolved, context);
      made.push(system);
      return system;
    }, options);
    return {
      label: resolved.label,
      ...(resolved.spec ? { spec: resolved.spec } : {}),
      source: resolved.source,
      options: resolved.options,
      ...report,
    };
  } finally {
    await disposeSystems(made.map((system) => ({ system, owned: !resolved.instance })));
  }
}

/** The report as lines for a terminal: one per check, with pass/FAIL/skip and why. */
export function formatConformance(result: SystemConformance): string {
  const width = Math.max(...result.checks.map((c) => c.name.length));
  const failed = result.checks.filter((c) => !c.passed).length;
  const skipped = result.checks.filter((c) => c.skipped).length;
  const lines = [
    `${result.label}${result.systemId && result.systemId !== result.label ? ` (system id ${result.systemId})` : ""}: ${failed ? `FAILED ${failed} of ${result.checks.length} checks` : `passed${skipped ? ` (${skipped} skipped)` : ""}`}`,
  ];
  for (const c of result.checks) {
    const mark = c.skipped ? "skip" : c.passed ? "pass" : "FAIL";
    lines.push(`  ${mark}  ${c.name.padEnd(width)}  ${c.detail.replace(/^skipped: /, "")}`);
  }
  return lines.join("\n");
}
