/**
 * The MemoryAgentBench benchmark definition (ICLR 2026, arXiv 2507.05257).
 */
import type { BenchmarkDefinition } from "../types.ts";
import { loadMemoryAgentBench, MAB_VARIANTS } from "./load.ts";
import { memoryagentbenchProtocol } from "./protocol.ts";
import { memoryagentbenchRelease } from "./release.ts";
import { BENCHMARK_ID } from "./row.ts";
import { memoryagentbenchScorer } from "./score.ts";

export const memoryagentbenchBenchmark: BenchmarkDefinition = {
  id: BENCHMARK_ID,
  title: "MemoryAgentBench",
  variants: [...MAB_VARIANTS],
  labels: ["competency", "sub_dataset"],
  load: loadMemoryAgentBench,
  release: memoryagentbenchRelease,
  protocol: memoryagentbenchProtocol,
  scorer: memoryagentbenchScorer,
};
