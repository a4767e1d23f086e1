import type { BenchmarkDefinition } from "../types.ts";
import { loadRealMem } from "./load.ts";
import { realmemProtocol } from "./protocol.ts";
import { realmemRelease } from "./release.ts";
import { realmemScorer } from "./score.ts";

export const realmemBenchmark: BenchmarkDefinition = {
  id: "realmem",
  title: "RealMem: long-term project-oriented dialogue with queries asked inside sessions",
  variants: [],
  labels: ["category", "session_type", "topic", "persona"],
  load: (path, options) => loadRealMem(path, options),
  release: realmemRelease,
  protocol: realmemProtocol,
  scorer: realmemScorer,
};
