/**
 * A JSON object read from a byte stream without holding it whole: each value
 * of the top-level object is parsed on its own, and a value that is a list one
 * item at a time. An import carries a whole namespace, which has no size
 * limit; its items do (`maxItemBytes`, the service's body limit).
 *
 * The scanner works on bytes: every byte of JSON's structure is ASCII, and in
 * UTF-8 no byte of a multi-byte character is, so a character split across two
 * chunks never looks like structure.
 */
import { RequestError } from "../../util/http-server.ts";
import { isJsonSpace, JSON_BYTE } from "../../util/json-bytes.ts";

/** One value of the top-level object (`index` undefined), or one item of a list value. */
export interface JsonRecord {
  key: string;
  index?: number;
  value: unknown;
}

const {
  quote: QUOTE,
  backslash: BACKSLASH,
  openObject: OPEN_OBJECT,
  closeObject: CLOSE_OBJECT,
  openList: OPEN_LIST,
  closeList: CLOSE_LIST,
  comma: COMMA,
  colon: COLON,
} = JSON_BYTE;
const isSpace = isJsonSpace;

/** Where the reader is in the top-level object, between values. */
type Place = "start" | "key" | "colon" | "value" | "item" | "afterItem" | "afterValue" | "end";

export class JsonRecordReader {
  private place: Place = "start";
  private afterComma = false;
  private key = "";
  private index = 0;
  /** What is being read, its bytes so far, and where its end is. */
  private reading: "key" | "value" | "item" | undefined;
  private pieces: Buffer[] = [];
  private size = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private primitive = false;
  /** Bytes before the current chunk, for error positions. */
  private seen = 0;

  constructor(private readonly maxItemBytes: number) {}

  /** The records this chunk completes. */
  push(bytes: Buffer): JsonRecord[] {
    const out: JsonRecord[] = [];
    let start = this.reading ? 0 : -1;
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (this.reading) {
        // Where the value ends (exclusive), once it does.
        let end = -1;
        if (this.inString) {
          if (this.escaped) this.escaped = false;
          else if (b === BACKSLASH) this.escaped = true;
          else if (b === QUOTE) {
            this.inString = false;
            if (this.depth === 0) end = i + 1;
          }
        } else if (this.primitive) {
          if (isSpace(b) || b === COMMA || b === CLOSE_LIST || b === CLOSE_OBJECT) end = i;
        } else if (b === QUOTE) this.inString = true;
        else if (b === OPEN_OBJECT || b === OPEN_LIST) this.depth++;
        else if (b === CLOSE_OBJECT || b === CLOSE_LIST) {
          this.depth--;
          if (this.depth === 0) end = i + 1;
        }
        if (end < 0) continue;
        this.append(bytes.subarray(start, end), this.seen + i);
        start = -1;
        const record = this.complete(this.seen + i);
        if (record) out.push(record);
        // The byte that ended a number or literal is structure: read it again.
        if (end === i) i--;
        continue;
      }
      if (isSpace(b)) continue;
      const at = this.seen + i;
      switch (this.place) {
        case "start":
          if (b !== OPEN_OBJECT) throw malformed(at, "expected an object");
          this.place = "key";
          this.afterComma = false;
          break;
        case "key":
          if (b === CLOSE_OBJECT && !this.afterComma) this.place = "end";
          else if (b === QUOTE) {
            this.begin("key", b);
            start = i;
          } else throw malformed(at, "expected a key");
          break;
        case "colon":
          if (b !== COLON) throw malformed(at, "expected ':'");
          this.place = "value";
          break;
        case "value":
          if (b === OPEN_LIST) {
            this.place = "item";
            this.index = 0;
            this.afterComma = false;
          } else {
            this.begin("value", b);
            start = i;
          }
          break;
        case "item":
          if (b === CLOSE_LIST && !this.afterComma) this.place = "afterValue";
          else {
            this.begin("item", b);
            start = i;
          }
          break;
        case "afterItem":
          if (b === COMMA) {
            this.place = "item";
            this.afterComma = true;
          } else if (b === CLOSE_LIST) this.place = "afterValue";
          else throw malformed(at, "expected ',' or ']'");
          break;
        case "afterValue":
          if (b === COMMA) {
            this.place = "key";
            this.afterComma = true;
          } else if (b === CLOSE_OBJECT) this.place = "end";
          else throw malformed(at, "expected ',' or '}'");
          break;
        case "end":
          throw malformed(at, "more after the end of the object");
      }
    }
    if (this.reading && start >= 0) this.append(Buffer.from(bytes.subarray(start)), this.seen + bytes.length);
    this.seen += bytes.length;
    return out;
  }

  /** Checks that the body ended with the object. */
  end(): void {
    if (this.place !== "end" || this.reading) {
      throw malformed(this.seen, this.place === "start" && !this.reading ? "the body is empty" : "the body ends early");
    }
  }

  private begin(what: "key" | "value" | "item", first: number): void {
    this.reading = what;
    this.depth = first === OPEN_OBJECT || first === OPEN_LIST ? 1 : 0;
    this.inString = first === QUOTE;
    this.escaped = false;
    this.primitive = !this.inString && this.depth === 0;
  }

  private field(): string {
    return this.reading === "item" ? `${this.key}[${this.index}]` : this.key;
  }

  private append(piece: Buffer, at: number): void {
    this.pieces.push(piece);
    this.size += piece.length;
    if (this.size > this.maxItemBytes) {
      const field = this.reading === "key" ? "" : this.field();
      throw new RequestError(
        413,
        `${field || `a key at byte ${at}`}: larger than the limit of ${this.maxItemBytes} bytes`,
        {
          ...(field ? { field } : {}),
          limit: this.maxItemBytes,
        },
      );
    }
  }

  /** The value just read, as a record (none for a key). */
  private complete(at: number): JsonRecord | undefined {
    const text = Buffer.concat(this.pieces, this.size).toString("utf8");
    this.pieces = [];
    this.size = 0;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw malformed(at, this.reading === "key" ? "a malformed key" : `a malformed value at ${this.field()}`);
    }
    const was = this.reading;
    this.reading = undefined;
    if (was === "key") {
      this.key = String(value);
      this.place = "colon";
      return undefined;
    }
    if (was === "item") {
      const record = { key: this.key, index: this.index, value };
      this.index++;
      this.place = "afterItem";
      this.afterComma = false;
      return record;
    }
    this.place = "afterValue";
    this.afterComma = false;
    return { key: this.key, value };
  }
}

function malformed(at: number, what: string): RequestError {
  return new RequestError(400, `the body is not valid JSON: ${what} (byte ${at})`);
}

/** The records of a JSON object read from `chunks`, as they complete. */
export async function* jsonRecords(chunks: AsyncIterable<Buffer>, maxItemBytes: number): AsyncGenerator<JsonRecord> {
  const reader = new JsonRecordReader(maxItemBytes);
  for await (const chunk of chunks) yield* reader.push(chunk as Buffer);
  reader.end();
}
