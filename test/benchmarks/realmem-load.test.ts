import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { realmemBenchmark } from "../../src/benchmarks/realmem/index.ts";
import { loadRealMem } from "../../src/benchmarks/realmem/load.ts";
import type { Dataset, Episode, Session } from "../../src/core/model.ts";
import { dataError } from "../support/data-error.ts";
import {
  fixture,
  releaseSkip,
  releaseTitle,
  releaseUnderTest,
  sharedDataset,
  skipUnless,
} from "../support/shared-data.ts";

const TMP = mkdtempSync(join(tmpdir(), "membench-realmem-"));
after(() => rmSync(TMP, { recursive: true, force: true }));

const FOLDER = fixture("realmem");
const FILE = fixture("realmem/Mira_Sato_dialogues_256k.json");

async function only(path = FOLDER, strict = true): Promise<{ dataset: Dataset; episode: Episode }> {
  const dataset = await loadRealMem(path, { strict });
  assert.equal(dataset.episodes.length, 1);
  return { dataset, episode: dataset.episodes[0]! };
}

/** A copy of the fixture with `edit` applied, in a fresh temp folder. */
// biome-ignore lint/suspicious/noExplicitAny: the edits reach into arbitrary places of the release JSON
function broken(edit: (data: any) => void): string {
  const data = JSON.parse(readFileSync(FILE, "utf8"));
  edit(data);
  const dir = mkdtempSync(join(TMP, "case-"));
  const file = join(dir, "Mira_Sato_dialogues_256k.json");
  writeFileSync(file, JSON.stringify(data));
  return file;
}

function memoriesOf(session: Session): Array<{ category: string }> {
  return (session.meta?.memories ?? []) as Array<{ category: string }>;
}

function countBy<T>(items: T[], key: (item: T) => string | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  for (const item of items) {
    const k = key(item) ?? "(none)";
    out[k] = (out[k] ?? 0) + 1;
  }
  return out;
}

