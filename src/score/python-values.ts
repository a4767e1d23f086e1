/**
 * Python's `float()` and `int()` on a value read from JSON, for scorers that
 * reproduce a benchmark's released Python parser: which values they accept
 * and what they make of them. `undefined` where Python raises.
 */

const DIGITS = String.raw`\d(?:_?\d)*`;
const DECIMAL = String.raw`(?:${DIGITS}(?:\.(?:${DIGITS})?)?|\.${DIGITS})(?:[eE][+-]?${DIGITS})?`;
const FLOAT_TEXT = new RegExp(`^[+-]?(?:${DECIMAL}|inf(?:inity)?|nan)$`, "i");
const INT_TEXT = new RegExp(`^[+-]?${DIGITS}$`);

/** `float(value)`: numbers and booleans, and strings Python reads as a float. */
export function pythonFloat(value: unknown): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return value;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  if (!FLOAT_TEXT.test(text)) return undefined;
  const lower = text.toLowerCase().replaceAll("_", "");
  if (lower.endsWith("nan")) return Number.NaN;
  if (lower.endsWith("inf") || lower.endsWith("infinity")) return lower.startsWith("-") ? -Infinity : Infinity;
  return Number(lower);
}

/** `int(value)`: booleans, numbers truncated toward zero (not NaN or infinite), and whole-number strings. */
export function pythonInt(value: unknown): number | undefined {
  if (typeof value === "boolean") return value ? 1 : 0;
  if (typeof value === "number") return Number.isFinite(value) ? Math.trunc(value) : undefined;
  if (typeof value !== "string") return undefined;
  const text = value.trim();
  return INT_TEXT.test(text) ? Number(text.replaceAll("_", "")) : undefined;
}
