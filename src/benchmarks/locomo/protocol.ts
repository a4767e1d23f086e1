/**
 * LoCoMo protocol (Maharana et al., ACL 2024, arXiv 2402.17753): one conversation, all questions at the
 * end. Evidence is dialog ids, so retrieval is measured at turn level.
 */
import { makeProtocol, type ProtocolOptions } from "../shared/protocol.ts";

export const locomoProtocol = (options?: ProtocolOptions) =>
  makeProtocol(
    {
      depth: 20,
      answerDepth: 10,
      evidenceUnit: "turn",
      ks: [5, 10, 20],
      instruction:
        "The memories below are from a long conversation between two people. Answer the question with a short " +
        "phrase, using the conversation's own words where possible. If the conversation does not say, answer " +
        "that it is not mentioned.",
    },
    options,
  );
