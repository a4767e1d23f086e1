/**
 * Embeddings from any OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, vLLM,
 * llama.cpp server, Ollama `/v1`, TEI...). Inputs go in batches, one request at a
 * time, and come back in input order whatever order the server lists them in.
 *
 * The SDK's own retries are off so every retry is ours and visible: 429, 5xx,
 * timeouts and dropped connections are retried with exponential backoff (honouring
 * Retry-After); anything else fails at once. The API key goes only into the
 * Authorization header, never into an id, a message or a log line.
 */
import OpenAI from "openai";
import { ConfigError, ModelError } from "../core/errors.ts";
import { log } from "../util/log.ts";
import { chunk } from "./batch.ts";
import { type Embedder, toUnitVector } from "./types.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface OpenAIEmbedderOptions {
  /** Model name sent in each request, e.g. `text-embedding-3-small`. */
  model: string;
  /** Endpoint root including `/v1`; default the hosted OpenAI API. */
  baseUrl?: string;
  /** Required for the hosted API; local servers usually ignore it. */
  apiKey?: string;
  /** Expected dimension; when absent it is learnt from the first reply. */
  dim?: number;
  /** Inputs per request (default 128). */
  batchSize?: number;
  /** Retries after the first attempt on 429/5xx/timeouts/connection errors (default 5). */
  maxRetries?: number;
  /** Per-request timeout in ms (default 120000). */
  timeoutMs?: number;
  /** First backoff delay in ms, doubled on each retry (default 500). */
  retryBaseMs?: number;
  /** Cap on any single wait, including a server's Retry-After (default 30000). */
  maxRetryDelayMs?: number;
}

/** `baseUrl` without trailing slashes, so ids and cache keys do not depend on spelling. */
export function normalizeBaseUrl(baseUrl: string): string {
  return baseUrl.trim().replace(/\/+$/, "");
}

/** The model id recorded with vectors: the same model name on another server is another model. */
export function openaiEmbedderId(model: string, baseUrl: string = OPENAI_DEFAULT_BASE_URL): string {
  return `openai:${model.trim()}@${normalizeBaseUrl(baseUrl)}`;
}

function retryAfterMs(error: unknown): number | undefined {
  const headers = error instanceof OpenAI.APIError ? error.headers : undefined;
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function isRetryable(error: unknown): boolean {
  if (error instanceof OpenAI.APIUserAbortError) return false;
  if (error instanceof OpenAI.APIConnectionError) return true;
  if (error instanceof OpenAI.APIError) {
    const status = error.status ?? 0;
    return status === 408 || status === 429 || status >= 500;
  }
  return false;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class OpenAIEmbedder implements Embedder {
  readonly id: string;
  readonly model: string;
  readonly baseUrl: string;
  private readonly endpoint: string;
  private readonly client: OpenAI;
  private readonly batchSize: number;
  private readonly maxRetries: number;
  private readonly retryBaseMs: number;
  private readonly maxRetryDelayMs: number;
  private knownDim: number;
  /** Requests sent, retries included; for tests and accounting. */
  requestCount = 0;

  constructor(options: OpenAIEmbedderOptions) {
    if (!options.model.trim()) throw new ConfigError("an embedding model name is required (openai:MODEL)", "embedder");
    this.model = options.model.trim();
    this.baseUrl = normalizeBaseUrl(options.baseUrl ?? OPENAI_DEFAULT_BASE_URL);
    if (!/^https?:\/\//.test(this.baseUrl)) {
      throw new ConfigError(`expected an http(s) URL, got "${this.baseUrl}"`, "embedBaseUrl");
    }
    if (!options.apiKey && this.baseUrl === OPENAI_DEFAULT_BASE_URL) {
      throw new ConfigError("the hosted OpenAI API needs a key: set MEMBENCH_API_KEY or OPENAI_API_KEY", "apiKey");
    }
    this.endpoint = `${this.baseUrl}/embeddings`;
    this.id = openaiEmbedderId(this.model, this.baseUrl);
    this.knownDim = options.dim ?? 0;
    this.batchSize = options.batchSize ?? 128;
    this.maxRetries = options.maxRetries ?? 5;
    this.retryBaseMs = options.retryBaseMs ?? 500;
    this.maxRetryDelayMs = options.maxRetryDelayMs ?? 30_000;
    this.client = new OpenAI({
      baseURL: this.baseUrl,
      // Local servers ignore the header, but the SDK insists on some key.
      apiKey: options.apiKey || "no-key",
      maxRetries: 0,
      timeout: options.timeoutMs ?? 120_000,
      logLevel: "off",
    });
  }

  get dim(): number {
    return this.knownDim;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of chunk(texts, this.batchSize)) out.push(...(await this.embedBatch(batch)));
    return out;
  }

  private async embedBatch(inputs: string[]): Promise<Float32Array[]> {
    for (let attempt = 0; ; attempt++) {
      try {
        this.requestCount++;
        const reply = await this.client.embeddings.create({
          model: this.model,
          input: inputs,
          // Explicit floats: several compatible servers do not implement the SDK's base64 default.
          encoding_format: "float",
        });
        return this.readReply(reply.data, inputs.length);
      } catch (error) {
        if (error instanceof ModelError) throw error;
        const status = error instanceof OpenAI.APIError ? error.status : undefined;
        const retryable = isRetryable(error);
        if (!retryable || attempt >= this.maxRetries) {
          const tries = attempt + 1;
          throw new ModelError(
            `embedding request failed after ${tries} attempt${tries > 1 ? "s" : ""}: ${(error as Error).message}`,
            { endpoint: this.endpoint, status, retryable },
            { cause: error },
          );
        }
        // Jitter spreads out parallel runs that hit the same rate limit together.
        const backoff = this.retryBaseMs * 2 ** attempt * (0.5 + Math.random() / 2);
        const delayMs = Math.round(Math.min(retryAfterMs(error) ?? backoff, this.maxRetryDelayMs));
        log.debug("embedding request retry", { endpoint: this.endpoint, attempt: attempt + 1, status, delayMs });
        await sleep(delayMs);
      }
    }
  }

  private readReply(data: unknown, expected: number): Float32Array[] {
    const fail = (message: string) => new ModelError(message, { endpoint: this.endpoint, retryable: false });
    if (!Array.isArray(data) || data.length !== expected) {
      throw fail(`expected ${expected} embeddings, got ${Array.isArray(data) ? data.length : "no list"}`);
    }
    const out: Float32Array[] = new Array(expected);
    data.forEach((item: { index?: unknown; embedding?: unknown }, position) => {
      const index = typeof item.index === "number" ? item.index : position;
      const values = item.embedding;
      if (!Number.isInteger(index) || index < 0 || index >= expected || out[index]) {
        throw fail(`reply item ${position} has a bad or repeated index ${String(item.index)}`);
      }
      if (!Array.isArray(values) || values.length === 0 || values.some((x) => typeof x !== "number")) {
        throw fail(`reply item ${position} has no numeric embedding`);
      }
      if (this.knownDim === 0) this.knownDim = values.length;
      if (values.length !== this.knownDim) {
        throw fail(`embedding of length ${values.length}, expected ${this.knownDim} (model ${this.model})`);
      }
      out[index] = toUnitVector(values);
    });
    return out;
  }
}
