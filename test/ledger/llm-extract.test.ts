import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, it } from "node:test";
import { createEmbedder } from "../../src/embed/create.ts";
import { LedgerConflictError } from "../../src/ledger/errors.ts";
import { LlmExtractor, LlmRelationProposer } from "../../src/ledger/extract/llm.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { StructuredOutputError } from "../../src/llm/structured.ts";
import { lastUserMessage, type OpenAIStub, type StubChatBody, suiteStub } from "../support/openai-stub.ts";

/** One memory as the extraction schema asks for it. */
function memory(fields: Record<string, unknown>) {
  return {
    subject: "user",
    kind: "preference",
    attribute: "preference:tea",
    value: "green tea",
    condition: null,
    text: "The user likes green tea.",
    validFrom: null,
    validTo: null,
    turnIds: ["t1"],
    negated: false,
    ...fields,
  };
}

describe("ledger with the LLM extractor and proposer (over HTTP)", () => {
  const getStub = suiteStub();
  let stub: OpenAIStub;
  beforeEach(() => {
    stub = getStub();
  });
  const model = () => new OpenAIChatModel({ model: "extract-model", baseUrl: stub.url });

  it("maps the model's memories onto drafts: keys lowercased, unknown turns dropped, memories without a turn dropped", async () => {
    stub.enqueueReply({
      memories: [
        memory({ subject: "Sister ", attribute: " Residence", kind: "fact", value: "Paris", turnIds: ["t1", "t9"] }),
        memory({ turnIds: ["t9"] }),
        memory({ condition: "On Weekends", validFrom: "2024-03-01" }),
      ],
    });
    const drafts = await new LlmExtractor(model()).extract({
      sessionId: "s1",
      time: "2024-03-10",
      turns: [{ id: "t1", role: "user", content: "My sister lives in Paris. On weekends I drink green tea." }],
    });
    assert.deepEqual(
      drafts.map((d) => [d.subject, d.attribute, d.value, d.turnIds, d.condition, d.validFrom]),
      [
        ["sister", "residence", "Paris", ["t1"], undefined, undefined],
        ["user", "preference:tea", "green tea", ["t1"], "on weekends", "2024-03-01"],
      ],
    );
    const body = stub.chatRequests[0]!.body as StubChatBody;
    assert.match(lastUserMessage(body), /Session date: 2024-03-10/);
    assert.match(lastUserMessage(body), /\[t1\] user: My sister lives in Paris/);
  });

  it("writes the extracted memories and applies the relation the model proposes with interval logic", async () => {
    stub.setReply((body) => {
      const text = lastUserMessage(body);
      if (text.startsWith("OLD 1:")) return { relations: ["conditional"] };
      const condition = text.includes("weekends") ? "on weekends" : "in the morning";
      const value = text.includes("weekends") ? "green tea" : "black tea";
      const turn = /\[([^\]]+)\]/.exec(text)![1]!;
      return { memories: [memory({ value, condition, turnIds: [turn] })] };
    });
    const l = new Ledger({ extractor: new LlmExtractor(model()), proposer: new LlmRelationProposer(model()) });
    await l.add("a", {
      sessionId: "s1",
      time: "2024-01-10",
      turns: [{ id: "a1", role: "user", content: "On weekends I have green tea." }],
    });
    await l.add("a", {
      sessionId: "s2",
      time: "2024-02-10",
      turns: [{ id: "b1", role: "user", content: "In the morning it is black tea for me." }],
    });
    const tea = l.export("a").memories.filter((m) => m.attribute === "preference:tea");
    assert.deepEqual(
      tea.map((m) => [m.value, m.condition, m.status]),
      [
        ["green tea", "on weekends", "active"],
        ["black tea", "in the morning", "active"],
      ],
    );
    assert.equal(l.links("a", tea[1]!.id)[0]?.relation, "conditional");
    // Two extraction calls and one relation call, all as the extractor role's structured output.
    assert.equal(stub.chatRequests.length, 3);
    assert.match(
      lastUserMessage(stub.chatRequests[2]!.body as StubChatBody),
      /^OLD 1: user \/ preference:tea = "green tea"/,
    );
  });

  it("asks one relation call per new memory for all the standing memories of its slot, and none for a restatement", async () => {
    const values = ["green tea", "black tea", "oolong", "green tea"];
    let session = 0;
    stub.setReply((body) => {
      const text = lastUserMessage(body);
      if (text.startsWith("OLD 1:")) {
        const olds = text.split("\n").filter((l) => l.startsWith("OLD ")).length;
        return { relations: Array.from({ length: olds }, () => "complements") };
      }
      const turn = /\[([^\]]+)\]/.exec(text)![1]!;
      return { memories: [memory({ value: values[session++], turnIds: [turn] })] };
    });
    const l = new Ledger({ extractor: new LlmExtractor(model()), proposer: new LlmRelationProposer(model()) });
    for (const [i, value] of values.entries()) {
      await l.add("a", {
        sessionId: `s${i}`,
        time: `2024-0${i + 1}-10`,
        turns: [{ id: `t${i}`, role: "user", content: `I drink ${value}.` }],
      });
    }
    const relationCalls = stub.chatRequests
      .map((r) => lastUserMessage(r.body as StubChatBody))
      .filter((t) => t.startsWith("OLD 1:"));
    // Sessions 2 and 3 ask once each, about 1 and 2 standing memories. Session 4 restates
    // "green tea" (settled without the model) and asks about the other two in one call.
    assert.deepEqual(
      relationCalls.map((t) => t.split("\n").filter((line) => line.startsWith("OLD ")).length),
      [1, 2, 2],
    );
    assert.doesNotMatch(relationCalls[2]!, /"green tea"[^\n]*\nNEW/);
    const last = l.export("a").memories.at(-1)!;
    assert.deepEqual(
      l
        .links("a", last.id)
        .map((k) => k.relation)
        .sort(),
      ["complements", "complements", "complements"],
    );
  });

  it("links another occurrence of an event without asking the model", async () => {
    stub.setReply((body) => {
      const text = lastUserMessage(body);
      const turn = /^\[([^\]]+)\] user: (.+)$/m.exec(text)!;
      return {
        memories: [memory({ kind: "event", attribute: "expense:coffee", value: turn[2], turnIds: [turn[1]] })],
      };
    });
    const l = new Ledger({ extractor: new LlmExtractor(model()), proposer: new LlmRelationProposer(model()) });
    for (const [i, text] of ["Bought a latte for $4.", "Bought a cortado for $3."].entries()) {
      await l.add("a", { sessionId: `s${i}`, turns: [{ id: `t${i}`, role: "user", content: text }] });
    }
    assert.equal(stub.chatRequests.length, 2, "two extraction calls, no relation call");
    assert.deepEqual(
      l.export("a").links.map((k) => k.relation),
      ["complements"],
    );
  });

  it("rejects a relation reply that does not answer every old statement", async () => {
    stub.setReply((body) => {
      const text = lastUserMessage(body);
      const turn = /^\[([^\]]+)\]/m.exec(text)?.[1];
      // The relation call and its repair both get too few relations.
      if (!turn) return { relations: [] };
      return { memories: [memory({ value: text.includes("green") ? "green tea" : "black tea", turnIds: [turn] })] };
    });
    const l = new Ledger({ extractor: new LlmExtractor(model()), proposer: new LlmRelationProposer(model()) });
    await l.add("a", { sessionId: "s1", turns: [{ id: "a1", role: "user", content: "I drink green tea." }] });
    await assert.rejects(
      l.add("a", { sessionId: "s2", turns: [{ id: "b1", role: "user", content: "I drink black tea." }] }),
      StructuredOutputError,
    );
    // The first session stands; nothing of the second was written.
    assert.deepEqual(
      l.export("a").memories.map((m) => m.value),
      ["green tea"],
    );
  });

  it("fails the write, with nothing half-written, when the model's reply cannot be used", async () => {
    stub.setReply(() => "no JSON here");
    const l = new Ledger({ extractor: new LlmExtractor(model()) });
    await assert.rejects(
      l.add("a", {
        sessionId: "s1",
        time: "2024-01-10",
        turns: [{ id: "a1", role: "user", content: "I live in Oslo." }],
      }),
      (error: unknown) => error instanceof StructuredOutputError && /no JSON here/.test(error.message),
    );
    // One try and one repair, then the error; the session's turns were not stored.
    assert.equal(stub.chatRequests.length, 2);
    assert.deepEqual(l.export("a").turns, []);
  });

  it("with keep-turns, stores the turns without memories and says why; re-sending them extracts again", async () => {
    stub.setReply(() => "no JSON here");
    const l = new Ledger({
      extractor: new LlmExtractor(model()),
      proposer: new LlmRelationProposer(model()),
      onExtractionError: "keep-turns",
    });
    const session = {
      sessionId: "s1",
      time: "2024-01-10",
      turns: [{ id: "a1", role: "user" as const, content: "On weekends I have green tea." }],
    };
    const first = await l.add("a", session);
    assert.match(first.extractionError ?? "", /no JSON here/);
    assert.deepEqual(first.memories, []);
    assert.deepEqual(
      l.export("a").turns.map((t) => t.id),
      ["a1"],
    );
    assert.deepEqual((await l.search("a", "green tea", { k: 1 }))[0]?.turnIds, ["a1"]);
    // The model is back: the same turns sent again get their memories, and nothing is duplicated.
    stub.setReply(() => ({ memories: [memory({ condition: "on weekends", turnIds: ["a1"] })] }));
    const again = await l.add("a", session);
    assert.equal(again.extractionError, undefined);
    assert.deepEqual(
      again.memories.map((m) => m.value),
      ["green tea"],
    );
    assert.equal(l.export("a").turns.length, 1);
  });

  it("refuses a namespace of another embedder before asking the model anything", async () => {
    const dir = mkdtempSync(join(tmpdir(), "ledger-llm-embedder-"));
    const path = join(dir, "store.sqlite");
    try {
      const first = new Ledger({ path, embedder: await createEmbedder("hashing:64") });
      await first.add("a", { sessionId: "s1", turns: [{ id: "a1", role: "user", content: "I live in Oslo." }] });
      first.close();
      stub.setReply(() => ({ memories: [] }));
      const other = new Ledger({
        path,
        embedder: await createEmbedder("hashing:128"),
        extractor: new LlmExtractor(model()),
      });
      await assert.rejects(
        other.add("a", { sessionId: "s2", turns: [{ id: "a2", role: "user", content: "I live in Bergen." }] }),
        LedgerConflictError,
      );
      assert.equal(stub.chatRequests.length, 0, "no extraction call for a write that cannot land");
      other.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