describe("realmem loader on the project fixture", () => {
  it("loads the user file of a folder and skips the all_persona_topic seeds", async () => {
    const { dataset, episode } = await only();
    assert.equal(dataset.benchmark, "realmem");
    assert.deepEqual(
      dataset.source.files.map((f) => f.path),
      [FILE],
    );
    assert.equal(episode.id, "Mira_Sato");
    assert.deepEqual(episode.labels, { persona: "Mira_Sato" });
    assert.deepEqual(episode.meta, { totalTokens: 1180, declaredSessions: 4 });
    assert.deepEqual(dataset.warnings, []);
  });

  it("keeps array order as the timeline even where the date steps backwards", async () => {
    const { episode } = await only();
    assert.deepEqual(
      episode.sessions.map((s) => [s.index, s.id, s.time]),
      [
        [0, "Fitness_7:S1_01", "2025-12-15"],
        [1, "Enhanced:S10001", "2025-12-18"],
        [2, "Travel_Planning_3:S1_01", "2025-12-17"],
        [3, "Fitness_7:S1_02", "2025-12-20"],
      ],
    );
  });

  it("keeps project labels, filler flags and the extracted memory in session meta", async () => {
    const { episode } = await only();
    const [first, filler, travel] = episode.sessions;
    assert.deepEqual(
      episode.sessions.map((s) => [s.meta?.uuid, s.meta?.project, s.meta?.step, s.meta?.topic, s.meta?.filler]),
      [
        ["a1b2c3d4", "Fitness_7", "S1_01", "Fitness", false],
        ["e0e0e0e1", "Enhanced", "S10001", undefined, true],
        ["b2c3d4e5", "Travel_Planning_3", "S1_01", "Travel Planning", false],
        ["c3d4e5f6", "Fitness_7", "S1_02", "Fitness", false],
      ],
    );
    assert.deepEqual(
      episode.sessions.map((s) => s.meta?.hasMemory),
      [true, false, true, true],
    );
    assert.equal(filler?.meta?.rawTime, "2025-12-18 (Thursday)");
    assert.deepEqual(first?.meta?.memories, [
      {
        id: "Fitness_7-DM-S1_01-01",
        type: "Dynamic",
        category: "Project State",
        content: "【Training Schedule】 Run on Monday, Wednesday and Friday at 7 AM, 3 km each, at an easy pace.",
        sourceTurnId: "Fitness_7:S1_01#1",
      },
      {
        id: "Fitness_7-SM-S1_01-01",
        type: "Static",
        category: "Persona",
        content: "User is vegetarian and avoids fish as well.",
        sourceTurnId: "Fitness_7:S1_01#2",
      },
      {
        id: "Fitness_7:S1_01-schedule-1",
        type: "Schedule",
        category: "Schedule",
        content: "Run every Monday, Wednesday and Friday at 7 AM",
        sourceTurnId: undefined,
      },
    ]);
    assert.equal(memoriesOf(travel!).length, 1);
  });

  it("maps turns, keeping query and gold-reply turns in their session", async () => {
    const { episode } = await only();
    assert.deepEqual(
      episode.sessions.map((s) => s.turns.length),
      [4, 2, 4, 8],
    );
    const last = episode.sessions[3]!;
    assert.deepEqual(
      last.turns.map((t) => `${t.id}:${t.role}`),
      [
        "Fitness_7:S1_02#0:user",
        "Fitness_7:S1_02#1:assistant",
        "Fitness_7:S1_02#2:user",
        "Fitness_7:S1_02#3:assistant",
        "Fitness_7:S1_02#4:user",
        "Fitness_7:S1_02#5:assistant",
        "Fitness_7:S1_02#6:user",
        "Fitness_7:S1_02#7:assistant",
      ],
    );
    // An object content (a release quirk) becomes its JSON text.
    assert.equal(
      episode.sessions[1]!.turns[1]!.content,
      '{"table":[["fruit","count"],["apples",3],["pears",5],["plums",2]]}',
    );
    // The turn without is_query is not a query; the memory-citing reply after it is kept as metadata.
    assert.equal(last.turns[6]!.meta, undefined);
    assert.deepEqual(last.turns[7]!.meta, { memorySessionIds: ["Travel_Planning_3:S1_01"] });
    assert.deepEqual(last.turns[0]!.meta, { queryId: "Q-0002", probeId: "Mira_Sato:Fitness_7:S1_02:0" });
    assert.deepEqual(last.turns[1]!.meta, {
      memorySessionIds: ["Fitness_7:S1_01"],
      goldFor: "Mira_Sato:Fitness_7:S1_02:0",
    });
  });

  it("turns every is_query turn into a probe that fires before its own session", async () => {
    const { episode } = await only();
    assert.deepEqual(
      episode.probes.map((p) => [p.id, p.position, p.time]),
      [
        ["Mira_Sato:Travel_Planning_3:S1_01:0", { at: "before", sessionId: "Travel_Planning_3:S1_01" }, "2025-12-17"],
        ["Mira_Sato:Fitness_7:S1_02:0", { at: "before", sessionId: "Fitness_7:S1_02" }, "2025-12-20"],
        ["Mira_Sato:Fitness_7:S1_02:2", { at: "before", sessionId: "Fitness_7:S1_02" }, "2025-12-20"],
        ["Mira_Sato:Fitness_7:S1_02:4", { at: "before", sessionId: "Fitness_7:S1_02" }, "2025-12-20"],
      ],
    );
    const session = episode.sessions[3]!;
    for (const probe of episode.probes.slice(1)) {
      const turnIndex = Number(probe.id.split(":").at(-1));
      assert.equal(probe.question, session.turns[turnIndex]!.content, "the question is the query turn's text");
      assert.deepEqual(probe.gold.answers, [session.turns[turnIndex + 1]!.content], "gold = the next reply");
    }
  });

  it("maps categories, session types and topics to the paper's names", async () => {
    const { episode } = await only();
    assert.deepEqual(
      episode.probes.map((p) => p.labels),
      [
        {
          category: "Proactive Alignment",
          session_type: "single-session",
          topic: "Travel Planning",
          persona: "Mira_Sato",
        },
        { category: "Static Retrieval", session_type: "single-session", topic: "Fitness", persona: "Mira_Sato" },
        { category: "Dynamic Updating", session_type: "multi-session", topic: "Fitness", persona: "Mira_Sato" },
        { category: "Temporal Reasoning", session_type: "single-session", topic: "Fitness", persona: "Mira_Sato" },
      ],
    );
  });

  it("takes evidence from the gold reply: memory texts and the sessions they came from", async () => {
    const { episode } = await only();
    const [align, , update, temporal] = episode.probes;
    assert.deepEqual(align?.gold.evidenceSessionIds, ["Fitness_7:S1_01"]);
    assert.deepEqual(align?.gold.evidenceMemories, ["User is vegetarian and avoids fish as well."]);
    assert.deepEqual(update?.gold.evidenceSessionIds, ["Fitness_7:S1_01", "Travel_Planning_3:S1_01"]);
    assert.deepEqual(update?.gold.evidenceMemories, [
      "【Training Schedule】 Run on Monday, Wednesday and Friday at 7 AM, 3 km each, at an easy pace.",
      "【Travel Plan】 Four days in Kyoto from March 10 to March 13, staying near Gion.",
    ]);
    assert.deepEqual(update?.gold.evidenceTurnIds, []);
    assert.deepEqual(update?.meta, {
      queryId: "Q-0003",
      project: "Fitness_7",
      queryTurnId: "Fitness_7:S1_02#2",
      answerTurnId: "Fitness_7:S1_02#3",
      evidenceMemorySessionIds: ["Fitness_7:S1_01", "Travel_Planning_3:S1_01"],
      evidenceInOwnSession: false,
    });
    assert.deepEqual(temporal?.gold.evidenceMemories, ["Run every Monday, Wednesday and Friday at 7 AM"]);
  });

  it("gives the same dataset and probe ids on every load, from the folder or the file", async () => {
    const a = await only();
    const b = await only(FILE);
    assert.deepEqual(
      a.episode.probes.map((p) => p.id),
      b.episode.probes.map((p) => p.id),
    );
    assert.deepEqual(a.episode, b.episode);
  });

  it("reports progress in bytes per file", async () => {
    const calls: Array<[number, number]> = [];
    await loadRealMem(FOLDER, { onProgress: (done, total) => calls.push([done, total]) });
    const size = readFileSync(FILE).length;
    assert.deepEqual(calls, [[size, size]]);
  });
});

