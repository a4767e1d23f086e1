/**
 * LoCoMo's numeric QA categories. The paper's §4.1 lists the types in another
 * order; the mapping the data and the reference scorer actually use is
 * 1 = multi-hop, 2 = temporal, 3 = open-domain, 4 = single-hop, 5 = adversarial
 * (snap-research/locomo issues #6 and #29; checked on the data in caura-ai/caura#712).
 */

export const CATEGORY_NAMES = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
  5: "adversarial",
} as const;

export type CategoryId = keyof typeof CATEGORY_NAMES;
export type CategoryName = (typeof CATEGORY_NAMES)[CategoryId];

export const ADVERSARIAL: CategoryId = 5;

/**
 * What an adversarial question expects when the release gives no answer: the
 * reference scorer credits an output only if it says the information is not
 * available or not mentioned (`task_eval/evaluation.py` on the `code` branch).
 */
export const ABSTENTION_ANSWER = "Not mentioned in the conversation";

/** The category id of a raw value (a number or a numeric string), or undefined. */
export function categoryId(raw: unknown): CategoryId | undefined {
  const n = typeof raw === "string" && raw.trim() !== "" ? Number(raw) : raw;
  return typeof n === "number" && Object.hasOwn(CATEGORY_NAMES, n) ? (n as CategoryId) : undefined;
}
