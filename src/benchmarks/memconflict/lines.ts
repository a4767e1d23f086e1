/**
 * A persona line of the release is about a megabyte; when one is cut short its
 * opening (`{"ID": "…"`) still names the persona in the error.
 */

/** The persona id at the start of a (possibly truncated) line, if it is there. */
export function idInRawLine(text: string): string | undefined {
  return /^\s*\{\s*"ID"\s*:\s*"([^"\\]{1,200})"/.exec(text)?.[1];
}
