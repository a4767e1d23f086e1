import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { subtlememoryBenchmark } from "../../src/benchmarks/subtlememory/index.ts";
import { loadSubtleMemory } from "../../src/benchmarks/subtlememory/load.ts";
import type { Dataset, Probe } from "../../src/core/model.ts";
import { rejectsWith } from "../support/data-error.ts";
import {
  fixture,
  releaseSkip,
  releaseTitle,
  releaseUnderTest,
  sharedDataset,
  skipUnless,
} from "../support/shared-data.ts";

const PERSONA = fixture("subtlememory/persona_1");
const S1 = "related-persona_1-related-export-a1f0-s1";
const S2 = "unrelated-persona_1-nu-temp-00007-s1";
const S3 = "unrelated-persona_1-ctr-b-00003-s1";
const S4 = "related-persona_1-related-export-a1f0-s2";

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A writable copy of the fixture persona, at `<tmp>/<sub>/persona_1`. */
function copyPersona(sub = ""): { root: string; dir: string } {
  const root = mkdtempSync(join(tmpdir(), "membench-subtlememory-"));
  temps.push(root);
  const dir = join(root, sub, "persona_1");
  mkdirSync(dir, { recursive: true });
  cpSync(PERSONA, dir, { recursive: true });
  return { root, dir };
}

function editJson(file: string, edit: (data: Array<Record<string, unknown>>) => void): void {
  const data = JSON.parse(readFileSync(file, "utf8"));
  edit(data);
  writeFileSync(file, JSON.stringify(data, null, 2));
}

function count(probes: Probe[], key: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of probes) {
    const v = p.labels[key] ?? "(none)";
    out[v] = (out[v] ?? 0) + 1;
  }
  return out;
}

function probe(dataset: Dataset, id: string): Probe {
  const found = dataset.episodes[0]?.probes.find((p) => p.id === id);
  assert.ok(found, `probe ${id}`);
  return found;
}