describe("realmem loader on malformed input", () => {
  it("names the file of truncated JSON", async () => {
    const dir = mkdtempSync(join(TMP, "case-"));
    const file = join(dir, "Mira_Sato_dialogues_256k.json");
    const text = readFileSync(FILE, "utf8");
    for (const cut of [Math.floor(text.length / 2), text.lastIndexOf("]")]) {
      writeFileSync(file, text.slice(0, cut));
      const error = await dataError(loadRealMem(file));
      assert.equal(error.file, file);
      assert.match(error.message, /invalid JSON at line \d+, column \d+/);
    }
  });

  it("names file, record and field of a missing session field", async () => {
    const file = broken((d) => {
      delete d.dialogues[2].session_uuid;
    });
    const error = await dataError(loadRealMem(file));
    assert.equal(error.file, file);
    assert.equal(error.record, "Mira_Sato dialogues[2]");
    assert.equal(error.field, "session_uuid");
  });

  it("names the turn of a query without category_name", async () => {
    const file = broken((d) => {
      delete d.dialogues[3].dialogue_turns[2].category_name;
    });
    const error = await dataError(loadRealMem(file, { strict: false }));
    assert.equal(error.file, file);
    assert.equal(error.record, "Mira_Sato dialogues[3] (Fitness_7:S1_02) dialogue_turns[2]");
    assert.equal(error.field, "category_name");
  });

  it("rejects an unknown category when strict and keeps it as a warning when lenient", async () => {
    const file = broken((d) => {
      d.dialogues[3].dialogue_turns[0].category_name = "Dynamic Wobbling";
    });
    const error = await dataError(loadRealMem(file));
    assert.equal(error.file, file);
    assert.equal(error.record, "Mira_Sato dialogues[3] (Fitness_7:S1_02) dialogue_turns[0]");
    assert.equal(error.field, "category_name");

    const lenient = await loadRealMem(file, { strict: false });
    assert.equal(lenient.warnings.length, 1);
    assert.match(lenient.warnings[0]!, /unknown category "Dynamic Wobbling"/);
    assert.equal(lenient.episodes[0]!.probes[1]!.labels.category, "Dynamic Wobbling");
  });

  it("rejects an unknown topic and a session_type that contradicts the evidence when strict", async () => {
    const topic = broken((d) => {
      d.dialogues[3].dialogue_turns[0].topic = "Underwater_Basketweaving";
    });
    assert.equal((await dataError(loadRealMem(topic))).field, "topic");
    const type = broken((d) => {
      d.dialogues[3].dialogue_turns[0].session_type = "multi_session";
    });
    const error = await dataError(loadRealMem(type));
    assert.equal(error.field, "session_type");
    const lenient = await loadRealMem(type, { strict: false });
    // The evidence decides: one evidence session is a single-session query.
    assert.equal(lenient.episodes[0]!.probes[1]!.labels.session_type, "single-session");
    assert.equal(lenient.warnings.length, 1);
  });

  it("rejects duplicate session ids and duplicate query ids", async () => {
    const session = broken((d) => {
      d.dialogues[3].session_identifier = "Fitness_7:S1_01";
    });
    const e1 = await dataError(loadRealMem(session, { strict: false }));
    assert.equal(e1.file, session);
    assert.equal(e1.record, "Mira_Sato dialogues[3]");
    assert.equal(e1.field, "session_identifier");
    assert.match(e1.message, /duplicate session id "Fitness_7:S1_01"/);

    const query = broken((d) => {
      d.dialogues[3].dialogue_turns[2].query_id = "Q-0001";
    });
    const e2 = await dataError(loadRealMem(query, { strict: false }));
    assert.equal(e2.record, "Mira_Sato dialogues[3] (Fitness_7:S1_02) dialogue_turns[2]");
    assert.equal(e2.field, "query_id");
  });

  it("rejects evidence that names no session of the file (strict) or from a later session", async () => {
    const unknown = broken((d) => {
      d.dialogues[3].dialogue_turns[1].memory_session_uuids = ["ffffffff"];
    });
    const error = await dataError(loadRealMem(unknown));
    assert.equal(error.record, "Mira_Sato dialogues[3] (Fitness_7:S1_02) dialogue_turns[1]");
    assert.equal(error.field, "memory_session_uuids");
    const future = broken((d) => {
      d.dialogues[2].dialogue_turns[1].memory_session_uuids = ["c3d4e5f6"];
    });
    assert.match((await dataError(loadRealMem(future))).message, /later session \(Fitness_7:S1_02\)/);
  });

  it("rejects a query with no gold reply after it, and an unknown speaker, even when lenient", async () => {
    const last = broken((d) => {
      d.dialogues[3].dialogue_turns.length = 5;
    });
    const e1 = await dataError(loadRealMem(last, { strict: false }));
    assert.equal(e1.record, "Mira_Sato dialogues[3] (Fitness_7:S1_02) dialogue_turns[4]");
    assert.equal(e1.field, "is_query");
    const speaker = broken((d) => {
      d.dialogues[0].dialogue_turns[1].speaker = "Narrator";
    });
    const e2 = await dataError(loadRealMem(speaker, { strict: false }));
    assert.equal(e2.record, "Mira_Sato dialogues[0] (Fitness_7:S1_01) dialogue_turns[1]");
    assert.equal(e2.field, "speaker");
  });

  it("finds no episodes in a folder with only generator seeds", async () => {
    const dir = mkdtempSync(join(TMP, "case-"));
    mkdirSync(join(dir, "all_persona_topic"));
    copyFileSync(
      fixture("realmem/all_persona_topic/persona_all.json"),
      join(dir, "all_persona_topic/persona_all.json"),
    );
    const error = await dataError(loadRealMem(dir));
    assert.equal(error.file, dir);
  });
});

