/**
 * A request the ledger refuses because of what the store already holds (an
 * import into a non-empty namespace, vectors of another embedder): the caller
 * must change the request or the namespace, not retry.
 */
export class LedgerConflictError extends Error {
  override name = "LedgerConflictError";
}

/** A write over one of the ledger's size limits, refused before any work: `field` is what is too large. */
export class LedgerLimitError extends Error {
  override name = "LedgerLimitError";

  constructor(
    message: string,
    readonly field: string,
    readonly limit: number,
  ) {
    super(message);
  }
}
