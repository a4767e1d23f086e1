/**
 * Attribute vocabulary shared by the extractors and the resolver: which attributes
 * are invariant (a later different value is a contradiction, not an update), and
 * how free text becomes a stable attribute key.
 */
import { lexicalTokens } from "../../text/tokenize.ts";

/** Facts that do not change in a life: a different later value is suspect. */
export const INVARIANT_ATTRIBUTES: ReadonlySet<string> = new Set([
  "name",
  "birthdate",
  "birthplace",
  "gender",
  "siblings",
  "education",
  "nationality",
]);

export function isInvariant(attribute: string): boolean {
  return INVARIANT_ATTRIBUTES.has(attribute);
}

/** A task ("I need to …"): `todo:<verb stem>:<object>`, opened and closed by what is said, read by the open-tasks view. */
export function isTask(attribute: string): boolean {
  return attribute.startsWith("todo:");
}

/** Nouns whose singular ends in "ie": "movies" is not "movy". */
const IE_NOUNS = new Set(
  "movie cookie pie tie lie rookie selfie zombie brownie smoothie indie hippie goalie calorie prairie genie auntie veggie sortie collie boogie freebie".split(
    " ",
  ),
);

/** Last content word of a phrase, singularised crudely: "green teas" → "tea", "groceries" → "grocery", "beaches" → "beach". */
export function headWord(phrase: string): string | undefined {
  const words = lexicalTokens(phrase).filter((w) => !/^\d+$/.test(w) && w.length > 1);
  const last = words.at(-1);
  if (!last) return undefined;
  if (last.length > 4 && last.endsWith("ies"))
    return IE_NOUNS.has(last.slice(0, -1)) ? last.slice(0, -1) : `${last.slice(0, -3)}y`;
  if (last.length > 4 && /(?:ch|sh|x|ss|z)es$/.test(last)) return last.slice(0, -2);
  return last.length > 3 && last.endsWith("s") && !last.endsWith("ss") ? last.slice(0, -1) : last;
}

/** Lowercased, whitespace-collapsed, punctuation-trimmed value for comparisons. */
export function normaliseValue(value: string): string {
  return value
    .toLowerCase()
    .replace(/[\s]+/g, " ")
    .replace(/^[\s"'“”‘’]+|[\s.,!?;:"'“”‘’]+$/g, "")
    .replace(/^(?:the|a|an|my)\s+/, "");
}
