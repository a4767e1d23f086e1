/**
 * Writing dataset files so that the same seed gives the same bytes: JSON in
 * the key order the generator built (deterministic, and the release's own
 * order where the release has one), a final newline, nothing time-dependent.
 */

/** One JSONL line (no newline inside, one at the end). */
export function jsonLine(value: unknown): string {
  return `${JSON.stringify(value)}\n`;
}

/** A JSONL file from records. */
export function jsonLines(values: readonly unknown[]): string {
  return values.map(jsonLine).join("");
}

/** A JSON file, indented when `indent` is given, with a final newline. */
export function jsonText(value: unknown, indent?: number): string {
  return `${JSON.stringify(value, null, indent)}\n`;
}
