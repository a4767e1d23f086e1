/**
 * The replay lets the event loop turn while it works: a system that answers
 * from memory settles every promise at once, and a replay that never yielded
 * would leave the answers it handed over unread until the unit ended.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { makeProtocol } from "../../src/benchmarks/shared/protocol.ts";
import { type Episode, Gold, type Probe } from "../../src/core/model.ts";
import { replayUnit } from "../../src/run/replay.ts";
import type { MemorySystem } from "../../src/systems/types.ts";

/** 400 probes after one session: LoCoMo's shape, all fired at the end. */
function episode(): Episode {
  const probes: Probe[] = Array.from({ length: 400 }, (_, i) => ({
    id: `p${i}`,
    question: `question ${i}?`,
    position: { at: "end" },
    labels: {},
    gold: Gold.parse({}),
  }));
  return {
    id: "e",
    sessions: [{ id: "s1", index: 0, turns: [{ id: "t1", role: "user", content: "hello" }] }],
    probes,
  } as Episode;
}

/** Works 0.1 ms per search, in memory: every promise it returns is already settled. */
const busySystem: MemorySystem = {
  id: "busy",
  caps: { granularity: "session", ranked: true, provenance: true, readback: false, nativeAnswer: false },
  open: async () => {},
  ingest: async () => {},
  search: async () => {
    const until = performance.now() + 0.1;
    while (performance.now() < until);
    return [{ text: "a memory", score: 1, sessionIds: ["s1"] }];
  },
  close: async () => {},
};

describe("replay time slices", () => {
  it("lets timers and sockets run while it fires probes, not only once the unit is done", async () => {
    let fired = 0;
    let firedWhenTurned = -1;
    setImmediate(() => {
      firedWhenTurned = fired;
    });
    await replayUnit({
      unitId: "busy|e",
      systemId: "busy",
      system: busySystem,
      episode: episode(),
      protocol: makeProtocol({ depth: 5 }),
      settings: ["default"],
      onProbe: () => {
        fired++;
      },
    });
    assert.equal(fired, 400);
    // 400 × 0.1 ms is 40 ms of work: the loop turned within the first slices.
    assert.ok(firedWhenTurned >= 0 && firedWhenTurned < 200, `the loop turned after ${firedWhenTurned} probes`);
  });
});
