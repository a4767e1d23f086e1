/**
 * The vocabulary of the MemConflict release (`Data/Step4_4.jsonl`): session
 * types, question labels and the names the paper uses for them. Official
 * field names stay inside this folder; everything it returns is camelCase.
 * Source: the release's `Code/Step4_4.py` (question labels) and `Data/Step4_4.jsonl`.
 */

export const BENCHMARK_ID = "memconflict";

/** The final release file and the question-style ablation built from it (`Code/Step4_4.py`; paper Table 5). */
export const FINAL_FILE = "Step4_4.jsonl";
export const IMPLICIT_FILE = "Step4_4_indirect.jsonl";

export const SESSION_TYPES = ["initial_reveal", "update", "chitchat", "future_plan"] as const;
export type SessionType = (typeof SESSION_TYPES)[number];

/** `conflict_type` as released → the paper's short name, used as the label value. */
export const CONFLICT_TYPES: Readonly<Record<string, ConflictKind>> = {
  dynamic_conflict: "dynamic",
  static_conflict: "static",
  conditional_conflict: "conditional",
};
export type ConflictKind = "dynamic" | "static" | "conditional";

/**
 * `ability_target` values. `detect_conflict` is in the upstream whitelist even
 * though no template of the released generator emits it, so it is accepted.
 */
export const ABILITY_TARGETS = ["track_state_over_time", "detect_conflict", "recover_truth", "bind_condition"] as const;
export const DIFFICULTIES = ["easy", "medium", "hard"] as const;

/**
 * Query formulation (paper Table 5). The released file is the direct style; the
 * `Question_Style` ablation marks each rewritten question `"indirect"`, which
 * the paper calls implicit.
 */
export const QUERY_STYLES: Readonly<Record<string, "direct" | "implicit">> = {
  direct: "direct",
  indirect: "implicit",
  implicit: "implicit",
};

/** Label keys of every probe, in the order reports should show them. */
export const LABEL_KEYS = ["conflict_type", "ability", "difficulty", "query_style"] as const;

export const VARIANTS = ["direct", "implicit"] as const;

export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
