/**
 * Loads the MemConflict release: `Data/Step4_4.jsonl` (direct queries) or the
 * question-style ablation `Step4_4_indirect.jsonl` (implicit queries), one
 * persona per line, each an Episode. The path may be the file or a folder
 * holding it. Intermediate pipeline files are refused with a DataError.
 */
import { basename } from "node:path";
import { DataError } from "../../core/errors.ts";
import type { Dataset } from "../../core/model.ts";
import { LoadContext } from "../shared/context.ts";
import { fileSize, findFiles, isDirectory, readTextLines } from "../shared/files.ts";
import type { LoadOptions } from "../types.ts";
import { BENCHMARK_ID, FINAL_FILE, IMPLICIT_FILE } from "./format.ts";
import { idInRawLine } from "./lines.ts";
import { personaToEpisode } from "./persona.ts";
import { reporterFor } from "./reporter.ts";

const PIPELINE_FILE = /^Step\d+_\d+\.jsonl$/;

/** The release file to read from `path` (a file, or a folder holding exactly one). */
async function releaseFile(path: string): Promise<string> {
  if (!isDirectory(path)) return (await findFiles(path, () => true))[0] as string;
  const found = await findFiles(path, (_, name) => name === FINAL_FILE || name === IMPLICIT_FILE);
  const finals = found.filter((f) => basename(f) === FINAL_FILE);
  const pick = finals.length ? finals : found;
  if (pick.length === 1) return pick[0] as string;
  if (pick.length > 1) {
    throw new DataError(`several release files found (${pick.join(", ")}); point at one of them`, { file: path });
  }
  const steps = await findFiles(path, (_, name) => PIPELINE_FILE.test(name));
  if (steps.length) {
    throw new DataError(
      `holds only intermediate pipeline files (${steps.map((f) => basename(f)).join(", ")}), not the final release ${FINAL_FILE}`,
      { file: path },
    );
  }
  throw new DataError(`no ${FINAL_FILE} found`, { file: path });
}

function parseLine(text: string, file: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const id = idInRawLine(text);
    const message = (error as Error).message;
    const hint =
      line === 1 && /^[{[]$/.test(text.trim())
        ? " (this looks like pretty-printed JSON; the release has one persona per line)"
        : /end of JSON|Unterminated/i.test(message)
          ? " (the line looks truncated)"
          : "";
    throw new DataError(
      `invalid JSON${hint}: ${message}`,
      { file, record: id ? `line ${line} (persona ${id})` : `line ${line}`, field: "(line)" },
      { cause: error },
    );
  }
}

export async function loadMemconflict(path: string, options: LoadOptions = {}): Promise<Dataset> {
  const ctx = new LoadContext(BENCHMARK_ID, path, options);
  const report = reporterFor(ctx);
  const file = await releaseFile(path);
  ctx.read(file);
  const total = fileSize(file);
  const styles = new Set<string>();
  for await (const { line, text, bytes } of readTextLines(file, ctx)) {
    options.onProgress?.(bytes, total);
    if (!text.trim()) continue;
    const persona = personaToEpisode(parseLine(text, file, line), file, line, report);
    for (const s of persona.styles) styles.add(s);
    ctx.add(persona.episode, { file, record: persona.record });
  }
  if (styles.size > 1) {
    ctx.issue(`mixes query styles (${[...styles].sort().join(", ")}); load one style per file`, { file });
  }
  return ctx.dataset(styles.has("implicit") ? "implicit" : "direct");
}
