import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ABSTENTION_ANSWER, locomoBenchmark } from "../../src/benchmarks/locomo/index.ts";
import { loadLocomo } from "../../src/benchmarks/locomo/load.ts";
import type { Dataset, Probe } from "../../src/core/model.ts";
import { scoreAnswersFile } from "../../src/run/answers.ts";
import { rejectsWith } from "../support/data-error.ts";
import {
  fixture,
  releaseSkip,
  releaseTitle,
  releaseUnderTest,
  sharedDataset,
  skipUnless,
} from "../support/shared-data.ts";

const FLAT = fixture("locomo/per-conversation/7.json");
const ARRAY = fixture("locomo/locomo10-mini.json");

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "membench-locomo-"));
  temps.push(dir);
  return dir;
}

/** A copy of the flat fixture, edited, at `<tmp>/7.json`. */
function brokenFlat(edit: (conv: Record<string, unknown> & { qa: Array<Record<string, unknown>> }) => void): string {
  const file = join(tempDir(), "7.json");
  const conv = JSON.parse(readFileSync(FLAT, "utf8"));
  edit(conv);
  writeFileSync(file, JSON.stringify(conv, null, 2));
  return file;
}

function probe(dataset: Dataset, id: string): Probe {
  const found = dataset.episodes.flatMap((e) => e.probes).find((p) => p.id === id);
  assert.ok(found, `probe ${id}`);
  return found;
}

function categories(probes: Probe[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const p of probes) out[p.labels.category!] = (out[p.labels.category!] ?? 0) + 1;
  return out;
}

