/**
 * A request the ledger refuses because of what the store already holds (an
 * import into a non-empty namespace, vectors of another embedder): the caller
 * must change the request or the namespace, not retry.
 */
export class LedgerConflictError extends Error {
  override name = "LedgerConflictError";
}
