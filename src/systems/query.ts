import { SystemError } from "../core/errors.ts";
import type { SearchQuery } from "./types.ts";

/**
 * How many items a query allows: `k` rounded down; `Infinity` means no limit, which
 * is how a caller asks full-context for everything within its token budget.
 */
export function resultLimit(q: SearchQuery, systemId: string): number {
  if (q === null || typeof q !== "object") throw new SystemError("the query must be an object", systemId, "search");
  if (typeof q.text !== "string") throw new SystemError("query.text must be a string", systemId, "search");
  if (typeof q.k !== "number" || Number.isNaN(q.k) || q.k < 0) {
    throw new SystemError(`query.k must be a number ≥ 0, got ${String(q.k)}`, systemId, "search");
  }
  return Number.isFinite(q.k) ? Math.floor(q.k) : Number.POSITIVE_INFINITY;
}