describe("LoCoMo loader on the per-conversation fixture", () => {
  it("reads sessions with dates, speakers as roles and dialog ids as turn ids", async () => {
    const dataset = await loadLocomo(FLAT);
    assert.equal(dataset.benchmark, "locomo");
    assert.deepEqual(dataset.warnings, []);
    const episode = dataset.episodes[0]!;
    assert.equal(episode.id, "conv-7");
    assert.deepEqual(episode.meta, { speakerA: "Noor", speakerB: "Tobias" });
    // session_4 has a date but no turns: it is not a session.
    assert.deepEqual(
      episode.sessions.map((s) => [s.id, s.index, s.time, s.turns.length]),
      [
        ["session_1", 0, "2022-03-02T09:05:00", 4],
        ["session_2", 1, "2022-04-19T19:40:00", 4],
        ["session_3", 2, "2022-05-30T12:15:00", 3],
      ],
    );
    assert.deepEqual(episode.sessions[1]!.meta, { dateTime: "7:40 pm on 19 April, 2022" });
    assert.deepEqual(
      episode.sessions[1]!.turns.map((t) => [t.id, t.index, t.role, t.speaker]),
      [
        ["D2:1", 0, "assistant", "Tobias"],
        ["D2:2", 1, "user", "Noor"],
        ["D2:3", 2, "assistant", "Tobias"],
        ["D2:4", 3, "user", "Noor"],
      ],
    );
  });

  it("keeps image fields in turn metadata and the text unchanged", async () => {
    const episode = (await loadLocomo(FLAT)).episodes[0]!;
    const image = episode.sessions[1]!.turns[1]!;
    assert.equal(image.content, "Here is the teapot, glaze still drying!");
    assert.deepEqual(image.meta, {
      imgUrl: ["https://example.invalid/teapot.jpg"],
      blipCaption: "a photo of a blue teapot on a wooden table",
      imageQuery: "handmade blue teapot",
    });
    assert.equal(episode.sessions[1]!.turns[0]!.meta, undefined);
  });

  it("leaves observations and summaries out of the episode", async () => {
    const text = JSON.stringify((await loadLocomo(FLAT)).episodes[0]);
    assert.ok(!text.includes("Noor signed up for a night pottery course."));
    assert.ok(!text.includes("talked about pottery and rowing"));
    assert.ok(!text.includes("Noor joins a pottery course."));
  });

  it("turns every qa item into a probe with its category, gold and evidence", async () => {
    const dataset = await loadLocomo(FLAT);
    const probes = dataset.episodes[0]!.probes;
    assert.deepEqual(
      probes.map((p) => [p.id, p.labels.category, p.meta?.categoryId]),
      [
        ["conv-7:q0", "single-hop", 4],
        ["conv-7:q1", "temporal", 2],
        ["conv-7:q2", "multi-hop", 1],
        ["conv-7:q3", "open-domain", 3],
        ["conv-7:q4", "adversarial", 5],
        ["conv-7:q5", "adversarial", 5],
      ],
    );
    assert.ok(probes.every((p) => p.position.at === "end" && p.time === "2022-05-30T12:15:00"));

    const single = probe(dataset, "conv-7:q0");
    assert.deepEqual(single.gold.answers, ["night pottery course"]);
    assert.deepEqual(single.gold.evidenceTurnIds, ["D1:1"]);
    assert.deepEqual(single.gold.evidenceSessionIds, ["session_1"]);

    assert.deepEqual(probe(dataset, "conv-7:q1").gold.answers, ["2021"], "numeric answers become strings");

    const open = probe(dataset, "conv-7:q3");
    assert.deepEqual(open.gold.evidenceTurnIds, []);
    assert.deepEqual(open.gold.answers, ["Likely yes; he enjoys being on the water"]);
  });

  it("splits an evidence string that holds two dialog ids, keeping the raw value", async () => {
    const multi = probe(await loadLocomo(FLAT), "conv-7:q2");
    assert.deepEqual(multi.gold.evidenceTurnIds, ["D1:3", "D3:2"]);
    assert.deepEqual(multi.gold.evidenceSessionIds, ["session_1", "session_3"]);
    assert.deepEqual(multi.meta?.evidenceRaw, ["D1:3; D3:2"]);
  });

  it("gives adversarial items the trap as a wrong answer and an abstention when no answer is given", async () => {
    const dataset = await loadLocomo(FLAT);
    const bare = probe(dataset, "conv-7:q4");
    assert.deepEqual(bare.gold.answers, [ABSTENTION_ANSWER]);
    assert.deepEqual(bare.gold.wrongAnswers, ["blue"]);
    assert.deepEqual(bare.meta, { categoryId: 5, abstention: true, answerSynthesized: true });

    const answered = probe(dataset, "conv-7:q5");
    assert.deepEqual(answered.gold.answers, ["No"]);
    assert.deepEqual(answered.gold.wrongAnswers, ["Yes"]);
    assert.deepEqual(answered.meta, { categoryId: 5, abstention: true });
  });

  it("gives the same probe ids and content across loads", async () => {
    const one = await loadLocomo(FLAT);
    const two = await loadLocomo(FLAT);
    assert.deepEqual(two.episodes, one.episodes);
  });
});

