/**
 * The bytes of JSON's structure, for the scanners that cut JSON without parsing
 * it whole (a 2.7 GB LongMemEval file, a ledger import stream). Every one is
 * ASCII, and in UTF-8 no byte of a multi-byte character is, so a scanner working
 * on bytes never mistakes part of a character for structure.
 */
export const JSON_BYTE = {
  quote: 0x22,
  backslash: 0x5c,
  openObject: 0x7b,
  closeObject: 0x7d,
  openList: 0x5b,
  closeList: 0x5d,
  comma: 0x2c,
  colon: 0x3a,
} as const;

/** JSON's white space: space, line feed, carriage return, tab. */
export function isJsonSpace(b: number): boolean {
  return b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
}