describe("SubtleMemory loader on the fixture persona", () => {
  it("orders sessions by `order` and keeps their ids, times and turns", async () => {
    const dataset = await loadSubtleMemory(PERSONA);
    assert.equal(dataset.benchmark, "subtlememory");
    assert.deepEqual(dataset.warnings, []);
    assert.equal(dataset.episodes.length, 1);
    const episode = dataset.episodes[0]!;
    assert.equal(episode.id, "persona_1");
    assert.deepEqual(episode.meta, { personaId: "1" });
    assert.deepEqual(
      episode.sessions.map((s) => [s.id, s.index, s.time, s.turns.length]),
      [
        [S1, 0, "2025-04-01T09:00:00+08:00", 4],
        [S2, 1, "2025-04-02T10:00:00+08:00", 4],
        [S3, 2, "2025-04-02T10:01:00+08:00", 2],
        [S4, 3, "2025-04-03T20:15:30+08:00", 2],
      ],
    );
    const first = episode.sessions[0]!;
    assert.deepEqual(first.meta, {
      order: 0,
      caseId: "related-export-a1f0",
      source: "user-related",
      conversationType: "decision_support",
      personaSignalLevel: "high",
    });
    assert.deepEqual(
      first.turns.map((t) => [t.id, t.index, t.role]),
      [
        [`${S1}#0`, 0, "user"],
        [`${S1}#1`, 1, "assistant"],
        [`${S1}#2`, 2, "user"],
        [`${S1}#3`, 3, "assistant"],
      ],
    );
    assert.equal(first.turns[2]!.content, "I always end up going back to heirloom seeds, even when they sulk.");
  });

  it("breaks ties in `order` by timestamp and puts sessions without `order` last", async () => {
    const { dir } = copyPersona();
    editJson(join(dir, "history_sessions.json"), (list) => {
      for (const session of list) {
        if (session.session_id === S1) delete session.order;
        if (session.session_id === S3) {
          session.order = 1;
          session.timestamp = "2025-04-02T09:00:00+08:00";
        }
      }
    });
    const episode = (await loadSubtleMemory(dir)).episodes[0]!;
    assert.deepEqual(
      episode.sessions.map((s) => s.id),
      [S3, S2, S4, S1],
    );
  });

  it("spaces messages 30 s apart, closer when the next session starts sooner", async () => {
    const episode = (await loadSubtleMemory(PERSONA)).episodes[0]!;
    const times = (i: number) => episode.sessions[i]!.turns.map((t) => t.time);
    assert.deepEqual(times(0), [
      "2025-04-01T09:00:00+08:00",
      "2025-04-01T09:00:30+08:00",
      "2025-04-01T09:01:00+08:00",
      "2025-04-01T09:01:30+08:00",
    ]);
    // 60 s to the next session: 3 steps must fit in 54 s, so 18 s each.
    assert.deepEqual(times(1), [
      "2025-04-02T10:00:00+08:00",
      "2025-04-02T10:00:18+08:00",
      "2025-04-02T10:00:36+08:00",
      "2025-04-02T10:00:54+08:00",
    ]);
    assert.deepEqual(times(3), ["2025-04-03T20:15:30+08:00", "2025-04-03T20:16:00+08:00"]);
  });

  it("expands every qas entry into a probe with normalised labels", async () => {
    const dataset = await loadSubtleMemory(PERSONA);
    const probes = dataset.episodes[0]!.probes;
    assert.deepEqual(
      probes.map((p) => p.id),
      [
        "related-0a01:qa0",
        "unrelated-0b02:qa0",
        "unrelated-0c03:qa0",
        "unrelated-0c03:qa1",
        "related-0d04:qa0",
        "related-0d04:qa1",
        "related-0e05:qa0",
        "unrelated-0f06:qa0",
      ],
    );
    assert.deepEqual(count(probes, "relation_type"), { complementary: 2, nuanced: 4, contradictory: 2 });
    assert.deepEqual(count(probes, "relation_subtype"), {
      "Multi-evidence": 1,
      "Any-one": 1,
      Temporal: 2,
      Contextual: 2,
      Contradictory: 2,
    });
    assert.deepEqual(count(probes, "source"), { "user-related": 4, "user-unrelated": 4 });
    assert.deepEqual(count(probes, "topic"), { Gardening: 4, Transport: 3, Museums: 1 });
    assert.ok(probes.every((p) => p.position.at === "end"));
    const legacy = probe(dataset, "unrelated-0f06:qa0");
    assert.equal(legacy.labels.relation_subtype, "Contradictory");
    assert.equal(legacy.meta?.relationSubtypeRaw, "b_user_vs_non_user");
  });

  it("maps answers, wrong answers, evidence sessions and judge metadata", async () => {
    const dataset = await loadSubtleMemory(PERSONA);
    const multi = probe(dataset, "related-0a01:qa0");
    assert.equal(multi.question, "Fill the seed order card for my balcony.\n- Variety:\n- Why:");
    // Surrounding blanks trimmed and the empty candidate dropped, as the reference converter does.
    assert.deepEqual(multi.gold.answers, [
      "Variety: heirloom yellow pear cherry; Why: copes with morning sun and is heirloom",
      "Variety: a compact heirloom cherry tomato; Why: short sun hours, heirloom habit",
    ]);
    assert.deepEqual(multi.gold.wrongAnswers, ["Variety: beefsteak hybrid; Why: large fruit"]);
    assert.deepEqual(multi.gold.evidenceSessionIds, [S1, S4]);
    assert.deepEqual(multi.gold.evidenceTurnIds, []);
    assert.equal(multi.meta?.instanceId, "related-0a01");
    assert.equal(multi.meta?.caseId, "related-export-a1f0");
    assert.equal(multi.meta?.qaIndex, 0);
    assert.deepEqual(multi.meta?.facts, ["Ilse's balcony gets only morning sun.", "Ilse prefers heirloom seeds."]);
    assert.match(String(multi.meta?.persona), /"name": "Ilse Marten"/);

    const temporal = probe(dataset, "unrelated-0c03:qa1");
    assert.deepEqual(temporal.gold.answers, ["4 crowns"]);
    assert.deepEqual(temporal.gold.wrongAnswers, ["3 crowns"]);
    assert.equal(temporal.meta?.qaIndex, 1);
    assert.equal(temporal.meta?.persona, undefined, "the persona is for user-related cases only");
  });

  it("accepts a persona folder, one of its files, or a folder of persona folders", async () => {
    const viaFile = await loadSubtleMemory(join(PERSONA, "bench_instances.json"));
    assert.equal(viaFile.episodes[0]!.id, "persona_1");
    assert.equal(viaFile.episodes[0]!.probes.length, 8);

    const { root } = copyPersona("set-a");
    cpSync(join(root, "set-a"), join(root, "set-b"), { recursive: true });
    const nested = await loadSubtleMemory(root);
    assert.deepEqual(
      nested.episodes.map((e) => [e.id, e.sessions.length, e.probes.length]),
      [
        ["set-a/persona_1", 4, 8],
        ["set-b/persona_1", 4, 8],
      ],
    );
    assert.equal(nested.source.files.length, 4);
  });

  it("gives the same probe ids across loads and when the instances file is reordered", async () => {
    const one = await loadSubtleMemory(PERSONA);
    const two = await loadSubtleMemory(PERSONA);
    assert.deepEqual(two.episodes[0]!.probes, one.episodes[0]!.probes);

    const { dir } = copyPersona();
    editJson(join(dir, "bench_instances.json"), (list) => list.reverse());
    const reordered = await loadSubtleMemory(dir);
    const byId = new Map(reordered.episodes[0]!.probes.map((p) => [p.id, p]));
    for (const p of one.episodes[0]!.probes) assert.deepEqual(byId.get(p.id), p);
  });

  it("is registered with its label keys and a pinned release", () => {
    assert.equal(subtlememoryBenchmark.id, "subtlememory");
    assert.deepEqual(subtlememoryBenchmark.labels, ["relation_type", "relation_subtype", "source", "topic"]);
    const release = subtlememoryBenchmark.release!;
    assert.equal(release.files.length, 20);
    assert.equal(
      release.files[1]!.url,
      "https://raw.githubusercontent.com/Yummytanmo/SubtleMemory/be80b281d034f7d25ca4bbc8e5b9f943b2bd9dd9/data/subtlememory/persona_0/bench_instances.json",
    );
    assert.equal(release.files[1]!.path, "persona_0/bench_instances.json");
  });
});

