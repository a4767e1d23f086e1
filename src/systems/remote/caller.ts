/**
 * Every call an adapter makes to its service goes through one RemoteCaller: at
 * most `concurrency` calls in flight (the service's rate limit), transient
 * failures (429, 5xx, 408, dropped connections) retried with backoff that
 * honours Retry-After, and every final failure turned into a SystemError that
 * says what to fix (a refused key names its environment variable).
 */
import PQueue from "p-queue";
import { SystemError } from "../../core/errors.ts";
import { parseRetryAfter } from "../../llm/errors.ts";
import type { SystemInfo } from "../definition.ts";

export interface RemoteFailure {
  /** HTTP status, when the service answered. */
  status?: number;
  /** The wait the service asked for, in ms. */
  retryAfterMs?: number;
  /** No answer at all: refused, reset or timed-out connection. */
  network?: boolean;
  /** The service's own words, for the error message. */
  detail: string;
}

type HeaderBag = { get?(name: string): string | null } | Record<string, unknown> | undefined;

function header(headers: HeaderBag, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  if (typeof (headers as { get?: unknown }).get === "function") {
    return (headers as { get(name: string): string | null }).get(name) ?? undefined;
  }
  const value = (headers as Record<string, unknown>)[name] ?? (headers as Record<string, unknown>)[name.toLowerCase()];
  return typeof value === "string" ? value : undefined;
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
]);

function isNetworkError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && NETWORK_CODES.has(code)) return true;
    const name = (e as { name?: unknown }).name;
    // Stainless SDKs (letta, supermemory) and Fern (zep) name their transport failures so.
    if (name === "APIConnectionError" || name === "APIConnectionTimeoutError" || name === "ZepTimeoutError")
      return true;
    // Fern's fetcher (zep) keeps only the message of the transport failure.
    if (e instanceof Error && /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|network error/i.test(e.message)) {
      return true;
    }
  }
  return false;
}

/**
 * Reads status and Retry-After from the errors the four SDKs throw: Stainless
 * (`status`, `headers`), Fern (`statusCode`, `rawResponse.headers`), mem0's client
 * (`errorCode: "HTTP_429"`), and plain transport errors.
 */
export function readFailure(error: unknown): RemoteFailure {
  const e = (error ?? {}) as Record<string, unknown>;
  let status: number | undefined;
  if (typeof e.status === "number") status = e.status;
  else if (typeof e.statusCode === "number") status = e.statusCode;
  else if (typeof e.errorCode === "string") {
    const match = /^HTTP_(\d{3})$/.exec(e.errorCode);
    if (match) status = Number(match[1]);
  }
  const headers = (e.headers ?? (e.rawResponse as { headers?: unknown } | undefined)?.headers) as HeaderBag;
  const retryAfterMs = parseRetryAfter(header(headers, "retry-after"));
  const message = error instanceof Error ? error.message : String(error);
  return {
    ...(status !== undefined ? { status } : {}),
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
    ...(status === undefined && isNetworkError(error) ? { network: true } : {}),
    detail: message.length > 300 ? `${message.slice(0, 297)}...` : message,
  };
}

export function isTransient(failure: RemoteFailure): boolean {
  if (failure.network) return true;
  const s = failure.status;
  return s === 408 || s === 425 || s === 429 || (s !== undefined && s >= 500);
}

export interface RemoteCallerOptions {
  systemId: string;
  /** Calls in flight at once. */
  concurrency: number;
  /** Retries after the first attempt for transient failures. */
  retries: number;
  /** Environment variable that held the key, named when the service refuses it. */
  keyEnv?: string;
  /** Where the service is, for messages (no secrets). */
  endpoint: string;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for; the call fails instead. */
  maxRetryAfterMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export class RemoteCaller {
  private readonly queue: PQueue;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /** Calls and retries made, for `info()` and the docs' cost figures. */
  readonly counts = { calls: 0, retries: 0 };

  constructor(private readonly options: RemoteCallerOptions) {
    this.queue = new PQueue({ concurrency: Math.max(1, Math.floor(options.concurrency)) });
    this.sleep = options.sleep ?? defaultSleep;
    this.random = options.random ?? Math.random;
  }

  /** An adapter's `info()`: what it describes of itself, with the calls and retries made so far. */
  info(describe: SystemInfo): SystemInfo {
    return { ...describe, calls: this.counts.calls, retries: this.counts.retries };
  }

  /** Runs `fn` under the rate limit, retrying transient failures; `operation` names it in errors. */
  call<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    return this.queue.add(() => this.attempt(operation, fn), { throwOnTimeout: true }) as Promise<T>;
  }

  private async attempt<T>(operation: string, fn: () => Promise<T>): Promise<T> {
    const base = this.options.baseDelayMs ?? 500;
    const max = this.options.maxDelayMs ?? 20_000;
    const maxRetryAfter = this.options.maxRetryAfterMs ?? 120_000;
    for (let attempt = 0; ; attempt++) {
      this.counts.calls++;
      try {
        return await fn();
      } catch (error) {
        if (error instanceof SystemError) throw error;
        const failure = readFailure(error);
        const retryable = isTransient(failure) && attempt < this.options.retries;
        if (!retryable || (failure.retryAfterMs ?? 0) > maxRetryAfter) {
          throw this.explain(operation, failure, attempt, error);
        }
        const backoff = this.random() * Math.min(max, base * 2 ** attempt);
        this.counts.retries++;
        await this.sleep(Math.max(backoff, failure.retryAfterMs ?? 0));
      }
    }
  }

  private explain(operation: string, failure: RemoteFailure, attempt: number, cause: unknown): SystemError {
    const { systemId, endpoint, keyEnv } = this.options;
    const s = failure.status;
    const tries = attempt > 0 ? ` after ${attempt + 1} attempts` : "";
    let message: string;
    if (s === 401 || s === 403) {
      message = `${endpoint} refused the API key${keyEnv ? ` in ${keyEnv}` : ""} (HTTP ${s}): ${failure.detail}`;
    } else if (s === 404) {
      message = `${endpoint} answered 404 (check baseUrl, and that the project or resource exists): ${failure.detail}`;
    } else if (s !== undefined) {
      message = `${endpoint} answered HTTP ${s}${tries}: ${failure.detail}`;
    } else if (failure.network) {
      message = `cannot reach ${endpoint}${tries}: ${failure.detail}`;
    } else {
      message = failure.detail;
    }
    return new SystemError(message, systemId, operation, { cause });
  }
}
