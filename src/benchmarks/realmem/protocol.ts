/**
 * RealMem protocol (arXiv 2601.06966; released `eval/eval_mem0.py`): sessions are ingested in array order;
 * each query is searched *before* its own session is ingested (the probe's
 * `before` position), with only the query text. Memory setting: top-20 items;
 * session setting: top-5 distinct sessions. Retrieval is measured at session
 * level for k ∈ {5, 10, 20}. Oracle = the gold sessions ingested so far (the
 * paper never defines it): the gold `memory_used` items in the
 * memory setting, the gold sessions in the session setting.
 *
 * `--context memory` (default) gives the answerer the top-20 items;
 * `--context session` the whole text of the first 5 distinct source sessions.
 */
import {
  makeProtocol,
  oracleMemories,
  oracleSessions,
  type ProtocolOptions,
  sessionContext,
} from "../shared/protocol.ts";

export const realmemProtocol = (options: ProtocolOptions = {}) => {
  const session = options.context === "session";
  return makeProtocol(
    {
      depth: 20,
      answerDepth: session ? 5 : 20,
      ks: [5, 10, 20],
      oracle: (probe, ingested) =>
        session || !probe.gold.evidenceMemories.length ? oracleSessions(probe, ingested) : oracleMemories(probe),
      buildContext: session
        ? (items, input) => sessionContext(items, input.sessions ?? new Map(), input.maxItems, input.maxTokens)
        : undefined,
      instruction:
        "You are a personal assistant helping the user with long-running projects. Reply to the user's latest " +
        "message, relying on the reference memories below for what was said and decided earlier.",
    },
    options,
  );
};
