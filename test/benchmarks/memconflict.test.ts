import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { memconflictBenchmark } from "../../src/benchmarks/memconflict/index.ts";
import type { Dataset, Episode, Probe } from "../../src/core/model.ts";
import { fixture } from "../support/shared-data.ts";

const DIRECT = fixture("memconflict/Step4_4.jsonl");
const IMPLICIT = fixture("memconflict/implicit/Step4_4_indirect.jsonl");
const P1 = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8";
const P2 = "c41e0b7a-2d9f-4e13-a6b8-5f07d2c9e311";

const load = (path: string) => memconflictBenchmark.load(path);

function episode(ds: Dataset, id: string): Episode {
  const e = ds.episodes.find((x) => x.id === id);
  assert.ok(e, `episode ${id}`);
  return e;
}

function probe(ds: Dataset, personaId: string, key: string): Probe {
  const id = `${personaId}:${key}`;
  const p = episode(ds, personaId).probes.find((x) => x.id === id);
  assert.ok(p, `probe ${id}`);
  return p;
}

function countBy(ds: Dataset, label: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of ds.episodes.flatMap((e) => e.probes)) {
    const v = p.labels[label] ?? "?";
    out[v] = (out[v] ?? 0) + 1;
  }
  return out;
}

describe("memconflict definition", () => {
  it("declares id, variants, labels and the pinned release file", () => {
    assert.equal(memconflictBenchmark.id, "memconflict");
    assert.deepEqual(memconflictBenchmark.variants, ["direct", "implicit"]);
    assert.deepEqual(memconflictBenchmark.labels, ["conflict_type", "ability", "difficulty", "query_style"]);
    const release = memconflictBenchmark.release;
    assert.ok(release);
    assert.equal(release.revision, "17cbc14");
    assert.equal(release.home, "https://github.com/TaoZhen1110/MemConflict");
    assert.deepEqual(release.files, [
      {
        url: "https://raw.githubusercontent.com/TaoZhen1110/MemConflict/17cbc14/Data/Step4_4.jsonl",
        path: "Step4_4.jsonl",
      },
    ]);
    assert.match(release.manual, /Step4_4\.jsonl/);
    assert.match(release.manual, /large/);
    assert.match(release.manual, /LFS/);
  });
});

