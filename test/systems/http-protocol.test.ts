import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { protocolOpenApi } from "../../src/systems/http-openapi.ts";
import {
  batchIdOf,
  CapsAnswerSchema,
  IngestBodySchema,
  PROTOCOL_VERSION,
  ResultsAnswerSchema,
} from "../../src/systems/http-protocol.ts";
import type { IngestBatch } from "../../src/systems/types.ts";

const COMMITTED = join(resolve(import.meta.dirname, "../.."), "docs/http-protocol.openapi.json");

const BATCH: IngestBatch = {
  sessionId: "s1",
  sessionIndex: 0,
  time: "2024-05-01",
  turns: [{ id: "t1", role: "user", speaker: "Ann", content: "I keep bees." }],
};

describe("http protocol: one source of truth", () => {
  it("docs/http-protocol.openapi.json is the document generated from the schemas", () => {
    const generated = protocolOpenApi();
    // MEMBENCH_WRITE_OPENAPI=1 rewrites the committed file after a deliberate change of the protocol.
    if (process.env.MEMBENCH_WRITE_OPENAPI === "1") writeFileSync(COMMITTED, `${JSON.stringify(generated, null, 2)}\n`);
    const committed = JSON.parse(readFileSync(COMMITTED, "utf8"));
    assert.deepEqual(
      committed,
      generated,
      "the protocol's schemas changed: run MEMBENCH_WRITE_OPENAPI=1 node --import tsx --test test/systems/http-protocol.test.ts, then biome format",
    );
    const doc = generated as { info: { version: string }; paths: Record<string, unknown> };
    assert.equal(doc.info.version, PROTOCOL_VERSION);
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      "/caps",
      "/ns/{ns}/answer",
      "/ns/{ns}/close",
      "/ns/{ns}/flush",
      "/ns/{ns}/ingest",
      "/ns/{ns}/open",
      "/ns/{ns}/readback",
      "/ns/{ns}/search",
      "/openapi.json",
    ]);
  });

  it("checks requests strictly and answers leniently", () => {
    const unknown = IngestBodySchema.safeParse({ batchId: "b", batch: { ...BATCH, extra: 1 } });
    assert.equal(unknown.success, false);
    // A later minor version may add fields to an answer: an older client ignores them.
    const caps = CapsAnswerSchema.parse({
      protocolVersion: "1.3",
      name: "x",
      version: "1",
      caps: { granularity: "turn", ranked: true, provenance: false, readback: false, nativeAnswer: false, streams: 1 },
      later: true,
    });
    assert.equal(caps.protocolVersion, "1.3");
    const results = ResultsAnswerSchema.safeParse({ results: [{ text: "a", score: Number.NaN }] });
    assert.equal(results.success, false, "a score must be a number JSON can carry");
  });

  it("derives the batchId from the batch's content alone", () => {
    const id = batchIdOf(BATCH);
    assert.match(id, /^[0-9a-f]{32}$/);
    assert.equal(batchIdOf(structuredClone(BATCH)), id);
    // Absent and undefined fields are the same batch (JSON does not carry undefined).
    assert.equal(batchIdOf({ ...BATCH, turns: [{ ...BATCH.turns[0]!, time: undefined }] }), id);
    assert.notEqual(batchIdOf({ ...BATCH, turns: [{ ...BATCH.turns[0]!, content: "I keep wasps." }] }), id);
    assert.notEqual(batchIdOf({ ...BATCH, sessionIndex: 1 }), id);
  });
});
