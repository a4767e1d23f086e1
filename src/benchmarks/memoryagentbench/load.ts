/**
 * Loads MemoryAgentBench from its Hugging Face parquet release: one split
 * file, or a folder searched recursively for `*.parquet`. Each row becomes one
 * Episode (the whole context as one user turn) with one probe per question.
 *
 * Episode ids are `<metadata.source>:<k>`, where k counts the rows of that
 * source in their file from 0. That is the official context index (the
 * official loader filters rows by source and keeps file order), and it stays
 * stable when rows of other sources are added or removed.
 */
import { basename } from "node:path";
import { ConfigError, DataError } from "../../core/errors.ts";
import type { Dataset } from "../../core/model.ts";
import { LoadContext } from "../shared/context.ts";
import { fileSize, findFiles, relativeTo } from "../shared/files.ts";
import type { LoadOptions } from "../types.ts";
import { readParquetTable } from "./parquet.ts";
import { BENCHMARK_ID, readSource, rowToEpisode } from "./row.ts";
import { splitOfFileName } from "./sources.ts";

/**
 * `main`: the fourteen sub-datasets of the paper's main results (2,071 questions).
 * `all`: every row, including the context-length ablation variants.
 */
export const MAB_VARIANTS = ["main", "all"] as const;
export type MabVariant = (typeof MAB_VARIANTS)[number];

export interface MabLoadOptions extends LoadOptions {
  variant?: string;
}

const REQUIRED_COLUMNS = ["context", "questions", "answers", "metadata"];

function checkVariant(variant: string): MabVariant {
  const found = MAB_VARIANTS.find((v) => v === variant);
  if (!found) throw new ConfigError(`unknown variant "${variant}" (expected ${MAB_VARIANTS.join(" or ")})`, "variant");
  return found;
}

export async function loadMemoryAgentBench(path: string, options: MabLoadOptions = {}): Promise<Dataset> {
  const variant = checkVariant(options.variant ?? MAB_VARIANTS[0]);
  const ctx = new LoadContext(BENCHMARK_ID, path, options);
  const files = await findFiles(path, (_p, name) => name.toLowerCase().endsWith(".parquet"));
  const total = files.reduce((sum, f) => sum + fileSize(f), 0);
  let done = 0;

  for (const file of files) {
    const table = await readParquetTable(file, ctx);
    ctx.read(file);
    if (table.rows.length) {
      for (const column of REQUIRED_COLUMNS) {
        if (!table.columns.includes(column)) {
          throw new DataError(`column missing from the file (it has: ${table.columns.join(", ") || "none"})`, {
            file,
            record: "row 0",
            field: column,
          });
        }
      }
    }
    const fileSplit = splitOfFileName(basename(file));
    const relativeFile = relativeTo(path, file);
    const ordinals = new Map<string, number>();
    table.rows.forEach((row, index) => {
      const where = { file, record: `row ${index}` };
      const source = readSource(row, where);
      const ordinal = ordinals.get(source) ?? 0;
      ordinals.set(source, ordinal + 1);
      // Every row is checked, even one the variant leaves out, so a bad file fails the same way in both variants.
      const mapped = rowToEpisode(row, source, { ...where, fileSplit, relativeFile, row: index, ordinal }, ctx);
      if (variant === "all" || mapped.known?.main) ctx.add(mapped.episode, where);
    });
    done += fileSize(file);
    options.onProgress?.(done, total);
  }
  return ctx.dataset(variant);
}
