/**
 * A sentence-embedding model in a local folder (Hugging Face layout: config.json,
 * tokenizer files, onnx/model.onnx), run by transformers.js with mean pooling and
 * normalisation. transformers.js is an optional dependency, so it is imported by
 * name at run time and typed here only as far as we use it; remote model downloads
 * are switched off so a missing file is an error, never a silent fetch.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, normalize, resolve } from "node:path";
import { ConfigError } from "../core/errors.ts";
import { chunk } from "./batch.ts";
import { type Embedder, toUnitVector } from "./types.ts";

export const TRANSFORMERS_PACKAGE = "@huggingface/transformers";
export const TRANSFORMERS_INSTALL = `ONNXRUNTIME_NODE_INSTALL=skip npm install ${TRANSFORMERS_PACKAGE}`;

interface Tensor {
  data: ArrayLike<number>;
  dims: number[];
}
type FeatureExtractor = (texts: string[], options: { pooling: "mean"; normalize: boolean }) => Promise<Tensor>;
interface TransformersModule {
  env: { allowRemoteModels: boolean; allowLocalModels: boolean; localModelPath: string };
  pipeline(task: "feature-extraction", model: string, options?: Record<string, unknown>): Promise<FeatureExtractor>;
}

export interface OnnxEmbedderOptions {
  /** Texts per forward pass (default 32). */
  batchSize?: number;
  /** Where the spec came from, for error messages. */
  source?: string;
}

const HOW_TO = `install it with \`${TRANSFORMERS_INSTALL}\` and point onnx:DIR at a local model folder (membench sets env.allowRemoteModels = false and env.localModelPath to the folder's parent, so nothing is downloaded)`;

/** The model id recorded with vectors: the folder as given, normalised. */
export function onnxEmbedderId(dir: string): string {
  return `onnx:${normalize(dir).replace(/[\\/]+$/, "")}`;
}

/** Imports transformers.js, or explains how to install it. */
export async function importTransformers(source?: string): Promise<TransformersModule> {
  // A variable specifier keeps tsc from requiring the package's types at build time.
  const name: string = TRANSFORMERS_PACKAGE;
  try {
    return (await import(name)) as TransformersModule;
  } catch (error) {
    const code = (error as { code?: string }).code;
    const absent = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
    const why = absent ? `the optional package ${TRANSFORMERS_PACKAGE} is not installed` : (error as Error).message;
    throw new ConfigError(`onnx embedder unavailable: ${why}; ${HOW_TO}`, "embedder", source);
  }
}

/** Weight files transformers.js looks for under `onnx/`, by the dtype that selects them; full precision first. */
const WEIGHT_FILES: ReadonlyArray<readonly [file: string, dtype: string]> = [
  ["model.onnx", "fp32"],
  ["model_quantized.onnx", "q8"],
  ["model_fp16.onnx", "fp16"],
];

export interface OnnxFolder {
  /** Absolute folder path. */
  path: string;
  /** The transformers.js dtype that selects the weight file found. */
  dtype: string;
}

/** Checks that `dir` is a model folder transformers.js can load offline, or says what is missing. */
export function checkOnnxFolder(dir: string, source?: string): OnnxFolder {
  const abs = resolve(dir);
  if (!existsSync(abs) || !statSync(abs).isDirectory()) {
    throw new ConfigError(`onnx model folder ${abs} does not exist`, "embedder", source);
  }
  if (!existsSync(resolve(abs, "config.json"))) {
    throw new ConfigError(
      `${abs} has no config.json; expected a Hugging Face model folder with onnx/model.onnx`,
      "embedder",
      source,
    );
  }
  const found = WEIGHT_FILES.find(([file]) => existsSync(resolve(abs, "onnx", file)));
  if (!found) {
    const names = WEIGHT_FILES.map(([file]) => `onnx/${file}`).join(", ");
    throw new ConfigError(`${abs} has none of ${names}`, "embedder", source);
  }
  return { path: abs, dtype: found[1] };
}

export class OnnxEmbedder implements Embedder {
  readonly id: string;
  readonly dim: number;
  private readonly extractor: FeatureExtractor;
  private readonly batchSize: number;

  private constructor(id: string, dim: number, extractor: FeatureExtractor, batchSize: number) {
    this.id = id;
    this.dim = dim;
    this.extractor = extractor;
    this.batchSize = batchSize;
  }

  /** Loads the model in `dir` and learns its dimension from one probe sentence. */
  static async open(dir: string, options: OnnxEmbedderOptions = {}): Promise<OnnxEmbedder> {
    const transformers = await importTransformers(options.source);
    const folder = checkOnnxFolder(dir, options.source);
    transformers.env.allowRemoteModels = false;
    transformers.env.allowLocalModels = true;
    // transformers.js resolves a model id against localModelPath: the folder's parent, then its name.
    transformers.env.localModelPath = `${dirname(folder.path)}/`;
    let extractor: FeatureExtractor;
    try {
      extractor = await transformers.pipeline("feature-extraction", basename(folder.path), { dtype: folder.dtype });
    } catch (error) {
      throw new ConfigError(
        `cannot load the onnx model in ${folder.path}: ${(error as Error).message}`,
        "embedder",
        options.source,
      );
    }
    const probe = await extractor(["dimension probe"], { pooling: "mean", normalize: true });
    const dim = probe.dims[probe.dims.length - 1] ?? 0;
    return new OnnxEmbedder(onnxEmbedderId(dir), dim, extractor, options.batchSize ?? 32);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (const batch of chunk(texts, this.batchSize)) {
      const tensor = await this.extractor(batch, { pooling: "mean", normalize: true });
      const flat = Float32Array.from(tensor.data);
      if (flat.length !== batch.length * this.dim) {
        throw new Error(`${this.id} returned ${flat.length} values for ${batch.length} texts of dimension ${this.dim}`);
      }
      for (let row = 0; row < batch.length; row++) {
        out.push(toUnitVector(flat.subarray(row * this.dim, (row + 1) * this.dim)));
      }
    }
    return out;
  }
}
