/**
 * Builds the model stack a stage uses, from settings:
 *
 *   caller → accounting → cache → limits → retry → base (openai | scripted)
 *
 * Cache hits are answered before the limiter, so they neither wait for a slot nor count
 * against the rate; retries run inside the limiter slot, so backing off after a 429 also
 * slows the other callers instead of letting them pile on.
 */
import { resolve } from "node:path";
import type PQueue from "p-queue";
import { defaultCacheDir, type ResolveInput, resolveNumber, resolveSetting } from "../config/settings.ts";
import { ConfigError } from "../core/errors.ts";
import { AccountedChatModel, Accounting, type PriceTable } from "./accounting.ts";
import { CachedChatModel, type ChatCache, openChatCache } from "./cache.ts";
import { scrubSecret } from "./errors.ts";
import { createLimiter, DEFAULT_CONCURRENCY, LimitedChatModel } from "./limits.ts";
import { DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS, normaliseBaseUrl, OpenAIChatModel } from "./openai-model.ts";
import { DEFAULT_MAX_RETRIES, RetryingChatModel, type RetryOptions } from "./retry.ts";
import { ScriptedChatModel } from "./scripted-model.ts";
import { acquireSharedLimiter, SharedLimitedChatModel, sharedLimitsUrl } from "./shared-limits.ts";
import type { ChatModel, ChatRequest, ChatResult } from "./types.ts";
import { DelegatingChatModel } from "./wrap.ts";

/** Which model to build: an OpenAI-compatible endpoint, or a script. */
export type ModelSpec = { kind: "openai"; model?: string } | { kind: "scripted"; file: string; name?: string };

/** Parses `openai`, `openai:MODEL` or `scripted:FILE`. */
export function parseModelSpec(text: string, from = "--llm"): ModelSpec {
  const trimmed = text.trim();
  if (trimmed === "openai") return { kind: "openai" };
  if (trimmed.startsWith("openai:") && trimmed.length > "openai:".length) {
    return { kind: "openai", model: trimmed.slice("openai:".length) };
  }
  if (trimmed.startsWith("scripted:") && trimmed.length > "scripted:".length) {
    return { kind: "scripted", file: trimmed.slice("scripted:".length) };
  }
  throw new ConfigError(`expected "openai", "openai:MODEL" or "scripted:FILE", got "${text}"`, "llm", from);
}

export function formatModelSpec(spec: ModelSpec): string {
  return spec.kind === "openai" ? (spec.model ? `openai:${spec.model}` : "openai") : `scripted:${spec.file}`;
}

/**
 * The same spec under another model name: for `--judges a,b,c`, a distinct OpenAI model
 * each, or a distinct scripted model whose rules select it with `"model": "a"`.
 */
export function withModelName(spec: ModelSpec | string, name: string): ModelSpec {
  const s = typeof spec === "string" ? parseModelSpec(spec) : spec;
  return s.kind === "openai" ? { ...s, model: name } : { ...s, name };
}

/** Everything createChatModel needs that comes from settings. */
export interface ModelSettings {
  spec: ModelSpec;
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  judgeModel?: string;
  cacheDir: string;
  concurrency: number;
  rps: number;
  timeoutMs: number;
  maxRetries: number;
}

/** Resolves model settings with the usual precedence (flags > env > config file > defaults). */
export function resolveModelSettings(input: ResolveInput = {}): ModelSettings {
  const llm = resolveSetting("llm", input);
  return {
    spec: llm.value ? parseModelSpec(llm.value, llm.from) : { kind: "openai" },
    baseUrl: resolveSetting("baseUrl", input).value,
    apiKey: resolveSetting("apiKey", input).value,
    model: resolveSetting("model", input).value,
    judgeModel: resolveSetting("judgeModel", input).value,
    cacheDir: resolveSetting("cacheDir", input).value ?? defaultCacheDir(input.env),
    concurrency: resolveNumber("concurrency", input, DEFAULT_CONCURRENCY).value,
    rps: resolveNumber("rps", input, 0).value,
    timeoutMs: resolveNumber("timeoutMs", input, DEFAULT_TIMEOUT_MS).value,
    maxRetries: resolveNumber("maxRetries", input, DEFAULT_MAX_RETRIES).value,
  };
}

export interface ModelStatus {
  configured: boolean;
  kind?: "openai" | "scripted";
  model?: string;
  baseUrl?: string;
  /** A sentence for the user: what is configured, or what to set. */
  reason: string;
}

/** Whether answer and judge stages can run: a scripted model, or an endpoint with a model name. */
export function modelConfigured(input: ResolveInput = {}): ModelStatus {
  const s = resolveModelSettings(input);
  if (s.spec.kind === "scripted") {
    return { configured: true, kind: "scripted", reason: `scripted model from ${s.spec.file}` };
  }
  const model = s.spec.model ?? s.model;
  if (!model) {
    return { configured: false, kind: "openai", reason: "no model name: set MEMBENCH_MODEL (or OPENAI_MODEL)" };
  }
  if (!s.baseUrl && !s.apiKey) {
    return {
      configured: false,
      kind: "openai",
      model,
      reason: "no endpoint: set MEMBENCH_BASE_URL for a local or hosted server, or MEMBENCH_API_KEY for the OpenAI API",
    };
  }
  const baseUrl = normaliseBaseUrl(s.baseUrl ?? DEFAULT_BASE_URL);
  return { configured: true, kind: "openai", model, baseUrl, reason: `model ${model} at ${baseUrl}` };
}