describe("SubtleMemory loader on broken input", () => {
  it("names the file of truncated JSON", async () => {
    const { dir } = copyPersona();
    const file = join(dir, "history_sessions.json");
    const text = readFileSync(file, "utf8");
    writeFileSync(file, text.slice(0, Math.floor(text.length / 2)));
    await rejectsWith(loadSubtleMemory(dir), { file, message: /invalid JSON at line \d+, column \d+/ });
  });

  it("names the record and field of a missing question", async () => {
    const { dir } = copyPersona();
    const file = join(dir, "bench_instances.json");
    editJson(file, (list) => {
      delete (list[0]!.qas as Array<Record<string, unknown>>)[0]!.query;
    });
    await rejectsWith(loadSubtleMemory(dir), {
      file,
      record: 'instance [0] "related-0a01" qas[0]',
      field: "query",
      message: /missing/,
    });
  });

  it("rejects an unknown subtype in strict mode and warns in lenient mode", async () => {
    const { dir } = copyPersona();
    const file = join(dir, "bench_instances.json");
    editJson(file, (list) => {
      list[1]!.relation_subtype = "K>2";
    });
    const where = { file, record: 'instance [1] "unrelated-0b02"', field: "relation_subtype" };
    await rejectsWith(loadSubtleMemory(dir), { ...where, message: /unknown relation subtype "K>2"/ });

    const lenient = await loadSubtleMemory(dir, { strict: false });
    assert.equal(lenient.warnings.length, 1);
    assert.ok(lenient.warnings[0]!.includes(file));
    assert.match(lenient.warnings[0]!, /record instance \[1\] "unrelated-0b02", field relation_subtype: unknown/);
    assert.equal(probe(lenient, "unrelated-0b02:qa0").labels.relation_subtype, "K>2");
  });

  it("rejects a subtype filed under the wrong relation type", async () => {
    const { dir } = copyPersona();
    const file = join(dir, "bench_instances.json");
    editJson(file, (list) => {
      list[2]!.relation_type = "complementary";
    });
    await rejectsWith(loadSubtleMemory(dir), {
      file,
      record: 'instance [2] "unrelated-0c03"',
      field: "relation_subtype",
      message: /belongs to nuanced, not complementary/,
    });
  });

  it("rejects duplicate session and instance ids", async () => {
    const a = copyPersona();
    const history = join(a.dir, "history_sessions.json");
    editJson(history, (list) => {
      list[2]!.session_id = S4;
    });
    await rejectsWith(loadSubtleMemory(a.dir), {
      file: history,
      record: `session [2] "${S4}"`,
      field: "session_id",
      message: /duplicate session id \(also at \[0\]\)/,
    });

    const b = copyPersona();
    const instances = join(b.dir, "bench_instances.json");
    editJson(instances, (list) => {
      list[3]!.instance_id = "unrelated-0b02";
    });
    await rejectsWith(loadSubtleMemory(b.dir), {
      file: instances,
      record: 'instance [3] "unrelated-0b02"',
      field: "instance_id",
      message: /duplicate instance id \(also at \[1\]\)/,
    });
  });

  it("rejects a persona folder missing one of its two files", async () => {
    const { dir } = copyPersona();
    unlinkSync(join(dir, "bench_instances.json"));
    await rejectsWith(loadSubtleMemory(dir), {
      file: join(dir, "bench_instances.json"),
      message: /lacks bench_instances\.json/,
    });
  });
});

