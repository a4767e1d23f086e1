import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { ConfigError } from "../../src/systems/../core/errors.ts";
import { assertConformance } from "../../src/systems/conformance.ts";
import { createMem0OssSystem, Mem0OssOptions } from "../../src/systems/mem0-oss.ts";
import { lastUserMessage, type OpenAIStub, type StubChatBody, startOpenAIStub } from "../support/openai-stub.ts";

/**
 * Plays mem0's extraction model: reads the "## New Messages" section of mem0's own
 * additive-extraction prompt and answers the JSON it asks for, one memory per
 * user or assistant line.
 */
function extractionReply(body: StubChatBody): string {
  const prompt = lastUserMessage(body);
  const section = /## New Messages\n([\s\S]*?)\n\n## /.exec(prompt)?.[1] ?? "";
  const memory = section
    .split("\n")
    .filter((line) => /^(user|assistant): /.test(line))
    .map((line, i) => ({ id: String(i), text: line.replace(/^(user|assistant): /, "") }));
  return JSON.stringify({ memory });
}

describe("mem0-oss: mem0's real open-source engine against the OpenAI stub", () => {
  let stub: OpenAIStub;
  let cacheDir: string;
  before(async () => {
    stub = await startOpenAIStub({ reply: extractionReply, embeddingDim: 64 });
    cacheDir = mkdtempSync(join(tmpdir(), "membench-mem0-oss-"));
  });
  after(async () => {
    await stub.close();
    rmSync(cacheDir, { recursive: true, force: true });
  });

  const context = () => ({
    endpoint: { baseUrl: stub.url, apiKey: "sk-local", model: "stub-model", embedModel: "stub-embed" },
    modelStatus: { configured: true, detail: "stub" },
    cacheDir,
  });

  it("adds through mem0's extraction, finds the memory with its provenance, and deletes it", async () => {
    const system = await createMem0OssSystem(Mem0OssOptions.parse({}), context());
    await system.open("ep");
    stub.resetRecords();
    await system.ingest("ep", {
      sessionId: "s7",
      sessionIndex: 0,
      time: "2024-03-20T20:15:00Z",
      turns: [
        { id: "s7-t1", role: "user", content: "I started theremin lessons with a teacher called Obrundel." },
        { id: "s7-t2", role: "assistant", content: "How are the lessons going?" },
      ],
    });
    // mem0's own prompt went out, with the session date where its extraction reads the conversation.
    const chat = stub.chatRequests.at(-1)!.body as StubChatBody;
    assert.deepEqual(chat.response_format, { type: "json_object" });
    assert.equal(chat.model, "stub-model");
    assert.match(
      lastUserMessage(chat),
      /## New Messages\nuser: \[Date of this conversation: 2024-03-20\] I started theremin lessons/,
    );
    assert.ok(stub.embeddingRequests.some((r) => (r.body as { model?: string }).model === "stub-embed"));

    const first = "[Date of this conversation: 2024-03-20] I started theremin lessons with a teacher called Obrundel.";
    const hits = await system.search("ep", { text: first, k: 5 });
    assert.equal(hits[0]?.text, first);
    assert.deepEqual(hits[0]?.sessionIds, ["s7"]);
    assert.deepEqual(hits[0]?.turnIds, ["s7-t1", "s7-t2"]);
    assert.equal(hits[0]?.time, "2024-03-20T20:15:00.000Z");
    assert.equal(hits[0]?.kind, "memory");
    const written = await system.readback("ep", ["s7"]);
    assert.deepEqual(written.map((w) => w.text).sort(), ["How are the lessons going?", first]);

    await system.close("ep");
    await system.open("ep");
    assert.deepEqual(await system.search("ep", { text: "theremin Obrundel", k: 5 }), []);
    await system.close("ep");
  });

  it("passes the conformance kit", async () => {
    await assertConformance(() => createMem0OssSystem(Mem0OssOptions.parse({}), context()));
  });

  it("without sendDate, sends the conversation alone (RealMem's harness passed no date)", async () => {
    const system = await createMem0OssSystem(Mem0OssOptions.parse({ sendDate: false }), context());
    await system.open("ep2");
    await system.ingest("ep2", {
      sessionId: "s1",
      sessionIndex: 0,
      time: "2024-03-20T20:15:00Z",
      turns: [{ id: "t1", role: "user", content: "We booked a guide from the mountain hut." }],
    });
    assert.doesNotMatch(lastUserMessage(stub.chatRequests.at(-1)!.body as StubChatBody), /Date of this conversation/);
    await system.close("ep2");
  });

  it("refuses to start without a model endpoint", async () => {
    await assert.rejects(
      createMem0OssSystem(Mem0OssOptions.parse({}), {
        modelStatus: { configured: false, detail: "no --model given" },
        cacheDir,
      }),
      (e: unknown) => e instanceof ConfigError && /no --model given/.test(e.message),
    );
  });
});
