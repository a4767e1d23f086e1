import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ModelError } from "../../src/core/errors.ts";
import { AccountedChatModel, Accounting, type CallUsage, sumUsage, withUsageSink } from "../../src/llm/accounting.ts";
import { createChatModel } from "../../src/llm/create.ts";
import { ScriptedChatModel } from "../../src/llm/scripted-model.ts";
import type { ChatResult } from "../../src/llm/types.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";

const result = (over: Partial<ChatResult>): ChatResult => ({
  text: "x",
  usage: { inputTokens: 1000, outputTokens: 200 },
  latencyMs: 10,
  cached: false,
  model: "m",
  ...over,
});

describe("Accounting", () => {
  it("tallies calls, cached calls, tokens and cost per role", () => {
    const acc = new Accounting({ m: { inputPerMTok: 2, outputPerMTok: 10 } });
    acc.record("answerer", result({}));
    acc.record("answerer", result({ cached: true }));
    acc.record("judge", result({ usage: { inputTokens: 500_000, outputTokens: 1000 } }));
    acc.recordError("judge");
    const snap = acc.snapshot();
    assert.deepEqual(snap.roles.answerer, {
      calls: 2,
      cachedCalls: 1,
      errors: 0,
      inputTokens: 1000,
      outputTokens: 200,
      cachedInputTokens: 1000,
      cachedOutputTokens: 200,
      latencyMs: 20,
      costUsd: (1000 * 2 + 200 * 10) / 1e6,
      costKnown: true,
      unpricedModels: [],
    });
    assert.equal(snap.roles.judge.calls, 1);
    assert.equal(snap.roles.judge.errors, 1);
    assert.equal(snap.roles.judge.costUsd, (500_000 * 2 + 1000 * 10) / 1e6);
    assert.equal(snap.roles.extractor.calls, 0);
    assert.equal(snap.roles.extractor.costUsd, 0);
    assert.equal(snap.total.calls, 3);
    assert.equal(snap.total.inputTokens, 501_000);
    assert.equal(snap.total.costUsd, 0.004 + 1.01);
  });

  it("reports cost as unknown, not zero, when a model has no price", () => {
    const acc = new Accounting({ m: { inputPerMTok: 1, outputPerMTok: 1 } });
    acc.record("answerer", result({}));
    acc.record("judge", result({ model: "mystery-model" }), "mystery-model");
    const snap = acc.snapshot();
    assert.equal(snap.roles.answerer.costKnown, true);
    assert.equal(snap.roles.judge.costKnown, false);
    assert.equal(snap.roles.judge.costUsd, null);
    assert.deepEqual(snap.roles.judge.unpricedModels, ["mystery-model"]);
    assert.equal(snap.total.costKnown, false);
    assert.equal(snap.total.costUsd, null);
    // With no price table at all nothing is priced.
    const none = new Accounting();
    none.record("generator", result({}));
    assert.equal(none.snapshot().roles.generator.costUsd, null);
  });

  it("prices by the configured name, falling back to the name the server answered with", () => {
    const acc = new Accounting({ "gpt-x-2024": { inputPerMTok: 1, outputPerMTok: 0 } });
    acc.record("answerer", result({ model: "gpt-x-2024", usage: { inputTokens: 1e6, outputTokens: 0 } }), "gpt-x");
    assert.equal(acc.snapshot().roles.answerer.costUsd, 1);
  });
});

