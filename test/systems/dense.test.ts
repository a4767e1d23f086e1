import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError, SystemError } from "../../src/core/errors.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import type { Embedder } from "../../src/embed/types.ts";
import { DenseSystem } from "../../src/systems/dense.ts";
import { batch, ingestAll, SMALL_HISTORY } from "./history-fixture.ts";

/** Records every embed call, delegating to the hashing embedder. */
class CountingEmbedder implements Embedder {
  readonly inner = new HashingEmbedder(256);
  readonly id = this.inner.id;
  readonly dim = this.inner.dim;
  calls: number[] = [];
  async embed(texts: string[]): Promise<Float32Array[]> {
    this.calls.push(texts.length);
    return this.inner.embed(texts);
  }
}

describe("dense", () => {
  it("ranks a related text above an unrelated one (hashing embedder)", async () => {
    const system = new DenseSystem({ embedder: new HashingEmbedder(256) });
    await ingestAll(system, "ep", [
      batch("s1", 0, ["The quarterly budget review is on Friday."]),
      batch("s2", 1, ["My grandmother grows tomatoes and basil in her garden."]),
    ]);
    const hits = await system.search("ep", { text: "what does grandmother grow in the garden", k: 2 });
    assert.equal(system.id, "dense");
    assert.deepEqual(
      hits.map((h) => h.sessionIds![0]),
      ["s2", "s1"],
    );
    assert.ok(hits[0]!.score > hits[1]!.score);
    assert.ok(hits[0]!.score <= 1 + 1e-6, "cosine of unit vectors");
    assert.deepEqual(hits[0]!.turnIds, ["s2-t1"]);
  });

  it("scores by exact cosine", async () => {
    const embedder = new HashingEmbedder(64);
    const system = new DenseSystem({ embedder });
    await ingestAll(system, "ep", SMALL_HISTORY);
    const query = "cat named Biscuit";
    const hits = await system.search("ep", { text: query, k: 1 });
    const [q, d] = await embedder.embed([query, hits[0]!.text]);
    let dot = 0;
    for (let i = 0; i < q!.length; i++) dot += q![i]! * d![i]!;
    assert.equal(hits[0]!.text, "We named him Biscuit.");
    assert.ok(Math.abs(hits[0]!.score - dot) < 1e-6);
  });

  it("embeds at ingest in batches and once per query", async () => {
    const embedder = new CountingEmbedder();
    const system = new DenseSystem({ embedder, batchSize: 2 });
    await ingestAll(system, "ep", SMALL_HISTORY);
    // Three sessions of three turns, two texts per call.
    assert.deepEqual(embedder.calls, [2, 1, 2, 1, 2, 1]);
    await system.search("ep", { text: "sourdough", k: 3 });
    assert.deepEqual(embedder.calls.slice(6), [1]);
  });

  it("embeds whole sessions as speaker-prefixed transcripts in the session unit", async () => {
    const embedder = new CountingEmbedder();
    const system = new DenseSystem({ embedder, unit: "session" });
    await ingestAll(system, "ep", SMALL_HISTORY);
    assert.equal(system.id, "dense-session");
    assert.deepEqual(embedder.calls, [1, 1, 1]);
    const hits = await system.search("ep", { text: "rye sourdough starter jar", k: 3 });
    assert.equal(hits.length, 3);
    assert.equal(hits[0]!.sessionIds![0], "s3");
    assert.equal(hits[0]!.kind, "session");
    assert.ok(hits[0]!.text.startsWith("user: I tried baking sourdough"));
  });

  it("returns nothing for a query that embeds to the zero vector", async () => {
    const system = new DenseSystem({ embedder: new HashingEmbedder(64) });
    await ingestAll(system, "ep", SMALL_HISTORY);
    assert.deepEqual(await system.search("ep", { text: "?!", k: 3 }), []);
  });

  it("needs an embedder", () => {
    assert.throws(() => new DenseSystem({}), ConfigError);
  });

  it("reports an embedder that returns the wrong number of vectors", async () => {
    const broken: Embedder = { id: "broken", dim: 2, embed: async () => [new Float32Array([1, 0])] };
    const system = new DenseSystem({ embedder: broken });
    await system.open("ep");
    await assert.rejects(system.ingest("ep", SMALL_HISTORY[0]!), (error: unknown) => {
      assert.ok(error instanceof SystemError);
      assert.equal(error.systemId, "dense");
      assert.equal(error.operation, "ingest");
      assert.match(error.message, /returned 1 vectors for 3 texts/);
      return true;
    });
  });
});
