/**
 * LoCoMo evidence ids (`D<session>:<turn>`). A few release entries are
 * malformed, e.g. two ids in one string ("D8:6; D9:17"); whatever can be read
 * without guessing is repaired, the rest is returned for the loader to report.
 */

/** `D`, an optional stray colon, session number, colon, turn number; spaces tolerated. */
const DIA_ID = /D\s*:?\s*(\d+)\s*:\s*(\d+)/gi;
const SEPARATORS = /^[\s;,]*$/;

export interface ParsedEvidence {
  /** Canonical ids (`D8:6`), in order of appearance, without duplicates. */
  ids: string[];
  /** Entries that are not wholly readable as dialog ids (their readable ids are still in `ids`). */
  unreadable: string[];
  /** True when some entry was not already a single canonical id. */
  repaired: boolean;
}

export function canonicalDiaId(session: number, turn: number): string {
  return `D${session}:${turn}`;
}

/** The session number of a canonical id, e.g. 3 for `D3:7`. */
export function diaSession(id: string): number | undefined {
  const m = /^D(\d+):\d+$/.exec(id);
  return m ? Number(m[1]) : undefined;
}

export function parseEvidence(entries: readonly unknown[]): ParsedEvidence {
  const ids: string[] = [];
  const unreadable: string[] = [];
  let repaired = false;
  for (const entry of entries) {
    if (typeof entry !== "string") {
      unreadable.push(JSON.stringify(entry));
      continue;
    }
    const found = [...entry.matchAll(DIA_ID)];
    // The readable ids of a partly garbled entry are kept; the entry is still reported.
    if (!found.length || !SEPARATORS.test(entry.replace(DIA_ID, ""))) unreadable.push(entry);
    for (const m of found) {
      const id = canonicalDiaId(Number(m[1]), Number(m[2]));
      if (found.length > 1 || id !== entry) repaired = true;
      if (!ids.includes(id)) ids.push(id);
    }
  }
  return { ids, unreadable, repaired };
}
