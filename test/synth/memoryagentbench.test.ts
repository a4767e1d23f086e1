import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadMemoryAgentBench } from "../../src/benchmarks/memoryagentbench/load.ts";
import { readParquetTable } from "../../src/benchmarks/memoryagentbench/parquet.ts";
import { createChatModel } from "../../src/llm/create.ts";
import { startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { type MabKnobs, memoryagentbenchGenerator } from "../../src/synth/memoryagentbench/index.ts";
import { type MabRow, mabParquetBytes } from "../../src/synth/memoryagentbench/parquet.ts";
import type { EvidenceFile } from "../../src/synth/memoryagentbench/validate.ts";
import { runGenerator, type SynthResult, validateWith, validationErrors } from "../../src/synth/synthesize.ts";
import { type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `mb-mab-${p}-`));
const FC_FILE = "Conflict_Resolution-00000-of-00001.parquet";
const AR_FILE = "Accurate_Retrieval-00000-of-00001.parquet";

function generate(knobs: Partial<MabKnobs>, seed = 1, out = tmp("gen")): Promise<SynthResult> {
  return runGenerator(memoryagentbenchGenerator, { out, seed, knobValues: knobs, progress: false });
}

async function rows(dir: string, file: string): Promise<MabRow[]> {
  return (await readParquetTable(join(dir, file), { issue: () => {} })).rows as unknown as MabRow[];
}

const evidenceOf = (dir: string) => JSON.parse(readFileSync(join(dir, "synth-evidence.json"), "utf8")) as EvidenceFile;

/** The numbered fact lines of a context, by serial. */
const factLines = (context: string) =>
  context
    .split("\n")
    .slice(1)
    .map((l) => l.replace(/^\d+\. /, ""));

const DOCS: Record<string, string> = {
  "bridge.txt":
    "The Vellmar Bridge spans the river Oska in the north of the province. Its stone arches were finished in 1911 after nine years of work by the engineer Hedda Lorn. The bridge was closed to carts in 1964 and has carried only walkers and bicycles since then.",
  "town.md":
    "Tessaly is a coastal town known for its salt marshes and a lighthouse painted in green bands. The lighthouse keeper, Ambrose Fell, kept a diary for thirty years. Every August the town holds a regatta that ends at the harbour of Tessaly.",
  "composer.txt":
    "The composer Idra Moll wrote four symphonies. The second was first played in Tessaly in 1934, conducted by Pavel Oster. Moll later moved to the capital, where she taught at the Royal Conservatory until 1950.",
};

function docsDir(): string {
  const dir = tmp("docs");
  for (const [name, text] of Object.entries(DOCS)) writeFileSync(join(dir, name), `${text}\n`);
  return dir;
}

