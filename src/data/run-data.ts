/**
 * Loading a benchmark's data for `run`, `run --resume` and `score`: strict
 * unless the user asked for `--lenient`, and never silent about the warnings
 * the load gathered (strict mode keeps the ones that cannot change a score).
 */
import { loadDataset } from "../benchmarks/index.ts";
import type { Dataset } from "../core/model.ts";
import { log } from "../util/log.ts";

export interface RunDataOptions {
  lenient?: boolean;
  /** `--variant`: one of the benchmark's variants (MemoryAgentBench `all`, a Memora duration, a LongMemEval file). */
  variant?: string;
}

export async function loadRunData(bench: string, path: string, options: RunDataOptions = {}): Promise<Dataset> {
  const dataset = await loadDataset(bench, path, {
    strict: !options.lenient,
    ...(options.variant !== undefined ? { variant: options.variant } : {}),
  });
  const n = dataset.warnings.length;
  if (n) {
    log.warn(
      `${n} data warning${n === 1 ? "" : "s"} (\`membench data inspect ${dataset.benchmark} ${path}\` lists them); the first: ${dataset.warnings[0]}`,
    );
  }
  return dataset;
}
