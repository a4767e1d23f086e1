import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import {
  loadMemoryAgentBench,
  MAB_SOURCES,
  mabSource,
  memoryagentbenchBenchmark,
  splitOfFileName,
} from "../../src/benchmarks/memoryagentbench/index.ts";
import { FIXTURE_FILES } from "../fixtures/memoryagentbench/rows.ts";
import { fixture } from "../support/shared-data.ts";
import { writeMabParquet } from "../support/write-parquet.ts";

const FIXTURES = fixture("memoryagentbench");
const AR_FILE = join(FIXTURES, "Accurate_Retrieval-00000-of-00001.parquet");

const tmp = mkdtempSync(join(tmpdir(), "mab-load-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("memoryagentbench fixtures", () => {
  it("loads every row of the four splits with variant all", async () => {
    const ds = await loadMemoryAgentBench(FIXTURES, { variant: "all" });
    assert.equal(ds.benchmark, "memoryagentbench");
    assert.equal(ds.variant, "all");
    assert.equal(ds.source.files.length, 4);
    assert.deepEqual(ds.warnings, []);
    assert.deepEqual(
      ds.episodes.map((e) => [e.id, e.labels.competency, e.probes.length]),
      [
        ["ruler_qa1_197K:0", "AR", 2],
        ["longmemeval_s*:0", "AR", 2],
        ["factconsolidation_sh_262k:0", "SF", 1],
        ["factconsolidation_mh_6k:0", "SF", 1],
        ["infbench_sum_eng_shots2:0", "LRU", 1],
        ["detective_qa:0", "LRU", 2],
        ["icl_banking77_5900shot_balance:0", "TTL", 2],
        ["recsys_redial_full:0", "TTL", 1],
      ],
    );
    assert.equal(
      ds.episodes.reduce((n, e) => n + e.probes.length, 0),
      12,
    );
  });

  it("keeps only the paper's main sub-datasets by default", async () => {
    const ds = await loadMemoryAgentBench(FIXTURES);
    assert.equal(ds.variant, "main");
    assert.equal(ds.episodes.length, 7);
    assert.ok(!ds.episodes.some((e) => e.labels.sub_dataset === "factconsolidation_mh_6k"));
  });

  it("puts each row's whole context in one user turn, untimed", async () => {
    const ds = await loadMemoryAgentBench(FIXTURES, { variant: "all" });
    const expected = Object.values(FIXTURE_FILES)
      .flat()
      .map((r) => [r.metadata.source, r.context]);
    const got = ds.episodes.map((e) => {
      assert.equal(e.sessions.length, 1);
      const [session] = e.sessions;
      assert.equal(session?.id, "context");
      assert.equal(session?.turns.length, 1);
      assert.equal(session?.turns[0]?.role, "user");
      assert.equal(session?.time, undefined);
      assert.equal(session?.turns[0]?.time, undefined);
      for (const p of e.probes) {
        assert.deepEqual(p.position, { at: "end" });
        assert.equal(p.time, undefined);
      }
      return [e.labels.sub_dataset, session?.turns[0]?.content];
    });
    const bySource = (a: (string | undefined)[], b: (string | undefined)[]) => String(a[0]).localeCompare(String(b[0]));
    assert.deepEqual(got.sort(bySource), expected.sort(bySource));
  });

  it("gives each probe its question, gold aliases and scoring labels", async () => {
    const ds = await loadMemoryAgentBench(FIXTURES, { variant: "all" });
    const probes = new Map(ds.episodes.flatMap((e) => e.probes.map((p) => [p.id, p])));
    const ruler = probes.get("ruler_qa1_197K_no0");
    assert.equal(ruler?.question, "In what year were the arches of the Vellmar Bridge finished?");
    assert.deepEqual(ruler?.gold.answers, ["1911"]);
    assert.deepEqual(ruler?.labels, { sub_dataset: "ruler_qa1_197K", competency: "AR", metric: "subem" });
    assert.deepEqual(probes.get("ruler_qa1_197K_no1")?.gold.answers, ["Tessaly", "in Tessaly"]);
    assert.deepEqual(probes.get("recsys_redial_full_no0")?.gold.answers, ["1021", "87", "4410"]);
    assert.equal(probes.get("recsys_redial_full_no0")?.labels.metric, "recall@5");
    assert.deepEqual(probes.get("icl_banking77_5900shot_balance_no1")?.gold.answers, ["3"]);
    assert.equal(probes.get("icl_banking77_5900shot_balance_no1")?.labels.metric, "em");
    assert.deepEqual(probes.get("detective_qa_no1")?.gold.answers, ["C"]);
    assert.equal(probes.get("detective_qa_no1")?.labels.competency, "LRU");
    assert.deepEqual(probes.get("factconsolidation_mh_6k_no0")?.labels, {
      sub_dataset: "factconsolidation_mh_6k",
      competency: "SF",
      metric: "subem",
    });
  });

  it("keeps what the judges need: LongMemEval ids and types, summary key points", async () => {
    const ds = await loadMemoryAgentBench(FIXTURES, { variant: "all" });
    const lme = ds.episodes.find((e) => e.id === "longmemeval_s*:0");
    assert.deepEqual(
      lme?.probes.map((p) => [p.id, p.labels.metric, p.labels.question_type, p.meta?.questionId, p.meta?.questionDate]),
      [
        ["longmemeval_s*_no0", "llm_judge_lme", "single-session-user", "a41f0c2e", "2023/06/01 (Thu) 10:00"],
        ["longmemeval_s*_no1", "llm_judge_lme", "single-session-user", "b93d7e10_abs", "2023/06/01 (Thu) 10:05"],
      ],
    );
    assert.equal(lme?.meta?.haystackSessions, 2);

    const sum = ds.episodes.find((e) => e.id === "infbench_sum_eng_shots2:0");
    const probe = sum?.probes[0];
    assert.equal(probe?.labels.metric, "llm_judge_sum_f1");
    assert.deepEqual(probe?.meta?.keypoints, [
      "Mara leaves the mill town with a map.",
      "She works for a printer who forges papers.",
      "She burns the map.",
    ]);
    assert.match(String(probe?.gold.answers[0]), /^Mara Quell leaves her mill town/);
    assert.equal(sum?.meta?.demo, "Example summary 1: A sailor ... Example summary 2: A widow ...");

    const icl = ds.episodes.find((e) => e.id === "icl_banking77_5900shot_balance:0");
    assert.deepEqual(icl?.meta?.labelSet, ["3", "12", "40"]);
    assert.deepEqual(icl?.meta, {
      split: "Test_Time_Learning",
      file: "Test_Time_Learning-00000-of-00001.parquet",
      row: 0,
      labelSet: ["3", "12", "40"],
    });
  });

  it("loads a single split file", async () => {
    const ds = await loadMemoryAgentBench(AR_FILE);
    assert.deepEqual(
      ds.episodes.map((e) => e.id),
      ["ruler_qa1_197K:0", "longmemeval_s*:0"],
    );
    assert.equal(ds.source.files.length, 1);
  });

  it("reports progress by bytes", async () => {
    const calls: Array<[number, number]> = [];
    const ds = await loadMemoryAgentBench(FIXTURES, { onProgress: (d, t) => calls.push([d, t]) });
    const total = ds.source.files.reduce((n, f) => n + f.bytes, 0);
    assert.equal(calls.length, 4);
    assert.deepEqual(calls.at(-1), [total, total]);
  });
});