describe("memoryagentbench generator: FactConsolidation", () => {
  let result: SynthResult;
  let sh: MabRow;
  let mh: MabRow;
  before(async () => {
    result = await generate({ length: "6k" }, 3);
    [sh, mh] = (await rows(result.out, FC_FILE)) as [MabRow, MabRow];
  });

  it("writes FC-SH and FC-MH rows in the release's parquet format, sharing one numbered context, loadable (variant all) and valid", async () => {
    assert.deepEqual(result.issues, []);
    assert.deepEqual(result.manifest.files.map((f) => f.path).sort(), [FC_FILE, "synth-evidence.json"]);
    assert.equal(sh.metadata.source, "factconsolidation_sh_6k");
    assert.equal(mh.metadata.source, "factconsolidation_mh_6k");
    assert.equal(sh.context, mh.context);
    assert.match(sh.context, /^Here is a list of facts:\n0\. [^\n]+\.\n1\. /);
    const lines = sh.context.split("\n").slice(1);
    for (const [i, l] of lines.entries()) assert.ok(l.startsWith(`${i}. `), `line ${i}`);
    assert.ok(lines.length > 300 && lines.length < 600, `${lines.length} facts (the release's 6K has 455)`);
    assert.equal(sh.questions.length, 100);
    assert.equal(mh.questions.length, 100);
    assert.deepEqual(sh.metadata.qa_pair_ids?.slice(0, 2), [
      "factconsolidation_sh_6k_no0",
      "factconsolidation_sh_6k_no1",
    ]);
    const data = await loadMemoryAgentBench(result.out, { variant: "all", strict: true });
    assert.deepEqual(
      data.episodes.map((e) => [e.id, e.probes.length, e.labels?.competency]),
      [
        ["factconsolidation_sh_6k:0", 100, "SF"],
        ["factconsolidation_mh_6k:0", 100, "SF"],
      ],
    );
  });

  it("newer wins: every gold answer is the value of the highest-numbered fact of its cloze, and the old value comes first", () => {
    const lines = factLines(sh.context);
    const ev = evidenceOf(result.out);
    let conflicts = 0;
    for (const [r, row] of [sh, mh].entries()) {
      for (const q of ev.rows[r]?.questions ?? []) {
        const i = row.metadata.qa_pair_ids?.indexOf(q.id) as number;
        let previous: string | undefined;
        for (const hop of q.hops ?? []) {
          const serials = lines.flatMap((l, n) => (l.startsWith(`${hop.cloze} `) ? [n] : []));
          assert.deepEqual(serials, hop.serials);
          assert.equal(lines[serials.at(-1) as number], `${hop.cloze} ${hop.value}.`);
          if (previous) assert.ok(hop.cloze.includes(previous), `${q.id}: hop after ${previous}`);
          previous = hop.value;
          if (r === 0 && serials.length > 1) conflicts++;
        }
        assert.equal(row.answers[i]?.[0], previous);
      }
    }
    // About a quarter to a third of the release's SH questions have no conflict pair; ours: editShare 0.7.
    assert.ok(conflicts >= 55 && conflicts <= 85, `${conflicts}/100 SH questions with an edit pair`);
    const hops = (ev.rows[1]?.questions ?? []).map((q) => q.hops?.length ?? 0);
    const mean = hops.reduce((a, b) => a + b, 0) / hops.length;
    assert.ok(mean >= 2.3 && mean <= 2.8, `MH hops per question ${mean} (release: 2.5–2.7)`);
  });

  it("the default edit list's questions are asked, with their edited answers", () => {
    const i = sh.questions.indexOf("What is the capital of Caldora?");
    if (i >= 0) assert.deepEqual(sh.answers[i], ["Lunhaven"]);
    const j = mh.questions.indexOf("What is the country of citizenship of the head of state of Caldora?");
    if (j >= 0) assert.deepEqual(mh.answers[j], ["Talvia"]);
    assert.ok(i >= 0 || j >= 0, "some question of the edit list is sampled");
  });

  it("same seed, byte-identical parquet; another seed differs", async () => {
    const [a, b] = await Promise.all([generate({ length: "6k" }, 3), generate({ length: "6k" }, 4)]);
    const bytes = (r: SynthResult) => readFileSync(join(r.out, FC_FILE));
    assert.ok(bytes(a).equals(bytes(result)));
    assert.ok(!bytes(b).equals(bytes(result)));
  });

  it("the paper's main length, 262k, loads with the default variant at about the release's size", async () => {
    const big = await generate({ questions: 10 }, 2);
    assert.deepEqual(big.issues, []);
    const data = await loadMemoryAgentBench(big.out, { strict: true });
    assert.deepEqual(
      data.episodes.map((e) => e.id),
      ["factconsolidation_sh_262k:0", "factconsolidation_mh_262k:0"],
    );
    const facts = (data.episodes[0]?.sessions[0]?.turns[0]?.content ?? "").split("\n").length - 1;
    assert.ok(facts > 15000 && facts < 20000, `${facts} facts (the release's 262K has 18,332)`);
  });

  it("a user's edit list: only its questions without invented chains; a list whose hops do not chain is refused", async () => {
    const dir = tmp("edits");
    const list = {
      facts: [
        {
          id: "a",
          cloze: "The capital of Norland is",
          answer: "Vask",
          edits: ["Orrin"],
          question: "What is the capital of Norland?",
        },
        { id: "b", cloze: "The mayor of Orrin is", answer: "Eda Holm", question: "Who is the mayor of Orrin?" },
      ],
      chains: [{ id: "c", question: "Who is the mayor of the capital of Norland?", hops: ["a", "b"] }],
    };
    writeFileSync(join(dir, "edits.json"), JSON.stringify(list));
    const r = await generate({ length: "6k", edits: join(dir, "edits.json"), syntheticChains: 0 });
    const [s, m] = (await rows(r.out, FC_FILE)) as [MabRow, MabRow];
    assert.deepEqual(s.questions.sort(), ["What is the capital of Norland?", "Who is the mayor of Orrin?"]);
    assert.deepEqual(m.answers, [["Eda Holm"]]);
    const broken = { ...list, chains: [{ id: "c", question: "?", hops: ["b", "a"] }] };
    writeFileSync(join(dir, "broken.json"), JSON.stringify(broken));
    await assert.rejects(
      generate({ length: "6k", edits: join(dir, "broken.json") }),
      /chain "c" hop 2: "The capital of Norland is" is not about "Eda Holm"/,
    );
  });
});

