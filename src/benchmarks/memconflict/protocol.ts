/**
 * MemConflict protocol (arXiv 2605.20926, evaluation protocol): session by session; each
 * question fires right after the session that carries it; the system retrieves
 * max(K, 5) = 5 items and the answerer sees the top 3. SEH/SRS by provenance
 * at K = 2, 3, 5. The oracle is the supporting memory texts the question is
 * about, falling back to the supporting sessions.
 */
import type { Probe, Session } from "../../core/model.ts";
import { makeProtocol, oracleMemories, oracleSessions, type ProtocolOptions } from "../shared/protocol.ts";

export const memconflictProtocol = (options?: ProtocolOptions) =>
  makeProtocol(
    {
      depth: 5,
      answerDepth: 3,
      ks: [2, 3, 5],
      supportKs: [2, 3, 5],
      oracle: (probe: Probe, ingested: readonly Session[]) =>
        probe.gold.evidenceMemories.length ? oracleMemories(probe) : oracleSessions(probe, ingested),
      instruction:
        "Answer the question from the retrieved memories only. Do not add facts they do not support; if they are " +
        "not enough, say you cannot confirm. If they disagree, point out the disagreement briefly, then give the " +
        "best-supported answer. Be concise.",
    },
    options,
  );