const SAMPLE = sharedDataset("subtlememory/persona_7");

describe("SubtleMemory loader on the shared sample", () => {
  it("reproduces the persona_7 counts", { skip: skipUnless(SAMPLE) }, async () => {
    const dataset = await loadSubtleMemory(SAMPLE!);
    assert.deepEqual(dataset.warnings, [], "no unknown labels and no dangling evidence");
    const episode = dataset.episodes[0]!;
    assert.equal(episode.id, "persona_7");
    assert.equal(episode.sessions.length, 193);
    assert.equal(
      episode.sessions.reduce((n, s) => n + s.turns.length, 0),
      2286,
    );
    assert.equal(episode.probes.length, 64);
    assert.deepEqual(count(episode.probes, "relation_type"), { nuanced: 32, contradictory: 17, complementary: 15 });
    assert.deepEqual(count(episode.probes, "relation_subtype"), {
      Temporal: 20,
      Contextual: 12,
      Contradictory: 17,
      "Multi-evidence": 8,
      "Any-one": 7,
    });
    const order = episode.sessions.map((s) => s.meta?.order as number);
    assert.deepEqual(
      order,
      [...order].sort((x, y) => x - y),
    );
  });
});

const RELEASE = releaseUnderTest("MEMBENCH_FULL_SUBTLEMEMORY", "subtlememory");

/** The paper's totals (full release) and the sample's (persona_7, 46 of its 92 instances; shared/datasets README). */
const SUBTLE_COUNTS = {
  full: {
    episodes: 10,
    probes: 1522,
    types: { complementary: 361, nuanced: 784, contradictory: 377 },
    subtypes: { "Multi-evidence": 211, "Any-one": 150, Temporal: 396, Contextual: 388, Contradictory: 377 },
  },
  sample: {
    episodes: 1,
    probes: 64,
    types: { complementary: 15, nuanced: 32, contradictory: 17 },
    subtypes: { "Multi-evidence": 8, "Any-one": 7, Temporal: 20, Contextual: 12, Contradictory: 17 },
  },
};

describe("SubtleMemory loader on the release", () => {
  it(releaseTitle("reproduces the release's questions by relation type and subtype", RELEASE), {
    skip: releaseSkip(
      RELEASE,
      "MEMBENCH_FULL_SUBTLEMEMORY",
      "the data/subtlememory folder; ../shared/datasets/subtlememory is absent too",
    ),
  }, async () => {
    const want = SUBTLE_COUNTS[RELEASE!.kind];
    const dataset = await loadSubtleMemory(RELEASE!.path);
    if (RELEASE!.kind === "sample") assert.deepEqual(dataset.warnings, []);
    assert.equal(dataset.episodes.length, want.episodes);
    const probes = dataset.episodes.flatMap((e) => e.probes);
    assert.equal(probes.length, want.probes);
    assert.deepEqual(count(probes, "relation_type"), want.types);
    const sub = count(probes, "relation_subtype");
    const names = Object.keys(want.subtypes) as Array<keyof typeof want.subtypes>;
    assert.deepEqual(
      names.map((k) => sub[k]),
      names.map((k) => want.subtypes[k]),
    );
  });
});
