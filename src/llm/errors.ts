/**
 * A ModelError that also carries how long the server asked us to wait, so the retry
 * layer can honour Retry-After without core/errors.ts knowing about HTTP headers.
 */
import { ModelError } from "../core/errors.ts";

export class ModelCallError extends ModelError {
  /** From `Retry-After` / `retry-after-ms`, when the server sent one. */
  readonly retryAfterMs?: number;
  constructor(
    message: string,
    info: { endpoint: string; status?: number; retryable: boolean; retryAfterMs?: number },
    options?: { cause?: unknown },
  ) {
    super(message, info, options);
    this.name = "ModelError";
    this.retryAfterMs = info.retryAfterMs;
  }
}

export function retryAfterOf(error: unknown): number | undefined {
  return error instanceof ModelCallError ? error.retryAfterMs : undefined;
}

/** Parses a Retry-After value: delta seconds or an HTTP date. Returns ms, or undefined when unusable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** The wait a response asks for: OpenAI's `retry-after-ms` first, then the standard `Retry-After`. */
export function retryAfterFromHeaders(headers: { get(name: string): string | null } | undefined): number | undefined {
  const ms = headers?.get("retry-after-ms");
  if (ms && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  return parseRetryAfter(headers?.get("retry-after"));
}

/** Status codes worth retrying: overload, rate limit, lock timeouts and server faults. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Removes the API key (and URL credentials) from text that may reach a log or a report. */
export function scrubSecret(text: string, secret: string | undefined): string {
  let out = text.replace(/(https?:\/\/)[^/\s@]+@/g, "$1");
  if (secret && secret.length >= 4) out = out.split(secret).join("<redacted>");
  return out;
}
