import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { ModelError } from "../../src/core/errors.ts";
import { CachedChatModel, cacheKey, canonicalJson, openChatCache } from "../../src/llm/cache.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import type { ChatRequest } from "../../src/llm/types.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";

const KEY = "sk-cache-test-KEY-55555";

const req = (content: string, extra: Partial<ChatRequest> = {}): ChatRequest => ({
  role: "answerer",
  messages: [{ role: "user", content }],
  temperature: 0,
  ...extra,
});

describe("canonicalJson and cacheKey", () => {
  it("ignores key order and undefined fields", () => {
    assert.equal(
      canonicalJson({ b: 1, a: { d: [1, { z: 2, y: 3 }], c: undefined } }),
      '{"a":{"d":[1,{"y":3,"z":2}]},"b":1}',
    );
  });

  it("changes with every reply-determining field and never depends on the key", () => {
    const model = { baseUrl: "http://h/v1", model: "m" };
    const base = cacheKey(model, req("q"));
    assert.match(base, /^[0-9a-f]{64}$/);
    assert.equal(cacheKey(model, req("q")), base);
    const variants = [
      cacheKey({ ...model, baseUrl: "http://other/v1" }, req("q")),
      cacheKey({ ...model, model: "m2" }, req("q")),
      cacheKey(model, req("q", { role: "judge" })),
      cacheKey(model, req("q2")),
      cacheKey(model, req("q", { temperature: 0.7 })),
      cacheKey(model, req("q", { maxTokens: 10 })),
      cacheKey(model, req("q", { seed: 1 })),
      cacheKey(model, req("q", { sample: 1 })),
      cacheKey(model, req("q", { responseFormat: { name: "x", schema: { type: "object" } } })),
    ];
    assert.equal(new Set([base, ...variants]).size, variants.length + 1);
    const withKey = new OpenAIChatModel({ model: "m", baseUrl: "http://h/v1", apiKey: "sk-one" });
    const otherKey = new OpenAIChatModel({ model: "m", baseUrl: "http://h/v1", apiKey: "sk-two" });
    assert.equal(cacheKey(withKey, req("q")), cacheKey(otherKey, req("q")));
    assert.equal(cacheKey(withKey, req("q")), base);
  });
});

describe("cacheKey with a shared response schema", () => {
  it("is the same key as the whole request's canonical JSON, on every call that shares the schema object", () => {
    const model = { baseUrl: "http://h/v1", model: "m" };
    const schema = {
      type: "object",
      properties: { score: { type: "integer", minimum: 0 }, reason: { type: "string" } },
    };
    // Keys already in use in users' caches: sha256 of the request's canonical JSON.
    const expected = (r: ChatRequest) =>
      createHash("sha256")
        .update(
          canonicalJson({
            baseUrl: model.baseUrl,
            model: model.model,
            role: r.role,
            messages: r.messages,
            temperature: r.temperature,
            responseFormat: r.responseFormat,
          }),
        )
        .digest("hex");
    for (const q of ["first", "second", "first"]) {
      const r = req(q, { role: "judge", responseFormat: { name: "verdict", schema } });
      assert.equal(cacheKey(model, r), expected(r), q);
    }
    // Another schema object with other content gives another key.
    const other = req("first", { role: "judge", responseFormat: { name: "verdict", schema: { type: "object" } } });
    assert.equal(cacheKey(model, other), expected(other));
  });
});

describe("CachedChatModel against the stub", () => {
  let stub: OpenAIStub;
  let dir: string;
  before(async () => {
    stub = await startOpenAIStub({ apiKey: KEY });
    dir = mkdtempSync(join(tmpdir(), "membench-llm-cache-"));
  });
  after(() => stub.close());
  // Every test queues its own failures; none may leak into the next.
  beforeEach(() => stub.clearFailures());

  it("answers a repeated call from the cache and a new sample index with a new call", async () => {
    stub.resetRecords();
    const cache = openChatCache(join(dir, "a"));
    const model = new CachedChatModel(new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY }), cache);
    const first = await model.chat(req("what is my dog called?"));
    assert.equal(first.cached, false);
    const second = await model.chat(req("what is my dog called?"));
    assert.equal(second.cached, true);
    assert.equal(second.text, first.text);
    assert.deepEqual(second.usage, first.usage);
    assert.equal(stub.chatRequests.length, 1, "a cache hit makes no request");

    const sample1 = await model.chat(req("what is my dog called?", { sample: 1 }));
    assert.equal(sample1.cached, false);
    assert.equal(stub.chatRequests.length, 2);
    cache.close();

    // Persisted: a fresh connection to the same file still hits.
    const reopened = openChatCache(join(dir, "a"));
    const again = new CachedChatModel(new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY }), reopened);
    assert.equal((await again.chat(req("what is my dog called?"))).cached, true);
    assert.equal(stub.chatRequests.length, 2);
    assert.equal(reopened.size, 2);
    reopened.close();
  });

  it("does not cache errors", async () => {
    stub.resetRecords();
    const cache = openChatCache(join(dir, "b"));
    const model = new CachedChatModel(new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY }), cache);
    stub.enqueueFailure({ status: 400, message: "rejected" });
    await assert.rejects(model.chat(req("q")), ModelError);
    assert.equal(cache.size, 0);
    const ok = await model.chat(req("q"));
    assert.equal(ok.cached, false);
    assert.equal(ok.text, "stub reply to: q");
    assert.equal((await model.chat(req("q"))).cached, true);
    assert.equal(stub.chatRequests.length, 2);
    cache.close();
  });

  it("shares one request among identical calls in flight", async () => {
    stub.resetRecords();
    stub.setLatency(30);
    const cache = openChatCache(join(dir, "c"));
    const model = new CachedChatModel(new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY }), cache);
    const results = await Promise.all([model.chat(req("same")), model.chat(req("same")), model.chat(req("same"))]);
    stub.setLatency(0);
    assert.equal(stub.chatRequests.length, 1);
    assert.deepEqual(
      results.map((r) => r.cached),
      [false, true, true],
    );
    cache.close();
  });

  it("never writes the API key into the cache file", async () => {
    const cache = openChatCache(join(dir, "d"));
    const model = new CachedChatModel(new OpenAIChatModel({ model: "m", baseUrl: stub.url, apiKey: KEY }), cache);
    await model.chat(req(`a prompt long enough to land in the page ${"x".repeat(200)}`));
    assert.equal(cache.size, 1);
    const files = ["llm.sqlite", "llm.sqlite-wal"].map((f) => join(dir, "d", f)).filter((f) => existsSync(f));
    const bytes = files.map((f) => readFileSync(f).toString("latin1")).join("");
    assert.ok(bytes.includes("a prompt long enough") || bytes.includes("stub reply to"), "the cache holds the reply");
    assert.ok(!bytes.includes(KEY));
    cache.close();
    const closed = readFileSync(join(dir, "d", "llm.sqlite")).toString("latin1");
    assert.ok(!closed.includes(KEY));
  });
});