describe("memoryagentbench ids", () => {
  it("gives the same episode and probe ids on every load", async () => {
    const ids = async () =>
      (await loadMemoryAgentBench(FIXTURES, { variant: "all" })).episodes.flatMap((e) => [
        e.id,
        ...e.probes.map((p) => `${e.id}/${p.id}`),
      ]);
    const first = await ids();
    assert.equal(first.length, 8 + 12);
    assert.deepEqual(await ids(), first);
  });

  it("numbers episodes per source in file order, and falls back to positional probe ids", async () => {
    const dir = mkdtempSync(join(tmp, "ids-"));
    const row = (source: string, questions: string[], extra: Record<string, unknown> = {}) => ({
      context: `context of ${source}`,
      questions,
      answers: questions.map((_, i) => [`a${i}`]),
      metadata: { source, ...extra },
    });
    writeMabParquet(join(dir, "Accurate_Retrieval-00000-of-00001.parquet"), [
      row("eventqa_full", ["q0", "q1"]),
      row("ruler_qa2_421K", ["q0"]),
      row("eventqa_full", ["q0"], { question_ids: ["lme-style-id"] }),
    ]);
    const ds = await loadMemoryAgentBench(dir);
    assert.deepEqual(
      ds.episodes.map((e) => [e.id, e.probes.map((p) => p.id)]),
      [
        ["eventqa_full:0", ["eventqa_full:0:q0", "eventqa_full:0:q1"]],
        ["ruler_qa2_421K:0", ["ruler_qa2_421K:0:q0"]],
        ["eventqa_full:1", ["lme-style-id"]],
      ],
    );
    assert.deepEqual(
      ds.episodes.map((e) => e.meta?.row),
      [0, 1, 2],
    );
  });
});

