/**
 * `membench export`: a run in the file shapes the papers' own evaluators read,
 * so their scripts can cross-check our numbers. RealMem and Memora write a
 * folder tree; SubtleMemory one leaderboard.json.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { ConfigError } from "../../core/errors.ts";
import { log } from "../../util/log.ts";
import { EXPORT_FORMATS, isExportFormat } from "../formats.ts";
import { loadRun } from "../run-data.ts";
import { memoraFiles } from "./memora.ts";
import { realmemFiles } from "./realmem.ts";
import { subtlememoryLeaderboard } from "./subtlememory.ts";

export { EXPORT_FORMATS, type ExportFormat, isExportFormat } from "../formats.ts";

function write(path: string, content: unknown): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, `${JSON.stringify(content, null, 2)}\n`);
  return path;
}

/** Writes the export and returns the paths of the files written. */
export async function exportOfficial(dir: string, format: string, out: string, now = new Date()): Promise<string[]> {
  if (!isExportFormat(format)) {
    throw new ConfigError(`expected one of ${EXPORT_FORMATS.join(", ")}, got "${format}"`, "format", "--format");
  }
  if (!out) throw new ConfigError("give the output path", "out", "--out");
  const run = loadRun(dir);
  if (run.config.benchmark !== format) {
    throw new ConfigError(
      `run ${run.config.id} is a ${run.config.benchmark} run; the ${format} format needs a ${format} run`,
      "format",
      "--format",
    );
  }
  const target = resolve(out);
  if (format === "subtlememory") {
    const file = existsSync(target) && statSync(target).isDirectory() ? join(target, "leaderboard.json") : target;
    return [write(file, subtlememoryLeaderboard(run, now))];
  }
  if (existsSync(target) && !statSync(target).isDirectory()) {
    throw new ConfigError(`${target} is a file; the ${format} export writes a folder`, "out", "--out");
  }
  const { files, warnings } = format === "realmem" ? await realmemFiles(run) : await memoraFiles(run, now);
  for (const warning of warnings) log.warn(warning);
  return files.map((f) => write(join(target, f.path), f.content));
}
