/**
 * Token and cost accounting per role. Cost is only ever computed from a known price:
 * a model without one makes the cost unknown (null), never a silent 0.
 */
import { type ChatModel, type ChatRequest, type ChatResult, MODEL_ROLES, type ModelRole } from "./types.ts";
import { DelegatingChatModel } from "./wrap.ts";

export interface Price {
  /** USD per million input tokens. */
  inputPerMTok: number;
  /** USD per million output tokens. */
  outputPerMTok: number;
}

/** Prices by model name. */
export type PriceTable = Record<string, Price>;

export interface RoleUsage {
  /** Every successful call, cached or not. */
  calls: number;
  /** Calls served from the cache (no request made). */
  cachedCalls: number;
  /** Calls that ended in an error after all retries. */
  errors: number;
  /** Tokens of calls actually made. */
  inputTokens: number;
  outputTokens: number;
  /** Tokens of calls served from the cache. */
  cachedInputTokens: number;
  cachedOutputTokens: number;
  /** Sum of call latencies, ms. */
  latencyMs: number;
  /** USD for the calls actually made; null when any of them used a model without a price. */
  costUsd: number | null;
  costKnown: boolean;
  /** Models whose calls had no price. */
  unpricedModels: string[];
}

export interface AccountingSnapshot {
  roles: Record<ModelRole, RoleUsage>;
  total: RoleUsage;
}

interface Tally {
  calls: number;
  cachedCalls: number;
  errors: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cachedOutputTokens: number;
  latencyMs: number;
  cost: number;
  unpriced: Set<string>;
}

function emptyTally(): Tally {
  return {
    calls: 0,
    cachedCalls: 0,
    errors: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cachedOutputTokens: 0,
    latencyMs: 0,
    cost: 0,
    unpriced: new Set(),
  };
}

function toUsage(t: Tally): RoleUsage {
  const costKnown = t.unpriced.size === 0;
  return {
    calls: t.calls,
    cachedCalls: t.cachedCalls,
    errors: t.errors,
    inputTokens: t.inputTokens,
    outputTokens: t.outputTokens,
    cachedInputTokens: t.cachedInputTokens,
    cachedOutputTokens: t.cachedOutputTokens,
    latencyMs: t.latencyMs,
    costUsd: costKnown ? t.cost : null,
    costKnown,
    unpricedModels: [...t.unpriced].sort(),
  };
}

export class Accounting {
  readonly #tallies = new Map<ModelRole, Tally>(MODEL_ROLES.map((r) => [r, emptyTally()]));

  constructor(private readonly prices: PriceTable = {}) {}

  /** The price for a model: by configured name first, then by the name the server answered with. */
  priceOf(...names: string[]): Price | undefined {
    for (const name of names) {
      const price = this.prices[name];
      if (price) return price;
    }
    return undefined;
  }

  record(role: ModelRole, result: ChatResult, configuredModel = result.model): void {
    const t = this.#tallies.get(role)!;
    t.calls++;
    t.latencyMs += result.latencyMs;
    if (result.cached) {
      t.cachedCalls++;
      t.cachedInputTokens += result.usage.inputTokens;
      t.cachedOutputTokens += result.usage.outputTokens;
      return;
    }
    t.inputTokens += result.usage.inputTokens;
    t.outputTokens += result.usage.outputTokens;
    const price = this.priceOf(configuredModel, result.model);
    if (!price) {
      t.unpriced.add(configuredModel);
      return;
    }
    t.cost += (result.usage.inputTokens * price.inputPerMTok + result.usage.outputTokens * price.outputPerMTok) / 1e6;
  }

  recordError(role: ModelRole): void {
    this.#tallies.get(role)!.errors++;
  }

  snapshot(): AccountingSnapshot {
    const total = emptyTally();
    const roles = {} as Record<ModelRole, RoleUsage>;
    for (const role of MODEL_ROLES) {
      const t = this.#tallies.get(role)!;
      roles[role] = toUsage(t);
      for (const k of [
        "calls",
        "cachedCalls",
        "errors",
        "inputTokens",
        "outputTokens",
        "cachedInputTokens",
        "cachedOutputTokens",
        "latencyMs",
        "cost",
      ] as const) {
        total[k] += t[k];
      }
      for (const m of t.unpriced) total.unpriced.add(m);
    }
    return { roles, total: toUsage(total) };
  }
}

export class AccountedChatModel extends DelegatingChatModel {
  constructor(
    inner: ChatModel,
    readonly accounting: Accounting,
  ) {
    super(inner);
  }
  async chat(req: ChatRequest): Promise<ChatResult> {
    try {
      const result = await this.inner.chat(req);
      this.accounting.record(req.role, result, this.inner.model);
      return result;
    } catch (error) {
      this.accounting.recordError(req.role);
      throw error;
    }
  }
}
