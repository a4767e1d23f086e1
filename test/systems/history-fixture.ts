/** Small hand-made histories for the system tests. */
import type { Role } from "../../src/core/model.ts";
import type { IngestBatch, MemorySystem } from "../../src/systems/types.ts";

/** A session `id` whose turns are `${id}-t1`, `${id}-t2`... alternating user / assistant. */
export function batch(id: string, index: number, lines: string[], time?: string): IngestBatch {
  return {
    sessionId: id,
    sessionIndex: index,
    ...(time ? { time } : {}),
    turns: lines.map((content, i) => ({
      id: `${id}-t${i + 1}`,
      role: (i % 2 === 0 ? "user" : "assistant") as Role,
      content,
    })),
  };
}

export async function ingestAll(system: MemorySystem, ns: string, batches: IngestBatch[]): Promise<void> {
  await system.open(ns);
  for (const b of batches) await system.ingest(ns, b);
  await system.flush?.(ns);
}

/** A pets / travel / cooking history: each session has one rare word of its own. */
export const SMALL_HISTORY: IngestBatch[] = [
  batch(
    "s1",
    0,
    ["I adopted a cat from the shelter yesterday.", "Lovely, what is the cat called?", "We named him Biscuit."],
    "2024-01-01",
  ),
  batch(
    "s2",
    1,
    [
      "Next month I fly to Montevideo for a conference.",
      "Montevideo in March should be warm.",
      "I packed sunscreen already.",
    ],
    "2024-02-01",
  ),
  batch(
    "s3",
    2,
    [
      "I tried baking sourdough with a rye starter.",
      "Did the rye sourdough rise well?",
      "Not really, the cat knocked the jar over.",
    ],
    "2024-03-01",
  ),
];
