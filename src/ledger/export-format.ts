/**
 * The `membench-ledger` export (version 1) in pieces: its lists as parts for
 * `Ledger.importParts`, and its JSON text written a page at a time by
 * `Ledger.exportTo`. A namespace has no size limit, so neither side holds an
 * export whole.
 */
import type { SessionRow } from "./store.ts";
import type { LedgerExport, Link, Memory, StoredTurn } from "./types.ts";

/** A part of an export, as `importParts` takes it: some of one of its lists. */
export type ExportPart =
  | { sessions: LedgerExport["sessions"] }
  | { turns: StoredTurn[] }
  | { memories: Memory[] }
  | { links: Link[] };

export interface ImportCounts {
  sessions: number;
  turns: number;
  memories: number;
  links: number;
}

/** Rows per page when a namespace is exported, and items per part when an export object is imported. */
export const EXPORT_PAGE = 500;

export function exportedSession(s: SessionRow): LedgerExport["sessions"][number] {
  return { id: s.id, index: s.index, ...(s.time ? { time: s.time } : {}) };
}

/** An export object as parts, its lists in pages. */
export async function* exportParts(data: LedgerExport): AsyncGenerator<ExportPart> {
  for (let i = 0; i < data.sessions.length; i += EXPORT_PAGE)
    yield { sessions: data.sessions.slice(i, i + EXPORT_PAGE) };
  for (let i = 0; i < data.turns.length; i += EXPORT_PAGE) yield { turns: data.turns.slice(i, i + EXPORT_PAGE) };
  for (let i = 0; i < data.memories.length; i += EXPORT_PAGE)
    yield { memories: data.memories.slice(i, i + EXPORT_PAGE) };
  for (let i = 0; i < data.links.length; i += EXPORT_PAGE) yield { links: data.links.slice(i, i + EXPORT_PAGE) };
}

/** JSON list items and text, handed on in pieces of about 64 KiB. */
export class JsonWriter {
  private buffer = "";
  private first = true;

  constructor(private readonly write: (chunk: string) => void | Promise<void>) {}

  /** Text between lists; the next item is a list's first. */
  async text(text: string): Promise<void> {
    this.buffer += text;
    this.first = true;
    if (this.buffer.length >= 65_536) await this.flush();
  }

  async item(value: unknown): Promise<void> {
    this.buffer += `${this.first ? "" : ","}${JSON.stringify(value)}`;
    this.first = false;
    if (this.buffer.length >= 65_536) await this.flush();
  }

  async flush(): Promise<void> {
    if (!this.buffer) return;
    const chunk = this.buffer;
    this.buffer = "";
    await this.write(chunk);
  }
}
