/**
 * Token and cost accounting per role. Cost is only ever computed from a known price:
 * a model without one makes the cost unknown (null), never a silent 0.
 *
 * Besides the stack's own running totals, every call is reported to the usage sink
 * of the async context it runs in (`withUsageSink`), so a caller can attribute calls
 * to its own unit of work — the runner persists them per unit, so usage survives the
 * process — without every layer in between passing a handle along.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { log } from "../util/log.ts";
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

/** One call as accounted, for a usage sink. */
export interface CallUsage {
  role: ModelRole;
  /** False when the call ended in an error after all retries (no tokens then). */
  ok: boolean;
  cached: boolean;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  /** USD of a call actually made (0 for a cache hit or an error); null when its model has no price. */
  costUsd: number | null;
  /** The configured model name, which an unpriced call lists. */
  model: string;
}

export type UsageSink = (call: CallUsage) => void;

const sinks = new AsyncLocalStorage<UsageSink>();

/** Hands a call to the sink in scope; a sink that fails (a closed store) never turns a call into an error. */
function report(call: CallUsage): void {
  try {
    sinks.getStore()?.(call);
  } catch (error) {
    log.warn(`model usage not recorded: ${(error as Error).message}`);
  }
}

/** Runs `fn` so that every accounted model call inside it (awaited or not) is also reported to `sink`. */
export function withUsageSink<T>(sink: UsageSink, fn: () => T): T {
  return sinks.run(sink, fn);
}

/** Folds per-role usage (e.g. read back from a store) into a snapshot; roles not given are zero. */
export function sumUsage(parts: ReadonlyArray<{ role: ModelRole; usage: RoleUsage }>): AccountingSnapshot {
  const tallies = new Map<ModelRole, Tally>(MODEL_ROLES.map((r) => [r, emptyTally()]));
  for (const { role, usage } of parts) {
    const t = tallies.get(role)!;
    for (const k of COUNTERS) t[k] += usage[k];
    t.cost += usage.costUsd ?? 0;
    for (const m of usage.unpricedModels) t.unpriced.add(m);
  }
  return snapshotOf(tallies);
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

const COUNTERS = [
  "calls",
  "cachedCalls",
  "errors",
  "inputTokens",
  "outputTokens",
  "cachedInputTokens",
  "cachedOutputTokens",
  "latencyMs",
] as const;

function snapshotOf(tallies: ReadonlyMap<ModelRole, Tally>): AccountingSnapshot {
  const total = emptyTally();
  const roles = {} as Record<ModelRole, RoleUsage>;
  for (const role of MODEL_ROLES) {
    const t = tallies.get(role)!;
    roles[role] = toUsage(t);
    for (const k of COUNTERS) total[k] += t[k];
    total.cost += t.cost;
    for (const m of t.unpriced) total.unpriced.add(m);
  }
  return { roles, total: toUsage(total) };
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

  /** Tallies one successful call; returns its cost (0 for a cache hit, null without a price). */
  record(role: ModelRole, result: ChatResult, configuredModel = result.model): number | null {
    const t = this.#tallies.get(role)!;
    t.calls++;
    t.latencyMs += result.latencyMs;
    if (result.cached) {
      t.cachedCalls++;
      t.cachedInputTokens += result.usage.inputTokens;
      t.cachedOutputTokens += result.usage.outputTokens;
      return 0;
    }
    t.inputTokens += result.usage.inputTokens;
    t.outputTokens += result.usage.outputTokens;
    const price = this.priceOf(configuredModel, result.model);
    if (!price) {
      t.unpriced.add(configuredModel);
      return null;
    }
    const cost =
      (result.usage.inputTokens * price.inputPerMTok + result.usage.outputTokens * price.outputPerMTok) / 1e6;
    t.cost += cost;
    return cost;
  }

  recordError(role: ModelRole): void {
    this.#tallies.get(role)!.errors++;
  }

  snapshot(): AccountingSnapshot {
    return snapshotOf(this.#tallies);
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
    const model = this.inner.model;
    let result: ChatResult;
    try {
      result = await this.inner.chat(req);
    } catch (error) {
      this.accounting.recordError(req.role);
      report({
        role: req.role,
        ok: false,
        cached: false,
        inputTokens: 0,
        outputTokens: 0,
        latencyMs: 0,
        costUsd: 0,
        model,
      });
      throw error;
    }
    const costUsd = this.accounting.record(req.role, result, model);
    report({
      role: req.role,
      ok: true,
      cached: result.cached,
      inputTokens: result.usage.inputTokens,
      outputTokens: result.usage.outputTokens,
      latencyMs: result.latencyMs,
      costUsd,
      model,
    });
    return result;
  }
}
