/**
 * File helpers every loader shares: JSON and JSONL reading with errors that
 * name the file and the record, and recursive discovery of a release's files.
 */
import { createReadStream, readFileSync, statSync } from "node:fs";
import { readdir } from "node:fs/promises";
import { join, relative } from "node:path";
import { createInterface } from "node:readline";
import { DataError } from "../../core/errors.ts";

/** Line and column of a character offset, for parse errors. */
function lineCol(text: string, offset: number): string {
  let line = 1;
  let last = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      last = i + 1;
    }
  }
  return `line ${line}, column ${offset - last + 1}`;
}

export function fileExists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

export function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

export function fileSize(path: string): number {
  return statSync(path).size;
}

/** Reads a whole JSON file; a syntax error names the file and where it broke. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new DataError(`cannot read: ${(error as Error).message}`, { file });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const m = /position (\d+)/.exec(message);
    const at = m ? ` at ${lineCol(text, Number(m[1]))}` : "";
    // Node reports a cut-off file variously ("Unexpected end", "Unterminated string",
    // "Expected ',' or ']'"), but always at or past the end of the trimmed text.
    const atEnd = m !== null && Number(m[1]) >= text.trimEnd().length - 1;
    const truncated = /Unexpected end/.test(message) || atEnd ? " (the file looks truncated)" : "";
    throw new DataError(`invalid JSON${at}${truncated}: ${message}`, { file }, { cause: error });
  }
}

/** Reads JSONL, yielding each parsed line with its 1-based line number. Blank lines are skipped. */
export async function* readJsonl(file: string): AsyncGenerator<{ line: number; value: unknown }> {
  const rl = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of rl) {
    line++;
    if (!text.trim()) continue;
    try {
      yield { line, value: JSON.parse(text) };
    } catch (error) {
      throw new DataError(
        `invalid JSON: ${(error as Error).message}`,
        { file, record: `line ${line}` },
        { cause: error },
      );
    }
  }
}

/** Every file under `root` (or `root` itself) that `accept` takes, sorted by path. */
export async function findFiles(root: string, accept: (path: string, name: string) => boolean): Promise<string[]> {
  if (!fileExists(root)) throw new DataError("no such file or folder", { file: root });
  if (!isDirectory(root)) return [root];
  const out: string[] = [];
  const walk = async (dir: string) => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const entry of entries) {
      const p = join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else if (accept(p, entry.name)) out.push(p);
    }
  };
  await walk(root);
  return out.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

export function relativeTo(root: string, path: string): string {
  return isDirectory(root) ? relative(root, path) || path : path;
}