export interface CreateChatModelOptions {
  /** Default: OpenAI-compatible. */
  spec?: ModelSpec | string;
  baseUrl?: string;
  apiKey?: string;
  /** Model name when the spec does not carry one. */
  model?: string;
  timeoutMs?: number;
  supportsJsonSchema?: boolean;
  /** A shared cache, or false for none. Scripted models are never cached: editing the script must take effect. */
  cache?: ChatCache | false;
  /** Opens `<cacheDir>/llm.sqlite` when `cache` is not given. */
  cacheDir?: string;
  /** A limiter shared with other models on the same endpoint; otherwise one is made from concurrency/rps. */
  limiter?: PQueue;
  concurrency?: number;
  rps?: number;
  /**
   * A Redis URL whose limits every process of a worker pool shares (concurrency and
   * rps then count across processes); default: the pool of this process, if any
   * (shareModelLimits). Stacks on one endpoint in one process share the same slots.
   */
  sharedLimits?: string;
  maxRetries?: number;
  /** Overrides retry timing (tests use small delays). */
  retry?: RetryOptions;
  /** Shared accounting; otherwise a new one with `prices`. */
  accounting?: Accounting;
  prices?: PriceTable;
}

/** The top of a model stack, with handles on its shared parts. */
export class ManagedChatModel extends DelegatingChatModel {
  constructor(
    inner: ChatModel,
    readonly accounting: Accounting,
    readonly limiter: PQueue,
    readonly cache: ChatCache | undefined,
    private readonly ownsCache: boolean,
    private readonly releaseShared?: () => void,
  ) {
    super(inner);
  }
  chat(req: ChatRequest): Promise<ChatResult> {
    return this.inner.chat(req);
  }
  /** Closes the cache if this stack opened it, and the connection of shared limits. */
  close(): void {
    if (this.ownsCache) this.cache?.close();
    this.releaseShared?.();
  }
}

function buildBase(spec: ModelSpec, options: CreateChatModelOptions): ChatModel {
  if (spec.kind === "scripted") return new ScriptedChatModel({ file: resolve(spec.file), name: spec.name });
  const model = spec.model ?? options.model;
  if (!model) {
    throw new ConfigError("no model name; set MEMBENCH_MODEL (or OPENAI_MODEL) or use --llm openai:MODEL", "model");
  }
  return new OpenAIChatModel({
    model,
    baseUrl: options.baseUrl,
    apiKey: options.apiKey,
    timeoutMs: options.timeoutMs,
    supportsJsonSchema: options.supportsJsonSchema,
  });
}

export function createChatModel(options: CreateChatModelOptions = {}): ManagedChatModel {
  const spec = typeof options.spec === "string" ? parseModelSpec(options.spec) : (options.spec ?? { kind: "openai" });
  let model = buildBase(spec, options);
  if (spec.kind === "openai") {
    model = new RetryingChatModel(model, { maxRetries: options.maxRetries, ...options.retry });
  }
  const sharedUrl = options.sharedLimits ?? sharedLimitsUrl();
  let shared: ReturnType<typeof acquireSharedLimiter> | undefined;
  if (sharedUrl) {
    // The global limits do the pacing; the local queue only keeps this process from
    // queueing more calls at Redis than could ever be in flight.
    shared = acquireSharedLimiter({
      url: sharedUrl,
      key: spec.kind === "openai" ? `openai:${normaliseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL)}` : "scripted",
      concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
      rps: options.rps,
    });
    model = new SharedLimitedChatModel(model, shared.limiter);
  }
  const limiter =
    options.limiter ?? createLimiter({ concurrency: options.concurrency, rps: shared ? undefined : options.rps });
  model = new LimitedChatModel(model, limiter);
  let cache: ChatCache | undefined;
  let ownsCache = false;
  if (spec.kind === "openai" && options.cache !== false) {
    if (options.cache) cache = options.cache;
    else if (options.cacheDir) {
      cache = openChatCache(options.cacheDir);
      ownsCache = true;
    }
    if (cache) model = new CachedChatModel(model, cache);
  }
  const accounting = options.accounting ?? new Accounting(options.prices);
  model = new AccountedChatModel(model, accounting);
  return new ManagedChatModel(model, accounting, limiter, cache, ownsCache, shared?.release);
}

export interface EndpointCheck {
  reachable: boolean;
  /** HTTP status, when the server answered. */
  status?: number;
  /** Model ids the server lists. */
  models?: string[];
  error?: string;
  latencyMs: number;
}

/** GET {baseUrl}/models with a short timeout, for `membench doctor`. */
export async function checkEndpoint(baseUrl: string, apiKey?: string, timeoutMs = 5000): Promise<EndpointCheck> {
  const started = performance.now();
  const url = `${baseUrl.replace(/\/+$/, "")}/models`;
  const elapsed = () => performance.now() - started;
  try {
    const res = await fetch(url, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text();
    if (!res.ok) {
      return {
        reachable: true,
        status: res.status,
        error: scrubSecret(`HTTP ${res.status}: ${text.slice(0, 200)}`, apiKey),
        latencyMs: elapsed(),
      };
    }
    let models: string[] | undefined;
    try {
      const body = JSON.parse(text) as { data?: { id?: unknown }[] };
      models = body.data?.map((m) => m.id).filter((id): id is string => typeof id === "string");
    } catch {
      return { reachable: true, status: res.status, error: "the models list is not JSON", latencyMs: elapsed() };
    }
    return { reachable: true, status: res.status, models, latencyMs: elapsed() };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    // fetch says only "fetch failed": the cause holds the reason (ECONNREFUSED, ENOTFOUND, a TLS code, "bad port").
    const detail =
      e.name === "TimeoutError"
        ? `no answer within ${timeoutMs} ms`
        : (e.cause?.code ?? e.cause?.message ?? e.message ?? String(error));
    return {
      reachable: false,
      error: scrubSecret(`${normaliseBaseUrl(baseUrl)}: ${detail}`, apiKey),
      latencyMs: elapsed(),
    };
  }
}