describe("memconflict loader on the fixture", async () => {
  const ds = await load(DIRECT);

  it("loads two personas with their sessions, turns and probes", () => {
    assert.equal(ds.benchmark, "memconflict");
    assert.equal(ds.variant, "direct");
    assert.deepEqual(ds.warnings, []);
    assert.deepEqual(
      ds.episodes.map((e) => e.id),
      [P1, P2],
    );
    assert.deepEqual(
      ds.episodes.map((e) => e.sessions.map((s) => s.turns.length)),
      [
        [6, 8, 5, 22, 6, 4, 2, 2],
        [4, 4, 4, 4, 2],
      ],
    );
    assert.deepEqual(
      ds.episodes.map((e) => e.probes.length),
      [15, 7],
    );
    assert.equal(ds.source.files.length, 1);
    assert.equal(ds.source.files[0]?.path, DIRECT);
  });

  it("counts every label value exactly", () => {
    assert.deepEqual(countBy(ds, "conflict_type"), { dynamic: 15, static: 4, conditional: 3 });
    assert.deepEqual(countBy(ds, "ability"), { track_state_over_time: 15, recover_truth: 4, bind_condition: 3 });
    assert.deepEqual(countBy(ds, "difficulty"), { easy: 6, medium: 9, hard: 7 });
    assert.deepEqual(countBy(ds, "query_style"), { direct: 22 });
  });

  it("keeps session ids, order, dates and types from the chain", () => {
    const e = episode(ds, P1);
    assert.deepEqual(
      e.sessions.map((s) => [s.id, s.index, s.time, s.meta?.sessionType]),
      [
        ["0", 0, "2022-01-04", "initial_reveal"],
        ["1", 1, "2022-01-19", "initial_reveal"],
        ["2", 2, "2022-02-11", "chitchat"],
        ["3", 3, "2022-03-08", "update"],
        ["4", 4, "2022-04-21", "update"],
        ["5", 5, "2022-05-30", "chitchat"],
        ["6", 6, "2022-06-14", "update"],
        ["7", 7, "2026-01-15", "future_plan"],
      ],
    );
    const s3 = e.sessions[3];
    assert.deepEqual(s3?.meta?.eventTypes, ["Relocation_Update", "Workload_Change_Update"]);
    assert.deepEqual(s3?.meta?.questionTriggerTypes, ["dynamic_update", "conditional_conflict"]);
    assert.equal(s3?.meta?.questionCount, 5);
    assert.match(String(s3?.meta?.outline), /moved to Oslo/);
    assert.deepEqual(s3?.meta?.updatedAttributes, [
      { attribute: "Residence", before: "Gothenburg, Sweden", after: "Oslo, Norway" },
      { attribute: "Work_Status", before: { Current_State: "Busy" }, after: { Current_State: "Normal" } },
    ]);
    assert.deepEqual(e.sessions[0]?.meta?.revealedAttributes, {
      Residence: "Gothenburg, Sweden",
      Work_Status: { Current_State: "Busy" },
    });
  });

  it("flattens the dialogue tolerantly, with ids <sessionId>#<index>", () => {
    const e = episode(ds, P1);
    const s1 = e.sessions[1];
    assert.ok(s1);
    // A 3-message turn and a 1-message turn: messages are never paired by position.
    assert.deepEqual(
      s1.turns.map((t) => [t.id, t.role, t.meta?.dialogueTurn]),
      [
        ["1#0", "user", 1],
        ["1#1", "assistant", 1],
        ["1#2", "user", 1],
        ["1#3", "assistant", 2],
        ["1#4", "user", 3],
        ["1#5", "assistant", 3],
        ["1#6", "user", 4],
        ["1#7", "assistant", 4],
      ],
    );
    assert.equal(s1.turns[5]?.speaker, "Assistant");
    assert.equal(s1.turns[0]?.speaker, undefined);

    const s2 = e.sessions[2];
    assert.ok(s2);
    assert.deepEqual(
      s2.turns.map((t) => [t.role, t.meta?.quirk ?? null]),
      [
        ["user", null],
        ["assistant", "sentinel_role_key"],
        ["user", null],
        ["user", null],
        ["assistant", "role_key_object"],
      ],
    );
    assert.equal(s2.turns[1]?.content, "Families do spread out! Do you see him often?");
    assert.equal(s2.turns[4]?.content, "Bergen is beautiful. Do you visit him there?");
    assert.equal(s2.meta?.messageCount, 6);
    assert.deepEqual(s2.meta?.dialogueQuirks, {
      sentinel_role_key: 1,
      no_content: 1,
      role_key_object: 1,
      uneven_turn: 2,
    });

    // dialogue_turn_10 and _11 come after _9.
    const s3 = e.sessions[3];
    assert.deepEqual(
      s3?.turns.map((t) => t.meta?.dialogueTurn),
      [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11],
    );
    assert.match(s3?.turns[0]?.content ?? "", /I live in Oslo now/);
  });

  it("labels distractor sessions in session meta", () => {
    const e = episode(ds, P1);
    assert.deepEqual(
      e.sessions.map((s) => s.meta?.hasDistractor),
      [false, false, true, false, false, false, false, false],
    );
    assert.deepEqual(e.sessions[2]?.meta?.distractors, [
      "Brother's birthplace: Malmo, Sweden",
      "Father's coffee: Strong black coffee before dawn fishing trips",
      "Neighbor's residence: Bergen, Norway",
    ]);
    assert.deepEqual(e.sessions[2]?.meta?.othersDynamic, [
      {
        attribute: "Residence",
        value: "Bergen, Norway",
        sourcePersonId: "Contacts_1",
        relationship: "Neighbor",
        leftSessionId: "0",
        rightSessionId: "3",
      },
    ]);
    const e2 = episode(ds, P2);
    assert.deepEqual(
      e2.sessions.map((s) => s.meta?.distractors),
      [[], ["Online Friend's marital status: Divorced"], ["Friend's family information has siblings: No"], [], []],
    );
  });

  it("fires each probe right after its session, at that session's date, with stable ids", () => {
    for (const e of ds.episodes) {
      const byId = new Map(e.sessions.map((s) => [s.id, s]));
      for (const p of e.probes) {
        assert.equal(p.position.at, "after");
        const sid = p.position.at === "after" ? p.position.sessionId : "";
        assert.equal(p.id, `${e.id}:${sid}:${p.meta?.questionId}`);
        assert.equal(p.time, byId.get(sid)?.time);
        assert.equal(p.gold.answers.length, 1);
      }
    }
    assert.deepEqual(
      episode(ds, P1).probes.map((p) => p.id.slice(P1.length + 1)),
      [
        "3:Q_001",
        "3:Q_002",
        "3:Q_003",
        "3:Q_004",
        "3:Q_005",
        "4:Q_001",
        "4:Q_002",
        "4:Q_003",
        "4:Q_004",
        "4:Q_005",
        "4:Q_006",
        "5:Q_001",
        "5:Q_002",
        "6:Q_001",
        "6:Q_002",
      ],
    );
  });

  it("derives evidence sessions from the conflict records, tying every question by the template", () => {
    const expected: Record<string, string[]> = {
      [`${P1}:3:Q_001`]: ["0", "3"],
      [`${P1}:3:Q_002`]: ["0", "3"],
      [`${P1}:3:Q_003`]: ["0", "3"],
      [`${P1}:3:Q_004`]: ["0", "3"],
      [`${P1}:3:Q_005`]: ["0"],
      [`${P1}:4:Q_001`]: ["1", "4"],
      [`${P1}:4:Q_002`]: ["1", "4"],
      [`${P1}:4:Q_003`]: ["1", "4"],
      [`${P1}:4:Q_004`]: ["1", "4"],
      [`${P1}:4:Q_005`]: ["1", "4"],
      [`${P1}:4:Q_006`]: ["0", "4"],
      [`${P1}:5:Q_001`]: ["1", "5"],
      [`${P1}:5:Q_002`]: ["3"],
      [`${P1}:6:Q_001`]: ["3", "6"],
      [`${P1}:6:Q_002`]: ["3", "6"],
      [`${P2}:2:Q_001`]: ["0", "2"],
      [`${P2}:2:Q_002`]: ["0", "2"],
      [`${P2}:2:Q_003`]: ["0", "2"],
      [`${P2}:2:Q_004`]: ["0", "2"],
      [`${P2}:3:Q_001`]: ["0", "3"],
      [`${P2}:3:Q_002`]: ["1", "3"],
      [`${P2}:3:Q_003`]: ["0"],
    };
    const probes = ds.episodes.flatMap((e) => e.probes);
    assert.deepEqual(Object.fromEntries(probes.map((p) => [p.id, p.gold.evidenceSessionIds])), expected);
    for (const p of probes) {
      assert.equal(p.meta?.evidenceTie, "template", p.id);
      assert.deepEqual(p.gold.evidenceTurnIds, []);
      assert.deepEqual(p.gold.staleSessionIds, []);
    }
  });

  it("dynamic: the update as evidence memory, the old value for UOCS", () => {
    const residence = probe(ds, P1, "3:Q_002");
    assert.equal(residence.question, "Where did the user live before, and where do they live now?");
    assert.deepEqual(residence.gold.answers, ["The user moved from Gothenburg, Sweden to Oslo, Norway."]);
    assert.deepEqual(residence.gold.evidenceMemories, [
      "User's residence changed from Gothenburg, Sweden to Oslo, Norway.",
    ]);
    assert.deepEqual(residence.meta?.outdatedValues, ["Gothenburg, Sweden"]);
    assert.deepEqual(residence.meta?.currentValues, ["Oslo, Norway"]);
    assert.deepEqual(residence.meta?.attributes, ["Residence"]);
    assert.deepEqual(residence.meta?.distractorSessionIds, ["2"]);
    assert.deepEqual(residence.meta?.distractors, ["Neighbor's residence: Bergen, Norway"]);
    assert.equal(residence.meta?.distance, 3);

    const work = probe(ds, P1, "6:Q_002");
    assert.deepEqual(work.gold.evidenceMemories, ["User's work status changed from Normal to Free."]);
    assert.deepEqual(work.meta?.outdatedValues, ["Normal"]);
    assert.deepEqual(work.meta?.distractorSessionIds, []);

    const social = probe(ds, P2, "2:Q_002");
    assert.deepEqual(social.gold.evidenceMemories, [
      "User's social status changed from Keeping to Oneself to Joining Social Activities.",
    ]);
    const marital = probe(ds, P2, "2:Q_004");
    assert.deepEqual(marital.gold.evidenceMemories, [
      "User's marital status changed from Dating (Ines Duarte) to Married (Ines Duarte).",
    ]);
    assert.deepEqual(marital.meta?.outdatedValues, ["Dating (Ines Duarte)"]);
    assert.deepEqual(marital.meta?.distractorSessionIds, ["1"]);
    assert.deepEqual(marital.meta?.distractors, ["Online Friend's marital status: Divorced"]);
  });

  it("dynamic career questions: each slot's own field", () => {
    const memory = (key: string) => probe(ds, P1, key).gold.evidenceMemories;
    assert.match(
      memory("4:Q_001")[0] ?? "",
      /^User's career status changed from employment status: Employed; company type/,
    );
    assert.deepEqual(memory("4:Q_002"), [
      "User's company name changed from Kattegat Marine Lab to Nordic Ocean Institute.",
    ]);
    assert.deepEqual(memory("4:Q_003"), ["User's job title changed from Junior to Senior."]);
    assert.deepEqual(memory("4:Q_004"), ["User's industry changed from Research to Environmental."]);
    assert.deepEqual(memory("4:Q_005"), ["User's employment status stayed Employed."]);
    assert.deepEqual(probe(ds, P1, "4:Q_003").meta?.outdatedValues, ["Junior"]);
    assert.equal(probe(ds, P1, "4:Q_005").meta?.outdatedValues, undefined);
    assert.equal(probe(ds, P1, "4:Q_005").labels.difficulty, "easy");
  });

  it("static: the Point_A truth as evidence memory, the Point_B claim for CRS", () => {
    const birthplace = probe(ds, P1, "4:Q_006");
    assert.deepEqual(birthplace.labels, {
      conflict_type: "static",
      ability: "recover_truth",
      difficulty: "hard",
      query_style: "direct",
    });
    assert.deepEqual(birthplace.gold.evidenceMemories, ["User's birthplace: Uppsala, Sweden"]);
    assert.deepEqual(birthplace.meta?.trueValues, ["Uppsala, Sweden"]);
    assert.deepEqual(birthplace.meta?.conflictingClaims, [
      "User often says she was born in Tromso and grew up above the Arctic Circle.",
    ]);
    assert.deepEqual(birthplace.meta?.conflictIds, ["SC_001"]);
    assert.deepEqual(birthplace.meta?.fieldPaths, ["Birthplace"]);
    assert.deepEqual(birthplace.meta?.distractors, ["Brother's birthplace: Malmo, Sweden"]);
    assert.equal(birthplace.meta?.distance, 4);

    const siblings = probe(ds, P2, "3:Q_002");
    assert.deepEqual(siblings.gold.evidenceMemories, ["User's family information sibling count: 2"]);
    assert.deepEqual(siblings.meta?.conflictingClaims, ["0"]);
  });

  it("conditional: the previous point's rule is the evidence, the new one competes", () => {
    const tea = probe(ds, P1, "3:Q_005");
    assert.deepEqual(tea.labels, {
      conflict_type: "conditional",
      ability: "bind_condition",
      difficulty: "hard",
      query_style: "direct",
    });
    assert.deepEqual(tea.gold.evidenceMemories, [
      "User's beverage preference: Cardamom Tea, under the condition: Slow Sunday mornings at home",
    ]);
    assert.deepEqual(tea.meta?.competingRules, [
      "User's beverage preference: Iced Lemon Water, under the condition: After long lab days in summer",
    ]);
    assert.deepEqual(tea.meta?.distractorSessionIds, ["2"]);
    // Point_C asks about Point_B, not Point_A.
    const lemon = probe(ds, P1, "5:Q_002");
    assert.deepEqual(lemon.gold.evidenceMemories, [
      "User's beverage preference: Iced Lemon Water, under the condition: After long lab days in summer",
    ]);
    assert.deepEqual(lemon.meta?.competingRules, [
      "User's beverage preference: Hot Chocolate, under the condition: Winter evenings after a cold dive",
    ]);
    assert.equal(lemon.meta?.distance, 2);
  });

  it("keeps the persona profile and the declared totals in episode meta", () => {
    const e = episode(ds, P1);
    assert.equal(e.meta?.name, "Marta Lindqvist");
    assert.equal(e.meta?.personaSeed, "A marine biologist who spends her winters cataloguing cold-water corals");
    assert.equal(e.meta?.line, 1);
    assert.equal(e.meta?.totalQuestionCount, 15);
    assert.equal(e.meta?.triggeredSessionCount, 4);
    assert.equal(e.meta?.validSessionDialogueCount, 8);
    const tokens = e.sessions.map((s) => s.meta?.tokenLength as number);
    assert.ok(tokens.every((t) => t > 0));
    assert.equal(
      e.meta?.totalDialogueTokens,
      tokens.reduce((a, b) => a + b, 0),
    );
    assert.deepEqual(e.meta?.personality, {
      MBTI: "INTJ",
      MBTI_Tags: ["Strategic Planning", "Independent Work", "Long-term Focus"],
    });
    assert.deepEqual(Object.keys(e.meta?.othersProfile ?? {}), ["Father", "Sibling_1", "Contacts_1"]);
    assert.equal((e.meta?.fixedProfile as { Birthplace?: string } | undefined)?.Birthplace, "Uppsala, Sweden");
    assert.ok(e.meta?.dynamicProfile && e.meta.preferenceProfile && e.meta.lifeGoal);
    assert.equal(episode(ds, P2).meta?.triggeredSessionCount, 2);
  });

  it("gives the same ids and content on every load, from any path", async () => {
    const again = await load(DIRECT);
    assert.deepEqual(again.episodes, ds.episodes);
    const dir = mkdtempSync(join(tmpdir(), "memconflict-"));
    copyFileSync(DIRECT, join(dir, "Step4_4.jsonl"));
    const copied = await load(dir);
    assert.deepEqual(
      copied.episodes.flatMap((e) => e.probes.map((p) => p.id)),
      ds.episodes.flatMap((e) => e.probes.map((p) => p.id)),
    );
  });

  it("reports progress up to the file size", async () => {
    const seen: Array<[number, number]> = [];
    await memconflictBenchmark.load(DIRECT, { onProgress: (done, total) => seen.push([done, total]) });
    assert.equal(seen.length, 2);
    const last = seen.at(-1);
    assert.equal(last?.[0], last?.[1]);
  });
});

