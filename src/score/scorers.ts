/** Which scorer scores which benchmark: the one place score-run looks them up. */
import { locomoScorer } from "../benchmarks/locomo/score.ts";
import { longmemevalScorer } from "../benchmarks/longmemeval/score.ts";
import { memconflictScorer } from "../benchmarks/memconflict/score.ts";
import { memoraScorer } from "../benchmarks/memora/score.ts";
import { memoryagentbenchScorer } from "../benchmarks/memoryagentbench/score.ts";
import { realmemScorer } from "../benchmarks/realmem/score.ts";
import { subtlememoryScorer } from "../benchmarks/subtlememory/score.ts";
import type { BenchmarkScorer } from "./types.ts";

const SCORERS: Record<string, BenchmarkScorer> = {
  subtlememory: subtlememoryScorer,
  realmem: realmemScorer,
  memoryagentbench: memoryagentbenchScorer,
  memora: memoraScorer,
  memconflict: memconflictScorer,
  longmemeval: longmemevalScorer,
  locomo: locomoScorer,
};

export function scorerFor(bench: string): BenchmarkScorer | undefined {
  return SCORERS[bench];
}
