import type { BenchmarkDefinition } from "../types.ts";
import { VARIANTS } from "./labels.ts";
import { loadLongMemEval } from "./load.ts";
import { longmemevalProtocol } from "./protocol.ts";
import { longmemevalRelease } from "./release.ts";
import { longmemevalScorer } from "./score.ts";

export const longmemevalBenchmark: BenchmarkDefinition = {
  id: "longmemeval",
  title: "LongMemEval: long-term memory of chat assistants (ICLR 2025)",
  variants: [...VARIANTS],
  labels: ["question_type", "abstention"],
  load: (path, options) => loadLongMemEval(path, options),
  release: longmemevalRelease,
  protocol: longmemevalProtocol,
  scorer: longmemevalScorer,
};
