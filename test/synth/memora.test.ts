import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { readManifest } from "../../src/synth/manifest.ts";
import { memoraGenerator } from "../../src/synth/memora/generator.ts";
import { runGenerator, type SynthOptions, validateWith, validationErrors } from "../../src/synth/synthesize.ts";
import { type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";
import { datasetFiles, readJson, stubChatModel, synthTmp, writeJson } from "../support/synth.ts";

const tmp = (prefix: string) => synthTmp("memora", prefix);
const quiet: Partial<SynthOptions> = { progress: false, createdAt: "2026-01-01T00:00:00.000Z", realiser: "templates" };

/** Every dataset file under `dir` (not the manifest), by relative path. */
const folder = (out: string) => join(out, "weekly", "academic_researcher");
const sessionFile = (out: string, n: number) =>
  join(folder(out), "conversations", `session_${String(n).padStart(4, "0")}.json`);
const questionsFile = (out: string) => join(folder(out), "evaluation_questions_academic_researcher.json");

describe("memora generator (templates)", () => {
  let out: string;
  before(async () => {
    out = tmp("base");
    const result = await runGenerator(memoraGenerator, { ...quiet, out, seed: 7 });
    assert.deepEqual(validationErrors(result.issues), []);
  });

  it("loads with the Memora loader and shows the paper's mix: 5 questions per task, rubrics of both kinds", async () => {
    const data = await loadDataset("memora", out, { strict: true });
    assert.equal(data.episodes.length, 1);
    const episode = data.episodes[0];
    assert.ok(episode);
    assert.equal(episode.id, "weekly/academic_researcher");
    // The paper's weekly timelines average 155 sessions per persona.
    assert.ok(episode.sessions.length > 120 && episode.sessions.length < 200, `${episode.sessions.length} sessions`);
    const byTask: Record<string, number> = {};
    for (const p of episode.probes) byTask[p.labels.task as string] = (byTask[p.labels.task as string] ?? 0) + 1;
    assert.deepEqual(byTask, { Remembering: 5, Reasoning: 5, Recommending: 5 });
    for (const p of episode.probes) {
      assert.ok(
        p.gold.criteria.some((c) => c.kind === "presence"),
        p.id,
      );
      const absence = p.gold.criteria.some((c) => c.kind === "absence");
      // Reasoning has no forgetting criteria; Remembering and Recommending need both kinds (the release's selection).
      assert.equal(absence, p.labels.task !== "Reasoning", p.id);
      assert.equal(p.time, "2025-06-07");
      assert.ok(p.gold.evidenceSessionIds.length > 0, p.id);
    }
    // Memory turns are flagged; neutral sessions have none.
    const shared = episode.sessions.filter((s) => s.turns.some((t) => t.meta?.shareMemory === true));
    const neutral = episode.sessions.filter((s) => s.meta?.sessionType === "no_memory");
    assert.ok(neutral.length > 20);
    assert.equal(shared.length + neutral.length, episode.sessions.length);
  });

  it("operations follow the paper's mix (about 68% add, 13% update, 19% delete)", () => {
    const counts: Record<string, number> = {};
    for (const f of readdirSync(join(folder(out), "conversations"))) {
      const s = readJson(join(folder(out), "conversations", f));
      const op = s.operation_details?.actual_operation ?? s.operation;
      if (op) counts[op] = (counts[op] ?? 0) + 1;
    }
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    assert.ok((counts.add ?? 0) / total > 0.55 && (counts.add ?? 0) / total < 0.8, JSON.stringify(counts));
    assert.ok((counts.update ?? 0) > 0 && (counts.delete ?? 0) > 0, JSON.stringify(counts));
  });

  it("the same seed gives byte-identical files; another seed does not", async () => {
    const again = tmp("again");
    await runGenerator(memoraGenerator, { ...quiet, out: again, seed: 7, createdAt: "2031-01-01T00:00:00.000Z" });
    assert.deepEqual(datasetFiles(again), datasetFiles(out));
    const other = tmp("other");
    await runGenerator(memoraGenerator, { ...quiet, out: other, seed: 8, validate: false });
    assert.notDeepEqual(datasetFiles(other), datasetFiles(out));
    assert.equal(readManifest(again)?.realiser.kind, "templates");
    assert.equal(readJson(questionsFile(out)).synthetic.realised_by, "templates");
  });

  it("task counts are knobs", async () => {
    const dir = tmp("counts");
    const result = await runGenerator(memoraGenerator, {
      ...quiet,
      out: dir,
      seed: 2,
      knobs: ["remembering=2", "reasoning=3", "recommending=1", "persona=sales_manager"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const data = await loadDataset("memora", dir, { strict: true });
    const byTask: Record<string, number> = {};
    for (const p of data.episodes[0]?.probes ?? [])
      byTask[p.labels.task as string] = (byTask[p.labels.task as string] ?? 0) + 1;
    assert.deepEqual(byTask, { Remembering: 2, Reasoning: 3, Recommending: 1 });
    assert.equal(data.episodes[0]?.id, "weekly/sales_manager");
  });

  it("monthly timelines ask comparisons across weeks", async () => {
    const dir = tmp("monthly");
    const result = await runGenerator(memoraGenerator, {
      ...quiet,
      out: dir,
      seed: 4,
      knobs: ["durations=monthly", "sessionScale=0.5"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const data = await loadDataset("memora", dir, { strict: true });
    const probes = data.episodes[0]?.probes ?? [];
    assert.ok(
      probes.some(
        (p) => p.labels.subtype === "temporal_comparative_analysis" || p.labels.subtype === "temporal_goal_analysis",
      ),
    );
    assert.ok(probes.every((p) => p.time === "2025-06-28"));
  });

  describe("a corrupted file is caught by the validator", () => {
    const corrupt = async (edit: (dir: string) => void) => {
      const dir = tmp("bad");
      await runGenerator(memoraGenerator, { ...quiet, out: dir, seed: 7, validate: false });
      edit(dir);
      return validateWith(memoraGenerator, dir);
    };
    const evidenceSession = (dir: string) => {
      const q = readJson(questionsFile(dir));
      const todo = q.questions.remembering.find((x: { question_id: string }) =>
        x.question_id.startsWith("activity_todos"),
      );
      return { q, todo, first: todo.memory_evidence.remaining_tasks[0] };
    };

    it("a session dated after the questions (a leaked future fact)", async () => {
      const issues = await corrupt((dir) => {
        const { first } = evidenceSession(dir);
        const s = readJson(sessionFile(dir, first.session_id));
        s.date = "2025-06-09";
        writeJson(sessionFile(dir, first.session_id), s);
      });
      assert.ok(
        issues.some((i) => /lies after the question/.test(i.problem)),
        JSON.stringify(issues),
      );
    });

    it("evidence pointing at a session that does not exist", async () => {
      const issues = await corrupt((dir) => {
        const { q, todo } = evidenceSession(dir);
        todo.memory_evidence.remaining_tasks[0].session_id = 9999;
        writeJson(questionsFile(dir), q);
      });
      assert.ok(
        issues.some((i) => /evidence session 9999 does not exist/.test(i.problem)),
        JSON.stringify(issues),
      );
    });

    it("a memory turn that no longer states its fact", async () => {
      const issues = await corrupt((dir) => {
        const { first } = evidenceSession(dir);
        const s = readJson(sessionFile(dir, first.session_id));
        for (const t of s.conversation) if (t.share_memory) t.message = "Never mind, it's nothing.";
        writeJson(sessionFile(dir, first.session_id), s);
      });
      assert.ok(
        issues.some((i) => /session \d+ never states/.test(i.problem)),
        JSON.stringify(issues),
      );
    });

    it("a label the benchmark does not define", async () => {
      const issues = await corrupt((dir) => {
        const q = readJson(questionsFile(dir));
        q.questions.reasoning[0].evaluation.evaluation_questions[0].evaluation_type = "memory_recall";
        writeJson(questionsFile(dir), q);
        const s = readJson(sessionFile(dir, 1));
        s.session_type = "small_talk";
        writeJson(sessionFile(dir, 1), s);
      });
      assert.ok(
        issues.some((i) => /unknown evaluation_type "memory_recall"/.test(i.problem)),
        JSON.stringify(issues),
      );
      assert.ok(
        issues.some((i) => /unknown session_type "small_talk"/.test(i.problem)),
        JSON.stringify(issues),
      );
    });
  });
});

/** Writes each step of the flow in the prompt, copying the values a step must contain. */
function writeSession(body: StubChatBody): Record<string, unknown> {
  const prompt = String(body.messages?.at(-1)?.content ?? "");
  const turns: string[] = [];
  for (const line of prompt.split("\n")) {
    const m = /^(\d+)\. (USER|ASSISTANT) \((\w+)\): (.*)$/.exec(line);
    if (!m) continue;
    const verbatim = /Must contain verbatim: (.*)\.$/.exec(m[4] as string);
    const values = verbatim ? (JSON.parse(`[${verbatim[1]}]`) as string[]) : [];
    turns.push(
      values.length ? `Model wording, for the record: ${values.join(" and ")}.` : `Model line ${m[1]} (${m[3]}).`,
    );
  }
  return { turns };
}

describe("memora generator (model realiser, OpenAI stub)", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ reply: writeSession });
  });
  after(() => stub.close());

  it("realises every session through the model with our prompt, and the result loads and validates", async () => {
    const out = tmp("llm");
    const model = stubChatModel(stub.url, tmp("cache"));
    const result = await runGenerator(memoraGenerator, {
      progress: false,
      out,
      seed: 5,
      model,
      knobs: ["sessionScale=0.15", "remembering=1", "reasoning=1", "recommending=1"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const m = readManifest(out);
    assert.equal(m?.realiser.kind, "llm");
    assert.match(m?.prompts["memora/session"] ?? "", /^[0-9a-f]{16}$/);
    const data = await loadDataset("memora", out, { strict: true });
    const turns = data.episodes[0]?.sessions.flatMap((s) => s.turns) ?? [];
    assert.ok(turns.length > 0);
    assert.ok(
      turns.every((t) => t.content.startsWith("Model ")),
      "every turn is the model's",
    );
    const first = stub.chatRequests[0]?.body as StubChatBody | undefined;
    const sent = String(first?.messages?.at(-1)?.content);
    assert.match(sent, /The user is an academic researcher\. Today is 2025-06-0\d\./);
    assert.equal(readJson(questionsFile(out)).synthetic.realised_by, m?.realiser.id);
  });
});
