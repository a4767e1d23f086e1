import assert from "node:assert/strict";
import { beforeEach, describe, it } from "node:test";
import { createEmbedder } from "../../src/embed/create.ts";
import { Ledger } from "../../src/ledger/ledger.ts";
import { LlmQueryRewriter } from "../../src/ledger/query-rewrite.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { lastUserMessage, type OpenAIStub, type StubChatBody, suiteStub } from "../support/openai-stub.ts";

/** Three sessions; the question names none of the kyoto session's words. */
async function ledgerWith(rewriter?: LlmQueryRewriter): Promise<Ledger> {
  const l = new Ledger({ embedder: await createEmbedder("hashing:256"), ...(rewriter ? { rewriter } : {}) });
  const add = (id: string, time: string, content: string) =>
    l.add("a", { sessionId: id, time, turns: [{ id: `${id}t`, role: "user", content }] });
  await add("kyoto", "2024-05-01", "Booked the ryokan in Kyoto and the two hotels near Osaka station for the trip.");
  await add("tax", "2024-05-02", "Okay, next I want to sort out the receipts for my tax return.");
  await add("garden", "2024-05-03", "Okay, the tomatoes in the garden finally came out fine.");
  return l;
}

describe("query rewrite (over HTTP)", () => {
  const getStub = suiteStub();
  let stub: OpenAIStub;
  beforeEach(() => {
    stub = getStub();
  });
  const model = () => new OpenAIChatModel({ model: "rewrite-model", baseUrl: stub.url });
  const question = "Okay, good that we finally got these three sorted out. What next?";

  it("searches the model's rewrites beside the message: a cue-poor message finds its thread", async () => {
    stub.setReply(() => ({ queries: ["Kyoto trip hotel and ryokan bookings", "Osaka hotels"] }));
    const plain = await (await ledgerWith()).search("a", question, { k: 3 });
    assert.notEqual(plain[0]?.sessionIds[0], "kyoto", "without a rewrite the chatty sessions win");
    const hits = await (await ledgerWith(new LlmQueryRewriter(model()))).search("a", question, {
      k: 3,
      at: "2024-05-04",
    });
    assert.deepEqual(hits[0]?.sessionIds, ["kyoto"]);
    // The bundle shows the turn the rewrite matched.
    assert.match(hits[0]!.text, /ryokan in Kyoto/);
    const body = stub.chatRequests.at(-1)!.body as StubChatBody;
    assert.match(lastUserMessage(body), /^Date of the message: 2024-05-04\n\nOkay, good that we finally/);
  });

  it("keeps at most `max` distinct rewrites, never the message itself", async () => {
    stub.setReply(() => ({ queries: ["  hotel bookings ", "Hotel bookings", question, "", "receipts", "garden"] }));
    const rewrites = await new LlmQueryRewriter(model(), { max: 2 }).rewrite(question);
    assert.deepEqual(rewrites, ["hotel bookings", "receipts"]);
  });

  it("a reply that cannot be used leaves the message to search alone", async () => {
    stub.setReply(() => "I think you mean the trip.");
    const rewriter = new LlmQueryRewriter(model());
    assert.deepEqual(await rewriter.rewrite(question), []);
    const hits = await (await ledgerWith(rewriter)).search("a", question, { k: 3 });
    const plain = await (await ledgerWith()).search("a", question, { k: 3 });
    assert.deepEqual(
      hits.map((h) => h.sessionIds),
      plain.map((h) => h.sessionIds),
    );
  });
});
