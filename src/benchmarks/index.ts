/**
 * The benchmark registry: the one place the CLI and the runner look benchmarks up.
 */
import { ConfigError } from "../core/errors.ts";
import type { Dataset } from "../core/model.ts";
import { isUnifiedJsonl, loadUnified } from "../data/unified.ts";
import { BENCHMARK_ALIASES } from "./ids.ts";
import { locomoBenchmark } from "./locomo/index.ts";
import { longmemevalBenchmark } from "./longmemeval/index.ts";
import { memconflictBenchmark } from "./memconflict/index.ts";
import { memoraBenchmark } from "./memora/index.ts";
import { memoryagentbenchBenchmark } from "./memoryagentbench/index.ts";
import { realmemBenchmark } from "./realmem/index.ts";
import { subtlememoryBenchmark } from "./subtlememory/index.ts";
import type { BenchmarkDefinition, LoadOptions } from "./types.ts";

/** Episodes in membench's own JSONL format, from any source. */
export const unifiedBenchmark: BenchmarkDefinition = {
  id: "unified",
  title: "membench unified JSONL (any converted dataset)",
  variants: [],
  labels: [],
  load: (path, options) => loadUnified(path, options),
};

export const BENCHMARKS: readonly BenchmarkDefinition[] = [
  subtlememoryBenchmark,
  realmemBenchmark,
  memoryagentbenchBenchmark,
  memoraBenchmark,
  memconflictBenchmark,
  longmemevalBenchmark,
  locomoBenchmark,
  unifiedBenchmark,
];

export function benchmarkIds(): string[] {
  return BENCHMARKS.map((b) => b.id);
}

export function getBenchmark(id: string): BenchmarkDefinition {
  const key = BENCHMARK_ALIASES[id.toLowerCase()] ?? id.toLowerCase();
  const found = BENCHMARKS.find((b) => b.id === key);
  if (!found) throw new ConfigError(`unknown benchmark "${id}"; known: ${benchmarkIds().join(", ")}`, "benchmark");
  return found;
}

/**
 * Loads `path` for benchmark `id`. A unified JSONL file (from `data convert`)
 * is accepted for every benchmark, so converted data runs under its protocol.
 */
export async function loadDataset(id: string, path: string, options?: LoadOptions): Promise<Dataset> {
  const bench = getBenchmark(id);
  if (bench.id !== "unified" && isUnifiedJsonl(path)) return loadUnified(path, { ...options, benchmark: bench.id });
  return bench.load(path, options);
}
