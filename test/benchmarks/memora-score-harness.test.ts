/**
 * Memora's released harness quirks as options (spec/memora.md §11.5–6):
 * `user_agent=drop` keeps the user's turns out of the history (Track 1's
 * context builder with the release's `user_agent` speaker) and
 * `question_date=omit` never passes the question's date. Both shape what the
 * answerer is given, so they take effect in `membench run` and stay fixed
 * for the run.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadMemora } from "../../src/benchmarks/memora/load.ts";
import { memoraProtocol, memoraReplayed } from "../../src/benchmarks/memora/protocol.ts";
import { ConfigError } from "../../src/core/errors.ts";
import type { Episode } from "../../src/core/model.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import { writeScript } from "../support/scoring.ts";
import { fixture } from "../support/shared-data.ts";

let episode: Episode;
before(async () => {
  episode = (await loadMemora(fixture("memora"))).episodes[0]!;
});

describe("memoraReplayed", () => {
  it("changes nothing by default", () => {
    assert.equal(memoraReplayed(episode), episode);
    assert.equal(memoraReplayed(episode, { user_agent: "keep", question_date: "pass" }), episode);
    assert.equal(memoraProtocol().prepare(episode), episode);
  });

  it("user_agent=drop keeps only the assistant's turns, in every session", () => {
    const replayed = memoraProtocol({ benchmark: { user_agent: "drop" } }).prepare(episode);
    const roles = (e: Episode) => e.sessions.flatMap((s) => s.turns.map((t) => t.role));
    assert.ok(roles(episode).includes("user"));
    assert.deepEqual([...new Set(roles(replayed))], ["assistant"]);
    assert.equal(replayed.sessions.length, episode.sessions.length);
    assert.equal(
      replayed.sessions.reduce((n, s) => n + s.turns.length, 0),
      roles(episode).filter((r) => r === "assistant").length,
    );
    assert.deepEqual(
      replayed.probes.map((p) => p.time),
      episode.probes.map((p) => p.time),
    );
  });

  it("question_date=omit leaves every probe without a date, and the answer prompt without its date line", () => {
    const protocol = memoraProtocol({ benchmark: { question_date: "omit" } });
    const replayed = protocol.prepare(episode);
    assert.ok(episode.probes.every((p) => p.time));
    assert.ok(replayed.probes.every((p) => p.time === undefined));
    const context = { text: "(memories)", tokens: 0, used: 0 };
    const prompt = (p: (typeof episode.probes)[number]) =>
      protocol
        .answerMessages(p, context)
        .map((m) => m.content)
        .join("\n");
    assert.match(prompt(episode.probes[0]!), /Current date: 2025-06-0\d/);
    assert.doesNotMatch(prompt(replayed.probes[0]!), /Current date/);
  });
});

describe("the harness options in a run", () => {
  const tmp = mkdtempSync(join(tmpdir(), "memora-harness-"));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  // The answerer says what it was shown; the first rule that fits wins.
  const script = writeScript(tmp, [
    { role: "answerer", match: "Current date:", reply: "dated" },
    { role: "answerer", match: "cap my coffee spending", reply: "saw the user" },
    { role: "answerer", reply: "neither" },
  ]);
  const run = (id: string, options: Record<string, string>) =>
    startRun({
      benchmark: "memora",
      data: fixture("memora"),
      systems: ["full-context"],
      out: tmp,
      id,
      llm: `scripted:${script}`,
      scoring: { options },
      progress: false,
    });
  const answers = (dir: string) => readRecords(dir).map((r) => r.answer);

  it("pass and keep (the defaults) show the date and the user's turns", async () => {
    const outcome = await run("defaults", {});
    assert.ok(answers(outcome.dir).every((a) => a === "dated"));
  });

  it("question_date=omit answers without a date, and records none", async () => {
    const outcome = await run("omit", { question_date: "omit" });
    const records = readRecords(outcome.dir);
    assert.ok(records.every((r) => r.answer === "saw the user"));
    assert.ok(records.every((r) => r.time === undefined));
    const config = JSON.parse(readFileSync(join(outcome.dir, "config.json"), "utf8"));
    assert.deepEqual(config.options.scoring.options, { question_date: "omit" });
  });

  it("user_agent=drop answers from the assistant's turns only", async () => {
    const outcome = await run("drop", { question_date: "omit", user_agent: "drop" });
    assert.ok(answers(outcome.dir).every((a) => a === "neither"));
    // Re-scoring keeps the run's values, and refuses another: the answers cannot change.
    const scoring = JSON.parse(readFileSync(join(outcome.dir, "scoring.json"), "utf8"));
    assert.equal(scoring.options.user_agent, "drop");
    assert.equal(scoring.options.question_date, "omit");
    const rescored = await scoreRun(outcome.dir, {});
    assert.ok(rescored.summary.results.length);
    assert.equal(JSON.parse(readFileSync(join(outcome.dir, "scoring.json"), "utf8")).options.user_agent, "drop");
    await assert.rejects(scoreRun(outcome.dir, { options: { user_agent: "keep" } }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(error.message, /answered with user_agent=drop.*new `membench run`/);
      return true;
    });
  });

  it("refuses a mistyped option before answering anything", async () => {
    await assert.rejects(run("typo", { question_dates: "omit" }), /memora has no option "question_dates"/);
    await assert.rejects(run("bad-value", { question_date: "never" }), /expected one of pass, omit/);
    assert.throws(() => readRecords(join(tmp, "typo")));
  });
});
