/**
 * Query-term pruning for large collections: a term found in more than
 * `maxShare` of the documents has an IDF near zero, adds nothing to the ranking,
 * and scoring its long posting list is what makes lexical search slow at scale.
 */
export function keepSelective(
  terms: readonly string[],
  df: ReadonlyMap<string, number>,
  documents: number,
  maxShare: number,
): string[] {
  const kept = terms.filter((t) => (df.get(t) ?? 0) > 0 && df.get(t)! <= documents * maxShare);
  if (kept.length) return kept;
  // Only common terms: keep the rarest one so the query still finds something; each
  // common term adds a long posting list to score, which is what the slowest queries pay.
  return terms
    .filter((t) => df.has(t))
    .sort((a, b) => df.get(a)! - df.get(b)!)
    .slice(0, 1);
}

/**
 * The distinct query terms worth scoring: every one while the collection holds
 * fewer than `minDocuments` documents, else those `keepSelective` keeps.
 */
export function selectiveTerms(
  terms: readonly string[],
  df: ReadonlyMap<string, number>,
  documents: number,
  minDocuments: number,
  maxShare: number,
): string[] {
  const unique = [...new Set(terms)];
  return documents < minDocuments ? unique : keepSelective(unique, df, documents, maxShare);
}
