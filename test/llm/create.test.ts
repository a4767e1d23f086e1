import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { ConfigError, ModelError } from "../../src/core/errors.ts";
import {
  checkEndpoint,
  createChatModel,
  formatModelSpec,
  modelConfigured,
  parseModelSpec,
  resolveModelSettings,
  withModelName,
} from "../../src/llm/create.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";

const KEY = "sk-create-test-KEY-424242";

describe("model specs", () => {
  it("parses and formats openai and scripted specs", () => {
    assert.deepEqual(parseModelSpec("openai"), { kind: "openai" });
    assert.deepEqual(parseModelSpec("openai:qwen2.5:7b"), { kind: "openai", model: "qwen2.5:7b" });
    assert.deepEqual(parseModelSpec("scripted:demo/rules.jsonl"), { kind: "scripted", file: "demo/rules.jsonl" });
    assert.equal(formatModelSpec({ kind: "openai", model: "m" }), "openai:m");
    assert.equal(formatModelSpec({ kind: "scripted", file: "f.jsonl" }), "scripted:f.jsonl");
    assert.throws(() => parseModelSpec("anthropic:claude"), ConfigError);
    assert.throws(() => parseModelSpec("scripted:"), ConfigError);
  });

  it("names judges distinctly", () => {
    assert.deepEqual(withModelName("openai", "judge-x"), { kind: "openai", model: "judge-x" });
    assert.deepEqual(withModelName("scripted:j.jsonl", "b"), { kind: "scripted", file: "j.jsonl", name: "b" });
  });
});

describe("settings", () => {
  it("resolves flags over env over the config file over defaults", () => {
    const s = resolveModelSettings({
      flags: { model: "from-flag" },
      env: { MEMBENCH_MODEL: "from-env", OPENAI_BASE_URL: "http://env/v1", MEMBENCH_CONCURRENCY: "3" },
      file: { model: "from-file", rps: 2, llm: "openai" },
    });
    assert.equal(s.model, "from-flag");
    assert.equal(s.baseUrl, "http://env/v1");
    assert.equal(s.concurrency, 3);
    assert.equal(s.rps, 2);
    assert.deepEqual(s.spec, { kind: "openai" });
    // The per-user cache folder (this env names no XDG_CACHE_HOME).
    assert.equal(s.cacheDir, join(homedir(), ".cache", "membench"));
    assert.equal(s.maxRetries, 5);
    assert.equal(s.timeoutMs, 120_000);
  });

  it("says whether a model is configured, and what is missing", () => {
    assert.equal(modelConfigured({ env: {} }).configured, false);
    assert.match(modelConfigured({ env: {} }).reason, /MEMBENCH_MODEL/);
    const noEndpoint = modelConfigured({ env: { MEMBENCH_MODEL: "m" } });
    assert.equal(noEndpoint.configured, false);
    assert.match(noEndpoint.reason, /MEMBENCH_BASE_URL/);
    const local = modelConfigured({ env: { MEMBENCH_BASE_URL: "http://localhost:8000/v1/", MEMBENCH_MODEL: "m" } });
    assert.deepEqual(
      { configured: local.configured, baseUrl: local.baseUrl, model: local.model },
      { configured: true, baseUrl: "http://localhost:8000/v1", model: "m" },
    );
    const hosted = modelConfigured({ env: { OPENAI_API_KEY: KEY, OPENAI_MODEL: "gpt" } });
    assert.equal(hosted.configured, true);
    assert.equal(hosted.baseUrl, "https://api.openai.com/v1");
    assert.ok(!hosted.reason.includes(KEY));
    assert.equal(modelConfigured({ env: { MEMBENCH_LLM: "scripted:x.jsonl" } }).kind, "scripted");
    assert.equal(
      modelConfigured({ env: { MEMBENCH_LLM: "openai:m", MEMBENCH_BASE_URL: "http://h/v1" } }).configured,
      true,
    );
  });

  it("refuses an OpenAI model without a name", () => {
    assert.throws(() => createChatModel({ baseUrl: "http://127.0.0.1:9/v1" }), ConfigError);
  });
});

