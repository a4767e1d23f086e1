import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadMemconflict } from "../../src/benchmarks/memconflict/load.ts";
import { createChatModel } from "../../src/llm/create.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import type { ScoredRow } from "../../src/run/score-run.ts";
import { memconflictGenerator } from "../../src/synth/memconflict/index.ts";
import { runGenerator } from "../../src/synth/synthesize.ts";
import { type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests walk generated JSON of many shapes
type Rec = Record<string, any>;
const tmp = (p: string) => mkdtempSync(join(tmpdir(), `mb-mc-e2e-${p}-`));

describe("memconflict generator → membench run → scoring, end to end", () => {
  it("a generated file runs with bm25 and scores with a scripted judge, per conflict type", async () => {
    const dir = tmp("run");
    const gen = await runGenerator(memconflictGenerator, {
      out: join(dir, "data"),
      seed: 5,
      knobValues: { personas: 1, end: "2022-12" },
      progress: false,
    });
    assert.deepEqual(gen.issues, []);
    const data = await loadMemconflict(gen.out, { strict: true });
    const count = (k: string) => data.episodes[0]!.probes.filter((q) => q.labels?.conflict_type === k).length;
    const script = join(dir, "script.jsonl");
    const rules = [
      { role: "answerer", reply: "The user's situation changed, as the memories show." },
      {
        role: "judge",
        match: "a real update over time",
        reply: { aa: 1, uocs: 1, first_support_rank: 1, reason: "scripted" },
      },
      {
        role: "judge",
        match: "a stable fact contradicted",
        reply: { aa: 0, crs: 1, first_support_rank: 2, reason: "scripted" },
      },
      {
        role: "judge",
        match: "several values, each valid",
        reply: { aa: 1, first_support_rank: 0, reason: "scripted" },
      },
    ];
    writeFileSync(script, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const outcome = await startRun({
      benchmark: "memconflict",
      data: gen.out,
      systems: ["bm25"],
      llm: `scripted:${script}`,
      out: join(dir, "runs"),
      id: "synth-e2e",
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    const row = outcome.summary.results.find((r) => r.system === "bm25" && r.setting === "default") as ScoredRow;
    const m = row.metrics;
    assert.deepEqual(
      [m.dynamic_n, m.static_n, m.conditional_n],
      [count("dynamic"), count("static"), count("conditional")],
    );
    assert.ok((m.static_n as number) > 0 && (m.conditional_n as number) > 0);
    assert.equal(m.dynamic_aa, 1);
    assert.equal(m.static_aa, 0);
    assert.equal(m.conditional_aa, 1);
    assert.equal(m.dynamic_uocs, 1);
    assert.equal(m.static_crs, 1);
    // The judge's rank stands where bm25 listed something (paper rank rule: past the list is no support).
    const records = readRecords(outcome.dir);
    const listed = (kind: string, depth: number) => {
      const of = records.filter((r) => probeKind.get(r.probeId) === kind);
      return of.filter((r) => r.retrieved.length >= depth).length / of.length;
    };
    const probeKind = new Map(data.episodes[0]!.probes.map((q) => [q.id, String(q.labels?.conflict_type)]));
    assert.ok(Math.abs((m["dynamic_seh@3"] as number) - listed("dynamic", 1)) < 1e-9);
    assert.ok(Math.abs((m["static_seh@3"] as number) - listed("static", 2)) < 1e-9);
    assert.ok(Math.abs((m["static_srs@3"] as number) - listed("static", 2) / Math.log2(3)) < 1e-9);
    assert.equal(m["conditional_seh@3"], 0);
    assert.ok((m["dynamic_seh@3"] as number) > 0.5);
  });
});

/** Reads the facts list of a dialogue prompt and states each one in a user turn, padding to the asked length. */
function dialogueReply(prompt: string): Rec {
  const n = Number(/Exactly (\d+) turns/.exec(prompt)?.[1] ?? 5);
  const facts = [...prompt.matchAll(/^- about (?:the user: |the user's [^:]+\(not about the user\): )(.*)$/gm)].map(
    (m) => m[1],
  );
  const turns = Array.from({ length: n }, () => ({
    user: "Nothing else new today, honestly.",
    assistant: "That's fine!",
  }));
  facts.forEach((f, i) => {
    const t = turns[i % n] as { user: string };
    t.user = t.user.startsWith("Let me") ? `${t.user} Also: ${f}.` : `Let me mention this: ${f}.`;
  });
  return { turns };
}

function rewriteReply(prompt: string, prefix: string): Rec {
  const questions = [...prompt.matchAll(/^\{"question_id":"(Q_\d+)","question":"([^"]*)"/gm)].map((m) => ({
    question_id: m[1],
    question: `${prefix} ${m[2]}`,
  }));
  return { rewritten_questions: questions };
}

describe("memconflict generator: the model-realised path", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({
      reply: (body: StubChatBody) => {
        const prompt = String(body.messages?.at(-1)?.content ?? "");
        if (prompt.includes("Write a short synopsis"))
          return "The user and the assistant catch up; the listed facts come up naturally and the chat ends warmly.";
        if (prompt.includes("Write a realistic conversation")) return dialogueReply(prompt);
        if (prompt.includes("in an indirect style")) return rewriteReply(prompt, "Indirectly,");
        if (prompt.includes("Rewrite each question")) return rewriteReply(prompt, "Tell me:");
        return "unexpected prompt";
      },
    });
  });
  after(() => stub.close());

  it("writes dialogues, synopses and question wording through the model with our prompts; a rerun replays the cache", async () => {
    const cache = tmp("cache");
    const model = () =>
      createChatModel({ spec: "openai:stub-model", baseUrl: stub.url, apiKey: "k", cacheDir: cache, maxRetries: 0 });
    const dir = tmp("llm");
    stub.resetRecords();
    const first = model();
    const result = await runGenerator(memconflictGenerator, {
      out: join(dir, "a"),
      seed: 3,
      knobValues: { personas: 1, end: "2022-05", turns: [6, 8], queryStyle: "both" },
      model: first,
      progress: false,
    });
    first.close();
    assert.deepEqual(result.issues, []);
    const calls = stub.chatRequests.length;
    assert.ok(calls > 10);
    const m = result.manifest;
    assert.equal(m.realiser.kind, "llm");
    assert.deepEqual(Object.keys(m.prompts).sort(), [
      "memconflict/dialogue",
      "memconflict/indirect",
      "memconflict/outline",
      "memconflict/rewrite",
    ]);
    const p = JSON.parse(readFileSync(join(result.out, "Step4_4.jsonl"), "utf8").split("\n")[0] as string) as Rec;
    assert.match(p.metadata.membench_synth.realised_by, /stub-model/);
    assert.ok(p.token_cost.current_stage.input_tokens > 0);
    const s0 = p.Full_Session_Chain[0];
    assert.match(s0.Session_Outline, /catch up/);
    assert.match(s0.Session_Dialogue.dialogue_turn_1[0].content, /^Let me mention this:/);
    const asked = (p.Full_Session_Chain as Rec[]).flatMap((s) => s.Session_Questions as Rec[]);
    assert.ok(asked.length > 0 && asked.every((q) => q.question.startsWith("Tell me:")));
    const indirect = JSON.parse(
      readFileSync(join(result.out, "Step4_4_indirect.jsonl"), "utf8").split("\n")[0] as string,
    ) as Rec;
    const iq = (indirect.Full_Session_Chain as Rec[]).flatMap((s) => s.Session_Questions as Rec[]);
    assert.ok(iq.every((q) => q.question.startsWith("Indirectly,") && q.Rewrite_Method === "llm"));
    assert.equal(indirect.Question_Style_Metadata.LLM_Session_Fallback_Count, 0);
    const data = await loadMemconflict(result.out, { strict: true });
    assert.ok(data.episodes[0]!.probes.length > 0);

    stub.resetRecords();
    const second = model();
    const again = await runGenerator(memconflictGenerator, {
      out: join(dir, "b"),
      seed: 3,
      knobValues: { personas: 1, end: "2022-05", turns: [6, 8], queryStyle: "both" },
      model: second,
      progress: false,
    });
    second.close();
    assert.equal(stub.chatRequests.length, 0, "every call replayed from the cache");
    assert.equal(again.manifest.usage?.cachedCalls, calls);
    // A replayed generation writes the same bytes as the one that made the calls.
    for (const file of ["Step4_4.jsonl", "Step4_4_indirect.jsonl"]) {
      assert.ok(readFileSync(join(again.out, file)).equals(readFileSync(join(result.out, file))), file);
    }
  });

  it("a dialogue that leaves out a fact is asked again, then refused with the persona and session named", async () => {
    stub.resetRecords();
    const dropping = await startOpenAIStub({
      reply: (body: StubChatBody) => {
        const prompt = String(body.messages?.at(-1)?.content ?? "");
        if (prompt.includes("Write a short synopsis")) return "A short chat.";
        return { turns: Array.from({ length: 8 }, () => ({ user: "Nothing new.", assistant: "Okay." })) };
      },
    });
    try {
      const m = createChatModel({
        spec: "openai:stub-model",
        baseUrl: dropping.url,
        apiKey: "k",
        cacheDir: tmp("c2"),
        maxRetries: 0,
      });
      await assert.rejects(
        runGenerator(memconflictGenerator, {
          out: tmp("drop"),
          seed: 1,
          knobValues: { personas: 1, end: "2022-03", turns: [8, 8] },
          model: m,
          progress: false,
        }),
        /memconflict\/dialogue \(persona 0, session \d+\): no usable reply in 3 attempts; last: the user's turns do not state/,
      );
      m.close();
    } finally {
      await dropping.close();
    }
  });
});
