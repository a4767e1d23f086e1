/**
 * Reads a JSONL file line by line, keeping the raw text: a persona line of
 * the release is about a megabyte, and when one is cut short its opening
 * (`{"ID": "…"`) still names the persona in the error.
 */
import { createReadStream } from "node:fs";
import { createInterface } from "node:readline";

export interface RawLine {
  /** 1-based line number. */
  line: number;
  text: string;
  /** Bytes read so far, for progress reports. */
  bytes: number;
}

export async function* readLines(file: string): AsyncGenerator<RawLine> {
  const rl = createInterface({ input: createReadStream(file, "utf8"), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  let bytes = 0;
  for await (const text of rl) {
    line++;
    bytes += Buffer.byteLength(text, "utf8") + 1;
    yield { line, text, bytes };
  }
}

/** The persona id at the start of a (possibly truncated) line, if it is there. */
export function idInRawLine(text: string): string | undefined {
  return /^\s*\{\s*"ID"\s*:\s*"([^"\\]{1,200})"/.exec(text)?.[1];
}
