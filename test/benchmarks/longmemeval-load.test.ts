import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { longmemevalBenchmark } from "../../src/benchmarks/longmemeval/index.ts";
import { loadLongMemEval } from "../../src/benchmarks/longmemeval/load.ts";
import { ConfigError } from "../../src/core/errors.ts";
import type { Episode } from "../../src/core/model.ts";
import { dataError } from "../support/data-error.ts";
import { fixture } from "../support/shared-data.ts";

const TMP = mkdtempSync(join(tmpdir(), "membench-lme-"));
after(() => rmSync(TMP, { recursive: true, force: true }));

const FOLDER = fixture("longmemeval");
const FILE = fixture("longmemeval/longmemeval_s_cleaned.json");

function tempDir(): string {
  return mkdtempSync(join(TMP, "case-"));
}

/** A copy of the fixture with `edit` applied, under the release's file name in a fresh folder. */
// biome-ignore lint/suspicious/noExplicitAny: the edits reach into arbitrary places of the release JSON
function broken(edit: (data: any[]) => void, name = "longmemeval_s_cleaned.json"): string {
  const data = JSON.parse(readFileSync(FILE, "utf8"));
  edit(data);
  const file = join(tempDir(), name);
  writeFileSync(file, JSON.stringify(data, null, 1));
  return file;
}

function byId(episodes: Episode[], id: string): Episode {
  const found = episodes.find((e) => e.id === id);
  assert.ok(found, `no episode ${id}`);
  return found;
}