describe("realmem benchmark definition", () => {
  it("registers labels and the pinned release of ten persona files", () => {
    assert.equal(realmemBenchmark.id, "realmem");
    assert.deepEqual(realmemBenchmark.labels, ["category", "session_type", "topic", "persona"]);
    const release = realmemBenchmark.release!;
    assert.equal(release.revision, "67afd0891d603adcc4458ff0449df306ef296b7a");
    assert.equal(release.files.length, 10);
    const kenta = release.files.find((f) => f.path === "Kenta_Tanaka_dialogues_256k.json");
    assert.equal(
      kenta?.url,
      "https://raw.githubusercontent.com/AvatarMemory/RealMemBench/67afd0891d603adcc4458ff0449df306ef296b7a/dataset/Kenta_Tanaka_dialogues_256k.json",
    );
    assert.match(kenta?.sha256 ?? "", /^[0-9a-f]{64}$/);
    assert.ok(release.manual.length > 0);
  });
});

const SAMPLE = sharedDataset("realmem");

describe("realmem loader on the release sample (Kenta_Tanaka)", () => {
  it("reproduces the sample's counts", { skip: skipUnless(SAMPLE) }, async () => {
    const dataset = await loadRealMem(SAMPLE!);
    assert.deepEqual(dataset.warnings, []);
    assert.equal(dataset.episodes.length, 1, "the all_persona_topic seeds are not episodes");
    const episode = dataset.episodes[0]!;
    assert.equal(episode.id, "Kenta_Tanaka");
    assert.equal(episode.sessions.length, 191);
    assert.equal(episode.sessions.filter((s) => s.meta?.hasMemory === false).length, 90);
    assert.equal(episode.sessions.filter((s) => s.meta?.filler === true).length, 90);
    assert.equal(
      episode.sessions.reduce((n, s) => n + s.turns.length, 0),
      1543,
    );
    assert.equal(
      episode.sessions.reduce((n, s) => n + memoriesOf(s).length, 0),
      424,
    );
    assert.equal(episode.probes.length, 153);
    assert.deepEqual(
      countBy(episode.probes, (p) => p.labels.category),
      { "Static Retrieval": 98, "Proactive Alignment": 35, "Dynamic Updating": 18, "Temporal Reasoning": 2 },
    );
    assert.deepEqual(
      countBy(episode.probes, (p) => p.labels.session_type),
      { "single-session": 94, "multi-session": 59 },
    );
    assert.ok(episode.probes.every((p) => p.position.at === "before" && p.gold.answers.length === 1));
    assert.ok(episode.probes.every((p) => p.gold.evidenceSessionIds.length >= 1));
    // One query cites memory of its own session, which the protocol has not ingested when it fires.
    assert.deepEqual(
      episode.probes.filter((p) => p.meta?.evidenceInOwnSession).map((p) => p.id),
      ["Kenta_Tanaka:Financial_Planning_684:S11_01:0"],
    );
  });
});

