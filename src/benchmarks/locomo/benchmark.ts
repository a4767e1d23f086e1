import type { BenchmarkDefinition } from "../types.ts";
import { loadLocomo } from "./load.ts";
import { locomoProtocol } from "./protocol.ts";
import { locomoRelease } from "./release.ts";
import { locomoScorer } from "./score.ts";

export const locomoBenchmark: BenchmarkDefinition = {
  id: "locomo",
  title: "LoCoMo: very long-term conversational memory",
  // Both release layouts load through the same path; there is nothing for a user to choose.
  variants: [],
  labels: ["category"],
  load: loadLocomo,
  release: locomoRelease,
  protocol: locomoProtocol,
  scorer: locomoScorer,
};
