import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DataError } from "../../src/core/errors.ts";
import type { EpisodeInput } from "../../src/core/model.ts";
import { validateEpisode } from "../../src/core/validate.ts";

function episode(): EpisodeInput {
  return {
    id: "ep1",
    benchmark: "test",
    sessions: [
      {
        id: "s1",
        index: 0,
        time: "2024-03-05",
        turns: [
          { id: "s1#0", index: 0, role: "user", content: "I moved to Lisbon." },
          { id: "s1#1", index: 1, role: "assistant", content: "Nice!" },
        ],
      },
      {
        id: "s2",
        index: 1,
        time: "2024-03-06T10:00:00",
        turns: [{ id: "s2#0", index: 0, role: "user", content: "hi" }],
      },
    ],
    probes: [
      {
        id: "p1",
        question: "Where do I live?",
        position: { at: "end" },
        labels: { category: "single-hop" },
        gold: { answers: ["Lisbon"], evidenceSessionIds: ["s1"], evidenceTurnIds: ["s1#0"] },
      },
    ],
  };
}

function dataErrorOf(fn: () => unknown): DataError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof DataError, `expected DataError, got ${String(error)}`);
    return error;
  }
  assert.fail("expected a DataError");
}

describe("validateEpisode", () => {
  it("accepts a well-formed episode and fills gold defaults", () => {
    const { episode: ep, warnings } = validateEpisode(episode(), { file: "x.json" });
    assert.deepEqual(warnings, []);
    assert.deepEqual(ep.probes[0]?.gold.wrongAnswers, []);
    assert.deepEqual(ep.probes[0]?.gold.criteria, []);
  });

  it("names the file, record and field of a schema error", () => {
    const bad = episode();
    (bad.sessions[1]?.turns[0] as { role: string }).role = "robot";
    const err = dataErrorOf(() => validateEpisode(bad, { file: "data/x.json" }));
    assert.equal(err.file, "data/x.json");
    assert.equal(err.record, "episode ep1");
    assert.equal(err.field, "sessions[1].turns[0].role");
    assert.match(err.message, /data\/x\.json.*episode ep1.*sessions\[1\]\.turns\[0\]\.role/);
  });

  it("rejects a bad time format", () => {
    const bad = episode();
    (bad.sessions[0] as { time: string }).time = "8 May 2023";
    assert.equal(dataErrorOf(() => validateEpisode(bad, {})).field, "sessions[0].time");
  });

  it("rejects duplicate session, turn and probe ids", () => {
    const dupSession = episode();
    (dupSession.sessions[1] as { id: string }).id = "s1";
    assert.match(dataErrorOf(() => validateEpisode(dupSession, {})).message, /duplicate session id "s1"/);
    const dupTurn = episode();
    (dupTurn.sessions[1]?.turns[0] as { id: string }).id = "s1#0";
    assert.match(dataErrorOf(() => validateEpisode(dupTurn, {})).message, /duplicate turn id/);
    const dupProbe = episode();
    dupProbe.probes.push({ ...dupProbe.probes[0]! });
    assert.equal(dataErrorOf(() => validateEpisode(dupProbe, {})).field, "probe.id");
  });

  it("rejects a probe firing at an unknown session", () => {
    const bad = episode();
    bad.probes[0]!.position = { at: "before", sessionId: "s9" };
    const err = dataErrorOf(() => validateEpisode(bad, { file: "f" }));
    assert.equal(err.field, "position.sessionId");
    assert.match(err.record ?? "", /probe p1/);
  });

  it("warns about dangling evidence and probes without gold", () => {
    const ep = episode();
    ep.probes[0]!.gold = { evidenceSessionIds: ["s7"], evidenceTurnIds: ["s1#9"] };
    const { warnings } = validateEpisode(ep, {});
    assert.equal(warnings.length, 3);
    assert.match(warnings.join("\n"), /evidence session "s7"/);
    assert.match(warnings.join("\n"), /evidence turn "s1#9"/);
    assert.match(warnings.join("\n"), /no gold/);
  });
});