describe("memoryagentbench generator: validators catch corrupted files", () => {
  it("an old fact made newer, a moved evidence line, and an unknown sub-dataset", async () => {
    const r = await generate({ length: "6k" }, 5);
    const [sh, mh] = (await rows(r.out, FC_FILE)) as [MabRow, MabRow];
    const ev = evidenceOf(r.out);
    // The first SH question whose cloze has an edit pair: swap old and new, so the old value is the newest.
    const q = ev.rows[0]?.questions.find((x) => (x.hops?.[0]?.serials.length ?? 0) > 1);
    const hop = q?.hops?.[0];
    assert.ok(q && hop);
    const lines = sh.context.split("\n");
    const [first, last] = [hop.serials[0] as number, hop.serials.at(-1) as number];
    const text = (n: number) => (lines[n + 1] as string).replace(/^\d+\. /, "");
    const a = text(first);
    lines[first + 1] = `${first}. ${text(last)}`;
    lines[last + 1] = `${last}. ${a}`;
    const swapped = lines.join("\n");
    const bad: MabRow[] = [
      { ...sh, context: swapped },
      { ...mh, context: swapped, metadata: { ...mh.metadata, source: "factconsolidation_xx_6k" } },
    ];
    writeFileSync(join(r.out, FC_FILE), mabParquetBytes(bad));
    const issues = await validateWith(memoryagentbenchGenerator, r.out);
    const text_ = issues.map((i) => `${i.record} ${i.field}: ${i.problem}`).join("\n");
    assert.match(text_, new RegExp(`${q.id} hop 1: the newest fact is .* \\(an older value would be the answer\\)`));
    assert.match(text_, /row 1 metadata\.source: "factconsolidation_xx_6k" is not a MemoryAgentBench sub-dataset/);
    assert.match(text_, /loader refuses it/);
    assert.ok(validationErrors(issues).length >= 3);

    // Evidence gone: the evidence line's cloze no longer matches.
    const r2 = await generate({ length: "6k" }, 6);
    const [s2, m2] = (await rows(r2.out, FC_FILE)) as [MabRow, MabRow];
    const q2 = evidenceOf(r2.out).rows[0]?.questions[0];
    const n = q2?.hops?.[0]?.serials[0] as number;
    const l2 = s2.context.split("\n");
    l2[n + 1] = `${n}. Something else entirely.`;
    writeFileSync(
      join(r2.out, FC_FILE),
      mabParquetBytes([
        { ...s2, context: l2.join("\n") },
        { ...m2, context: l2.join("\n") },
      ]),
    );
    const issues2 = await validateWith(memoryagentbenchGenerator, r2.out);
    assert.ok(
      issues2.some((i) => /missing or moved evidence/.test(i.problem)),
      JSON.stringify(issues2),
    );
  });
});

describe("memoryagentbench generator: chunked stream", () => {
  it("lays out the user's documents as RULER does and writes template questions whose answers are in the text", async () => {
    const r = await generate({ mode: "stream", input: [docsDir()] }, 2);
    assert.deepEqual(r.issues, []);
    const [row] = (await rows(r.out, AR_FILE)) as [MabRow];
    assert.equal(row.metadata.source, "ruler_qa1_197K");
    assert.match(row.context, /^Document 1:\n/);
    assert.equal(row.context.match(/^Document \d+:$/gm)?.length, 3);
    assert.ok(row.questions.length >= 6);
    row.answers.forEach((a, i) => {
      assert.ok(row.context.includes(a[0] as string), `answer ${i} in the context`);
      assert.ok(!(row.questions[i] as string).includes(`"${a[0]}"`));
    });
    const data = await loadMemoryAgentBench(r.out, { strict: true });
    assert.equal(data.episodes[0]?.probes.length, row.questions.length);
  });

  it("takes a questions file; an answer missing from the text is caught, as is a row in the wrong split file", async () => {
    const dir = tmp("q");
    writeFileSync(
      join(dir, "questions.json"),
      JSON.stringify([
        { question: "Who kept the lighthouse diary?", answer: "Ambrose Fell" },
        { question: "When were the arches finished?", answers: ["1911", "in 1911"], id: "arches" },
      ]),
    );
    const r = await generate(
      {
        mode: "stream",
        input: [docsDir()],
        questionsFile: join(dir, "questions.json"),
        shuffle: false,
        layout: "stream",
      },
      1,
    );
    assert.deepEqual(r.issues, []);
    const [row] = (await rows(r.out, AR_FILE)) as [MabRow];
    assert.deepEqual(row.metadata.qa_pair_ids, ["ruler_qa1_197K_no0", "arches"]);
    assert.doesNotMatch(row.context, /Document 1:/);
    assert.ok(row.context.startsWith(DOCS["bridge.txt"] as string), "files in name order, unshuffled");
    writeFileSync(join(r.out, AR_FILE), mabParquetBytes([{ ...row, answers: [["Ambrose Fell"], ["1912"]] }]));
    const issues = await validateWith(memoryagentbenchGenerator, r.out);
    assert.ok(
      issues.some(
        (i) =>
          i.field === "answers[1]" &&
          /no gold answer \("1912"\) appears in the context: the evidence is missing/.test(i.problem),
      ),
      JSON.stringify(issues),
    );
    writeFileSync(join(r.out, FC_FILE), mabParquetBytes([row]));
    const misplaced = await validateWith(memoryagentbenchGenerator, r.out);
    assert.ok(
      misplaced.some(
        (i) => i.file === FC_FILE && /belongs in Accurate_Retrieval, not Conflict_Resolution/.test(i.problem),
      ),
    );
  });

  it("needs input files, and says so", async () => {
    await assert.rejects(generate({ mode: "stream" }), /mode=stream needs --knob input/);
  });
});

