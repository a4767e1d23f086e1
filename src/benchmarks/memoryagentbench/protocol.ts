/**
 * MemoryAgentBench protocol (arXiv 2507.05257 §3.3, §4.1; released `main.py`, `agent.py`): each
 * row's context is chunked (512 tokens for the synthetic sets, 4096 for the
 * others, `--chunk-size` to override) and every chunk is memorised as one user
 * turn wrapped in a "memorise this" instruction; all questions fire after the
 * last chunk; RAG agents read the top-10 chunks. Each chunk becomes its own
 * session, so turn- and session-level retrieval both retrieve chunks.
 *
 * The memorise wrappers are our own wording of the released templates'
 * structure (what the context is, then an acknowledgement). The reference
 * stamps each with the wall-clock time of injection; we leave it out, since it
 * carries no information and would defeat caching.
 */
import type { Episode } from "../../core/model.ts";
import { makeProtocol, type ProtocolOptions } from "../shared/protocol.ts";
import { chunkText } from "./chunk.ts";
import { MAB_DEFAULTS, type MabFamily, mabSource } from "./sources.ts";

const WHAT: Record<MabFamily, [string, string]> = {
  ruler_qa: ["documents I have read", "I have studied the documents and will answer your questions about them."],
  longmemeval: [
    "a conversation between the user and the assistant",
    "I have memorised the conversation and will answer your questions.",
  ],
  eventqa: ["an excerpt of a book", "I have read the excerpt and will answer your questions."],
  in_context_learning: ["examples I have learned from", "I have learned the examples and will answer your questions."],
  recsys_redial: [
    "dialogues between a user and a recommender system",
    "I have memorised the dialogues and will answer your questions.",
  ],
  infbench_sum: ["a book I have read", "I have read the book and will answer your questions."],
  detective_qa: ["a book I have read", "I have read the book and will answer your questions."],
  factconsolidation: ["facts I have learned", "I have learned the facts and will answer your questions."],
};

export function memorizeTurn(family: MabFamily | undefined, chunk: string): string {
  const [what, ack] = WHAT[family ?? "ruler_qa"];
  return `Please memorise what follows for later questions. It is ${what}:\n${chunk}\n(Assistant: ${ack})`;
}

/** The chunk size the paper used for this sub-dataset, unless overridden. */
export function chunkSizeFor(source: string | undefined, override?: number): number {
  return override ?? (source ? mabSource(source)?.chunkSize : undefined) ?? MAB_DEFAULTS.memoryAgentChunkSize;
}

export function chunkEpisode(episode: Episode, chunkSize?: number): Episode {
  const source = episode.labels.sub_dataset;
  const family = source ? mabSource(source)?.family : undefined;
  const text = episode.sessions.flatMap((s) => s.turns.map((t) => t.content)).join("\n");
  const chunks = chunkText(text, chunkSizeFor(source, chunkSize));
  return {
    ...episode,
    sessions: chunks.map((chunk, i) => {
      const id = `chunk-${String(i + 1).padStart(4, "0")}`;
      return {
        id,
        index: i,
        turns: [{ id: `${id}#0`, index: 0, role: "user" as const, content: memorizeTurn(family, chunk) }],
      };
    }),
  };
}

export const memoryagentbenchProtocol = (options: ProtocolOptions = {}) =>
  makeProtocol(
    {
      depth: MAB_DEFAULTS.topK,
      ks: [5, 10],
      prepare: (episode) => chunkEpisode(episode, options.chunkSize),
      instruction:
        "You memorised the material below earlier. Answer the request from it only, with just the answer and no " +
        "other words, in the format the request asks for.",
    },
    options,
  );
