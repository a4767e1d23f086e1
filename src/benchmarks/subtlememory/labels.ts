/**
 * SubtleMemory's relation labels. The release spells subtypes several ways
 * (current and legacy data labels); reports need the paper's five columns.
 * Mapping from arXiv 2606.05761 §2.1 (App. A.1), covering every spelling the release uses.
 */

export const RELATION_TYPES = ["complementary", "nuanced", "contradictory"] as const;
export type RelationType = (typeof RELATION_TYPES)[number];

export const SOURCES = ["user-related", "user-unrelated"] as const;
export type Source = (typeof SOURCES)[number];

/** The paper's subtype columns, plus `K=1`: legal in the schema but never used in the release. */
export const RELATION_SUBTYPES = [
  "Multi-evidence",
  "Any-one",
  "Temporal",
  "Contextual",
  "Contradictory",
  "K=1",
] as const;
export type RelationSubtype = (typeof RELATION_SUBTYPES)[number];

const SUBTYPE_OF: Record<string, { subtype: RelationSubtype; type: RelationType }> = {
  "k>1": { subtype: "Multi-evidence", type: "complementary" },
  "multi-evidence": { subtype: "Multi-evidence", type: "complementary" },
  any_one: { subtype: "Any-one", type: "complementary" },
  "any-one": { subtype: "Any-one", type: "complementary" },
  // No paper column and no release item carries it; kept distinct rather than folded into another column.
  "k=1": { subtype: "K=1", type: "complementary" },
  temporal: { subtype: "Temporal", type: "nuanced" },
  context: { subtype: "Contextual", type: "nuanced" },
  contextual: { subtype: "Contextual", type: "nuanced" },
  contradictory: { subtype: "Contradictory", type: "contradictory" },
  // Non-user contradiction sources (user vs user, user vs assistant, assistant vs assistant): one column in the paper.
  a_user_vs_user: { subtype: "Contradictory", type: "contradictory" },
  b_user_vs_non_user: { subtype: "Contradictory", type: "contradictory" },
  c_non_user_vs_non_user: { subtype: "Contradictory", type: "contradictory" },
};

export function relationType(raw: string): RelationType | undefined {
  const key = raw.trim().toLowerCase();
  return (RELATION_TYPES as readonly string[]).includes(key) ? (key as RelationType) : undefined;
}

/** The normalised subtype and the relation type it belongs to, or undefined for an unknown label. */
export function relationSubtype(raw: string): { subtype: RelationSubtype; type: RelationType } | undefined {
  const key = raw.trim().toLowerCase();
  return Object.hasOwn(SUBTYPE_OF, key) ? SUBTYPE_OF[key] : undefined;
}

export function source(raw: string): Source | undefined {
  const key = raw.trim().toLowerCase();
  return (SOURCES as readonly string[]).includes(key) ? (key as Source) : undefined;
}
