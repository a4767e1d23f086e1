import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { readManifest } from "../../src/synth/manifest.ts";
import { buildProject, interleaveProjects, TOPIC_COOLDOWN } from "../../src/synth/realmem/blueprint.ts";
import { TOPICS } from "../../src/synth/realmem/catalogue.ts";
import { realMemGenerator } from "../../src/synth/realmem/generator.ts";
import { factKey, person } from "../../src/synth/realmem/sessions.ts";
import { Rng } from "../../src/synth/rng.ts";
import { runGenerator, type SynthOptions, validateWith, validationErrors } from "../../src/synth/synthesize.ts";
import { type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";
import { count, datasetFiles, readJson, stubChatModel, synthTmp, writeJson } from "../support/synth.ts";

// biome-ignore lint/suspicious/noExplicitAny: the corruption tests edit release JSON in place
type Loose = any;

const tmp = (prefix: string) => synthTmp("rm", prefix);
const quiet: Partial<SynthOptions> = { progress: false, createdAt: "2026-01-01T00:00:00.000Z", realiser: "templates" };

describe("realmem skeleton", () => {
  it("interleaves projects: one active project per topic, a cool-down after a topic's project ends", () => {
    const topic = (id: string) => TOPICS.find((t) => t.id === id) as (typeof TOPICS)[number];
    const rng = new Rng(3);
    const a = buildProject("Fitness_1", topic("Fitness"), topic("Fitness").projects[0] as never, rng.fork("a"));
    const b = buildProject("Fitness_2", topic("Fitness"), topic("Fitness").projects[1] as never, rng.fork("b"));
    const c = buildProject(
      "Travel_Planning_1",
      topic("Travel_Planning"),
      topic("Travel_Planning").projects[0] as never,
      rng.fork("c"),
    );
    const order = interleaveProjects([a, b, c], rng.fork("queue")).map((s) => s.project.id);
    assert.equal(order.length, a.steps.length + b.steps.length + c.steps.length);
    const lastA = order.lastIndexOf("Fitness_1");
    const firstB = order.indexOf("Fitness_2");
    assert.ok(firstB > lastA, "the second project of a topic waits for the first");
    const between = order.slice(lastA + 1, firstB).filter((p) => p === "Travel_Planning_1").length;
    const travelLeft = order.slice(lastA + 1).filter((p) => p === "Travel_Planning_1").length;
    assert.ok(between >= Math.min(TOPIC_COOLDOWN - 1, travelLeft), `${between} sessions of cool-down`);
    // In-project order is kept.
    for (const p of [a, b, c]) {
      const steps = interleaveProjects([p], rng.fork("solo")).map((s) => s.step);
      assert.deepEqual(
        steps,
        p.steps.map((s) => s.step),
      );
    }
    // Events are 3N–5N for N = 3 anchor nodes, each a CRUD-tagged change.
    for (const p of [a, b, c]) {
      assert.ok(p.events.length >= 9 && p.events.length <= 15);
      assert.ok(
        p.events.every((e) => e.changes.every((ch) => ["Create", "Update", "Suspend", "Downgrade"].includes(ch.tag))),
      );
      assert.ok(p.steps.every((s) => s.summary.startsWith("The purpose of the session is ")));
    }
  });

  it("states persona facts in the first and second person", () => {
    assert.equal(person("User is vegetarian.", "I"), "I am vegetarian.");
    assert.equal(
      person("User works early shifts that start at 6 AM.", "you"),
      "you work early shifts that start at 6 AM.",
    );
    assert.equal(person("User's only free day is Monday.", "I"), "My only free day is Monday.");
    assert.equal(person("User does not drink alcohol.", "you"), "you do not drink alcohol.");
    assert.equal(factKey("User has type 2 diabetes."), "type 2 diabetes");
  });
});

describe("realmem generator (templates)", () => {
  let out: string;
  before(async () => {
    out = tmp("base");
    const result = await runGenerator(realMemGenerator, { ...quiet, out, seed: 11, size: 2 });
    assert.deepEqual(validationErrors(result.issues), []);
  });

  it("loads with the RealMem loader; queries cite earlier sessions; the category mix follows the paper", async () => {
    const data = await loadDataset("realmem", out, { strict: true });
    assert.deepEqual(
      data.episodes.map((e) => e.id),
      ["Nadia_Haddad", "Tomas_Berg"],
    );
    const probes = data.episodes.flatMap((e) => e.probes);
    assert.ok(probes.length > 100, `${probes.length} queries`);
    const mix = count(probes.map((p) => p.labels.category as string));
    const share = (c: string) => (mix[c] ?? 0) / probes.length;
    // The paper: 76.0% / 11.0% / 11.3% / 1.7%.
    assert.ok(share("Static Retrieval") > 0.65 && share("Static Retrieval") < 0.85, JSON.stringify(mix));
    assert.ok(share("Dynamic Updating") > 0.05 && share("Dynamic Updating") < 0.17, JSON.stringify(mix));
    assert.ok(share("Proactive Alignment") > 0.05 && share("Proactive Alignment") < 0.17, JSON.stringify(mix));
    assert.ok(share("Temporal Reasoning") < 0.05, JSON.stringify(mix));
    for (const p of probes) {
      assert.equal(p.meta?.evidenceInOwnSession, false, p.id);
      assert.ok(p.gold.evidenceMemories.length > 0, p.id);
      assert.equal(p.labels.session_type, p.gold.evidenceSessionIds.length === 1 ? "single-session" : "multi-session");
    }
    // Filler sessions: unrelated chats with no query and no memory, about half the timeline.
    const sessions = data.episodes.flatMap((e) => e.sessions);
    const fillers = sessions.filter((s) => s.meta?.filler === true);
    assert.ok(fillers.length / sessions.length > 0.4 && fillers.length / sessions.length < 0.56);
    assert.ok(fillers.every((s) => s.meta?.hasMemory === false));
    // Projects cite each other: persona and schedule memories cross project boundaries.
    assert.ok(
      probes.some((p) =>
        ((p.meta?.evidenceMemorySessionIds ?? []) as string[]).some((id) => !id.startsWith(`${p.meta?.project}:`)),
      ),
    );
    const memory = data.episodes.flatMap((e) =>
      e.sessions.flatMap((s) => (s.meta?.memories as Array<{ category: string }>) ?? []),
    );
    assert.deepEqual(Object.keys(count(memory.map((m) => m.category))).sort(), [
      "Persona",
      "Project State",
      "Schedule",
    ]);
  });

  it("the same seed gives byte-identical files; another seed does not", async () => {
    const again = tmp("again");
    await runGenerator(realMemGenerator, {
      ...quiet,
      out: again,
      seed: 11,
      size: 2,
      createdAt: "2031-01-01T00:00:00.000Z",
    });
    assert.deepEqual(datasetFiles(again), datasetFiles(out));
    const other = tmp("other");
    await runGenerator(realMemGenerator, { ...quiet, out: other, seed: 12, validate: false });
    assert.notDeepEqual(
      datasetFiles(other)["Nadia_Haddad_dialogues.json"],
      datasetFiles(out)["Nadia_Haddad_dialogues.json"],
    );
    assert.equal(readJson(join(out, "Nadia_Haddad_dialogues.json"))._metadata.synthetic.realised_by, "templates");
  });

  it("the query mix is a knob", async () => {
    const dir = tmp("mix");
    const result = await runGenerator(realMemGenerator, {
      ...quiet,
      out: dir,
      seed: 2,
      knobs: ["staticRetrieval=0", "proactiveAlignment=0", "temporalReasoning=0", "fillerShare=0", "projects=3"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const data = await loadDataset("realmem", dir, { strict: true });
    const probes = data.episodes.flatMap((e) => e.probes);
    assert.ok(probes.length > 0);
    assert.deepEqual(Object.keys(count(probes.map((p) => p.labels.category as string))), ["Dynamic Updating"]);
    assert.ok(data.episodes[0]?.sessions.every((s) => s.meta?.filler === false));
  });

  describe("a corrupted file is caught by the validator", () => {
    const file = (dir: string) => join(dir, "Nadia_Haddad_dialogues.json");
    const corrupt = async (edit: (doc: { dialogues: Array<Loose> }) => void) => {
      const dir = tmp("bad");
      await runGenerator(realMemGenerator, { ...quiet, out: dir, seed: 11, validate: false });
      const doc = readJson(file(dir));
      edit(doc);
      writeJson(file(dir), doc);
      return validateWith(realMemGenerator, dir);
    };
    const firstCitation = (doc: { dialogues: Array<Loose> }) => {
      for (const [i, s] of doc.dialogues.entries()) {
        for (const t of s.dialogue_turns) if (t.memory_used?.length) return { i, turn: t };
      }
      throw new Error("no citation");
    };

    it("a reply citing a session that comes later (a leaked future fact)", async () => {
      const issues = await corrupt((doc) => {
        const { turn } = firstCitation(doc);
        const later = doc.dialogues.at(-1) as Loose;
        turn.memory_used[0].session_uuid = later.session_uuid;
        turn.memory_session_uuids = [later.session_uuid];
      });
      assert.ok(
        issues.some((i) => /a leaked future fact/.test(i.problem)),
        JSON.stringify(issues.slice(0, 5)),
      );
    });

    it("a citation of a memory never extracted, and a memory whose source turn was rewritten", async () => {
      const issues = await corrupt((doc) => {
        const { turn } = firstCitation(doc);
        turn.memory_used[0].content = "【Travel Plan】 User booked a flight to the Moon.";
        const withMemory = doc.dialogues.find((s) =>
          s.extracted_memory.some((m: { source_turn: number }) => m.source_turn > 0),
        );
        const m = withMemory?.extracted_memory.find((x: { source_turn: number }) => x.source_turn > 0);
        withMemory!.dialogue_turns[m.source_turn - 1].content = "Let's talk about something else.";
      });
      assert.ok(
        issues.some((i) => /never extracted/.test(i.problem)),
        JSON.stringify(issues.slice(0, 5)),
      );
      assert.ok(
        issues.some((i) => /differs from turn/.test(i.problem)),
        JSON.stringify(issues.slice(0, 5)),
      );
    });

    it("a label the benchmark does not define", async () => {
      const issues = await corrupt((doc) => {
        const query = doc.dialogues.flatMap((s) => s.dialogue_turns).find((t) => t.is_query);
        query.category_name = "Dynamic Recall";
        const mem = doc.dialogues.flatMap((s) => s.extracted_memory)[0];
        mem.type = "Episodic";
      });
      assert.ok(
        issues.some((i) => /unknown category "Dynamic Recall"/.test(i.problem)),
        JSON.stringify(issues.slice(0, 5)),
      );
      assert.ok(
        issues.some((i) => /unknown memory type "Episodic"/.test(i.problem)),
        JSON.stringify(issues.slice(0, 5)),
      );
    });
  });
});

/** Plays both agents from the plan in the prompt, copying the values each step must contain. */
function playSession(body: StubChatBody): Record<string, unknown> {
  const prompt = String(body.messages?.at(-1)?.content ?? "");
  const turns: string[] = [];
  for (const line of prompt.split("\n")) {
    const m = /^(\d+)\. (USER|ASSISTANT): (.*)$/.exec(line);
    if (!m) continue;
    const verbatim = /Must contain verbatim: (.*)\.$/.exec(m[3] as string);
    const values = verbatim ? (JSON.parse(`[${verbatim[1]}]`) as string[]) : [];
    const instruction = (m[3] as string).replace(/ Must contain verbatim: .*$/, "");
    turns.push(`Model ${m[2]?.toLowerCase()}: ${instruction}${values.length ? ` (${values.join("; ")})` : ""}`);
  }
  return { turns };
}

describe("realmem generator (model realiser, OpenAI stub)", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ reply: playSession });
  });
  after(() => stub.close());

  it("writes every session through the model with our prompt; the result loads and validates", async () => {
    const out = tmp("llm");
    const model = stubChatModel(stub.url, tmp("cache"));
    const result = await runGenerator(realMemGenerator, {
      progress: false,
      out,
      seed: 5,
      model,
      knobs: ["projects=2", "fillerShare=0.2"],
    });
    assert.deepEqual(validationErrors(result.issues), []);
    const m = readManifest(out);
    assert.equal(m?.realiser.kind, "llm");
    assert.match(m?.prompts["realmem/session"] ?? "", /^[0-9a-f]{16}$/);
    const data = await loadDataset("realmem", out, { strict: true });
    const turns = data.episodes[0]?.sessions.flatMap((s) => s.turns) ?? [];
    assert.ok(turns.length > 0 && turns.every((t) => t.content.startsWith("Model ")));
    assert.ok((data.episodes[0]?.probes.length ?? 0) > 0);
    const first = stub.chatRequests[0]?.body as StubChatBody | undefined;
    assert.match(String(first?.messages?.at(-1)?.content), /The user: Nadia Haddad, Hospital logistics coordinator/);
  });
});
