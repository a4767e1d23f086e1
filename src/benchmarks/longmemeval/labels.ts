/**
 * LongMemEval's question types and file variants (arXiv 2410.10813; github.com/xiaowu0162/LongMemEval). Labels
 * keep the release's own spelling, which is what the paper's tables use.
 */

export const QUESTION_TYPES: readonly string[] = [
  "single-session-user",
  "single-session-assistant",
  "single-session-preference",
  "temporal-reasoning",
  "knowledge-update",
  "multi-session",
];

/** Abstention questions are marked only by this suffix of their id. */
export function isAbstention(questionId: string): boolean {
  return questionId.endsWith("_abs");
}

/** Variants in default-first order. */
export const VARIANTS = ["s", "m", "oracle"] as const;
export type Variant = (typeof VARIANTS)[number];

/** The release names (`longmemeval_s_cleaned.json`), and the pre-2025/09 ones without `_cleaned`. */
const FILE_NAME = /^longmemeval_(s|m|oracle)(_cleaned)?\.json$/i;

export function variantOfFile(name: string): Variant | undefined {
  const m = FILE_NAME.exec(name);
  return m ? ((m[1] as string).toLowerCase() as Variant) : undefined;
}

/** The cleaned release wins over an older file of the same variant. */
export function isCleanedFile(name: string): boolean {
  return FILE_NAME.exec(name)?.[2] !== undefined;
}
