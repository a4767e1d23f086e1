import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, beforeEach, describe, it } from "node:test";
import { z } from "zod";
import { createChatModel } from "../../src/llm/create.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { parseJsonReply, StructuredOutputError, structured } from "../../src/llm/structured.ts";
import type { ChatRequest } from "../../src/llm/types.ts";
import { type OpenAIStub, startOpenAIStub } from "../support/openai-stub.ts";

const Verdict = z.object({ label: z.enum(["CORRECT", "WRONG"]), reason: z.string() });

const judgeReq: ChatRequest = {
  role: "judge",
  messages: [
    { role: "system", content: "You grade answers." },
    { role: "user", content: "Gold: Lisbon. Answer: Lisbon, Portugal." },
  ],
  temperature: 0,
};

type Body = { messages: { role: string; content: string }[]; response_format?: Record<string, unknown> };

describe("parseJsonReply", () => {
  it("strips fences and surrounding prose and takes the first object", () => {
    assert.deepEqual(parseJsonReply('```json\n{"a": 1}\n```'), { ok: true, value: { a: 1 } });
    assert.deepEqual(parseJsonReply('Sure! Here it is: {"a": "}"} and {"b": 2}'), { ok: true, value: { a: "}" } });
    assert.deepEqual(parseJsonReply('{"a": {"b": [1, 2]}, "c": "x\\"y"} trailing'), {
      ok: true,
      value: { a: { b: [1, 2] }, c: 'x"y' },
    });
  });

  it("says why a reply is unusable", () => {
    const unterminated = parseJsonReply('{"answer": "unterminated');
    assert.equal(unterminated.ok, false);
    assert.match((unterminated as { reason: string }).reason, /no complete JSON object/);
    const invalid = parseJsonReply("{answer: 1}");
    assert.match((invalid as { reason: string }).reason, /invalid JSON/);
    assert.match((parseJsonReply("") as { reason: string }).reason, /empty/);
  });
});

