/**
 * The result a view returns (a tally, the open tasks): its own text, the
 * memories it shows, and as provenance every session and turn it drew on, in
 * the order listed, so session-level recall counts each source once.
 */
import type { Hit, Memory } from "./types.ts";

export function viewHit(lines: readonly string[], shown: Memory[], sources: readonly Memory[], time?: string): Hit {
  return {
    kind: "memory",
    text: lines.join("\n"),
    score: 0,
    ...(time ? { time } : {}),
    sessionIds: [...new Set(sources.map((m) => m.sessionId))],
    turnIds: [...new Set(sources.flatMap((m) => m.turnIds))],
    memories: shown,
    links: [],
  };
}
