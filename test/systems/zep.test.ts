import assert from "node:assert/strict";
import { it } from "node:test";
import { SystemError } from "../../src/core/errors.ts";
import { createZepSystem, ZepOptions } from "../../src/systems/zep.ts";
import { hostedAdapterSuite, SAMPLE_BATCH } from "../support/hosted-adapter-suite.ts";
import { startZepServer, type ZepServer } from "../support/zep-server.ts";

function lastUser(server: ZepServer): string | undefined {
  const add = [...server.requests].reverse().find((r) => r.method === "POST" && r.path === "/api/v2/users");
  return (add?.body as { user_id?: string } | undefined)?.user_id;
}

hostedAdapterSuite<ZepServer>(
  {
    name: "zep",
    keyEnv: "ZEP_API_KEY",
    start: startZepServer,
    baseUrl: (s) => `${s.url}/api/v2`,
    create: (options, context, deps) => createZepSystem(ZepOptions.parse(options), context, deps),
    ingestPath: /^POST \/api\/v2\/threads\/[^/]+\/messages$/,
    remaining: (s) => {
      const user = lastUser(s);
      return s.messages.filter((m) => s.threads.get(m.threadId) === user).length;
    },
  },
  (server, env) => {
    it("sends each turn's date as created_at and reads valid_at and episodes back", async () => {
      const s = server();
      const options = ZepOptions.parse({ baseUrl: `${s.url}/api/v2`, pollIntervalMs: 1 });
      const system = await createZepSystem(options, {}, { env });
      await system.open("ep-time");
      await system.ingest("ep-time", { ...SAMPLE_BATCH, time: "2023/05/20 (Sat) 02:21" });
      const add = s.requests.find((r) => r.path.endsWith("/messages") && r.method === "POST");
      const messages = (add!.body as { messages: Record<string, unknown>[] }).messages;
      assert.deepEqual(messages[0], {
        role: "user",
        content: "I adopted a retired greyhound named Zephyrine.",
        name: "Ana",
        created_at: new Date("2023/05/20 02:21").toISOString(),
        metadata: { membench_session: "s1", membench_turn: "s1-t1" },
      });
      assert.equal(add!.headers.authorization, "Api-Key zep-local-key");
      // Before the graph is built nothing is found; flush waits for every message to be processed.
      assert.deepEqual(await system.search("ep-time", { text: "greyhound Zephyrine", k: 5 }), []);
      await system.flush("ep-time");
      const hits = await system.search("ep-time", { text: "greyhound Zephyrine", k: 5 });
      assert.equal(hits.length, 2);
      assert.deepEqual(hits[0]!.sessionIds, ["s1"]);
      assert.ok(["s1-t1", "s1-t2"].includes(hits[0]!.turnIds![0]!));
      assert.equal(hits[0]!.time, new Date("2023/05/20 02:21").toISOString());
      assert.equal(hits[0]!.meta!.validAt, hits[0]!.time);
      assert.ok(hits[0]!.score > hits[1]!.score);
      // Each episode is read once, then remembered.
      await system.search("ep-time", { text: "greyhound Zephyrine", k: 5 });
      assert.equal(s.requests.filter((r) => r.path.startsWith("/api/v2/graph/episodes/")).length, 2);
      await system.close("ep-time");
    });

    it("refuses a turn longer than Zep accepts instead of cutting it, and a k above 50", async () => {
      const s = server();
      const system = await createZepSystem(
        ZepOptions.parse({ baseUrl: `${s.url}/api/v2`, maxMessageChars: 20 }),
        {},
        { env },
      );
      await system.open("ep-long");
      await assert.rejects(system.ingest("ep-long", SAMPLE_BATCH), (e: unknown) => {
        assert.ok(e instanceof SystemError);
        assert.match(e.message, /turn s1-t1 has 46 characters, more than the 20/);
        return true;
      });
      await assert.rejects(system.search("ep-long", { text: "x", k: 60 }), /k = 60 is above the 50 facts/);
      await system.close("ep-long");
    });
  },
);
