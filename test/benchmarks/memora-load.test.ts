import assert from "node:assert/strict";
import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadMemora, MEMORA_COMMIT, memoraBenchmark } from "../../src/benchmarks/memora/index.ts";
import { ConfigError, DataError } from "../../src/core/errors.ts";
import type { Dataset, Episode, Probe } from "../../src/core/model.ts";
import { fixture } from "../support/shared-data.ts";

const root = fixture("memora");
const personaDir = fixture("memora/weekly/museum_curator");
const questionsFile = join(personaDir, "evaluation_questions_museum_curator.json");

const tmp = mkdtempSync(join(tmpdir(), "memora-load-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

function only(ds: Dataset): Episode {
  assert.equal(ds.episodes.length, 1);
  return ds.episodes[0]!;
}

function probe(episode: Episode, id: string): Probe {
  const found = episode.probes.find((p) => p.id === id);
  assert.ok(found, `probe ${id}`);
  return found;
}

describe("memora loader on the fixture", () => {
  it("reads one weekly episode with its sessions in order, one variant, no warnings", async () => {
    const ds = await loadMemora(root);
    assert.equal(ds.benchmark, "memora");
    assert.equal(ds.variant, "weekly");
    assert.deepEqual(ds.warnings, []);
    assert.equal(ds.source.files.length, 6);
    const ep = only(ds);
    assert.equal(ep.id, "weekly/museum_curator");
    assert.deepEqual(ep.labels, { duration: "weekly", persona: "museum_curator" });
    assert.deepEqual(ep.meta, { startDate: "2025-06-01", endDate: "2025-06-02" });
    assert.deepEqual(
      ep.sessions.map((s) => [s.id, s.index, s.time, s.turns.length, s.meta]),
      [
        ["session_0001", 0, "2025-06-01", 5, { sessionType: "goal", operation: "add" }],
        ["session_0002", 1, "2025-06-01", 5, { sessionType: "activity", operation: "add" }],
        ["session_0003", 2, "2025-06-01", 4, { sessionType: "activity", operation: "add" }],
        ["session_0004", 3, "2025-06-02", 4, { sessionType: "preference", operation: "update" }],
        ["session_0005", 4, "2025-06-02", 4, { sessionType: "activity", operation: "delete" }],
      ],
    );
  });

  it("maps speakers to roles, keeps the speaker names and marks the memory turns", async () => {
    const ep = only(await loadMemora(root));
    const last = ep.sessions[4]!;
    assert.deepEqual(
      last.turns.map((t) => [t.id, t.index, t.role, t.speaker, t.meta]),
      [
        ["session_0005:1", 0, "assistant", "ai_agent", undefined],
        // The data README's spelling "user" is accepted beside "user_agent".
        ["session_0005:2", 1, "user", "user", { shareMemory: true }],
        ["session_0005:3", 2, "assistant", "ai_agent", undefined],
        ["session_0005:4", 3, "user", "user_agent", undefined],
      ],
    );
    assert.equal(
      last.turns[1]!.content,
      "Please drop the woodblock print rotation from the agenda, it moved to autumn.",
    );
  });

  it("turns every question into an end-of-timeline probe with the paper's labels", async () => {
    const ep = only(await loadMemora(root));
    assert.deepEqual(
      ep.probes.map((p) => [p.id, p.labels.task, p.labels.subtype, p.labels.category, p.labels.template]),
      [
        [
          "content_meeting_notes_5_meeting_notes_1",
          "Remembering",
          "content_regeneration",
          "meeting_notes",
          "content_meeting_notes",
        ],
        [
          "goal_food_expenses_coffee_5_0",
          "Reasoning",
          "goal_progress_analysis",
          "food_expenses",
          "goal_food_expenses_coffee",
        ],
        ["activity_food_total_5", "Reasoning", "activity_aggregation", "food_expenses", "activity_food_total"],
        ["pref_books_general_5", "Recommending", "preference_based_recommendation", "books", "pref_books_general"],
        ["pref_books_authors_5", "Recommending", "preference_based_recommendation", "books", "pref_books_authors"],
      ],
    );
    for (const p of ep.probes) {
      assert.deepEqual(p.position, { at: "end" });
      assert.equal(p.time, "2025-06-02");
      assert.equal(p.labels.duration, "weekly");
      assert.equal(p.labels.persona, "museum_curator");
    }
    assert.equal(probe(ep, "pref_books_general_5").question, "What book would you recommend?");
  });

  it("keeps the rubric as presence / absence criteria with the expected judge answer", async () => {
    const ep = only(await loadMemora(root));
    assert.deepEqual(probe(ep, "pref_books_general_5").gold.criteria, [
      {
        text: "Does the response reflect or align with the user's preference for Ursula K. Le Guin?",
        kind: "presence",
        expected: "yes",
        meta: { type: "memory_presence", id: "pref_books_general_5_eval_memory_presence_0" },
      },
      {
        text: "Does the response reflect or mention the user's preference for Jules Verne?",
        kind: "absence",
        expected: "no",
        meta: { type: "forgetting_absence", id: "pref_books_general_5_eval_forgetting_0" },
      },
    ]);
    const all = ep.probes.flatMap((p) => p.gold.criteria);
    assert.equal(all.length, 12);
    assert.equal(all.filter((c) => c.kind === "presence" && c.expected === "yes").length, 9);
    assert.equal(all.filter((c) => c.kind === "absence" && c.expected === "no").length, 3);
    // Reasoning questions have no forgetting criteria.
    assert.ok(probe(ep, "goal_food_expenses_coffee_5_0").gold.criteria.every((c) => c.kind === "presence"));
  });

  it("collects evidence and stale sessions from every nested evidence shape", async () => {
    const ep = only(await loadMemora(root));
    const evidence = Object.fromEntries(
      ep.probes.map((p) => [p.id, [p.gold.evidenceSessionIds, p.gold.staleSessionIds, p.gold.evidenceTurnIds]]),
    );
    assert.deepEqual(evidence, {
      // content_data has no session ids; session_history lists the document's sessions.
      content_meeting_notes_5_meeting_notes_1: [["session_0002", "session_0005"], ["session_0005"], []],
      // goal_session.session_id and activity_sessions[].session_id.
      goal_food_expenses_coffee_5_0: [["session_0001", "session_0003"], [], []],
      activity_food_total_5: [["session_0003"], [], []],
      // memory_items.<subcategory>.likes[].session_id
      pref_books_general_5: [["session_0004"], ["session_0004"], []],
      // subcategory_data.likes[] and specific_items[] name the same session once.
      pref_books_authors_5: [["session_0004"], ["session_0004"], []],
    });
  });

  it("states the current facts as evidence memories and the invalidated ones as stale memories", async () => {
    const ep = only(await loadMemora(root));
    const facts = Object.fromEntries(ep.probes.map((p) => [p.id, [p.gold.evidenceMemories, p.meta?.staleMemories]]));
    assert.deepEqual(facts, {
      content_meeting_notes_5_meeting_notes_1: [
        [
          "meeting title: Spring Textile Exhibit Planning",
          "agenda items: Confirm loan agreements with the regional archive",
          "key decisions: Keep gallery 3 closed during installation",
        ],
        ["agenda items: Rotate the Japanese woodblock prints"],
      ],
      goal_food_expenses_coffee_5_0: [["coffee goal: 25", "coffee expense: 4.25"], undefined],
      activity_food_total_5: [["coffee expense: 4.25"], undefined],
      pref_books_general_5: [["likes Ursula K. Le Guin (authors)"], ["Jules Verne"]],
      pref_books_authors_5: [["likes Ursula K. Le Guin"], ["Jules Verne"]],
    });
  });

  it("loads the same episode from the persona folder, the duration folder and the evaluation file", async () => {
    const fromRoot = only(await loadMemora(root));
    for (const path of [personaDir, fixture("memora/weekly"), questionsFile]) {
      const ds = await loadMemora(path);
      assert.equal(ds.source.path, path);
      assert.deepEqual(only(ds), fromRoot, path);
    }
  });

  it("gives the same ids on every load", async () => {
    const ids = (ep: Episode) => [
      ep.id,
      ep.probes.map((p) => p.id),
      ep.sessions.map((s) => s.id),
      ep.sessions.flatMap((s) => s.turns.map((t) => t.id)),
    ];
    const first = ids(only(await loadMemora(root)));
    const second = ids(only(await loadMemora(personaDir)));
    assert.deepEqual(second, first);
    assert.equal((first[3] as string[]).length, 22);
  });

  it("finds persona folders of several durations and orders them weekly, monthly, quarterly", async () => {
    const data = join(tmp, "Memora-archive", "data");
    cpSync(personaDir, join(data, "quarterly", "museum_curator"), { recursive: true });
    cpSync(personaDir, join(data, "monthly", "museum_curator"), { recursive: true });
    cpSync(personaDir, join(data, "weekly", "museum_curator"), { recursive: true });
    const ds = await loadMemora(join(tmp, "Memora-archive"));
    assert.equal(ds.variant, undefined);
    assert.deepEqual(
      ds.episodes.map((e) => e.id),
      ["weekly/museum_curator", "monthly/museum_curator", "quarterly/museum_curator"],
    );
    assert.deepEqual(
      ds.episodes.map((e) => e.probes[0]!.labels.duration),
      ["weekly", "monthly", "quarterly"],
    );
    assert.equal(ds.source.files.length, 18);
  });

  it("keeps one duration when asked for a variant, and refuses an unknown one", async () => {
    const data = join(tmp, "variants");
    cpSync(personaDir, join(data, "weekly", "museum_curator"), { recursive: true });
    cpSync(personaDir, join(data, "monthly", "museum_curator"), { recursive: true });
    const ds = await loadMemora(data, { variant: "monthly" });
    assert.equal(ds.variant, "monthly");
    assert.deepEqual(
      ds.episodes.map((e) => e.id),
      ["monthly/museum_curator"],
    );
    await assert.rejects(loadMemora(data, { variant: "quarterly" }), DataError);
    await assert.rejects(
      loadMemora(data, { variant: "daily" }),
      (error: unknown) =>
        error instanceof ConfigError && error.setting === "variant" && /unknown Memora variant/.test(error.message),
    );
  });

  it("reports progress in bytes up to the total", async () => {
    const seen: Array<[number, number]> = [];
    await loadMemora(personaDir, { onProgress: (done, total) => seen.push([done, total]) });
    assert.equal(seen.length, 6);
    const [lastDone, total] = seen.at(-1)!;
    assert.equal(lastDone, total);
    assert.ok(seen.every(([d, t], i) => t === total && (i === 0 || d > seen[i - 1]![0])));
  });
});

describe("memora benchmark definition", () => {
  it("names the durations as variants and task × duration as the table labels", () => {
    assert.equal(memoraBenchmark.id, "memora");
    assert.deepEqual(memoraBenchmark.variants, ["weekly", "monthly", "quarterly"]);
    assert.deepEqual(memoraBenchmark.labels, ["task", "duration"]);
    assert.equal(memoraBenchmark.load, loadMemora);
  });

  it("pulls the repository archive at the pinned commit and says what to do by hand", () => {
    const release = memoraBenchmark.release!;
    assert.equal(MEMORA_COMMIT, "a6493188efc836d6511ed5e4163fe3ba87da30ff");
    assert.equal(release.revision, MEMORA_COMMIT);
    assert.equal(release.home, "https://github.com/geniesinc/Memora");
    assert.deepEqual(release.files, [
      { url: `https://github.com/geniesinc/Memora/archive/${MEMORA_COMMIT}.zip`, path: ".", unzip: true },
    ]);
    assert.match(release.manual, /data\/\{weekly,monthly,quarterly\}\/<persona>\//);
    assert.match(release.manual, /evaluation_questions_<persona>\.json/);
  });
});
