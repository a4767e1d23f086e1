/**
 * LongMemEval loader: one of `longmemeval_{s_cleaned,m_cleaned,oracle}.json`,
 * or a folder holding them. Every file is streamed element by element, the
 * 2.7 GB LongMemEval_m included, so the same path is tested on all of them.
 */
import { basename } from "node:path";
import { ConfigError, DataError } from "../../core/errors.ts";
import type { Dataset } from "../../core/model.ts";
import { LoadContext } from "../shared/context.ts";
import { findFiles, isDirectory } from "../shared/files.ts";
import type { LoadOptions } from "../types.ts";
import { buildLongMemEvalInstance } from "./instance.ts";
import { streamJsonArray } from "./json-array-stream.ts";
import { isCleanedFile, VARIANTS, type Variant, variantOfFile } from "./labels.ts";
import { StringPool } from "./string-pool.ts";

/**
 * The file to read under `path`: the file itself, or in a folder the file of
 * `variant` (default: the first of s, m, oracle present; cleaned files first).
 */
export async function findLongMemEvalFile(path: string, variant?: Variant): Promise<string> {
  if (!isDirectory(path)) return path;
  const files = await findFiles(path, (_p, name) => variantOfFile(name) !== undefined);
  const rank = (f: string) => {
    const name = basename(f);
    return VARIANTS.indexOf(variantOfFile(name) as Variant) * 2 + (isCleanedFile(name) ? 0 : 1);
  };
  const candidates = files
    .filter((f) => variant === undefined || variantOfFile(basename(f)) === variant)
    .sort((a, b) => rank(a) - rank(b));
  const chosen = candidates[0];
  if (!chosen) {
    const wanted = variant ? `longmemeval_${variant}*.json` : "longmemeval_s_cleaned.json, _m_cleaned or _oracle";
    throw new DataError(`no LongMemEval file (${wanted}) in this folder`, { file: path });
  }
  return chosen;
}

function variantOption(options: LoadOptions): Variant | undefined {
  const { variant } = options;
  if (variant === undefined) return undefined;
  if ((VARIANTS as readonly string[]).includes(variant)) return variant as Variant;
  throw new ConfigError(`unknown LongMemEval variant "${variant}" (known: ${VARIANTS.join(", ")})`, "variant");
}

/** `options.variant` picks the file in a folder; a file path is read whatever its name. */
export async function loadLongMemEval(path: string, options: LoadOptions = {}): Promise<Dataset> {
  const ctx = new LoadContext("longmemeval", path, options);
  const file = await findLongMemEvalFile(path, variantOption(options));
  ctx.read(file);
  const pool = new StringPool();
  const questionIds = new Set<string>();
  for await (const { index, value } of streamJsonArray(file, { onProgress: options.onProgress, issues: ctx })) {
    const episode = buildLongMemEvalInstance(value, index, file, ctx, pool);
    const record = `question ${episode.id} (element ${index})`;
    if (questionIds.has(episode.id)) {
      throw new DataError(`duplicate question id "${episode.id}"`, { file, record, field: "question_id" });
    }
    questionIds.add(episode.id);
    ctx.add(episode, { file, record });
  }
  return ctx.dataset(variantOfFile(basename(file)));
}
