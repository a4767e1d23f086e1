/**
 * Memora protocol (arXiv 2604.20006 §4.1, App. E.2; released
 * `evals/agent_eval/memory_to_answer.py`): sessions ingested in order, every
 * question asked at the end at its own date, top-50 memories retrieved
 * (`search_memories(question, limit=50)`), shared answerer. Retrieval recall is
 * measured on memory-evidence sessions and stale@k on forgetting-evidence ones.
 */
import { makeProtocol, type ProtocolOptions } from "../../run/protocol.ts";

export const memoraProtocol = (options?: ProtocolOptions) =>
  makeProtocol(
    {
      depth: 50,
      ks: [10, 20, 50],
      instruction:
        "You are an assistant with access to the user's personal memories. Answer only from those memories, using " +
        "the most recent information when facts changed or were removed, be specific, and do not invent anything " +
        "they do not contain.",
    },
    options,
  );
