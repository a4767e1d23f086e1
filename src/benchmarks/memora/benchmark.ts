/**
 * Memora (Uddin et al., ACL 2026): persona chats over a week, a month or a
 * quarter with memories added, updated and deleted, scored with FAMA.
 */
import type { BenchmarkDefinition } from "../types.ts";
import { DURATIONS } from "./labels.ts";
import { loadMemora, MEMORA_ID } from "./load.ts";
import { memoraProtocol } from "./protocol.ts";
import { memoraRelease } from "./release.ts";
import { memoraScorer } from "./score.ts";

export const memoraBenchmark: BenchmarkDefinition = {
  id: MEMORA_ID,
  title: "Memora: from recall to forgetting (FAMA)",
  variants: [...DURATIONS],
  // Table 3 of the paper: task × duration.
  labels: ["task", "duration"],
  load: loadMemora,
  release: memoraRelease,
  protocol: memoraProtocol,
  scorer: memoraScorer,
};
