/**
 * An import's request body as the parts `Ledger.importParts` takes: read a
 * record at a time (json-records.ts), each list item checked against its
 * schema as it comes, so an export of any size imports with bounded memory.
 * A bad item is a 400 naming it (`turns[12].role`); the ledger then drops
 * what was imported before it.
 */
import { RequestError } from "../../util/http-server.ts";
import type { ExportPart } from "../export-format.ts";
import type { LedgerExport } from "../types.ts";
import { type JsonRecord, jsonRecords } from "./json-records.ts";
import { EXPORT_ITEMS, ExportSchema, firstIssue } from "./schemas.ts";

/** Items per part: each part is one transaction of the import. */
const PART = 500;

type ListKey = keyof typeof EXPORT_ITEMS;

function isList(key: string): key is ListKey {
  return Object.hasOwn(EXPORT_ITEMS, key);
}

function checked(record: JsonRecord): unknown {
  const path = record.index === undefined ? [record.key] : [record.key, record.index];
  const schema = isList(record.key)
    ? EXPORT_ITEMS[record.key]
    : ExportSchema.shape[record.key as "format" | "version" | "ns"];
  const parsed = schema.safeParse(record.value);
  if (parsed.success) return parsed.data;
  const { field, message } = firstIssue(parsed.error, path);
  throw new RequestError(400, message, { field });
}

/** The parts of an import body, read from its chunks; `maxItemBytes` bounds each item. */
export async function* importBodyParts(
  chunks: AsyncIterable<Buffer>,
  maxItemBytes: number,
): AsyncGenerator<ExportPart> {
  const header: Partial<Pick<LedgerExport, "format" | "version">> = {};
  let list: ListKey | undefined;
  let items: unknown[] = [];
  const part = (key: ListKey, values: unknown[]) => ({ [key]: values }) as ExportPart;
  for await (const record of jsonRecords(chunks, maxItemBytes)) {
    if (list && (record.key !== list || record.index === undefined) && items.length) {
      yield part(list, items);
      items = [];
    }
    if (isList(record.key)) {
      if (record.index === undefined) {
        throw new RequestError(400, `${record.key}: expected a list`, { field: record.key });
      }
      list = record.key;
      items.push(checked(record));
      if (items.length === PART) {
        yield part(list, items);
        items = [];
      }
    } else if (record.key === "format" || record.key === "version") {
      // Checked as they come: a body of another format is refused at its first field.
      (header as Record<string, unknown>)[record.key] = checked(record);
    } else if (record.key === "ns") {
      checked(record);
    }
    // Other keys are not part of the format and are left out, as a whole-body import did.
  }
  if (list && items.length) yield part(list, items);
  for (const key of ["format", "version"] as const) {
    if (header[key] === undefined) {
      throw new RequestError(400, `${key}: missing; not a membench-ledger export (version 1)`, { field: key });
    }
  }
}
