import assert from "node:assert/strict";
import { it } from "node:test";
import { createSupermemorySystem, SupermemoryOptions } from "../../src/systems/supermemory.ts";
import { hostedAdapterSuite, SAMPLE_BATCH } from "../support/hosted-adapter-suite.ts";
import { type SupermemoryServer, startSupermemoryServer } from "../support/supermemory-server.ts";

hostedAdapterSuite<SupermemoryServer>(
  {
    name: "supermemory",
    keyEnv: "SUPERMEMORY_API_KEY",
    start: startSupermemoryServer,
    create: (options, context, deps) => createSupermemorySystem(SupermemoryOptions.parse(options), context, deps),
    ingestPath: /^POST \/v3\/documents$/,
    remaining: (s) => {
      const last = [...s.requests].reverse().find((r) => r.method === "POST" && r.path === "/v3/documents");
      const tag = (last?.body as { containerTag?: string } | undefined)?.containerTag;
      return s.documents.filter((d) => d.containerTag === tag).length;
    },
  },
  (server, env) => {
    it("adds a session as a dated document in the namespace's container, and finds its memories with provenance", async () => {
      const s = server();
      const system = await createSupermemorySystem(
        SupermemoryOptions.parse({ baseUrl: s.url, pollIntervalMs: 1 }),
        {},
        { env },
      );
      await system.open("ep-time");
      await system.ingest("ep-time", { ...SAMPLE_BATCH, time: "2023/05/20 (Sat) 02:21" });
      const add = s.requests.find((r) => r.method === "POST" && r.path === "/v3/documents");
      const body = add!.body as Record<string, unknown>;
      const day = new Date("2023/05/20 02:21").toISOString();
      assert.equal(
        body.content,
        `Conversation date: ${day.slice(0, 10)}\nAna: I adopted a retired greyhound named Zephyrine.\nassistant: Zephyrine is a lovely name for a greyhound.`,
      );
      assert.deepEqual(body.metadata, {
        membench_session: "s1",
        membench_turns: ["s1-t1", "s1-t2"],
        membench_session_index: 0,
        membench_time: day,
      });
      assert.match(String(body.containerTag), /^membench-[0-9a-f]{8}-ep-time$/);
      assert.match(String(body.customId), /-p1-s1$/);
      assert.equal(add!.headers.authorization, "Bearer supermemory-local-key");
      assert.deepEqual(await system.search("ep-time", { text: "retired greyhound Zephyrine", k: 3 }), []);
      await system.flush("ep-time");
      const hits = await system.search("ep-time", { text: "retired greyhound Zephyrine", k: 3 });
      assert.equal(hits[0]!.text, "Ana: I adopted a retired greyhound named Zephyrine.");
      assert.deepEqual(hits[0]!.sessionIds, ["s1"]);
      assert.deepEqual(hits[0]!.turnIds, ["s1-t1", "s1-t2"]);
      assert.equal(hits[0]!.time, day);
      await system.close("ep-time");
    });
  },
);
