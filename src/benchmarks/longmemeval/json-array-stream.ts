/**
 * Streams the elements of a file holding one top-level JSON array of objects.
 *
 * LongMemEval_m is about 2.7 GB: more than a JavaScript string can hold, so
 * `JSON.parse` on the whole file is not an option. This reads bytes, cuts each
 * top-level element by tracking strings, escapes and nesting depth, and parses
 * one element at a time. Working on bytes is safe for UTF-8: the structural
 * characters are ASCII and never occur inside a multi-byte sequence.
 */
import { createReadStream } from "node:fs";
import { DataError } from "../../core/errors.ts";
import { isJsonSpace, JSON_BYTE } from "../../util/json-bytes.ts";
import { fileSize, fsError, statPath } from "../shared/files.ts";
import { decodeUtf8, type IssueSink } from "../shared/utf8.ts";

export interface JsonArrayStreamOptions {
  /** Bytes read so far and the file's size, after each chunk. */
  onProgress?: (done: number, total: number) => void;
  /** Read size in bytes; tests use tiny chunks to split characters and escapes. */
  chunkSize?: number;
  /** Where bytes that are not UTF-8 are reported (a LoadContext); without it they are an error. */
  issues?: IssueSink;
}

export interface ArrayElement {
  /** 0-based position in the array. */
  index: number;
  value: unknown;
}

const {
  quote: QUOTE,
  backslash: BACKSLASH,
  openObject: OPEN_BRACE,
  closeObject: CLOSE_BRACE,
  openList: OPEN_BRACKET,
  closeList: CLOSE_BRACKET,
  comma: COMMA,
} = JSON_BYTE;
/** A UTF-8 byte order mark, which some editors put at the start of a file. */
const BOM = [0xef, 0xbb, 0xbf];

const isSpace = isJsonSpace;

/** Where the scanner is between elements. */
type Phase = "start" | "first" | "next" | "separator" | "element" | "done";

function printable(c: number): string {
  return c >= 0x20 && c < 0x7f ? `"${String.fromCharCode(c)}"` : `byte 0x${c.toString(16).padStart(2, "0")}`;
}

export async function* streamJsonArray(
  file: string,
  options: JsonArrayStreamOptions = {},
): AsyncGenerator<ArrayElement> {
  if (statPath(file).isDirectory()) throw new DataError("is a folder, expected a file", { file });
  const total = fileSize(file);
  const issues: IssueSink = options.issues ?? {
    issue: (message, where) => {
      throw new DataError(message, where);
    },
  };
  const fail = (message: string, index?: number): never => {
    throw new DataError(message, { file, record: index === undefined ? undefined : `element ${index}` });
  };

  let phase = "start" as Phase;
  let index = 0;
  let depth = 0;
  let inString = false;
  let escaped = false;
  let parts: Buffer[] = [];
  let done = 0;

  const stream = createReadStream(file, { highWaterMark: options.chunkSize ?? 1 << 20 });
  const chunks = (async function* () {
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) yield chunk;
    } catch (error) {
      throw fsError(error, file);
    }
  })();
  for await (const chunk of chunks) {
    const buf = chunk;
    const offset = done;
    done += chunk.length;
    let i = 0;
    let start = phase === "element" ? 0 : -1;
    // Cached positions of the next quote and backslash, so strings are skipped with indexOf.
    let nextQuote = -1;
    let nextBackslash = -1;
    const n = buf.length;
    const find = (byte: number, from: number) => {
      const at = buf.indexOf(byte, from);
      return at < 0 ? n : at;
    };
    while (i < n) {
      if (phase === "element") {
        if (inString) {
          if (escaped) {
            escaped = false;
            i++;
            continue;
          }
          if (nextQuote < i) nextQuote = find(QUOTE, i);
          if (nextBackslash < i) nextBackslash = find(BACKSLASH, i);
          if (nextBackslash < nextQuote) {
            escaped = true;
            i = nextBackslash + 1;
          } else if (nextQuote < n) {
            inString = false;
            i = nextQuote + 1;
          } else {
            i = n;
          }
          continue;
        }
        const c = buf[i] as number;
        if (c === QUOTE) inString = true;
        else if (c === OPEN_BRACE || c === OPEN_BRACKET) depth++;
        else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          depth--;
          if (depth === 0) {
            parts.push(buf.subarray(start, i + 1));
            const text = decodeUtf8(
              parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts),
              {
                file,
                record: `element ${index}`,
              },
              issues,
            );
            parts = [];
            let value: unknown;
            try {
              value = JSON.parse(text);
            } catch (error) {
              throw new DataError(
                `invalid JSON: ${(error as Error).message}`,
                { file, record: `element ${index}` },
                { cause: error },
              );
            }
            yield { index, value };
            index++;
            phase = "separator";
            start = -1;
          }
        }
        i++;
        continue;
      }
      const c = buf[i] as number;
      i++;
      if (isSpace(c)) continue;
      switch (phase) {
        case "start":
          if (offset + i - 1 < BOM.length && c === BOM[offset + i - 1]) break;
          if (c !== OPEN_BRACKET) fail(`expected a JSON array, found ${printable(c)}`);
          phase = "first";
          break;
        case "first":
        case "next":
          if (c === CLOSE_BRACKET && phase === "first") {
            phase = "done";
            break;
          }
          if (c !== OPEN_BRACE) {
            fail(c === CLOSE_BRACKET ? "trailing comma before ]" : `expected an object, found ${printable(c)}`, index);
          }
          phase = "element";
          depth = 1;
          start = i - 1;
          break;
        case "separator":
          if (c === COMMA) phase = "next";
          else if (c === CLOSE_BRACKET) phase = "done";
          else fail(`expected "," or "]" after the element, found ${printable(c)}`, index - 1);
          break;
        case "done":
          fail(`unexpected ${printable(c)} after the closing ]`);
      }
    }
    if (phase === "element" && start >= 0 && start < n) parts.push(buf.subarray(start));
    options.onProgress?.(done, total);
  }

  if (phase === "element") fail("the file ends inside this element (truncated?)", index);
  if (phase === "start") fail("empty file: expected a JSON array");
  if (phase !== "done") {
    fail(
      index
        ? `the file ends after element ${index - 1} without the closing ] (truncated?)`
        : "the file ends inside the array",
      index ? index - 1 : undefined,
    );
  }
}