describe("longmemeval loader on the project fixture", () => {
  it("makes one episode per question, in file order, with the variant from the file name", async () => {
    const dataset = await loadLongMemEval(FOLDER);
    assert.equal(dataset.benchmark, "longmemeval");
    assert.equal(dataset.variant, "s");
    assert.deepEqual(
      dataset.source.files.map((f) => f.path),
      [FILE],
    );
    assert.deepEqual(
      dataset.episodes.map((e) => [e.id, e.probes.map((p) => p.id)]),
      [
        ["e47b1c01", ["e47b1c01"]],
        ["9c3d7a22", ["9c3d7a22"]],
        ["gpt4_5f1e8b33_abs", ["gpt4_5f1e8b33_abs"]],
        ["71aa0d44", ["71aa0d44"]],
      ],
    );
  });

  it("labels question types and abstention from the _abs suffix", async () => {
    const { episodes } = await loadLongMemEval(FILE);
    assert.deepEqual(
      episodes.map((e) => e.probes[0]!.labels),
      [
        { question_type: "single-session-user", abstention: "no" },
        { question_type: "multi-session", abstention: "no" },
        { question_type: "temporal-reasoning", abstention: "yes" },
        { question_type: "knowledge-update", abstention: "no" },
      ],
    );
    assert.deepEqual(episodes[2]!.labels, { question_type: "temporal-reasoning", abstention: "yes" });
  });

  it("fires each probe at the end, at the question date, with the answer as text", async () => {
    const { episodes } = await loadLongMemEval(FILE);
    const counting = byId(episodes, "9c3d7a22").probes[0]!;
    assert.deepEqual(counting.position, { at: "end" });
    assert.equal(counting.time, "2023-06-12T08:00:00");
    assert.equal(counting.question, "How many houseplants have I bought in total?");
    assert.deepEqual(counting.gold.answers, ["3"], "a numeric answer becomes text");
  });

  it("maps the haystack to sessions with dates and indexed turn ids", async () => {
    const { episodes } = await loadLongMemEval(FILE);
    const first = byId(episodes, "e47b1c01");
    assert.deepEqual(
      first.sessions.map((s) => [s.index, s.id, s.time, s.turns.length]),
      [
        [0, "sharegpt_basil_0", "2023-05-20T02:21:00", 2],
        [1, "answer_e47b1c01_1", "2023-05-22T14:05:00", 4],
        [2, "ultrachat_5521", "2023-05-25T09:40:00", 2],
      ],
    );
    assert.deepEqual(first.sessions[1]!.turns[0], {
      id: "answer_e47b1c01_1#0",
      index: 0,
      role: "user",
      content: "I moved to Lisbon last spring and I still get lost in Alfama.",
      meta: { hasAnswer: true },
    });
    assert.deepEqual(first.sessions[1]!.turns[1], {
      id: "answer_e47b1c01_1#1",
      index: 1,
      role: "assistant",
      content: "Alfama's lanes are famously tangled! Offline maps help.",
    });
  });

  it("takes evidence sessions from answer_session_ids and evidence turns from has_answer", async () => {
    const { episodes } = await loadLongMemEval(FILE);
    assert.deepEqual(
      episodes.map((e) => [e.probes[0]!.gold.evidenceSessionIds, e.probes[0]!.gold.evidenceTurnIds]),
      [
        [["answer_e47b1c01_1"], ["answer_e47b1c01_1#0"]],
        [
          ["answer_9c3d7a22_1", "answer_9c3d7a22_2"],
          ["answer_9c3d7a22_1#0", "answer_9c3d7a22_2#0"],
        ],
        [["answer_5f1e8b33_1"], []],
        [
          ["answer_71aa0d44_1", "answer_71aa0d44_2"],
          ["answer_71aa0d44_1#0", "answer_71aa0d44_2#0"],
        ],
      ],
    );
  });

  it("renames a filler session drawn twice into one haystack and says so", async () => {
    const dataset = await loadLongMemEval(FILE);
    const update = byId(dataset.episodes, "71aa0d44");
    assert.deepEqual(
      update.sessions.map((s) => [s.id, s.time, s.meta]),
      [
        ["answer_71aa0d44_1", "2023-08-01T06:50:00", undefined],
        ["sharegpt_haiku_7", "2023-08-04T13:00:00", undefined],
        ["answer_71aa0d44_2", "2023-08-10T06:55:00", undefined],
        ["sharegpt_haiku_7~2", "2023-08-12T18:20:00", { sourceId: "sharegpt_haiku_7" }],
      ],
    );
    assert.equal(update.sessions[3]!.turns[0]!.id, "sharegpt_haiku_7~2#0");
    assert.deepEqual(
      update.sessions[3]!.turns,
      update.sessions[1]!.turns.map((t) => ({ ...t, id: t.id.replace("#", "~2#") })),
    );
    assert.deepEqual(dataset.warnings, [
      '71aa0d44: haystack session "sharegpt_haiku_7" occurs again at position 3; that copy is "sharegpt_haiku_7~2"',
    ]);
  });

  it("keeps special characters of the content intact", async () => {
    const { episodes } = await loadLongMemEval(FILE);
    const abs = byId(episodes, "gpt4_5f1e8b33_abs");
    assert.equal(abs.sessions[1]!.turns[0]!.content, 'Explain {curly braces} in Python f-strings, e.g. f"{x}".');
    const plants = byId(episodes, "9c3d7a22");
    assert.equal(
      plants.sessions[2]!.turns[0]!.content,
      "Added a snake plant to the collection today — it’s “unkillable”, they say.",
    );
  });

  it("gives the same episodes and ids on every load", async () => {
    const a = await loadLongMemEval(FOLDER);
    const b = await loadLongMemEval(FILE);
    assert.deepEqual(a.episodes, b.episodes);
  });

  it("streams with progress up to the file size", async () => {
    const calls: Array<[number, number]> = [];
    await loadLongMemEval(FILE, { onProgress: (done, total) => calls.push([done, total]) });
    const size = statSync(FILE).size;
    assert.ok(calls.length >= 1);
    assert.deepEqual(calls.at(-1), [size, size]);
  });

  it("picks the variant in a folder: s by default, or the one asked for", async () => {
    const dir = tempDir();
    copyFileSync(FILE, join(dir, "longmemeval_s_cleaned.json"));
    const oracle = broken((d) => {
      d.splice(1);
    }, "longmemeval_oracle.json");
    copyFileSync(oracle, join(dir, "longmemeval_oracle.json"));
    writeFileSync(join(dir, "membench-release.json"), "{}");
    const s = await loadLongMemEval(dir);
    assert.equal(s.variant, "s");
    assert.equal(s.episodes.length, 4);
    const o = await loadLongMemEval(dir, { variant: "oracle" });
    assert.equal(o.variant, "oracle");
    assert.equal(o.episodes.length, 1);
    const error = await dataError(loadLongMemEval(dir, { variant: "m" }));
    assert.equal(error.file, dir);
    await assert.rejects(loadLongMemEval(dir, { variant: "xl" }), ConfigError);
  });
});