describe("memoryagentbench generator: questions written by a model", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({
      reply: (body: StubChatBody) => {
        const prompt = String(body.messages?.at(-1)?.content ?? "");
        const excerpt = /"""\n([\s\S]*?)\n"""/.exec(prompt)?.[1] ?? "";
        // The first capitalised name after the first word, copied exactly.
        const name = /\s([A-Z][a-z]+(?: [A-Z][a-z]+)?)/.exec(excerpt)?.[1] ?? "nothing";
        return {
          qa: [
            {
              question: `Which name does the passage mention after its first word? (${excerpt.slice(0, 12)})`,
              answer: name,
            },
          ],
        };
      },
    });
  });
  after(() => stub.close());

  it("uses our prompt and keeps only answers copied from the text", async () => {
    const m = createChatModel({
      spec: "openai:stub-model",
      baseUrl: stub.url,
      apiKey: "k",
      cacheDir: tmp("c"),
      maxRetries: 0,
    });
    const r = await runGenerator(memoryagentbenchGenerator, {
      out: tmp("llm"),
      seed: 1,
      knobValues: { mode: "stream", input: [docsDir()], questionsPerDocument: 1 },
      model: m,
      progress: false,
    });
    m.close();
    assert.deepEqual(r.issues, []);
    assert.match(r.manifest.prompts["memoryagentbench/questions"] ?? "", /^[0-9a-f]{16}$/);
    const [row] = (await rows(r.out, AR_FILE)) as [MabRow];
    assert.equal(row.questions.length, 3);
    assert.ok(row.questions.every((q) => q.startsWith("Which name does the passage mention")));
    assert.match(
      String(stub.chatRequests[0]?.body && JSON.stringify(stub.chatRequests[0].body)),
      /Copy each answer exactly/,
    );
  });
});

describe("memoryagentbench generator → membench run → scoring", () => {
  it("FC-SH and FC-MH run and score (SubEM) with a scripted answerer", async () => {
    const dir = tmp("run");
    const gen = await generate({ questions: 20, syntheticChains: 20 }, 9, join(dir, "data"));
    const [sh, mh] = (await rows(gen.out, FC_FILE)) as [MabRow, MabRow];
    const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const rules = [
      // SH answered with the newest value, MH with a wrong one.
      ...sh.questions.map((q, i) => ({ role: "answerer", match: esc(q), reply: sh.answers[i]?.[0] })),
      ...mh.questions.map((q) => ({ role: "answerer", match: esc(q), reply: "Atlantis" })),
    ];
    const script = join(dir, "script.jsonl");
    writeFileSync(script, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const outcome = await startRun({
      benchmark: "memoryagentbench",
      data: gen.out,
      systems: ["none"],
      llm: `scripted:${script}`,
      out: join(dir, "runs"),
      id: "fc",
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    const m = (outcome.summary.results.find((r) => r.setting === "default") as ScoredRow).metrics;
    assert.equal(m["factconsolidation_sh_262k/subem"], 100);
    assert.equal(m["factconsolidation_mh_262k/subem"], 0);
    assert.equal(m["FC-SH"], 100);
    assert.equal(m.SF, 50);
  });

  it("a stream row runs chunked into bm25 and scores", async () => {
    const dir = tmp("run2");
    mkdirSync(join(dir, "data"));
    const gen = await generate({ mode: "stream", input: [docsDir()] }, 4, join(dir, "data"));
    const [row] = (await rows(gen.out, AR_FILE)) as [MabRow];
    const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const script = join(dir, "script.jsonl");
    writeFileSync(
      script,
      `${row.questions.map((q, i) => JSON.stringify({ role: "answerer", match: esc(q), reply: row.answers[i]?.[0] })).join("\n")}\n`,
    );
    const outcome = await startRun({
      benchmark: "memoryagentbench",
      data: gen.out,
      systems: ["bm25"],
      llm: `scripted:${script}`,
      out: join(dir, "runs"),
      id: "stream",
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    const m = (outcome.summary.results.find((r) => r.setting === "default") as ScoredRow).metrics;
    assert.equal(m["ruler_qa1_197K/subem"], 100);
    assert.equal(m["SH-QA"], 100);
  });
});
