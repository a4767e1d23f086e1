/**
 * The texts of probe records, stored once each. A retrieved item recurs in the
 * records of many probes (a RealMem session about 17 times), and each context
 * repeats item texts line for line: stored whole, a probe record weighed about
 * 246 KB. Here every item text, and every line of a context, is a row of the
 * `texts` table, found by its content's hash; a record holds their ids.
 *
 * A stored record says it is encoded (`"texts": 1`): the retrieved items' `text`
 * is a text id, so are their `turnIds` and `sessionIds` (as JSON) when long, and
 * `context.text` is a list of its paragraphs (split at blank lines), each a text
 * or its first line and the rest: `---- memory 3 ----` and the item's text, which
 * is the retrieved item's own id. A piece shorter than an id is worth is kept as
 * it is. Records without the mark (stores written before this) are read as they are.
 */
import { createHash } from "node:crypto";
import type Database from "better-sqlite3";
import type { ProbeRecord } from "../core/record.ts";

export const TEXTS_TABLE = `
  CREATE TABLE IF NOT EXISTS texts (
    id INTEGER PRIMARY KEY, hash BLOB NOT NULL UNIQUE, text TEXT NOT NULL
  )`;

/** Pieces shorter than this stay in the record: an id would not be much shorter. */
const INLINE_BELOW = 24;
/** Id lists (JSON) at least this long are stored as texts. */
const IDS_FROM = 64;
/** Past this many texts the id memo starts over (the table still finds them by hash). */
const MAX_MEMO = 100_000;

type Piece = number | string;
type StoredContext = Omit<ProbeRecord["context"], "text"> & { text: Array<Piece | [Piece, Piece]> };
type StoredItem = Omit<ProbeRecord["retrieved"][number], "text" | "turnIds" | "sessionIds"> & {
  text: number;
  turnIds?: string[] | number;
  sessionIds?: string[] | number;
};
type StoredRecord = Omit<ProbeRecord, "retrieved" | "context"> & {
  texts: 1;
  retrieved: StoredItem[];
  context: StoredContext;
};

export interface DecodeOptions {
  /**
   * False: leave every text empty (`""`) and read no text; for readers that need
   * only ids, numbers and labels (the summary), at a fraction of the memory.
   */
  texts?: boolean;
}

export class TextTable {
  readonly #ids = new Map<string, number>();
  readonly #byHash: Database.Statement;
  readonly #insert: Database.Statement;
  readonly #text: Database.Statement;

  constructor(db: Database.Database) {
    this.#byHash = db.prepare("SELECT id FROM texts WHERE hash = ?").pluck();
    this.#insert = db.prepare("INSERT INTO texts (hash, text) VALUES (?, ?)");
    this.#text = db.prepare("SELECT text FROM texts WHERE id = ?").pluck();
  }

  /** The id of `text`, stored now if it is new. Call inside the transaction that stores the record. */
  intern(text: string): number {
    const known = this.#ids.get(text);
    if (known !== undefined) return known;
    const hash = createHash("sha256").update(text).digest().subarray(0, 16);
    const id = (this.#byHash.get(hash) as number | undefined) ?? Number(this.#insert.run(hash, text).lastInsertRowid);
    if (this.#ids.size >= MAX_MEMO) this.#ids.clear();
    // A copy of its own: a paragraph cut out of a context is a slice that would keep the whole context alive.
    this.#ids.set(Buffer.from(text, "utf8").toString("utf8"), id);
    return id;
  }

  /** Forgets the ids remembered: after a transaction that stored them rolled back. */
  forget(): void {
    this.#ids.clear();
  }

  #piece(text: string): Piece {
    return text.length < INLINE_BELOW ? text : this.intern(text);
  }

  #idList(ids: string[] | undefined): string[] | number | undefined {
    if (!ids) return ids;
    const json = JSON.stringify(ids);
    return json.length < IDS_FROM ? ids : this.intern(json);
  }

  /**
   * A context as paragraphs (split at blank lines), each a piece or its first line
   * and the rest. A paragraph that is a header line and then exactly the text of
   * the next retrieved item is compared in place and stored as that item's text:
   * the item's string is hashed once, where a slice of the context would be a new
   * string to hash for every probe (an item recurs ~17× on RealMem). Such an item
   * may itself hold blank lines; it is still one paragraph, which reads back the same.
   */
  #contextPieces(text: string, items: readonly { text: string }[]): Array<Piece | [Piece, Piece]> {
    const out: Array<Piece | [Piece, Piece]> = [];
    let next = 0;
    let pos = 0;
    for (;;) {
      const end = text.indexOf("\n\n", pos);
      const stop = end < 0 ? text.length : end;
      const at = text.indexOf("\n", pos);
      if (at < 0 || at >= stop) out.push(this.#piece(text.slice(pos, stop)));
      else {
        const item = items[next++]?.text;
        const after = item === undefined ? -1 : at + 1 + item.length;
        if (
          item !== undefined &&
          text.startsWith(item, at + 1) &&
          (after === text.length || text.startsWith("\n\n", after))
        ) {
          out.push([this.#piece(text.slice(pos, at)), this.#piece(item)]);
          if (after === text.length) return out;
          pos = after + 2;
          continue;
        }
        out.push([this.#piece(text.slice(pos, at)), this.#piece(text.slice(at + 1, stop))]);
      }
      if (end < 0) return out;
      pos = end + 2;
    }
  }

  /** The JSON a record is stored as. */
  encode(record: ProbeRecord): string {
    const stored: StoredRecord = {
      ...record,
      texts: 1,
      retrieved: record.retrieved.map((item) => ({
        ...item,
        text: this.intern(item.text),
        ...(item.turnIds ? { turnIds: this.#idList(item.turnIds) } : {}),
        ...(item.sessionIds ? { sessionIds: this.#idList(item.sessionIds) } : {}),
      })),
      context: { ...record.context, text: this.#contextPieces(record.context.text, record.retrieved) },
    };
    return JSON.stringify(stored);
  }

  /** A record as read back. `cache` shares one string per text id over a batch of records. */
  decode(json: string, options: DecodeOptions = {}, cache = new Map<number, string>()): ProbeRecord {
    const parsed = JSON.parse(json) as ProbeRecord | StoredRecord;
    if (!("texts" in parsed) || parsed.texts !== 1) return parsed as ProbeRecord;
    const { texts: _mark, ...rest } = parsed;
    const want = options.texts !== false;
    const text = (id: number) => {
      let t = cache.get(id);
      if (t === undefined) {
        t = this.#text.get(id) as string | undefined;
        if (t === undefined) throw new Error(`probe record ${parsed.unitId}/${parsed.probeId}: no stored text ${id}`);
        cache.set(id, t);
      }
      return t;
    };
    const piece = (p: Piece) => (typeof p === "number" ? text(p) : p);
    const ids = (v: string[] | number) => (typeof v === "number" ? (JSON.parse(text(v)) as string[]) : v);
    return {
      ...rest,
      // Spread first, so every field keeps its place in the record.
      retrieved: rest.retrieved.map(
        (item) =>
          ({
            ...item,
            text: want ? text(item.text) : "",
            ...(item.turnIds !== undefined ? { turnIds: ids(item.turnIds) } : {}),
            ...(item.sessionIds !== undefined ? { sessionIds: ids(item.sessionIds) } : {}),
          }) as ProbeRecord["retrieved"][number],
      ),
      context: {
        ...rest.context,
        text: want
          ? rest.context.text.map((p) => (Array.isArray(p) ? `${piece(p[0])}\n${piece(p[1])}` : piece(p))).join("\n\n")
          : "",
      },
    };
  }
}