describe("createChatModel against the stub", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ apiKey: KEY, models: ["alpha", "beta"] });
  });
  after(() => stub.close());
  // Every test queues its own failures; none may leak into the next.
  beforeEach(() => stub.clearFailures());

  it("builds cache, retry, limits and accounting around the endpoint", async () => {
    stub.resetRecords();
    const cacheDir = mkdtempSync(join(tmpdir(), "membench-create-"));
    const settings = resolveModelSettings({
      env: {
        MEMBENCH_BASE_URL: stub.url,
        MEMBENCH_API_KEY: KEY,
        MEMBENCH_MODEL: "alpha",
        MEMBENCH_CACHE_DIR: cacheDir,
      },
    });
    const model = createChatModel({ ...settings, concurrency: 2, retry: { baseDelayMs: 1 } });
    assert.equal(model.id, `openai:alpha@${stub.url}`);
    stub.enqueueFailure({ status: 429 }, { status: 500 });
    const ask = { role: "answerer" as const, messages: [{ role: "user" as const, content: "hi" }] };
    const first = await model.chat(ask);
    assert.equal(first.text, "stub reply to: hi");
    assert.equal(stub.chatRequests.length, 3, "two retries, then success");
    const second = await model.chat(ask);
    assert.equal(second.cached, true);
    assert.equal(stub.chatRequests.length, 3);
    const usage = model.accounting.snapshot().roles.answerer;
    assert.equal(usage.calls, 2);
    assert.equal(usage.cachedCalls, 1);
    assert.equal(usage.costKnown, false);
    model.close();
    const files = ["llm.sqlite", "llm.sqlite-wal"].map((f) => join(cacheDir, f)).filter((f) => existsSync(f));
    assert.ok(files.length > 0);
    for (const f of files) assert.ok(!readFileSync(f).toString("latin1").includes(KEY));
  });

  it("shares a limiter and accounting between an answerer and named judges", async () => {
    stub.resetRecords();
    stub.setLatency(30);
    const answerer = createChatModel({ spec: "openai:alpha", baseUrl: stub.url, apiKey: KEY, concurrency: 2 });
    const judges = ["alpha", "beta"].map((name) =>
      createChatModel({
        spec: withModelName("openai", name),
        baseUrl: stub.url,
        apiKey: KEY,
        limiter: answerer.limiter,
        accounting: answerer.accounting,
      }),
    );
    await Promise.all([
      ...Array.from({ length: 4 }, (_, i) =>
        answerer.chat({ role: "answerer", messages: [{ role: "user", content: `a${i}` }] }),
      ),
      ...judges.flatMap((j) =>
        Array.from({ length: 3 }, (_, i) => j.chat({ role: "judge", messages: [{ role: "user", content: `j${i}` }] })),
      ),
    ]);
    stub.setLatency(0);
    assert.ok(stub.maxInFlight <= 2, `maxInFlight ${stub.maxInFlight}`);
    assert.deepEqual([...new Set(stub.chatRequests.map((r) => (r.body as { model: string }).model))].sort(), [
      "alpha",
      "beta",
    ]);
    const snap = answerer.accounting.snapshot();
    assert.equal(snap.roles.answerer.calls, 4);
    assert.equal(snap.roles.judge.calls, 6);
  });

  it("does not cache scripted models", async () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-create-scripted-"));
    const file = join(dir, "s.jsonl");
    writeFileSync(file, '{"reply": "v1"}\n');
    const model = createChatModel({ spec: `scripted:${file}`, cacheDir: join(dir, "cache") });
    const ask = { role: "answerer" as const, messages: [{ role: "user" as const, content: "q" }] };
    assert.equal((await model.chat(ask)).cached, false);
    assert.equal((await model.chat(ask)).cached, false);
    assert.equal(model.cache, undefined);
    assert.equal(existsSync(join(dir, "cache")), false);
  });

  it("surfaces a non-retryable error without the API key", async () => {
    const model = createChatModel({ spec: "openai:alpha", baseUrl: stub.url, apiKey: "sk-WRONG-key-000111" });
    const error = await model
      .chat({ role: "answerer", messages: [{ role: "user", content: "q" }] })
      .catch((e: unknown) => e);
    assert.ok(error instanceof ModelError);
    assert.equal(error.status, 401);
    assert.ok(!error.message.includes("sk-WRONG-key-000111"));
    assert.equal(model.accounting.snapshot().roles.answerer.errors, 1);
  });
});

describe("checkEndpoint", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub({ apiKey: KEY, models: ["alpha", "beta"] });
  });
  after(() => stub.close());

  it("lists the models of a reachable endpoint", async () => {
    const check = await checkEndpoint(stub.url, KEY, 2000);
    assert.equal(check.reachable, true);
    assert.equal(check.status, 200);
    assert.deepEqual(check.models, ["alpha", "beta"]);
    assert.equal(check.error, undefined);
  });

  it("reports an HTTP error from a reachable endpoint", async () => {
    const check = await checkEndpoint(`${stub.url}/`, "sk-bad-key-1234", 2000);
    assert.equal(check.reachable, true);
    assert.equal(check.status, 401);
    assert.match(check.error!, /HTTP 401/);
    assert.ok(!check.error!.includes("sk-bad-key-1234"));
  });

  it("reports an unreachable endpoint", async () => {
    const closed = await startOpenAIStub();
    const url = closed.url;
    await closed.close();
    const check = await checkEndpoint(url, KEY, 1000);
    assert.equal(check.reachable, false);
    assert.match(check.error!, /ECONNREFUSED/);
  });

  it("gives up after the timeout", async () => {
    const slow = await startOpenAIStub({ latencyMs: 2000 });
    const check = await checkEndpoint(slow.url, undefined, 100);
    await slow.close();
    assert.equal(check.reachable, false);
    assert.match(check.error!, /no answer within 100 ms/);
    assert.ok(check.latencyMs < 1500);
  });
});