describe("LoCoMo loader on the locomo10.json layout", () => {
  it("reads an array of conversations named by sample_id", async () => {
    const dataset = await loadLocomo(ARRAY);
    assert.deepEqual(dataset.warnings, []);
    assert.deepEqual(
      dataset.episodes.map((e) => [e.id, e.sessions.length, e.probes.length]),
      [
        ["conv-8", 2, 2],
        ["conv-9", 1, 2],
      ],
    );
    const [first] = dataset.episodes;
    assert.equal(first!.sessions[0]!.time, "2023-01-13T18:07:00");
    assert.deepEqual(first!.sessions[1]!.turns[0], {
      id: "D2:1",
      index: 0,
      role: "assistant",
      speaker: "Bram",
      content: "I moved to Utrecht last weekend.",
    });
    assert.deepEqual(probe(dataset, "conv-8:q1").gold.evidenceSessionIds, ["session_2"]);
    assert.equal(probe(dataset, "conv-8:q1").time, "2023-02-02T10:30:00");
    assert.deepEqual(probe(dataset, "conv-9:q1").gold.answers, [ABSTENTION_ANSWER]);
    assert.ok(!JSON.stringify(dataset.episodes).includes("Ada adopts Pepper."));
  });

  it("reads a folder of both layouts and skips the pull manifest", async () => {
    const dir = tempDir();
    cpSync(fixture("locomo"), dir, { recursive: true });
    writeFileSync(join(dir, "membench-release.json"), JSON.stringify({ benchmark: "locomo", files: [] }));
    const dataset = await loadLocomo(dir);
    assert.deepEqual(
      dataset.episodes.map((e) => e.id),
      ["conv-8", "conv-9", "conv-7"],
    );
    assert.equal(dataset.source.files.length, 2);
  });

  it("rejects a conversation in an array without sample_id", async () => {
    const file = join(tempDir(), "locomo10.json");
    const list = JSON.parse(readFileSync(ARRAY, "utf8"));
    delete list[1].sample_id;
    writeFileSync(file, JSON.stringify(list));
    await rejectsWith(loadLocomo(file), { file, record: "conversation [1]", field: "sample_id", message: /missing/ });
  });
});

describe('LoCoMo loader on the release\'s evidence token "D" (conv-42 qa[88])', () => {
  const QUIRK = fixture("locomo-evidence/42.json");

  it("loads strictly, drops only that token and says so in a warning", async () => {
    const dataset = await loadLocomo(QUIRK);
    assert.deepEqual(dataset.warnings, [
      `file ${QUIRK}, record conversation conv-42 qa[1], field evidence: unreadable evidence "D" dropped (evidence does not change F1 or J)`,
    ]);
    const p = probe(dataset, "conv-42:q1");
    assert.deepEqual(p.gold.evidenceTurnIds, ["D1:18", "D1:20"]);
    assert.deepEqual(p.gold.evidenceSessionIds, ["session_1"]);
    assert.deepEqual(p.meta?.evidenceRaw, ["D1:18", "D", "D1:20"]);
    assert.deepEqual(p.gold.answers, ["a pottery class and the choir concert"]);
    assert.equal(dataset.episodes[0]!.probes.length, 3);
  });

  it("is scored from an answers file without --lenient", async () => {
    const dir = tempDir();
    const answers = join(dir, "answers.jsonl");
    writeFileSync(
      answers,
      `${[
        { question_id: "conv-42:q0", hypothesis: "Bubbles" },
        { question_id: "conv-42:q1", hypothesis: "a pottery class" },
      ]
        .map((a) => JSON.stringify(a))
        .join("\n")}\n`,
    );
    const outcome = await scoreAnswersFile("locomo", QUIRK, answers, { out: dir, id: "scored", options: { j: "off" } });
    const row = outcome.summary.results.find((r) => r.system === "answers")!;
    assert.equal(row.n, 2);
    assert.ok(row.metrics.f1! > 0);
  });
});

