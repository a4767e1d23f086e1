import type { Dataset } from "../../src/core/model.ts";
import { validateEpisode } from "../../src/core/validate.ts";

/** A small in-memory dataset in the unified model, for tests of code past the loaders. */
export function sampleDataset(): Dataset {
  const { episode } = validateEpisode(
    {
      id: "conv-1",
      benchmark: "locomo",
      labels: { persona: "alex" },
      sessions: [0, 1, 2].map((s) => ({
        id: `session_${s + 1}`,
        index: s,
        time: `2023-05-0${s + 1}`,
        turns: [
          {
            id: `D${s + 1}:1`,
            index: 0,
            role: "user",
            speaker: "Alex",
            content: `Day ${s + 1}: I adopted a cat named Miso.`,
          },
          {
            id: `D${s + 1}:2`,
            index: 1,
            role: "assistant",
            speaker: "Sam",
            content: "That is lovely <script>x</script>.",
          },
        ],
      })),
      probes: [
        {
          id: "conv-1:q0",
          question: "What is the cat called?",
          position: { at: "end" },
          labels: { category: "single-hop" },
          gold: { answers: ["Miso"], evidenceSessionIds: ["session_1"], evidenceTurnIds: ["D1:1"] },
        },
        {
          id: "conv-1:q1",
          question: "When was the cat adopted?",
          position: { at: "end" },
          labels: { category: "temporal" },
          gold: { answers: ["1 May 2023"], evidenceSessionIds: ["session_1"] },
        },
        {
          id: "conv-1:q2",
          question: "What is Sam's dog called?",
          position: { at: "end" },
          labels: { category: "adversarial" },
          gold: { wrongAnswers: ["Miso"] },
        },
      ],
    },
    { file: "memory" },
  );
  return { benchmark: "locomo", source: { path: "memory", files: [] }, episodes: [episode], warnings: [] };
}
