/**
 * The RealMem export as the release's scoring scripts read it: an object per
 * user keyed by the query text (stripped, as the harness keys it), the ranked
 * items in the order our retrieval metrics rank them, and a decided rule for
 * two queries with the same text. Real runs of the project's fixture.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RetrievedRecord } from "../../src/core/record.ts";
import { exportOfficial } from "../../src/report/official/export.ts";
import { type GenerationEntry, rankedItems, realmemFiles } from "../../src/report/official/realmem.ts";
import { loadRun } from "../../src/report/run-data.ts";
import { startRun } from "../../src/run/runner.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";
import { realmemOfflineRun, tempDir } from "./sample-runs.ts";

const json = <T>(path: string) => JSON.parse(readFileSync(path, "utf8")) as T;

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

/** The fixture's query texts, in timeline order, as the harness reads them (`content.strip()`). */
function fixtureQueries(path: string): Array<{ id: string; text: string; session: string }> {
  const data = json<{
    dialogues: Array<{
      session_identifier: string;
      dialogue_turns: Array<{ is_query?: boolean; query_id?: string; content: string }>;
    }>;
  }>(path);
  return data.dialogues.flatMap((s) =>
    s.dialogue_turns
      .filter((t) => t.is_query)
      .map((t) => ({ id: t.query_id ?? "", text: t.content.trim(), session: s.session_identifier })),
  );
}

describe("RealMem export", () => {
  const out = tempDir();
  const data = fixture("realmem/Mira_Sato_dialogues_256k.json");
  let run: string;
  before(async () => {
    run = await realmemOfflineRun(out);
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  it("keys every entry by the query text the official scripts look up, with the query id inside", async () => {
    const dir = join(out, "realmem-export");
    await exportOfficial(run, "realmem", dir);
    assert.deepEqual(files(dir), [
      "bm25-session/Mira_Sato/generation_results.json",
      "none/Mira_Sato/generation_results.json",
    ]);
    const queries = fixtureQueries(data);
    assert.equal(queries.length, 4);
    for (const arm of ["bm25-session", "none"]) {
      const results = json<Record<string, GenerationEntry>>(join(dir, arm, "Mira_Sato/generation_results.json"));
      // What the scripts do: for each query of the dataset, results[text]; every one must be found.
      assert.deepEqual(Object.keys(results).sort(), queries.map((q) => q.text).sort());
      for (const q of queries) {
        const entry = results[q.text];
        assert.ok(entry, `${arm}: no entry for ${q.id}`);
        assert.equal(entry.question, q.text);
        assert.equal(entry.id, q.id);
        assert.equal(entry.session_identifier, q.session);
        assert.equal(entry.generated_answer, "", "offline: no answer, an empty string as in the reference files");
      }
    }
    const results = json<Record<string, GenerationEntry>>(join(dir, "bm25-session/Mira_Sato/generation_results.json"));
    const q = results[queries[1]!.text]!;
    assert.match(q.question, /^The runs went well this week/);
    assert.ok(q.evidence_used.length > 0);
    // A session-level system returns whole sessions: only chunk items, ranked as retrieved.
    assert.ok(q.ranked_items.length > 0);
    assert.ok(q.ranked_items.every((i) => i.res_type === "chunk"));
    assert.ok(
      q.ranked_items.every((i) => i.content.startsWith("Speaker ")),
      "session text as the harness adds it",
    );
    assert.deepEqual(
      q.ranked_items.map((i) => i.rank),
      [...q.ranked_items.map((i) => i.rank)].sort((a, b) => a - b),
    );
    const none = json<Record<string, GenerationEntry>>(join(dir, "none/Mira_Sato/generation_results.json"));
    assert.deepEqual(none[queries[0]!.text]!.ranked_items, []);
  });

  it("orders chunk items by first appearance, the session ranking our recall and nDCG use", () => {
    const item = (rank: number, score: number, sessionIds: string[]): RetrievedRecord => ({
      rank,
      score,
      text: `memory ${rank}`,
      sessionIds,
      kind: "memory",
    });
    // Scores that do not fall with rank (a fused or reranked list): the ranking is the rank.
    const ranked = rankedItems([item(2, 0.9, ["B"]), item(1, 0.2, ["A"]), item(3, 0.5, ["A", "C"])], new Map());
    assert.deepEqual(
      ranked.map((i) => [i.res_type, i.chunk_id, i.rank, i.score]),
      [
        ["memory", "A", 1, 0.2],
        ["memory", "B", 2, 0.9],
        ["memory", "A", 3, 0.5],
        ["chunk", "A", 1, 0.5],
        ["chunk", "B", 2, 0.9],
        ["chunk", "C", 3, 0.5],
      ],
    );
  });

  const kenta = sharedDataset("realmem/Kenta_Tanaka_dialogues_256k.json");
  it("finds every query of a real release user by its text (153 of 153)", { skip: skipUnless(kenta) }, async () => {
    const outcome = await startRun({
      benchmark: "realmem",
      data: kenta!,
      systems: ["bm25-session"],
      out,
      id: "realmem-kenta",
      progress: false,
    });
    const { files: written, warnings } = await realmemFiles(loadRun(outcome.dir));
    assert.equal(written.length, 1);
    const queries = fixtureQueries(kenta!);
    assert.equal(queries.length, 153);
    const content = written[0]!.content;
    assert.deepEqual(Object.keys(content).sort(), queries.map((q) => q.text).sort());
    assert.deepEqual(warnings, [], "the release's query texts are unique within a user file");
    assert.ok(queries.every((q) => content[q.text]!.id === q.id && content[q.text]!.session_identifier === q.session));
  });

  it("keeps the later of two queries with the same text, as the harness does, and warns", async () => {
    const copy = join(out, "dup", "Mira_Sato_dialogues_256k.json");
    const raw = json<{
      dialogues: Array<{ dialogue_turns: Array<{ is_query?: boolean; query_id?: string; content: string }> }>;
    }>(data);
    const turns = raw.dialogues.flatMap((s) => s.dialogue_turns).filter((t) => t.is_query);
    const first = turns.find((t) => t.query_id === "Q-0002")!;
    const last = turns.find((t) => t.query_id === "Q-0004")!;
    last.content = `  ${first.content}\n`;
    mkdirSync(join(out, "dup"), { recursive: true });
    writeFileSync(copy, JSON.stringify(raw));
    const outcome = await startRun({
      benchmark: "realmem",
      data: copy,
      systems: ["bm25-session"],
      out,
      id: "realmem-dup",
      progress: false,
    });
    const { files: written, warnings } = await realmemFiles(loadRun(outcome.dir));
    assert.equal(written.length, 1);
    const content = written[0]!.content;
    assert.equal(Object.keys(content).length, 3);
    assert.equal(content[first.content.trim()]?.id, "Q-0004");
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /Q-0002 and Q-0004 have the same text/);
    assert.match(warnings[0]!, /bm25-session\/Mira_Sato\/generation_results\.json/);
  });
});
