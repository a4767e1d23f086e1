/**
 * Renders the structured values of the conflict records as short readable
 * text. The release has no memory texts of its own (support is judged by an
 * LLM over retrieved texts, arXiv 2605.20926 §3.6), so evidence memories are rendered
 * from the records that injected the facts into the dialogues.
 */
import { isRecord } from "../shared/fields.ts";

/** `Education_Background.University` → `education background university`. */
export function fieldLabel(path: string): string {
  return path.replace(/[._]+/g, " ").trim().toLowerCase();
}

/** Vocabulary values such as `Keeping_to_Oneself` or `Medium_Company`. */
const ENUM_LIKE = /^[A-Za-z]+(?:_[A-Za-z]+)+$/;

/**
 * A value as text: strings as they are, `{Current_State: x}` as `x` (the one
 * special case upstream makes too), other objects as `key: value; …`.
 */
export function valueText(value: unknown): string {
  if (typeof value === "string") return ENUM_LIKE.test(value) ? value.replace(/_/g, " ") : value;
  if (value === null || value === undefined) return "none";
  if (Array.isArray(value)) return value.map(valueText).join(", ");
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === "Current_State") return valueText(value.Current_State);
    return keys
      .map((k) => {
        const v = value[k];
        const text = valueText(v);
        return `${fieldLabel(k)}: ${isRecord(v) ? `(${text})` : text}`;
      })
      .join("; ");
  }
  return String(value);
}

/**
 * A dynamic attribute's value as text. `Marital_Status` reads as
 * "Married (Ines Duarte)" rather than its raw fields, as upstream renders it
 * in the answers; everything else goes through `valueText`.
 */
export function attributeText(attribute: string, value: unknown): string {
  if (attribute === "Marital_Status" && isRecord(value) && typeof value.Status === "string") {
    return typeof value.Name === "string" && value.Name ? `${value.Status} (${value.Name})` : value.Status;
  }
  return valueText(value);
}

export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Upstream's test for an update that really carries a new value (`is_non_empty_after`). */
export function hasValue(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return false;
  return !(isRecord(value) && Object.keys(value).length === 0);
}