describe("AccountedChatModel", () => {
  it("records each role separately and counts errors", async () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-acc-"));
    const file = join(dir, "s.jsonl");
    writeFileSync(file, '{"role": "answerer", "reply": "four words of reply"}\n{"role": "judge", "reply": "ok"}\n');
    const acc = new Accounting({ scripted: { inputPerMTok: 1, outputPerMTok: 1 } });
    const model = new AccountedChatModel(new ScriptedChatModel({ file }), acc);
    await model.chat({ role: "answerer", messages: [{ role: "user", content: "hello there" }] });
    await model.chat({ role: "answerer", messages: [{ role: "user", content: "hello there" }] });
    await model.chat({ role: "judge", messages: [{ role: "user", content: "grade" }] });
    await assert.rejects(model.chat({ role: "extractor", messages: [{ role: "user", content: "x" }] }), ModelError);
    const snap = acc.snapshot();
    assert.equal(snap.roles.answerer.calls, 2);
    assert.equal(snap.roles.answerer.outputTokens, 8);
    assert.equal(snap.roles.judge.calls, 1);
    assert.equal(snap.roles.extractor.calls, 0);
    assert.equal(snap.roles.extractor.errors, 1);
    assert.equal(snap.total.calls, 3);
  });
});

describe("accounting in the full stack", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub();
  });
  after(() => stub.close());

  it("counts cache hits as cached calls that cost nothing", async () => {
    const model = createChatModel({
      spec: "openai:priced",
      baseUrl: stub.url,
      cacheDir: mkdtempSync(join(tmpdir(), "membench-acc-cache-")),
      prices: { priced: { inputPerMTok: 1_000_000, outputPerMTok: 0 } },
    });
    const ask = { role: "judge" as const, messages: [{ role: "user" as const, content: "one two three" }] };
    await model.chat(ask);
    await model.chat(ask);
    const judge = model.accounting.snapshot().roles.judge;
    model.close();
    assert.equal(judge.calls, 2);
    assert.equal(judge.cachedCalls, 1);
    assert.equal(judge.inputTokens, 3, "stub counts three prompt tokens");
    assert.equal(judge.cachedInputTokens, 3);
    assert.equal(judge.costUsd, 3);
  });
});

describe("usage sinks", () => {
  const script = () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-sink-"));
    const file = join(dir, "s.jsonl");
    writeFileSync(file, `${JSON.stringify({ role: "answerer", match: "^ok", reply: "fine" })}\n`);
    return file;
  };

  it("attributes each call to the sink of the context that made it, even when contexts interleave", async () => {
    const model = createChatModel({
      spec: { kind: "scripted", file: script() },
      prices: { scripted: { inputPerMTok: 1, outputPerMTok: 1 } },
    });
    const seen: Record<string, CallUsage[]> = { a: [], b: [] };
    const ask = (text: string) => model.chat({ role: "answerer", messages: [{ role: "user", content: text }] });
    await Promise.all([
      withUsageSink(
        (c) => seen.a!.push(c),
        async () => {
          await ask("ok 1");
          await new Promise((r) => setTimeout(r, 5));
          await ask("ok 2");
        },
      ),
      withUsageSink(
        (c) => seen.b!.push(c),
        () => ask("no rule fits this").catch(() => undefined),
      ),
    ]);
    assert.equal(seen.a!.length, 2);
    assert.ok(seen.a!.every((c) => c.ok && c.inputTokens > 0 && typeof c.costUsd === "number" && c.costUsd > 0));
    assert.deepEqual(
      seen.b!.map((c) => [c.ok, c.role]),
      [[false, "answerer"]],
    );
    assert.equal(model.accounting.snapshot().roles.answerer.calls, 2, "the stack's own tally is unchanged");
    // Two stored parts of the same usage add up, cost included.
    const part = model.accounting.snapshot().roles.answerer;
    const summed = sumUsage([
      { role: "answerer", usage: part },
      { role: "answerer", usage: part },
    ]);
    assert.equal(summed.roles.answerer.calls, 4);
    assert.equal(summed.total.costUsd, 2 * part.costUsd!);
  });

  it("never turns a successful call into an error when the sink throws", async () => {
    const model = createChatModel({ spec: { kind: "scripted", file: script() } });
    const result = await withUsageSink(
      () => {
        throw new Error("The database connection is not open");
      },
      () => model.chat({ role: "answerer", messages: [{ role: "user", content: "ok" }] }),
    );
    assert.equal(result.text, "fine");
  });
});
