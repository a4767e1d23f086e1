/**
 * RealMem protocol (spec/realmem.md §5): sessions are ingested in array order;
 * each query is searched *before* its own session is ingested (the probe's
 * `before` position), with only the query text. Memory setting: top-20 items;
 * session setting: top-5 distinct sessions. Retrieval is measured at session
 * level for k ∈ {5, 10, 20}. Oracle = the gold sessions ingested so far (the
 * paper never defines it; spec §5.1).
 */
import { makeProtocol, type ProtocolOptions } from "../../run/protocol.ts";

export const realmemProtocol = (options?: ProtocolOptions) =>
  makeProtocol(
    {
      depth: 20,
      ks: [5, 10, 20],
      instruction:
        "You are a personal assistant helping the user with long-running projects. Reply to the user's latest " +
        "message, relying on the reference memories below for what was said and decided earlier.",
    },
    options,
  );
