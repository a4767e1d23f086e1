import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SystemError } from "../../src/core/errors.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import { ADAPTERS, createSystem, systemIds } from "../../src/systems/index.ts";
import { NoneSystem } from "../../src/systems/none.ts";
import { ingestAll, SMALL_HISTORY } from "./history-fixture.ts";

const embedder = new HashingEmbedder(128);

function isSystemError(id: string, operation: string) {
  return (error: unknown) => {
    assert.ok(error instanceof SystemError, String(error));
    assert.equal(error.systemId, id);
    assert.equal(error.operation, operation);
    assert.match(error.message, /is not open/);
    return true;
  };
}

describe("namespaces of the built-in systems", () => {
  for (const id of systemIds().filter((x) => !ADAPTERS.some((a) => a.id === x))) {
    describe(id, () => {
      it("rejects ingest, search and readback in a namespace never opened", async () => {
        const system = await createSystem(id, { embedder });
        await assert.rejects(system.ingest("nowhere", SMALL_HISTORY[0]!), isSystemError(id, "ingest"));
        await assert.rejects(system.search("nowhere", { text: "cat", k: 3 }), isSystemError(id, "search"));
        await assert.rejects(system.readback!("nowhere", ["s1"]), isSystemError(id, "readback"));
      });

      it("never shows one namespace's data in another", async () => {
        const system = await createSystem(id, { embedder });
        await ingestAll(system, "a", [SMALL_HISTORY[0]!]);
        await ingestAll(system, "b", [SMALL_HISTORY[1]!]);
        const inB = await system.search("b", { text: "cat named Biscuit", k: 10 });
        assert.ok(inB.every((r) => r.sessionIds?.[0] === "s2"));
        assert.ok(inB.every((r) => !/Biscuit|cat/.test(r.text)));
        assert.deepEqual(await system.readback!("b", ["s1"]), []);
      });

      it("forgets everything on close; the namespace must be opened again", async () => {
        const system = await createSystem(id, { embedder });
        await ingestAll(system, "ep", SMALL_HISTORY);
        await system.close("ep");
        await assert.rejects(system.search("ep", { text: "cat", k: 3 }), isSystemError(id, "search"));
        await system.open("ep");
        assert.deepEqual(await system.search("ep", { text: "cat", k: 10 }), []);
        assert.deepEqual(await system.readback!("ep", ["s1", "s2", "s3"]), []);
      });
    });
  }

  it("keeps data when an open namespace is opened again", async () => {
    const system = await createSystem("bm25");
    await ingestAll(system, "ep", SMALL_HISTORY);
    await system.open("ep");
    assert.equal((await system.search("ep", { text: "Biscuit", k: 3 })).length, 1);
  });

  it("rejects a malformed batch or query with a SystemError naming the field", async () => {
    const system = await createSystem("bm25");
    await system.open("ep");
    const bad = { sessionId: "s1", sessionIndex: 0, turns: [{ id: "", role: "user", content: "x" }] };
    await assert.rejects(system.ingest("ep", bad as never), /turn 0: id must be a non-empty string/);
    await assert.rejects(system.search("ep", { text: "x", k: -1 }), /query.k must be a number ≥ 0/);
  });
});

describe("none", () => {
  it("stores nothing and returns nothing", async () => {
    const system = new NoneSystem();
    await ingestAll(system, "ep", SMALL_HISTORY);
    assert.deepEqual(await system.search("ep", { text: "cat", k: 5 }), []);
    assert.deepEqual(await system.readback("ep", ["s1"]), []);
    assert.deepEqual(system.caps, {
      granularity: "session",
      ranked: true,
      provenance: true,
      readback: true,
      nativeAnswer: false,
    });
  });
});
