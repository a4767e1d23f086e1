import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { DataError } from "../../src/core/errors.ts";
import { readManifest } from "../../src/synth/manifest.ts";
import { Rng } from "../../src/synth/rng.ts";
import { interleave } from "../../src/synth/subtlememory/assemble.ts";
import { subtleMemoryGenerator } from "../../src/synth/subtlememory/generator.ts";
import { apportion, planCounts } from "../../src/synth/subtlememory/plan.ts";
import { readSeedFile, SEEDS } from "../../src/synth/subtlememory/seeds.ts";
import { runGenerator, type SynthOptions, validateWith, validationErrors } from "../../src/synth/synthesize.ts";
import { type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";
import { count, datasetFiles, readJson, stubChatModel, synthTmp, writeJson } from "../support/synth.ts";

const tmp = (prefix: string) => synthTmp("sm", prefix);
const quiet: Partial<SynthOptions> = { progress: false, createdAt: "2026-01-01T00:00:00.000Z", realiser: "templates" };

describe("subtlememory planning", () => {
  it("apportions sets in the paper's proportions (361 / 352 / 377 of 1,090)", () => {
    assert.deepEqual(apportion(1090, [361, 352, 377]), [361, 352, 377]);
    const mix = {
      complementary: 361,
      nuanced: 352,
      contradictory: 377,
      multiEvidenceShare: 0.584,
      temporalShare: 0.505,
    };
    assert.deepEqual(planCounts(1090, mix), { multi: 211, any: 150, temporal: 178, context: 174, contradictory: 377 });
    assert.deepEqual(planCounts(16, mix), { multi: 3, any: 2, temporal: 3, context: 2, contradictory: 6 });
  });

  it("scatters the sessions of one set among the others", () => {
    const queues = [["a1", "a2", "a3"], ["b1", "b2"], ["c1", "c2"], ["d1"]];
    const order = interleave(queues, new Rng(4));
    assert.equal(order.length, 8);
    for (let i = 1; i < order.length; i++) assert.notEqual(order[i]?.[0], order[i - 1]?.[0], order.join(" "));
    for (const q of queues)
      assert.deepEqual(
        order.filter((x) => x[0] === q[0]?.[0]),
        q,
      );
  });

  it("reads a user's seed file and names the record and field of a bad seed", () => {
    const dir = tmp("seeds");
    const good = join(dir, "good.json");
    writeJson(good, SEEDS.slice(0, 2));
    assert.equal(readSeedFile(good).length, 2);
    const bad = join(dir, "bad.json");
    writeJson(bad, [{ ...SEEDS[0], source: "user-invented" }]);
    assert.throws(
      () => readSeedFile(bad),
      (e: unknown) => e instanceof DataError && e.file === bad && e.record === "seed [0]" && e.field === "source",
    );
  });
});

describe("subtlememory generator (templates)", () => {
  let out: string;
  before(async () => {
    out = tmp("base");
    const result = await runGenerator(subtleMemoryGenerator, { ...quiet, out, seed: 9, size: 2 });
    assert.deepEqual(validationErrors(result.issues), []);
  });

  it("loads with the SubtleMemory loader with the paper's relation mix", async () => {
    const data = await loadDataset("subtlememory", out, { strict: true });
    assert.equal(data.episodes.length, 2);
    const probes = data.episodes.flatMap((e) => e.probes);
    const byType = count(probes.map((p) => p.labels.relation_type as string));
    // 16 sets per persona: 5 complementary, 5 nuanced (2–3 questions each), 6 contradictory.
    assert.equal(byType.complementary, 10);
    assert.equal(byType.contradictory, 12);
    assert.ok((byType.nuanced ?? 0) >= 20, JSON.stringify(byType));
    const bySubtype = count(probes.map((p) => p.labels.relation_subtype as string));
    assert.deepEqual(Object.keys(bySubtype).sort(), [
      "Any-one",
      "Contextual",
      "Contradictory",
      "Multi-evidence",
      "Temporal",
    ]);
    for (const p of probes) {
      assert.equal(p.gold.answers.length, 3, p.id);
      assert.equal(p.gold.wrongAnswers.length, 3, p.id);
      assert.ok(p.gold.evidenceSessionIds.length >= 2, p.id);
    }
  });

  it("each variant has its own session, never adjacent to a sibling's", () => {
    const history = readJson(join(out, "persona_0", "history_sessions.json"));
    const instances = readJson(join(out, "persona_0", "bench_instances.json"));
    const position = new Map<string, number>(
      history.map((s: { session_id: string; order: number }) => [s.session_id, s.order]),
    );
    for (const inst of instances) {
      assert.equal(inst.facts.length, inst.session_ids.length);
      const at = inst.session_ids.map((id: string) => position.get(id) as number).sort((a: number, b: number) => a - b);
      for (let i = 1; i < at.length; i++) assert.ok(at[i] - at[i - 1] > 1, `${inst.case_id}: ${at.join(",")}`);
    }
    const times = history.map((s: { timestamp: string }) => Date.parse(s.timestamp));
    for (let i = 1; i < times.length; i++) assert.ok(times[i] >= times[i - 1]);
  });

  it("the same seed gives byte-identical files; another seed does not", async () => {
    const again = tmp("again");
    await runGenerator(subtleMemoryGenerator, {
      ...quiet,
      out: again,
      seed: 9,
      size: 2,
      createdAt: "2031-01-01T00:00:00.000Z",
    });
    assert.deepEqual(datasetFiles(again), datasetFiles(out));
    const other = tmp("other");
    await runGenerator(subtleMemoryGenerator, { ...quiet, out: other, seed: 10, size: 2, validate: false });
    assert.notDeepEqual(datasetFiles(other), datasetFiles(out));
  });

  it("proportions are knobs: only contradictory sets when the others weigh nothing", async () => {
    const dir = tmp("mix");
    const result = await runGenerator(subtleMemoryGenerator, {
      ...quiet,
      out: dir,
      seed: 1,
      knobs: ["complementary=0", "nuanced=0", "sets=6"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const data = await loadDataset("subtlememory", dir, { strict: true });
    assert.deepEqual(count(data.episodes[0]?.probes.map((p) => p.labels.relation_type as string) ?? []), {
      contradictory: 6,
    });
  });

  it("builds its sets from a user's seed file given as a knob", async () => {
    const dir = tmp("own-seeds");
    const file = join(tmp("seedfile"), "seeds.json");
    const own = SEEDS.filter((s) => s.id === "coffee-order" || s.id === "lake-depth").map((s) => ({
      ...s,
      id: `my-${s.id}`,
    }));
    writeJson(file, own);
    const result = await runGenerator(subtleMemoryGenerator, {
      ...quiet,
      out: dir,
      seed: 3,
      knobs: [`seeds=${file}`, "sets=2"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const instances = readJson(join(dir, "persona_0", "bench_instances.json"));
    assert.deepEqual(instances.map((i: { topic: string }) => i.topic).sort(), ["Food", "Nature"]);
  });

  describe("a corrupted file is caught by the validator", () => {
    const corrupt = async (edit: (dir: string) => void) => {
      const dir = tmp("bad");
      await runGenerator(subtleMemoryGenerator, { ...quiet, out: dir, seed: 9, validate: false });
      edit(dir);
      return validateWith(subtleMemoryGenerator, dir);
    };
    const files = (dir: string) => ({
      h: join(dir, "persona_0", "history_sessions.json"),
      b: join(dir, "persona_0", "bench_instances.json"),
    });

    it("a session dated after the session that follows it (a fact seen before it happened)", async () => {
      const issues = await corrupt((dir) => {
        const history = readJson(files(dir).h);
        history[2].timestamp = "2027-01-01T00:00:00+08:00";
        writeJson(files(dir).h, history);
      });
      assert.ok(
        issues.some((i) => /would be seen before they happen/.test(i.problem)),
        JSON.stringify(issues),
      );
    });

    it("evidence pointing at a missing session, and a variant no session states", async () => {
      const issues = await corrupt((dir) => {
        const instances = readJson(files(dir).b);
        instances[0].session_ids[0] = "related-persona_0-nowhere-s1";
        writeJson(files(dir).b, instances);
        const history = readJson(files(dir).h);
        const target = history.find((s: { session_id: string }) => s.session_id === instances[1].session_ids[0]);
        for (const m of target.history) m.content = "Let's talk about something else entirely.";
        writeJson(files(dir).h, history);
      });
      assert.ok(
        issues.some((i) => /is not in history_sessions.json/.test(i.problem)),
        JSON.stringify(issues),
      );
      assert.ok(
        issues.some((i) => /no evidence session states this variant/.test(i.problem)),
        JSON.stringify(issues),
      );
    });

    it("a relation label the benchmark does not define", async () => {
      const issues = await corrupt((dir) => {
        const instances = readJson(files(dir).b);
        instances[0].relation_subtype = "Causal";
        writeJson(files(dir).b, instances);
      });
      assert.ok(
        issues.some((i) => /unknown relation subtype "Causal"/.test(i.problem)),
        JSON.stringify(issues),
      );
    });
  });
});

/** A stand-in model: keeps every draft and value, as our checks require. */
function stubModel(body: StubChatBody): Record<string, unknown> {
  const prompt = String(body.messages?.at(-1)?.content ?? "");
  if (prompt.includes("Rewrite each sentence")) {
    const facts = [...prompt.matchAll(/^\d+\. (.*) \(must keep: ".*"\)$/gm)].map((m) => `Model note: ${m[1]}`);
    return { case: "Model case.", facts };
  }
  if (prompt.startsWith("Write one chat")) {
    const fact = /^"(.*)"$/m.exec(prompt)?.[1] ?? "";
    const byAssistant = /said by the assistant/.test(prompt);
    const messages = [
      { role: "user", content: "Model opener: can you help me with a task?" },
      { role: "assistant", content: "Model: of course, tell me more." },
      { role: "user", content: byAssistant ? "Model: what does your reference say?" : `Model: for context, ${fact}` },
      { role: "assistant", content: byAssistant ? `Model: the reference says ${fact}` : "Model: noted." },
      { role: "user", content: "Model: thanks, what next?" },
      { role: "assistant", content: "Model: write it down and review it next week." },
    ];
    return { messages };
  }
  const query = /Draft question:\n([\s\S]*?)\n\nDraft correct answers:/.exec(prompt)?.[1] ?? "";
  return {
    query,
    correct_answers: ["Model right 1", "Model right 2", "Model right 3"],
    incorrect_answers: ["Model wrong 1", "Model wrong 2", "Model wrong 3"],
  };
}

describe("subtlememory generator (model realiser, OpenAI stub)", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ reply: stubModel });
  });
  after(() => stub.close());

  it("writes variants, sessions and queries through the model with our prompts; the result loads and validates", async () => {
    const out = tmp("llm");
    const model = stubChatModel(stub.url, tmp("cache"));
    const result = await runGenerator(subtleMemoryGenerator, {
      progress: false,
      out,
      seed: 5,
      model,
      knobs: ["sets=6"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const m = readManifest(out);
    assert.equal(m?.realiser.kind, "llm");
    assert.deepEqual(Object.keys(m?.prompts ?? {}).sort(), [
      "subtlememory/query",
      "subtlememory/session",
      "subtlememory/variants",
    ]);
    const data = await loadDataset("subtlememory", out, { strict: true });
    const probes = data.episodes[0]?.probes ?? [];
    assert.equal(new Set(probes.map((p) => p.meta?.caseId)).size, 6);
    assert.ok(probes.every((p) => p.gold.answers[0] === "Model right 1"));
    assert.ok(probes.every((p) => ((p.meta?.facts ?? []) as string[]).every((f) => f.startsWith("Model note: "))));
    assert.ok(data.episodes[0]?.sessions.every((s) => s.turns[0]?.content.startsWith("Model opener")));
  });
});