describe("memconflict implicit-query variant", async () => {
  const direct = await load(DIRECT);
  const implicit = await load(IMPLICIT);

  it("is detected from the file and labels every probe implicit", () => {
    assert.equal(implicit.variant, "implicit");
    assert.deepEqual(implicit.warnings, []);
    assert.deepEqual(countBy(implicit, "query_style"), { implicit: 22 });
    assert.deepEqual(countBy(implicit, "conflict_type"), countBy(direct, "conflict_type"));
  });

  it("keeps probe ids, answers and evidence of the direct file, so runs can be paired", () => {
    const a = direct.episodes.flatMap((e) => e.probes);
    const b = implicit.episodes.flatMap((e) => e.probes);
    assert.deepEqual(
      b.map((p) => p.id),
      a.map((p) => p.id),
    );
    b.forEach((p, i) => {
      const d = a[i] as Probe;
      assert.deepEqual(p.gold, d.gold);
      assert.equal(p.meta?.originalQuestion, d.question);
    });
    const rewritten = b.filter((p) => p.meta?.rewriteMethod === "llm");
    assert.equal(rewritten.length, 9);
    for (const p of rewritten) assert.notEqual(p.question, p.meta?.originalQuestion);
    const kept = b.filter((p) => p.meta?.rewriteMethod === "fallback_original");
    assert.equal(kept.length, 13);
    for (const p of kept) assert.equal(p.question, p.meta?.originalQuestion);
  });

  it("is found in a folder, where the direct file wins when both are present", async () => {
    assert.equal((await load(fixture("memconflict/implicit"))).variant, "implicit");
    assert.equal((await load(fixture("memconflict"))).variant, "direct");
  });
});
