import type { BenchmarkDefinition } from "../types.ts";
import { loadSubtleMemory } from "./load.ts";
import { subtlememoryProtocol } from "./protocol.ts";
import { subtlememoryRelease } from "./release.ts";
import { subtlememoryScorer } from "./score.ts";

export const subtlememoryBenchmark: BenchmarkDefinition = {
  id: "subtlememory",
  title: "SubtleMemory: fine-grained relational memory discrimination",
  // One release, no variants: the ten personas are episodes, not variants.
  variants: [],
  labels: ["relation_type", "relation_subtype", "source", "topic"],
  load: loadSubtleMemory,
  release: subtlememoryRelease,
  protocol: subtlememoryProtocol,
  scorer: subtlememoryScorer,
};