describe("longmemeval loader on malformed input", () => {
  it("names the file and the element of a truncated file", async () => {
    const text = readFileSync(FILE, "utf8");
    const file = join(tempDir(), "longmemeval_s_cleaned.json");
    writeFileSync(file, text.slice(0, text.indexOf('"question_id": "71aa0d44"') + 100));
    const error = await dataError(loadLongMemEval(file));
    assert.equal(error.file, file);
    assert.equal(error.record, "element 3");
    assert.match(error.message, /truncated/);
  });

  it("names file, record and field of a missing required field", async () => {
    const file = broken((d) => {
      delete d[1].question;
    });
    const error = await dataError(loadLongMemEval(file, { strict: false }));
    assert.equal(error.file, file);
    assert.equal(error.record, "question 9c3d7a22 (element 1)");
    assert.equal(error.field, "question");
  });

  it("names the turn of a bad role", async () => {
    const file = broken((d) => {
      d[0].haystack_sessions[1][2].role = "narrator";
    });
    const error = await dataError(loadLongMemEval(file, { strict: false }));
    assert.equal(error.record, "question e47b1c01 (element 0) haystack_sessions[1][2]");
    assert.equal(error.field, "role");
  });

  it("rejects an unknown question type when strict and warns when lenient", async () => {
    const file = broken((d) => {
      d[3].question_type = "knowledge-upgrade";
    });
    const error = await dataError(loadLongMemEval(file));
    assert.equal(error.file, file);
    assert.equal(error.record, "question 71aa0d44 (element 3)");
    assert.equal(error.field, "question_type");
    const lenient = await loadLongMemEval(file, { strict: false });
    assert.equal(lenient.episodes.length, 4);
    assert.equal(lenient.episodes[3]!.probes[0]!.labels.question_type, "knowledge-upgrade");
    assert.ok(lenient.warnings.some((w) => /unknown question type "knowledge-upgrade"/.test(w)));
  });

  it("rejects an unreadable date when strict", async () => {
    const file = broken((d) => {
      d[0].haystack_dates[2] = "sometime in May";
    });
    const error = await dataError(loadLongMemEval(file));
    assert.equal(error.field, "haystack_dates[2]");
    const lenient = await loadLongMemEval(file, { strict: false });
    assert.equal(lenient.episodes[0]!.sessions[2]!.time, undefined);
  });

  it("rejects a duplicate question id", async () => {
    const file = broken((d) => {
      d[2].question_id = "e47b1c01";
    });
    const error = await dataError(loadLongMemEval(file, { strict: false }));
    assert.equal(error.file, file);
    assert.equal(error.record, "question e47b1c01 (element 2)");
    assert.equal(error.field, "question_id");
  });

  it("rejects a repeated session id with different content when strict", async () => {
    const file = broken((d) => {
      d[3].haystack_sessions[3][0].content = "Something else entirely.";
    });
    const error = await dataError(loadLongMemEval(file));
    assert.equal(error.record, "question 71aa0d44 (element 3)");
    assert.equal(error.field, "haystack_session_ids[3]");
  });

  it("rejects haystack arrays of different lengths", async () => {
    const file = broken((d) => {
      d[1].haystack_dates.pop();
    });
    const error = await dataError(loadLongMemEval(file, { strict: false }));
    assert.equal(error.record, "question 9c3d7a22 (element 1)");
    assert.equal(error.field, "haystack_dates");
  });
});

describe("longmemeval benchmark definition", () => {
  it("lists the variants and the Hugging Face files", () => {
    assert.equal(longmemevalBenchmark.id, "longmemeval");
    assert.deepEqual(longmemevalBenchmark.variants, ["s", "m", "oracle"]);
    assert.deepEqual(longmemevalBenchmark.labels, ["question_type", "abstention"]);
    const release = longmemevalBenchmark.release!;
    assert.deepEqual(
      release.files.map((f) => f.url),
      [
        "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/main/longmemeval_s_cleaned.json",
        "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/main/longmemeval_oracle.json",
        "https://huggingface.co/datasets/xiaowu0162/longmemeval-cleaned/resolve/main/longmemeval_m_cleaned.json",
      ],
    );
    assert.ok(release.manual.includes("longmemeval_s_cleaned.json"));
  });
});