describe("memoryagentbench answers", () => {
  const question = (answers: unknown[]) => ({
    context: "Document 1:\nThe lighthouse is green.",
    questions: answers.map((_, i) => `question ${i}`),
    answers,
    metadata: { source: "ruler_qa1_197K" },
  });

  it("accepts one string per question", async () => {
    const file = join(tmp, "string-answers.parquet");
    writeMabParquet(file, [question(["green", "forty"])], { answers: "string" });
    const ds = await loadMemoryAgentBench(file);
    assert.deepEqual(
      ds.episodes[0]?.probes.map((p) => p.gold.answers),
      [["green"], ["forty"]],
    );
  });

  it("turns numbers into strings", async () => {
    const file = join(tmp, "int-answers.parquet");
    writeMabParquet(file, [question([43, 7])], { answers: "int" });
    const ds = await loadMemoryAgentBench(file);
    assert.deepEqual(
      ds.episodes[0]?.probes.map((p) => p.gold.answers),
      [["43"], ["7"]],
    );
  });

  it("drops blank aliases and repeated ones", async () => {
    const file = join(tmp, "blank-aliases.parquet");
    writeMabParquet(file, [question([["green", " ", "green", "Green"]])]);
    const ds = await loadMemoryAgentBench(file);
    assert.deepEqual(ds.episodes[0]?.probes[0]?.gold.answers, ["green", "Green"]);
  });

  it("keeps per-question previous events of EventQA on the probe", async () => {
    const file = join(tmp, "eventqa.parquet");
    writeMabParquet(file, [
      {
        context: "DEBBIE waited at the gate.",
        questions: ["which event happens next? A", "which event happens next? B"],
        answers: [["Debbie waited."], ["Debbie left."]],
        metadata: { source: "eventqa_full", previous_events: ["1. Debbie woke up.", "1. Debbie waited."] },
      },
    ]);
    const ds = await loadMemoryAgentBench(file);
    assert.deepEqual(
      ds.episodes[0]?.probes.map((p) => p.meta?.previousEvents),
      ["1. Debbie woke up.", "1. Debbie waited."],
    );
  });
});

describe("memoryagentbench definition and sources", () => {
  it("exposes the benchmark definition with a pinned release", async () => {
    const def = memoryagentbenchBenchmark;
    assert.equal(def.id, "memoryagentbench");
    assert.deepEqual(def.variants, ["main", "all"]);
    assert.deepEqual(def.labels, ["competency", "sub_dataset"]);
    const release = def.release;
    assert.ok(release);
    assert.match(release.revision, /^[0-9a-f]{40}$/);
    const parquet = release.files.filter((f) => f.path.endsWith(".parquet"));
    assert.deepEqual(
      parquet.map((f) => f.path),
      [
        "data/Accurate_Retrieval-00000-of-00001.parquet",
        "data/Test_Time_Learning-00000-of-00001.parquet",
        "data/Long_Range_Understanding-00000-of-00001.parquet",
        "data/Conflict_Resolution-00000-of-00001.parquet",
      ],
    );
    for (const f of release.files) {
      assert.equal(
        f.url,
        `https://huggingface.co/datasets/ai-hyz/MemoryAgentBench/resolve/${release.revision}/${f.path}`,
      );
    }
    assert.ok(release.files.some((f) => f.path === "entity2id.json"));
    const ds = await def.load(AR_FILE);
    assert.equal(ds.episodes.length, 2);
  });

  it("reproduces the paper's question counts (2,071 main) and the release's (146 rows, 3,671 questions)", () => {
    const main = MAB_SOURCES.filter((s) => s.main);
    assert.equal(main.length, 14);
    assert.equal(
      main.reduce((n, s) => n + s.questions, 0),
      2071,
    );
    assert.equal(
      MAB_SOURCES.reduce((n, s) => n + s.rows, 0),
      146,
    );
    assert.equal(
      MAB_SOURCES.reduce((n, s) => n + s.questions, 0),
      3671,
    );
  });

  it("looks sources up by exact id and reads the split from official file names", () => {
    assert.equal(mabSource("longmemeval_s*")?.metric, "llm_judge_lme");
    assert.deepEqual(mabSource("ruler_qa2_421K")?.generationMaxLength, { paper: 50, config: 50 });
    assert.deepEqual(mabSource("detective_qa")?.generationMaxLength, { paper: 500, config: 2000 });
    assert.equal(mabSource("factconsolidation_sh_32k")?.ablationChunkSize, 512);
    assert.equal(mabSource("factconsolidation_sh_262k")?.chunkSize, 512);
    assert.equal(mabSource("eventqa_full")?.chunkSize, 4096);
    assert.equal(mabSource("Eventqa_full"), undefined);
    assert.equal(splitOfFileName("Conflict_Resolution-00000-of-00001.parquet"), "Conflict_Resolution");
    assert.equal(splitOfFileName("Test_Time_Learning.parquet"), "Test_Time_Learning");
    assert.equal(splitOfFileName("train-00000-of-00001.parquet"), undefined);
  });
});