describe("structured against the stub", () => {
  let stub: OpenAIStub;
  before(async () => {
    stub = await startOpenAIStub();
  });
  after(() => stub.close());
  // Every test queues its own failures; none may leak into the next.
  beforeEach(() => stub.clearFailures());

  const model = () => new OpenAIChatModel({ model: "judge-model", baseUrl: stub.url });

  it("sends the schema as a strict json_schema response format and returns the parsed value", async () => {
    stub.resetRecords();
    stub.enqueueReply({ label: "CORRECT", reason: "same city" });
    const { value, result, attempts } = await structured(model(), judgeReq, Verdict, { name: "verdict" });
    assert.deepEqual(value, { label: "CORRECT", reason: "same city" });
    assert.equal(attempts, 1);
    assert.equal(result.text, '{"label":"CORRECT","reason":"same city"}');
    assert.equal(stub.chatRequests.length, 1);
    const body = stub.chatRequests[0]!.body as Body;
    const format = body.response_format as {
      type: string;
      json_schema: { name: string; strict: boolean; schema: Record<string, unknown> };
    };
    assert.equal(format.type, "json_schema");
    assert.equal(format.json_schema.name, "verdict");
    assert.equal(format.json_schema.strict, true);
    assert.equal(format.json_schema.schema.type, "object");
    assert.deepEqual(format.json_schema.schema.required, ["label", "reason"]);
    assert.equal("$schema" in format.json_schema.schema, false);
    assert.deepEqual(body.messages, judgeReq.messages, "with server-side schemas the prompt is left alone");
  });

  it("repairs one malformed reply", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ malformedJson: true });
    stub.enqueueReply('```json\n{"label": "WRONG", "reason": "different city"}\n```');
    const { value, attempts } = await structured(model(), judgeReq, Verdict, { name: "verdict" });
    assert.deepEqual(value, { label: "WRONG", reason: "different city" });
    assert.equal(attempts, 2);
    assert.equal(stub.chatRequests.length, 2);
    const repair = (stub.chatRequests[1]!.body as Body).messages;
    assert.equal(repair.length, 4);
    assert.deepEqual(repair[2], { role: "assistant", content: '{"answer": "unterminated' });
    assert.equal(repair[3]!.role, "user");
    assert.match(repair[3]!.content, /no complete JSON object/);
    assert.match(repair[3]!.content, /corrected JSON/);
  });

  it("repairs a reply that parses but fails validation", async () => {
    stub.resetRecords();
    stub.enqueueReply({ label: "MAYBE", reason: "unsure" }, { label: "CORRECT", reason: "ok" });
    const { value, attempts } = await structured(model(), judgeReq, Verdict, { name: "verdict" });
    assert.deepEqual(value, { label: "CORRECT", reason: "ok" });
    assert.equal(attempts, 2);
    assert.match((stub.chatRequests[1]!.body as Body).messages[3]!.content, /does not match the schema.*label/);
  });

  it("throws StructuredOutputError with the raw text when the repair fails too", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ malformedJson: true });
    stub.enqueueReply("I think it is correct.");
    const error = await structured(model(), judgeReq, Verdict, { name: "verdict" }).catch((e: unknown) => e);
    assert.ok(error instanceof StructuredOutputError);
    assert.equal(error.raw, "I think it is correct.");
    assert.match(error.reason, /no complete JSON object/);
    assert.equal(error.schemaName, "verdict");
    assert.equal(stub.chatRequests.length, 2, "exactly one repair");
  });

  it("drops an unusable outcome from the cache, so a retry asks again; a usable one is served from it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "structured-cache-"));
    const cached = createChatModel({ spec: "openai:judge-model", baseUrl: stub.url, cacheDir: dir });
    try {
      stub.resetRecords();
      stub.enqueueReply("no verdict", "still none");
      await assert.rejects(structured(cached, judgeReq, Verdict, { name: "verdict" }), StructuredOutputError);
      stub.enqueueReply({ label: "CORRECT", reason: "same city" });
      const { value } = await structured(cached, judgeReq, Verdict, { name: "verdict" });
      assert.deepEqual(value, { label: "CORRECT", reason: "same city" });
      assert.equal(stub.chatRequests.length, 3, "the retry reached the endpoint");
      const again = await structured(cached, judgeReq, Verdict, { name: "verdict" });
      assert.equal(again.result.cached, true);
      assert.equal(stub.chatRequests.length, 3);
    } finally {
      cached.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("puts the schema in the prompt when the model has no server-side schemas", async () => {
    stub.resetRecords();
    stub.enqueueReply('Result: {"label": "CORRECT", "reason": "match"}');
    const m = new OpenAIChatModel({ model: "m", baseUrl: stub.url, supportsJsonSchema: false });
    const { value } = await structured(m, judgeReq, Verdict, { name: "verdict" });
    assert.equal(value.label, "CORRECT");
    const body = stub.chatRequests[0]!.body as Body;
    assert.equal(body.response_format, undefined);
    assert.equal(body.messages.length, 2);
    assert.equal(body.messages[0]!.role, "system");
    assert.match(body.messages[0]!.content, /^You grade answers\.\n\n.*JSON schema:\n\{"type":"object"/s);
    assert.equal(body.messages[1]!.content, judgeReq.messages[1]!.content);
  });

  it("falls back to prompt instructions when the server rejects response_format", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ status: 400, message: "response_format json_schema is not supported by this server" });
    stub.enqueueReply({ label: "WRONG", reason: "no" }, { label: "CORRECT", reason: "yes" });
    const m = new OpenAIChatModel({ model: "fallback-model", baseUrl: stub.url });
    const { value } = await structured(m, judgeReq, Verdict, { name: "verdict" });
    assert.equal(value.label, "WRONG");
    const [rejected, retried] = stub.chatRequests.map((r) => r.body as Body);
    assert.ok(rejected!.response_format);
    assert.equal(retried!.response_format, undefined);
    assert.match(retried!.messages[0]!.content, /JSON schema/);
    // Remembered for this endpoint and model: the next call goes straight to the prompt form.
    await structured(m, judgeReq, Verdict, { name: "verdict" });
    assert.equal(stub.chatRequests.length, 3);
    assert.equal((stub.chatRequests[2]!.body as Body).response_format, undefined);
  });

  it("lets other 400s through untouched", async () => {
    stub.resetRecords();
    stub.enqueueFailure({ status: 400, message: "context length exceeded" });
    await assert.rejects(structured(model(), judgeReq, Verdict, { name: "verdict" }), /context length exceeded/);
    assert.equal(stub.chatRequests.length, 1);
  });
});
