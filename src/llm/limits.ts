/**
 * Concurrency and rate limits for model calls. One limiter can be shared by every model
 * that hits the same endpoint (answerer and judges), so the endpoint sees one budget.
 */
import PQueue from "p-queue";
import type { ChatModel, ChatRequest, ChatResult } from "./types.ts";
import { DelegatingChatModel } from "./wrap.ts";

export interface LimitOptions {
  /** Calls in flight at once (default 8). */
  concurrency?: number;
  /** Calls started per second; unset or 0 means unlimited. */
  rps?: number;
}

export const DEFAULT_CONCURRENCY = 8;

export function createLimiter(options: LimitOptions = {}): PQueue {
  const concurrency = options.concurrency && options.concurrency > 0 ? Math.floor(options.concurrency) : undefined;
  const rps = options.rps;
  const base = { concurrency: concurrency ?? DEFAULT_CONCURRENCY };
  if (!rps || rps <= 0) return new PQueue(base);
  // One start per 1/rps seconds spreads calls evenly and handles fractional rates like 0.5.
  return new PQueue({ ...base, intervalCap: 1, interval: Math.max(1, Math.round(1000 / rps)) });
}

export class LimitedChatModel extends DelegatingChatModel {
  constructor(
    inner: ChatModel,
    readonly limiter: PQueue,
  ) {
    super(inner);
  }
  chat(req: ChatRequest): Promise<ChatResult> {
    return this.limiter.add(() => this.inner.chat(req), { throwOnTimeout: true });
  }
}
