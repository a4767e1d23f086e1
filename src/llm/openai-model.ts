/**
 * A ChatModel over any OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp server,
 * Ollama's /v1, hosted gateways), through the official SDK. The SDK's own retries are
 * off: the retry layer in retry.ts is the only one, so attempts are counted once.
 */
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from "openai";
import { countTokens } from "../tokens/count.ts";
import { isRetryableStatus, ModelCallError, retryAfterFromHeaders, scrubSecret } from "./errors.ts";
import type { ChatModel, ChatRequest, ChatResult } from "./types.ts";

export const DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const DEFAULT_TIMEOUT_MS = 120_000;

export interface OpenAIModelOptions {
  model: string;
  /** Defaults to the OpenAI API. */
  baseUrl?: string;
  /** Local servers usually need none. */
  apiKey?: string;
  timeoutMs?: number;
  /** Whether the server accepts `response_format: json_schema` (default true). */
  supportsJsonSchema?: boolean;
}

/** The base URL without credentials or a trailing slash, for ids, errors and cache keys. */
export function normaliseBaseUrl(url: string): string {
  return scrubSecret(url.trim(), undefined).replace(/\/+$/, "");
}

/** The socket error behind a body read that ended early (undici's "terminated"), if that is what `error` is. */
function droppedMidBody(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  const code = typeof cause?.code === "string" ? cause.code : undefined;
  if (error.message === "terminated" || code?.startsWith("UND_ERR_") || code === "ECONNRESET") {
    return code ?? (typeof cause?.message === "string" ? cause.message : error.message);
  }
  return undefined;
}

export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  readonly model: string;
  readonly baseUrl: string;
  readonly supportsJsonSchema: boolean;
  readonly #client: OpenAI;
  readonly #apiKey: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: OpenAIModelOptions) {
    this.model = options.model;
    this.baseUrl = normaliseBaseUrl(options.baseUrl ?? DEFAULT_BASE_URL);
    this.id = `openai:${this.model}@${this.baseUrl}`;
    this.supportsJsonSchema = options.supportsJsonSchema ?? true;
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.#client = new OpenAI({
      baseURL: options.baseUrl ?? DEFAULT_BASE_URL,
      // The SDK refuses to start without a key; local servers ignore this placeholder.
      apiKey: options.apiKey || "no-key",
      maxRetries: 0,
      timeout: this.#timeoutMs,
    });
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const started = performance.now();
    let completion: OpenAI.Chat.Completions.ChatCompletion;
    // The SDK's timeout stops once the headers arrive; this one also covers a body that stalls.
    const deadline = AbortSignal.timeout(this.#timeoutMs);
    try {
      completion = await this.#client.chat.completions.create(
        {
          model: this.model,
          messages: req.messages.map((m) => ({ role: m.role, content: m.content })),
          ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
          ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
          ...(req.seed !== undefined ? { seed: req.seed } : {}),
          ...(req.responseFormat
            ? {
                response_format: {
                  type: "json_schema" as const,
                  json_schema: {
                    name: req.responseFormat.name,
                    schema: req.responseFormat.schema as Record<string, unknown>,
                    strict: true,
                  },
                },
              }
            : {}),
        },
        { signal: deadline },
      );
    } catch (error) {
      throw this.toModelError(error, deadline.aborted);
    }
    const choice = completion.choices?.[0];
    if (!choice) {
      throw new ModelCallError("the reply has no choices", { endpoint: this.baseUrl, retryable: true });
    }
    const text = choice.message?.content ?? "";
    const usage = completion.usage;
    return {
      text,
      // Some local servers omit usage; count locally so accounting never silently reads 0.
      usage: {
        inputTokens: usage?.prompt_tokens ?? countTokens(req.messages.map((m) => m.content).join("\n")),
        outputTokens: usage?.completion_tokens ?? countTokens(text),
      },
      latencyMs: performance.now() - started,
      cached: false,
      model: completion.model || this.model,
    };
  }

  private toModelError(error: unknown, pastDeadline: boolean): ModelCallError {
    const endpoint = this.baseUrl;
    const scrub = (text: string) => scrubSecret(text, this.#apiKey);
    const what = `chat completion with model ${this.model}`;
    if (error instanceof APIConnectionTimeoutError) {
      return new ModelCallError(`${what} timed out`, { endpoint, retryable: true });
    }
    if (pastDeadline) {
      return new ModelCallError(`${what} timed out: no complete reply within ${this.#timeoutMs} ms`, {
        endpoint,
        retryable: true,
      });
    }
    if (error instanceof APIUserAbortError) {
      return new ModelCallError(`${what} was aborted`, { endpoint, retryable: false });
    }
    if (error instanceof APIConnectionError) {
      const cause = (error as { cause?: { code?: string; message?: string } }).cause;
      const detail = cause?.code ?? cause?.message ?? error.message;
      return new ModelCallError(scrub(`${what}: connection failed (${detail})`), { endpoint, retryable: true });
    }
    if (error instanceof APIError && typeof error.status === "number") {
      const status = error.status;
      const retryAfterMs = retryAfterFromHeaders(error.headers);
      const hint = status === 401 || status === 403 ? " (check MEMBENCH_API_KEY / OPENAI_API_KEY)" : "";
      return new ModelCallError(scrub(`${what} failed: ${error.message}${hint}`), {
        endpoint,
        status,
        retryable: isRetryableStatus(status),
        retryAfterMs,
      });
    }
    // A 200 whose body was cut short reaches us as the SDK's JSON parse error, and a
    // connection dropped mid-body as fetch's "terminated": both are transport failures
    // that another attempt can fix, like a reset before the headers.
    if (error instanceof SyntaxError) {
      return new ModelCallError(scrub(`${what}: the reply body is not complete JSON (${error.message})`), {
        endpoint,
        retryable: true,
      });
    }
    const dropped = droppedMidBody(error);
    if (dropped) {
      return new ModelCallError(scrub(`${what}: connection dropped while reading the reply (${dropped})`), {
        endpoint,
        retryable: true,
      });
    }
    const message = error instanceof Error ? error.message : String(error);
    return new ModelCallError(scrub(`${what} failed: ${message}`), { endpoint, retryable: false });
  }
}