describe("LoCoMo loader on broken input", () => {
  it("names the file of truncated JSON", async () => {
    const file = join(tempDir(), "7.json");
    const text = readFileSync(FLAT, "utf8");
    writeFileSync(file, text.slice(0, text.length - 40));
    await rejectsWith(loadLocomo(file), { file, message: /invalid JSON/ });
  });

  it("names the record and field of a missing answer", async () => {
    const file = brokenFlat((conv) => {
      delete conv.qa[0]!.answer;
    });
    await rejectsWith(loadLocomo(file), {
      file,
      record: "conversation conv-7 qa[0]",
      field: "answer",
      message: /missing/,
    });
  });

  it("names the record and field of a turn without text", async () => {
    const file = brokenFlat((conv) => {
      delete (conv.session_3 as Array<Record<string, unknown>>)[1]!.text;
    });
    await rejectsWith(loadLocomo(file), {
      file,
      record: "conversation conv-7 session_3[1]",
      field: "text",
      message: /missing/,
    });
  });

  it("rejects an unknown category in strict mode and warns in lenient mode", async () => {
    const file = brokenFlat((conv) => {
      conv.qa[3]!.category = 6;
    });
    const where = { file, record: "conversation conv-7 qa[3]", field: "category" };
    await rejectsWith(loadLocomo(file), { ...where, message: /unknown category 6/ });

    const lenient = await loadLocomo(file, { strict: false });
    assert.equal(lenient.warnings.length, 1);
    assert.ok(lenient.warnings[0]!.includes(file));
    assert.match(lenient.warnings[0]!, /record conversation conv-7 qa\[3\], field category: unknown category 6/);
    assert.equal(probe(lenient, "conv-7:q3").labels.category, "6");
  });

  it("warns about unreadable evidence in both modes and keeps the readable ids", async () => {
    const file = brokenFlat((conv) => {
      conv.qa[0]!.evidence = ["D1:1", "D12"];
    });
    for (const strict of [true, false]) {
      const dataset = await loadLocomo(file, { strict });
      assert.deepEqual(dataset.warnings, [
        `file ${file}, record conversation conv-7 qa[0], field evidence: unreadable evidence "D12" dropped (evidence does not change F1 or J)`,
      ]);
      const p = probe(dataset, "conv-7:q0");
      assert.deepEqual(p.gold.evidenceTurnIds, ["D1:1"]);
      assert.deepEqual(p.meta?.evidenceRaw, ["D1:1", "D12"]);
    }
  });

  it("rejects a duplicate dialog id", async () => {
    const file = brokenFlat((conv) => {
      (conv.session_2 as Array<Record<string, unknown>>)[0]!.dia_id = "D1:2";
    });
    await rejectsWith(loadLocomo(file), {
      file,
      record: "conversation conv-7",
      field: "turn.id",
      message: /duplicate turn id "D1:2"/,
    });
  });

  it("reports a speaker who is neither of the two named people", async () => {
    const file = brokenFlat((conv) => {
      (conv.session_1 as Array<Record<string, unknown>>)[0]!.speaker = "Nour";
    });
    await rejectsWith(loadLocomo(file), {
      file,
      record: "conversation conv-7 session_1[0]",
      field: "speaker",
      message: /"Nour" is neither "Noor" nor "Tobias"/,
    });
  });
});

describe("LoCoMo benchmark definition", () => {
  it("pins the release zip and the category label", () => {
    assert.equal(locomoBenchmark.id, "locomo");
    assert.deepEqual(locomoBenchmark.labels, ["category"]);
    assert.deepEqual(locomoBenchmark.release?.files, [
      {
        url: "https://raw.githubusercontent.com/snap-research/locomo/e76cdff4a04fce19090596d49862fe87a5c15aaa/data/locomo10.zip",
        path: "locomo10",
        unzip: true,
      },
    ]);
  });
});

const SAMPLE = sharedDataset("locomo/26.json");

describe("LoCoMo loader on the shared sample", () => {
  it("reproduces the 26.json counts", { skip: skipUnless(SAMPLE) }, async () => {
    const dataset = await loadLocomo(SAMPLE!);
    assert.deepEqual(dataset.warnings, []);
    const episode = dataset.episodes[0]!;
    assert.equal(episode.id, "conv-26");
    assert.deepEqual(
      episode.sessions.map((s) => s.id),
      Array.from({ length: 19 }, (_, i) => `session_${i + 1}`),
    );
    assert.equal(
      episode.sessions.reduce((n, s) => n + s.turns.length, 0),
      419,
    );
    assert.equal(episode.probes.length, 199);
    assert.deepEqual(categories(episode.probes), {
      "multi-hop": 32,
      temporal: 37,
      "open-domain": 13,
      "single-hop": 70,
      adversarial: 47,
    });
    assert.deepEqual(probe(dataset, "conv-26:q37").gold.evidenceTurnIds, ["D8:6", "D9:17"]);
  });
});

