/**
 * membench's own interchange format: JSONL, one unified Episode per line.
 * `data convert` writes it; any benchmark's loader reads it, so a user can
 * bring a dataset converted from anything.
 */

import { once } from "node:events";
import { closeSync, createWriteStream, openSync, readSync, renameSync } from "node:fs";
import { DataError } from "../../core/errors.ts";
import type { Dataset } from "../../core/model.ts";
import { LoadContext } from "../shared/context.ts";
import { isRecord } from "../shared/fields.ts";
import { readJsonl, statPath } from "../shared/files.ts";
import type { LoadOptions } from "../types.ts";

/** True when `file` is a JSONL file whose first record is a unified episode. */
export function isUnifiedJsonl(file: string): boolean {
  if (!file.endsWith(".jsonl")) return false;
  let head = "";
  try {
    const fd = openSync(file, "r");
    const buf = Buffer.alloc(1 << 20);
    const n = readSync(fd, buf, 0, buf.length, 0);
    closeSync(fd);
    head = buf.subarray(0, n).toString("utf8");
  } catch {
    return false;
  }
  const first = head.split("\n").find((l) => l.trim()) ?? "";
  // The first line may be cut by the 1 MiB read: look at its keys only.
  return first.startsWith("{") && ['"benchmark":', '"sessions":'].every((k) => first.includes(k));
}

export async function loadUnified(file: string, options: LoadOptions & { benchmark?: string } = {}): Promise<Dataset> {
  if (statPath(file).isDirectory()) {
    throw new DataError("is a folder; unified data is one .jsonl file (as `membench data convert` writes it)", {
      file,
    });
  }
  const ctx = new LoadContext(options.benchmark ?? "unified", file, options);
  let named: string | undefined;
  for await (const { line, value } of readJsonl(file, ctx)) {
    if (!isRecord(value)) throw new DataError("expected an episode object", { file, record: `line ${line}` });
    const benchmark = typeof value.benchmark === "string" ? value.benchmark : (options.benchmark ?? "unified");
    named ??= benchmark;
    if (options.benchmark && benchmark !== options.benchmark) {
      ctx.issue(`episode is from benchmark "${benchmark}", not "${options.benchmark}"`, {
        file,
        record: `line ${line}`,
        field: "benchmark",
      });
    }
    ctx.add(value as never, { file, record: `line ${line}` });
  }
  if (named === undefined) throw new DataError("no episodes in file", { file });
  ctx.read(file);
  // Without a benchmark asked for, the dataset is the first episode's benchmark.
  return { ...ctx.dataset(), benchmark: options.benchmark ?? named };
}

/** The benchmarks a unified dataset's episodes say they came from (what `data convert` recorded), sorted. */
export function unifiedSources(dataset: Dataset): string[] {
  return [...new Set(dataset.episodes.map((e) => e.benchmark))].sort();
}

/** Writes a dataset as unified JSONL, atomically (a temp file renamed into place). */
export async function writeUnified(dataset: Dataset, out: string): Promise<number> {
  const tmp = `${out}.partial`;
  const stream = createWriteStream(tmp, "utf8");
  for (const episode of dataset.episodes) {
    if (!stream.write(`${JSON.stringify(episode)}\n`)) await once(stream, "drain");
  }
  stream.end();
  await once(stream, "finish");
  renameSync(tmp, out);
  return dataset.episodes.length;
}
