import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyseMisses } from "../../bench/ledger-misses.ts";
import type { Episode } from "../../src/core/model.ts";
import type { ProbeRecord } from "../../src/core/record.ts";
import { probeRecord } from "../support/scoring.ts";

const filler = (i: number) => ({
  id: `f${i}`,
  index: i + 3,
  turns: [{ id: `f${i}#0`, index: 0, role: "user" as const, content: `Weather chat number ${i}.` }],
});

// Enough sessions that "lighthouse" (in two of them) counts as a selective word.
const episode: Episode = {
  id: "e1",
  benchmark: "realmem",
  labels: {},
  sessions: [
    { id: "s1", index: 0, turns: [{ id: "s1#0", index: 0, role: "user", content: "We painted the lighthouse red." }] },
    { id: "s2", index: 1, turns: [{ id: "s2#0", index: 0, role: "user", content: "My knee hurts after running." }] },
    { id: "s3", index: 2, turns: [{ id: "s3#0", index: 0, role: "user", content: "The lighthouse keeper waved." }] },
    ...Array.from({ length: 20 }, (_, i) => filler(i)),
  ],
  probes: [
    {
      id: "p1",
      question: "What colour is the lighthouse now?",
      position: { at: "end" },
      labels: {},
      gold: {
        answers: ["red"],
        wrongAnswers: [],
        criteria: [],
        evidenceSessionIds: ["s1", "s2"],
        evidenceTurnIds: [],
        evidenceMemories: [],
        staleSessionIds: [],
      },
    },
  ],
};

function ranked(...sessions: string[]): ProbeRecord {
  return probeRecord(episode, episode.probes[0]!, {
    retrieved: sessions.map((id, rank) => ({ rank, text: id, score: 1 / (rank + 1), sessionIds: [id] })),
  });
}

describe("ledger miss analysis", () => {
  it("files a missed session without any of the query's selective words as 'no lexical cue'", () => {
    const report = analyseMisses([episode], [ranked("s1", "s3")], 2);
    assert.equal(report.missed, 1);
    assert.deepEqual(report.causes, [{ cause: "no lexical cue", sessions: 1 }]);
    assert.deepEqual(report.bySize, [{ evidence: "2 sessions", probes: 1, missed: 1 }]);
  });

  it("files a cued session ranked just below the cut apart from one ranked far below", () => {
    const near = analyseMisses([episode], [ranked("s3", "f0", "s1", "s2")], 2);
    assert.deepEqual(near.causes.map((c) => c.cause).sort(), ["no lexical cue", "ranked 3..4"]);
    const far = analyseMisses([episode], [ranked("s3", "f0", "f1", "f2", "f3", "s1")], 2);
    assert.ok(far.causes.some((c) => c.cause === "ranked below 4"));
  });

  it("splits missed multi-session probes by what the top k held of their evidence", () => {
    const first = analyseMisses([episode], [ranked("s1", "s3")], 2);
    assert.deepEqual(first.multi, { missed: 1, someInTop: 1, firstIsEvidence: 1 });
    const second = analyseMisses([episode], [ranked("s3", "s1")], 2);
    assert.deepEqual(second.multi, { missed: 1, someInTop: 1, firstIsEvidence: 0 });
    const none = analyseMisses([episode], [ranked("s3", "f0", "s1")], 2);
    assert.deepEqual(none.multi, { missed: 1, someInTop: 0, firstIsEvidence: 0 });
  });

  it("counts a probe whose evidence is all in the top k as found", () => {
    const report = analyseMisses([episode], [ranked("s2", "s1")], 2);
    assert.equal(report.probes, 1);
    assert.equal(report.missed, 0);
  });
});
