/**
 * Retries retryable ModelErrors with exponential backoff and full jitter, waiting at
 * least as long as the server's Retry-After when it sent one.
 */
import { ModelError } from "../core/errors.ts";
import { log } from "../util/log.ts";
import { retryAfterOf } from "./errors.ts";
import type { ChatModel, ChatRequest, ChatResult } from "./types.ts";
import { DelegatingChatModel } from "./wrap.ts";

export interface RetryOptions {
  /** Retries after the first attempt (default 5). */
  maxRetries?: number;
  /** Backoff ceiling for the first retry, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Largest backoff without Retry-After (default 30 s). */
  maxDelayMs?: number;
  /** Longest Retry-After honoured; beyond it the error is thrown (default 5 min). */
  maxRetryAfterMs?: number;
  /** Injectable for tests. */
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  onRetry?: (info: { attempt: number; delayMs: number; error: ModelError }) => void;
}

export const DEFAULT_MAX_RETRIES = 5;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Delay before retry number `attempt` (0-based). */
export function retryDelay(attempt: number, error: unknown, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 500;
  const max = options.maxDelayMs ?? 30_000;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(max, base * 2 ** attempt);
  const jittered = random() * ceiling;
  const retryAfter = retryAfterOf(error);
  return retryAfter !== undefined ? Math.max(retryAfter, jittered) : jittered;
}

export async function withRetry<T>(fn: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const sleep = options.sleep ?? defaultSleep;
  const maxRetryAfter = options.maxRetryAfterMs ?? 300_000;
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (error) {
      if (!(error instanceof ModelError) || !error.retryable || attempt >= maxRetries) throw error;
      const retryAfter = retryAfterOf(error);
      if (retryAfter !== undefined && retryAfter > maxRetryAfter) throw error;
      const delayMs = retryDelay(attempt, error, options);
      options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      log.debug("model call failed, retrying", {
        endpoint: error.endpoint,
        status: error.status,
        attempt: attempt + 1,
        delayMs: Math.round(delayMs),
      });
      await sleep(delayMs);
    }
  }
}

export class RetryingChatModel extends DelegatingChatModel {
  constructor(
    inner: ChatModel,
    private readonly options: RetryOptions = {},
  ) {
    super(inner);
  }
  chat(req: ChatRequest): Promise<ChatResult> {
    return withRetry(() => this.inner.chat(req), this.options);
  }
}
