import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { ConfigError, ModelError } from "../../src/core/errors.ts";
import { createChatModel } from "../../src/llm/create.ts";
import { readManifest, SYNTH_MANIFEST } from "../../src/synth/manifest.ts";
import { SynthStoppedError } from "../../src/synth/realiser.ts";
import { runGenerator, type SynthOptions, validateWith, validationErrors } from "../../src/synth/synthesize.ts";
import { type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";
import { CITIES, TOY_FILE, toyGenerator } from "./toy-generator.ts";

const tmp = (prefix: string) => mkdtempSync(join(tmpdir(), `mb-synth-${prefix}-`));
const quiet: Partial<SynthOptions> = { progress: false, createdAt: "2026-01-01T00:00:00.000Z" };

/** The dataset files of a folder (not the manifest), by name. */
function datasetFiles(dir: string): Record<string, string> {
  return Object.fromEntries(
    readdirSync(dir)
      .filter((f) => f !== SYNTH_MANIFEST)
      .map((f) => [f, readFileSync(join(dir, f), "utf8")]),
  );
}

/** A prompt folder holding the toy generator's one prompt. */
function toyPrompts(): string {
  const dir = tmp("prompts");
  mkdirSync(join(dir, "longmemeval"));
  writeFileSync(
    join(dir, "longmemeval", "toy-turn.md"),
    "Write sentence {{n}}, in which the user says they moved to {{city}}.\n",
  );
  return dir;
}

const cityOf = (body: StubChatBody) => {
  const last = body.messages?.at(-1)?.content;
  return /moved to (\w+)/.exec(typeof last === "string" ? last : "")?.[1] ?? "nowhere";
};

describe("synth infrastructure (templates)", () => {
  it("same seed and knobs give byte-identical files; another seed differs", async () => {
    const [a, b, c] = [tmp("a"), tmp("b"), tmp("c")];
    await runGenerator(toyGenerator, { ...quiet, out: a, seed: 11, size: 4 });
    await runGenerator(toyGenerator, { ...quiet, out: b, seed: 11, size: 4, createdAt: "2030-05-05T00:00:00.000Z" });
    await runGenerator(toyGenerator, { ...quiet, out: c, seed: 12, size: 4 });
    assert.deepEqual(datasetFiles(a), datasetFiles(b));
    assert.notDeepEqual(datasetFiles(a), datasetFiles(c));
    assert.deepEqual(readManifest(a)?.files, readManifest(b)?.files);
  });

  it("writes a manifest with generator, seed, resolved knobs, realiser and file hashes", async () => {
    const out = tmp("manifest");
    const result = await runGenerator(toyGenerator, { ...quiet, out, seed: 3, knobs: ["fillers=2"] });
    const m = readManifest(out);
    assert.ok(m);
    assert.deepEqual(result.manifest, m);
    assert.equal(m.status, "complete");
    assert.equal(m.generator, "longmemeval");
    assert.equal(m.generatorVersion, "0.0.1");
    assert.equal(m.seed, 3);
    assert.deepEqual(m.knobs, {
      instances: 2,
      fillers: 2,
      topics: ["basil", "trains"],
      uppercase: false,
      style: "plain",
    });
    assert.deepEqual(m.realiser, { kind: "templates", id: "templates" });
    assert.deepEqual(m.prompts, {});
    assert.equal(m.files.length, 1);
    assert.equal(m.files[0]?.path, TOY_FILE);
    assert.match(m.files[0]?.sha256 ?? "", /^[0-9a-f]{64}$/);
    assert.equal(m.createdAt, "2026-01-01T00:00:00.000Z");
    assert.deepEqual(result.issues, []);
    const data = await loadDataset("longmemeval", out, { strict: true });
    assert.equal(data.episodes.length, 2);
    assert.equal(data.episodes[0]?.sessions.length, 3);
  });

  it("a corrupted file is caught: manifest hash, the generator's validator and the strict loader", async () => {
    const out = tmp("corrupt");
    await runGenerator(toyGenerator, { ...quiet, out, seed: 5 });
    const path = join(out, TOY_FILE);
    const data = JSON.parse(readFileSync(path, "utf8"));
    data[0].answer_session_ids = ["answer_99"];
    writeFileSync(path, JSON.stringify(data));
    const issues = await validateWith(toyGenerator, out);
    assert.ok(issues.some((i) => i.file === TOY_FILE && i.severity === "warning" && /changed since/.test(i.problem)));
    assert.ok(
      issues.some(
        (i) =>
          i.field === "answer_session_ids" &&
          /answer_99 is not in the history/.test(i.problem) &&
          i.record === "[0] (toy_0)",
      ),
    );
    assert.ok(validationErrors(issues).length >= 1);
    writeFileSync(path, "[{");
    const broken = await validateWith({ ...toyGenerator, validate: async () => [] }, out);
    assert.ok(
      broken.some((i) => /loader refuses it/.test(i.problem)),
      JSON.stringify(broken),
    );
  });

  it("refuses a non-empty folder it did not write, and replaces its own earlier files", async () => {
    const busy = tmp("busy");
    writeFileSync(join(busy, "notes.txt"), "mine");
    await assert.rejects(runGenerator(toyGenerator, { ...quiet, out: busy }), (e: Error) => e instanceof ConfigError);
    assert.equal(readFileSync(join(busy, "notes.txt"), "utf8"), "mine");
    const out = tmp("again");
    await runGenerator(toyGenerator, { ...quiet, out, seed: 1 });
    const first = datasetFiles(out);
    await runGenerator(toyGenerator, { ...quiet, out, seed: 2 });
    assert.notDeepEqual(datasetFiles(out), first);
    assert.deepEqual(readdirSync(out).sort(), [TOY_FILE, SYNTH_MANIFEST].sort());
    await assert.rejects(
      runGenerator({ ...toyGenerator, benchmark: "locomo" }, { ...quiet, out }),
      (e: Error) => e instanceof ConfigError && /holds a longmemeval dataset/.test(e.message),
    );
  });

  it("refuses a bad seed and an unknown realiser", async () => {
    await assert.rejects(runGenerator(toyGenerator, { ...quiet, out: tmp("seed"), seed: -1 }), /seed/);
    await assert.rejects(
      runGenerator(toyGenerator, { ...quiet, out: tmp("r"), realiser: "magic" as never }),
      (e: Error) => e instanceof ConfigError && /realiser/.test(e.message),
    );
    await assert.rejects(
      runGenerator(toyGenerator, { ...quiet, out: tmp("r2"), realiser: "llm" }),
      (e: Error) => e instanceof ConfigError && /no model configured/.test(e.message),
    );
  });
});

describe("synth infrastructure (model realiser)", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ reply: (body) => `Honestly, I moved to ${cityOf(body)} last spring.` });
  });
  after(() => stub.close());

  const model = (cacheDir: string, price?: number) =>
    createChatModel({
      spec: "openai:stub-model",
      baseUrl: stub.url,
      apiKey: "test",
      cacheDir,
      maxRetries: 0,
      ...(price !== undefined ? { prices: { "stub-model": { inputPerMTok: price, outputPerMTok: 0 } } } : {}),
    });

  it("realises through the model with our prompt, records the model and prompt hash", async () => {
    const out = tmp("llm");
    stub.resetRecords();
    const m = model(tmp("cache"));
    const result = await runGenerator(toyGenerator, { ...quiet, out, seed: 4, model: m, prompts: toyPrompts() });
    m.close();
    assert.equal(stub.chatRequests.length, 2);
    const body = stub.chatRequests[0]?.body as StubChatBody & { seed?: number; temperature?: number };
    assert.equal(body.seed, 4);
    assert.equal(body.temperature, 0.7);
    assert.match(String(body.messages?.[0]?.content), /synthetic data for a benchmark/);
    assert.match(
      String(body.messages?.[1]?.content),
      /^Write sentence 0, in which the user says they moved to (\w+)\.$/,
    );
    const manifest = result.manifest;
    assert.equal(manifest.realiser.kind, "llm");
    assert.match(manifest.realiser.id, /stub-model/);
    assert.match(manifest.prompts["longmemeval/toy-turn"] ?? "", /^[0-9a-f]{16}$/);
    assert.equal(manifest.usage?.calls, 2);
    const data = JSON.parse(readFileSync(join(out, TOY_FILE), "utf8"));
    assert.match(
      data[0].haystack_sessions.flat().find((t: { has_answer?: boolean }) => t.has_answer).content,
      /^Honestly/,
    );
    assert.deepEqual(result.issues, []);
  });

  it("a killed generation continues where it stopped: calls made before are replayed from the cache", async () => {
    const cache = tmp("cache");
    const prompts = toyPrompts();
    // The fourth call fails for good (400 is not retried), as a crash would stop the process there.
    let calls = 0;
    stub.setFailWhen(() => (++calls === 4 ? { status: 400, message: "boom" } : undefined));
    stub.resetRecords();
    const out = tmp("killed");
    const first = model(cache);
    await assert.rejects(
      runGenerator(toyGenerator, { ...quiet, out, seed: 9, size: 6, model: first, prompts }),
      ModelError,
    );
    first.close();
    assert.equal(readManifest(out)?.status, "in progress");
    assert.equal(stub.chatRequests.length, 4);
    stub.setFailWhen(undefined);
    stub.resetRecords();
    const second = model(cache);
    const result = await runGenerator(toyGenerator, { ...quiet, out, seed: 9, size: 6, model: second, prompts });
    second.close();
    // Three replayed from the cache, three asked.
    assert.equal(stub.chatRequests.length, 3);
    assert.equal(result.manifest.usage?.cachedCalls, 3);
    assert.equal(result.manifest.status, "complete");
    const fresh = tmp("fresh");
    const third = model(cache);
    await runGenerator(toyGenerator, { ...quiet, out: fresh, seed: 9, size: 6, model: third, prompts });
    third.close();
    assert.deepEqual(datasetFiles(fresh), datasetFiles(out));
  });

  it("stops cleanly at --max-cost and continues on rerun, paying only for new calls", async () => {
    const cache = tmp("cache");
    const prompts = toyPrompts();
    const out = tmp("budget");
    stub.resetRecords();
    // Every call costs its prompt's word count in dollars (about 65): two calls pass a $100 limit.
    const first = model(cache, 1_000_000);
    await assert.rejects(
      runGenerator(toyGenerator, { ...quiet, out, seed: 2, size: 4, model: first, prompts, maxCost: 100 }),
      (e: Error) =>
        e instanceof SynthStoppedError && /--max-cost \$100: stopped. Run the same command again/.test(e.message),
    );
    first.close();
    assert.equal(stub.chatRequests.length, 2);
    assert.equal(readManifest(out)?.status, "stopped");
    assert.equal(existsSync(join(out, TOY_FILE)), false);
    stub.resetRecords();
    const second = model(cache, 1_000_000);
    const done = await runGenerator(toyGenerator, {
      ...quiet,
      out,
      seed: 2,
      size: 4,
      model: second,
      prompts,
      maxCost: 100,
    });
    second.close();
    assert.equal(stub.chatRequests.length, 2);
    assert.equal(done.manifest.status, "complete");
    assert.equal(done.manifest.usage?.cachedCalls, 2);
  });

  it("asks again when a reply fails the item's check, then gives up naming the item", async () => {
    stub.resetRecords();
    stub.setReply(() => "I live somewhere else entirely.");
    const cache = tmp("cache");
    const m = model(cache);
    try {
      await assert.rejects(
        runGenerator(toyGenerator, { ...quiet, out: tmp("bad"), seed: 1, model: m, prompts: toyPrompts() }),
        (e: Error) =>
          e instanceof ModelError &&
          /longmemeval\/toy-turn \(instance 0\): no usable reply in 3 attempts; last: does not mention/.test(e.message),
      );
      assert.equal(stub.chatRequests.length, 3);
      // The unusable replies are not kept: a rerun asks the endpoint again.
      assert.equal(m.cache?.size, 0);
    } finally {
      m.close();
      stub.setReply((body) => `Honestly, I moved to ${cityOf(body)} last spring.`);
    }
  });

  it("with a scripted model the model path runs end to end", async () => {
    const dir = tmp("script");
    const script = join(dir, "script.jsonl");
    writeFileSync(
      script,
      `${CITIES.map((c) => JSON.stringify({ role: "generator", match: `moved to ${c}`, reply: `Scripted: I moved to ${c}.` })).join("\n")}\n`,
    );
    const out = join(dir, "out");
    const result = await runGenerator(toyGenerator, {
      ...quiet,
      out,
      seed: 6,
      llm: `scripted:${script}`,
      prompts: toyPrompts(),
    });
    assert.equal(result.manifest.realiser.id, "scripted:scripted");
    assert.match(readFileSync(join(out, TOY_FILE), "utf8"), /Scripted: I moved to/);
    assert.deepEqual(result.issues, []);
  });
});
