/**
 * Benchmark ids and aliases, apart from the registry (src/benchmarks/index.ts)
 * so the CLI's help can name them without loading every loader. A test keeps
 * this list equal to the registry's.
 */
export const BENCHMARK_IDS = [
  "subtlememory",
  "realmem",
  "memoryagentbench",
  "memora",
  "memconflict",
  "longmemeval",
  "locomo",
  "unified",
] as const;

export const BENCHMARK_ALIASES: Readonly<Record<string, string>> = {
  mab: "memoryagentbench",
  lme: "longmemeval",
  jsonl: "unified",
};
