/**
 * UTF-8 decoding that does not hide damage. Node replaces every invalid byte
 * sequence with U+FFFD without a word; a release file with such bytes
 * (a cut multi-byte character, a file saved in Latin-1) would then load with
 * altered text. Here the damage is reported where it is, an error in strict
 * mode and a warning otherwise, and the text is decoded as Node would.
 */
import { isUtf8 } from "node:buffer";
import type { DataErrorWhere } from "../../core/errors.ts";

/** Where load problems go: a LoadContext (strict or lenient), or anything shaped like one. */
export interface IssueSink {
  issue(message: string, where: DataErrorWhere): void;
}

export interface Utf8Damage {
  /** Byte offset of the first invalid sequence. */
  first: number;
  /** How many U+FFFD the decoder puts in (one per maximal invalid subpart, as the WHATWG decoder does). */
  replaced: number;
}

/** Accepted range of the byte after a lead byte (the WHATWG decoder's bounds). */
function secondRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** The invalid sequences of `bytes`, or undefined when it is valid UTF-8. */
export function utf8Damage(bytes: Uint8Array): Utf8Damage | undefined {
  if (isUtf8(bytes)) return undefined;
  let first = -1;
  let replaced = 0;
  const bad = (at: number) => {
    if (first < 0) first = at;
    replaced++;
  };
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    const need =
      lead >= 0xc2 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : 0;
    if (!need) {
      bad(i);
      i++;
      continue;
    }
    let j = 1;
    for (; j <= need; j++) {
      const b = bytes[i + j];
      const [lo, hi] = j === 1 ? secondRange(lead) : [0x80, 0xbf];
      if (b === undefined || b < lo || b > hi) break;
    }
    if (j > need) {
      i += need + 1;
      continue;
    }
    // The lead and the continuation bytes read so far make one replaced subpart.
    bad(i);
    i += j;
  }
  return first < 0 ? undefined : { first, replaced };
}

/** `line L, byte B` of a byte offset (both 1-based), for messages. */
function bytePosition(bytes: Uint8Array, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 10) {
      line++;
      start = i + 1;
    }
  }
  return `line ${line}, byte ${offset - start + 1}`;
}

/**
 * Decodes `bytes` as UTF-8. Invalid sequences are an issue at `where` (which
 * throws in strict mode); when the load goes on, they read as U+FFFD.
 * `lineKnown` leaves the line out of the message when `where` names it.
 */
export function decodeUtf8(
  bytes: Uint8Array,
  where: DataErrorWhere,
  issues: IssueSink,
  options: { lineKnown?: boolean } = {},
): string {
  const damage = utf8Damage(bytes);
  if (damage) {
    const at = options.lineKnown ? `byte ${damage.first + 1}` : bytePosition(bytes, damage.first);
    const n = damage.replaced;
    issues.issue(
      `invalid UTF-8 at ${at}: ${n} byte sequence${n === 1 ? "" : "s"} not UTF-8 (read as U+FFFD if loaded leniently)`,
      where,
    );
  }
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
}
