/**
 * JSON with object keys sorted and undefined dropped, so equal content gives
 * equal text. `memo` remembers the text of objects met before, by identity, for
 * callers that pass the same unchanging objects again and again (the JSON
 * schema of a judge's reply, in every judge call's cache key).
 */
export function canonicalJson(value: unknown, memo?: WeakMap<object, string>): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  const known = memo?.get(value);
  if (known !== undefined) return known;
  let text: string;
  if (Array.isArray(value)) {
    text = `[${value.map((v) => (v === undefined ? "null" : canonicalJson(v, memo))).join(",")}]`;
  } else {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v, memo)}`).join(",")}}`;
  }
  memo?.set(value, text);
  return text;
}