describe("LoCoMo loader across layouts", () => {
  it("reads 26.json and its locomo10.json-style form into the same episode", { skip: skipUnless(SAMPLE) }, async () => {
    const flat = JSON.parse(readFileSync(SAMPLE!, "utf8")) as Record<string, unknown>;
    const conversation: Record<string, unknown> = {};
    const rest: Record<string, Record<string, unknown>> = { observation: {}, session_summary: {}, event_summary: {} };
    for (const [key, value] of Object.entries(flat)) {
      if (key === "qa") continue;
      if (key.endsWith("_observation")) rest.observation![key] = value;
      else if (key.endsWith("_summary")) rest.session_summary![key] = value;
      else if (key.startsWith("events_")) rest.event_summary![key] = value;
      else conversation[key] = value;
    }
    const file = join(tempDir(), "locomo10.json");
    writeFileSync(file, JSON.stringify([{ sample_id: "conv-26", conversation, ...rest, qa: flat.qa }]));
    const nested = await loadLocomo(file);
    const direct = await loadLocomo(SAMPLE!);
    assert.deepEqual(nested.episodes, direct.episodes);
  });
});

const RELEASE = releaseUnderTest("MEMBENCH_FULL_LOCOMO", "locomo/26.json");
const RELEASE_SKIP = releaseSkip(
  RELEASE,
  "MEMBENCH_FULL_LOCOMO",
  "locomo10.json or the unzipped folder; ../shared/datasets/locomo/26.json is absent too",
);

/** Counts from repos §7 (full release) and docs/data/locomo.md (the conv-26 sample). */
const LOCOMO_COUNTS = {
  full: {
    episodes: 10,
    sessions: 272,
    turns: 5882,
    probes: 1986,
    categories: { "multi-hop": 282, temporal: 321, "open-domain": 96, "single-hop": 841, adversarial: 446 },
  },
  sample: {
    episodes: 1,
    sessions: 19,
    turns: 419,
    probes: 199,
    categories: { "multi-hop": 32, temporal: 37, "open-domain": 13, "single-hop": 70, adversarial: 47 },
  },
};

describe("LoCoMo loader on the release", () => {
  it(releaseTitle("reproduces the release's counts", RELEASE), { skip: RELEASE_SKIP }, async () => {
    const want = LOCOMO_COUNTS[RELEASE!.kind];
    const dataset = await loadLocomo(RELEASE!.path, { strict: false });
    assert.equal(dataset.episodes.length, want.episodes);
    const sessions = dataset.episodes.flatMap((e) => e.sessions);
    assert.equal(sessions.length, want.sessions);
    assert.equal(
      sessions.reduce((n, s) => n + s.turns.length, 0),
      want.turns,
    );
    const probes = dataset.episodes.flatMap((e) => e.probes);
    assert.equal(probes.length, want.probes);
    assert.deepEqual(categories(probes), want.categories);
  });

  it(releaseTitle("loads in strict mode", RELEASE), { skip: RELEASE_SKIP }, async () => {
    const dataset = await loadLocomo(RELEASE!.path);
    const want = LOCOMO_COUNTS[RELEASE!.kind];
    assert.equal(dataset.episodes.length, want.episodes);
    assert.equal(dataset.episodes.flatMap((e) => e.probes).length, want.probes);
    if (RELEASE!.kind === "sample") assert.deepEqual(dataset.warnings, []);
    else {
      // The release's one unreadable evidence token is a warning, not a refusal.
      assert.ok(
        dataset.warnings.some((w) =>
          /record conversation conv-42 qa\[88\], field evidence: unreadable evidence "D"/.test(w),
        ),
        dataset.warnings.join("\n"),
      );
    }
  });
});
