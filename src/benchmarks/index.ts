/**
 * The benchmark registry: the one place the CLI, the runner, the scoring and
 * the report look benchmarks up, with their protocols and scorers.
 */
import { ConfigError } from "../core/errors.ts";
import type { Dataset } from "../core/model.ts";
import type { BenchmarkScorer } from "../score/types.ts";
import { BENCHMARK_ALIASES } from "./ids.ts";
import { locomoBenchmark } from "./locomo/index.ts";
import { longmemevalBenchmark } from "./longmemeval/index.ts";
import { memconflictBenchmark } from "./memconflict/index.ts";
import { memoraBenchmark } from "./memora/index.ts";
import { memoryagentbenchBenchmark } from "./memoryagentbench/index.ts";
import { realmemBenchmark } from "./realmem/index.ts";
import { makeProtocol, type ProtocolFactory } from "./shared/protocol.ts";
import { subtlememoryBenchmark } from "./subtlememory/index.ts";
import type { BenchmarkDefinition, LoadOptions } from "./types.ts";
import { isUnifiedJsonl, loadUnified } from "./unified/format.ts";

export { isUnifiedJsonl, loadUnified, unifiedSources, writeUnified } from "./unified/format.ts";

/** Episodes in membench's own JSONL format, from any source. */
export const unifiedBenchmark: BenchmarkDefinition = {
  id: "unified",
  title: "membench unified JSONL (any converted dataset)",
  variants: [],
  labels: [],
  load: (path, options) => loadUnified(path, options),
  protocol: (options) => makeProtocol({ depth: 10 }, options),
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
 * A variant must be one the benchmark lists.
 */
export async function loadDataset(id: string, path: string, options?: LoadOptions): Promise<Dataset> {
  const bench = getBenchmark(id);
  if (options?.variant !== undefined && !bench.variants.includes(options.variant)) {
    const known = bench.variants.length ? `known: ${bench.variants.join(", ")}` : `${bench.id} has no variants`;
    throw new ConfigError(`unknown variant "${options.variant}" of ${bench.id}; ${known}`, "variant", "--variant");
  }
  if (bench.id !== "unified" && isUnifiedJsonl(path)) return loadUnified(path, { ...options, benchmark: bench.id });
  return bench.load(path, options);
}

/** The benchmark's protocol factory; the unified (default) protocol for a benchmark without one or unknown. */
export function protocolFor(benchmark: string): ProtocolFactory {
  return BENCHMARKS.find((b) => b.id === benchmark)?.protocol ?? unifiedBenchmark.protocol!;
}

/** The benchmark's scorer, by its exact id; undefined when it has none (unified) or is unknown. */
export function scorerFor(benchmark: string): BenchmarkScorer | undefined {
  return BENCHMARKS.find((b) => b.id === benchmark)?.scorer;
}
