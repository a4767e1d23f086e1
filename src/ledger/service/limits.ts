/**
 * What `membench serve` lets one request cost by default (docs/serve.md): a
 * request over a limit is refused with a 413 naming the field and the limit,
 * before the work. One 30 MiB turn, under the old 32 MiB body cap, held every
 * client for 13–38 s and took 1.6 GB.
 */
import type { LedgerLimits } from "../ledger.ts";

/** What the service bounds: the ledger's limits and the largest body (`GET /v1/health`, the OpenAPI description). */
export interface ServiceLimits extends LedgerLimits {
  /** Bytes of one request body (of one record of an import). */
  bodyBytes: number;
  /** Turns in one request. */
  turnsPerWrite: number;
}

/** Default cap on a request body (and on one record of an import). */
export const DEFAULT_MAX_BODY = 32 * 1024 * 1024;

/** The ledger limits `membench serve` sets unless told otherwise. */
export const DEFAULT_SERVICE_LIMITS: Required<LedgerLimits> = {
  // A long pasted document still fits; about a second of extraction at most.
  turnChars: 256 * 1024,
  // Each write re-reads its session's transcript: a few seconds of sliced work at most.
  sessionChars: 4 * 1024 * 1024,
  memoriesPerWrite: 2_000,
};