const RELEASE = releaseUnderTest("MEMBENCH_FULL_REALMEM", "realmem");

/** The paper's Table 7 (full release) and spec/realmem.md's per-user row for Kenta_Tanaka (the sample). */
const REALMEM_COUNTS = {
  full: {
    episodes: 10,
    sessions: 2055,
    filler: 985,
    turns: 14028,
    probes: 1415,
    categories: {
      "Static Retrieval": 1075,
      "Dynamic Updating": 156,
      "Proactive Alignment": 160,
      "Temporal Reasoning": 24,
    },
    sessionTypes: { "single-session": 845, "multi-session": 570 },
    memories: { "Project State": 4135, Persona: 850, Schedule: 87 } as Record<string, number>,
  },
  sample: {
    episodes: 1,
    sessions: 191,
    filler: 90,
    turns: 1543,
    probes: 153,
    categories: { "Static Retrieval": 98, "Proactive Alignment": 35, "Dynamic Updating": 18, "Temporal Reasoning": 2 },
    sessionTypes: { "single-session": 94, "multi-session": 59 },
    memories: undefined,
  },
};

describe("realmem loader on the release", () => {
  it(releaseTitle("reproduces the release's counts (paper Table 7 on the full release)", RELEASE), {
    skip: releaseSkip(
      RELEASE,
      "MEMBENCH_FULL_REALMEM",
      "the dataset/ folder; ../shared/datasets/realmem is absent too",
    ),
  }, async () => {
    const want = REALMEM_COUNTS[RELEASE!.kind];
    const dataset = await loadRealMem(RELEASE!.path);
    assert.equal(dataset.episodes.length, want.episodes);
    const sessions = dataset.episodes.flatMap((e) => e.sessions);
    const probes = dataset.episodes.flatMap((e) => e.probes);
    assert.equal(sessions.length, want.sessions);
    assert.equal(sessions.filter((s) => s.meta?.filler === true).length, want.filler);
    assert.equal(
      sessions.reduce((n, s) => n + s.turns.length, 0),
      want.turns,
    );
    assert.equal(probes.length, want.probes);
    assert.deepEqual(
      countBy(probes, (p) => p.labels.category),
      want.categories,
    );
    assert.deepEqual(
      countBy(probes, (p) => p.labels.session_type),
      want.sessionTypes,
    );
    const memories = sessions.flatMap(memoriesOf);
    if (want.memories) {
      assert.deepEqual(
        countBy(memories, (m) => m.category),
        want.memories,
      );
    } else assert.equal(memories.length, 424);
  });
});
