import assert from "node:assert/strict";
import { it } from "node:test";
import { createLettaSystem, LettaOptions } from "../../src/systems/letta.ts";
import { hostedAdapterSuite, SAMPLE_BATCH } from "../support/hosted-adapter-suite.ts";
import { type LettaServer, startLettaServer } from "../support/letta-server.ts";

hostedAdapterSuite<LettaServer>(
  {
    name: "letta",
    keyEnv: "LETTA_API_KEY",
    start: startLettaServer,
    create: (options, context, deps) => createLettaSystem(LettaOptions.parse(options), context, deps),
    ingestPath: /^POST \/v1\/agents\/[^/]+\/archival-memory$/,
    remaining: (s) => {
      const last = [...s.requests].reverse().find((r) => r.method === "POST" && /archival-memory$/.test(r.path));
      const agentId = last?.path.split("/")[3];
      return s.passages.filter((p) => p.agentId === agentId).length;
    },
    asynchronous: false,
  },
  (server, env) => {
    it("writes passages dated by the session with the session tag, and finds them with their turns", async () => {
      const s = server();
      const system = await createLettaSystem(LettaOptions.parse({ baseUrl: s.url, turnsPerPassage: 1 }), {}, { env });
      await system.open("ep-time");
      const agent = [...s.agents.values()].at(-1)!;
      assert.deepEqual(agent, {
        name: agent.name,
        model: "openai/gpt-4o-mini",
        embedding: "openai/text-embedding-3-small",
      });
      await system.ingest("ep-time", { ...SAMPLE_BATCH, time: "1:56 pm on 8 May, 2023" });
      const writes = s.requests.filter((r) => r.path.endsWith("/archival-memory"));
      assert.deepEqual(writes[0]!.body, {
        text: "Ana: I adopted a retired greyhound named Zephyrine.",
        created_at: "2023-05-08T00:00:00.000Z",
        tags: ["membench", "session:s1"],
      });
      assert.equal(writes[0]!.headers.authorization, "Bearer letta-local-key");
      const hits = await system.search("ep-time", { text: "retired greyhound Zephyrine", k: 1 });
      assert.equal(hits.length, 1);
      assert.deepEqual(hits[0]!.sessionIds, ["s1"]);
      assert.deepEqual(hits[0]!.turnIds, ["s1-t1"]);
      assert.equal(hits[0]!.time, "2023-05-08T00:00:00.000Z");
      const search = s.requests.find((r) => r.path.endsWith("/archival-memory/search"));
      assert.equal(search!.query.get("top_k"), "1");
      await system.close("ep-time");
    });

    it("packs turns into passages of turnsPerPassage, never past maxPassageChars", async () => {
      const s = server();
      const system = await createLettaSystem(
        LettaOptions.parse({ baseUrl: s.url, turnsPerPassage: 8, maxPassageChars: 60 }),
        {},
        { env },
      );
      await system.open("ep-pack");
      await system.ingest("ep-pack", SAMPLE_BATCH);
      const texts = s.requests
        .filter((r) => r.path.endsWith("/archival-memory"))
        .map((r) => (r.body as { text: string }).text);
      // Both turns fit 8 per passage, but not 60 characters together: two passages.
      assert.equal(texts.length, 2);
      await system.close("ep-pack");
    });

    it("answers natively by messaging the agent with the question", async () => {
      const s = server();
      const system = await createLettaSystem(LettaOptions.parse({ baseUrl: s.url }), {}, { env });
      await system.open("ep-answer");
      await system.ingest("ep-answer", SAMPLE_BATCH);
      const answer = await system.answer("ep-answer", { id: "q1", question: "What is my greyhound called?" });
      assert.match(answer, /^From memory: .*Zephyrine/);
      const sent = s.requests.find((r) => r.path.endsWith("/messages"));
      assert.deepEqual(sent!.body, { messages: [{ role: "user", content: "What is my greyhound called?" }] });
      await system.close("ep-answer");
    });
  },
);
