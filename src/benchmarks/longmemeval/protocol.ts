/**
 * LongMemEval protocol (Wu et al., ICLR 2025, arXiv 2410.10813): each question has its own haystack,
 * ingested session by session; the question fires at the end at its date.
 * Evidence: answer sessions, and `has_answer` turns where marked.
 */
import { makeProtocol, type ProtocolOptions } from "../shared/protocol.ts";

export const longmemevalProtocol = (options?: ProtocolOptions) =>
  makeProtocol(
    {
      depth: 20,
      answerDepth: 10,
      ks: [5, 10, 20],
      instruction:
        "The memories below come from your earlier chats with the user. Using the relevant ones, answer the " +
        "question as briefly as you can. If the chats never covered it, say you do not know.",
    },
    options,
  );
