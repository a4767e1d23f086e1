/**
 * File helpers every loader shares: JSON and JSONL reading with errors that
 * name the file and the record, and recursive discovery of a release's files
 * (symbolic links followed; broken ones and loops reported by path).
 */
import {
  createReadStream,
  type Dirent,
  lstatSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  type Stats,
  statSync,
} from "node:fs";
import { join, relative } from "node:path";
import { DataError } from "../../core/errors.ts";
import { decodeUtf8, type IssueSink } from "./utf8.ts";

/** Strict handling for callers without a load context: every issue is an error. */
const REFUSE: IssueSink = {
  issue: (message, where) => {
    throw new DataError(message, where);
  },
};

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

/** The words a user acts on for a failed file-system call on `path`. */
function fsReason(error: unknown, path: string): string {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "ENOENT") {
    try {
      // A link that exists but leads nowhere: say where it points.
      if (lstatSync(path).isSymbolicLink())
        return `broken symbolic link (points to ${readlinkSync(path)}, which does not exist)`;
    } catch {
      // not a link: plain "no such file"
    }
    return "no such file or folder";
  }
  if (code === "ELOOP") return "symbolic link loop (the link leads back to itself)";
  if (code === "EISDIR") return "is a folder, not a file";
  if (code === "ENOTDIR") return "a part of the path is not a folder";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return `cannot read: ${(error as Error).message}`;
}

/** A DataError naming `path` for a failed file-system call (Node's own messages lack the path or the cause). */
export function fsError(error: unknown, path: string): DataError {
  if (error instanceof DataError) return error;
  return new DataError(fsReason(error, path), { file: path }, { cause: error });
}

/** `statSync` through symbolic links, or a DataError that names the path and why it cannot be read. */
export function statPath(path: string): Stats {
  try {
    return statSync(path);
  } catch (error) {
    throw fsError(error, path);
  }
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
  return statPath(path).size;
}

/** Reads a whole file; a folder, a broken link or a link loop is a DataError naming the path. */
function readBytes(file: string): Buffer {
  if (statPath(file).isDirectory()) throw new DataError("is a folder, expected a file", { file });
  try {
    return readFileSync(file);
  } catch (error) {
    throw fsError(error, file);
  }
}

/**
 * Reads a whole JSON file; a syntax error names the file and where it broke.
 * Bytes that are not UTF-8 go to `issues` (an error in strict mode).
 */
export function readJsonFile(file: string, issues: IssueSink = REFUSE): unknown {
  const text = decodeUtf8(readBytes(file), { file }, issues);
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

/** One line of a text file: its 1-based number, its text (no line break) and the bytes read through it. */
export interface TextLine {
  line: number;
  text: string;
  bytes: number;
}

/**
 * Streams a text file line by line. Lines are cut at LF (a CR before it is
 * dropped) on the bytes, so each line is checked for UTF-8 whole; invalid
 * bytes go to `issues` with the line number.
 */
export async function* readTextLines(file: string, issues: IssueSink = REFUSE): AsyncGenerator<TextLine> {
  if (statPath(file).isDirectory()) throw new DataError("is a folder, expected a file", { file });
  let line = 0;
  let bytes = 0;
  let carry: Buffer[] = [];
  const emit = (parts: Buffer[]): TextLine => {
    let buf = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts);
    bytes += buf.length;
    line++;
    if (buf.length && buf[buf.length - 1] === 10) buf = buf.subarray(0, buf.length - 1);
    if (buf.length && buf[buf.length - 1] === 13) buf = buf.subarray(0, buf.length - 1);
    return { line, text: decodeUtf8(buf, { file, record: `line ${line}` }, issues, { lineKnown: true }), bytes };
  };
  const stream = createReadStream(file);
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let start = 0;
      for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
        carry.push(chunk.subarray(start, nl + 1));
        const next = emit(carry);
        carry = [];
        start = nl + 1;
        yield next;
      }
      if (start < chunk.length) carry.push(chunk.subarray(start));
    }
  } catch (error) {
    throw fsError(error, file);
  } finally {
    stream.destroy();
  }
  if (carry.length) yield emit(carry);
}

/** Reads JSONL, yielding each parsed line with its 1-based line number. Blank lines are skipped. */
export async function* readJsonl(
  file: string,
  issues: IssueSink = REFUSE,
): AsyncGenerator<{ line: number; value: unknown }> {
  for await (const { line, text } of readTextLines(file, issues)) {
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

export interface FolderEntry {
  name: string;
  path: string;
  /** What the entry is once symbolic links are followed. */
  kind: "file" | "folder" | "other";
}

/**
 * The entries of a folder, symbolic links followed. A broken link or a link
 * loop is a DataError naming it: silently skipping it would drop data.
 */
export function listFolder(dir: string): FolderEntry[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (error) {
    throw fsError(error, dir);
  }
  return entries.map((entry) => {
    const path = join(dir, entry.name);
    let stat: { isFile(): boolean; isDirectory(): boolean } = entry;
    if (entry.isSymbolicLink()) stat = statPath(path);
    return { name: entry.name, path, kind: stat.isDirectory() ? "folder" : stat.isFile() ? "file" : "other" };
  });
}

/**
 * Remembers the folders a walk has entered (by real path), so a symbolic link
 * back to one of them is reported instead of walked forever.
 */
export class FolderWalk {
  private readonly seen = new Map<string, string>();

  /** Marks `dir` as entered; a DataError when the walk has been there before through another path. */
  enter(dir: string): void {
    let real: string;
    try {
      real = realpathSync(dir);
    } catch (error) {
      throw fsError(error, dir);
    }
    const before = this.seen.get(real);
    if (before !== undefined) {
      throw new DataError(`symbolic link loop: this folder is ${before}, already read`, { file: dir });
    }
    this.seen.set(real, dir);
  }
}

/** Every file under `root` (or `root` itself) that `accept` takes, sorted by path. */
export async function findFiles(root: string, accept: (path: string, name: string) => boolean): Promise<string[]> {
  if (!statPath(root).isDirectory()) return [root];
  const out: string[] = [];
  const walk = new FolderWalk();
  const visit = (dir: string) => {
    walk.enter(dir);
    for (const entry of listFolder(dir)) {
      if (entry.kind === "folder") visit(entry.path);
      else if (entry.kind === "file" && accept(entry.path, entry.name)) out.push(entry.path);
    }
  };
  visit(root);
  return out.sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

export function relativeTo(root: string, path: string): string {
  return isDirectory(root) ? relative(root, path) || path : path;
}
