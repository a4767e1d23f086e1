/**
 * SubtleMemory protocol (arXiv 2606.05761 §3.1, App. C.1): the whole history is
 * ingested at the system's own granularity, every probe fires after it, and the
 * retrieved items are given to the answerer as a flat numbered memory list.
 * The harness's adapters mostly retrieve top_k = 20.
 */
import { makeProtocol, type ProtocolOptions } from "../shared/protocol.ts";

export const subtlememoryProtocol = (options?: ProtocolOptions) =>
  makeProtocol(
    {
      depth: 20,
      ks: [5, 10, 20],
      instruction:
        "You are a personal assistant with a memory of earlier conversations. The memories below may complement, " +
        "refine or contradict each other: read them all, prefer the one that fits the question's time and context, " +
        "and mention a contradiction when you cannot resolve it. If the memories do not answer the question, say so. " +
        "Answer concisely.",
    },
    options,
  );
