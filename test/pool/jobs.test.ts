import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { decodeResult, encodeResult, jobConfig, jobId, runKey } from "../../src/pool/jobs.ts";
import type { RunSnapshot } from "../../src/run/snapshot.ts";
import type { UnitResult } from "../../src/run/unit.ts";

const snapshot = (llm?: string) =>
  ({
    id: "realmem-20261126-101500",
    createdAt: "2026-11-26T10:15:00.123Z",
    options: { benchmark: "realmem", data: "/data", settings: ["default"], systems: ["bm25"], ...(llm ? { llm } : {}) },
  }) as unknown as RunSnapshot;

describe("pool jobs", () => {
  it("names a job by run key and unit id, without BullMQ's ':' and without ambiguity", () => {
    const run = runKey(snapshot());
    assert.match(run, /^realmem-20261126-101500\.[0-9a-f]{10}$/);
    assert.equal(runKey(snapshot()), run, "every resume of the run finds the same jobs");
    assert.notEqual(
      runKey({ ...snapshot(), createdAt: "2026-11-26T10:15:00.124Z" }),
      run,
      "a run sharing its id does not",
    );
    const id = jobId(run, 'a=ledger#{"x":1}|ep:1/2');
    assert.ok(!id.includes(":"));
    assert.equal(id, `${run}/a%3Dledger%23%7B%22x%22%3A1%7D%7Cep%3A1%2F2`);
    assert.equal(decodeURIComponent(id.split("/")[1]!), 'a=ledger#{"x":1}|ep:1/2');
  });

  it("makes a scripted model's file absolute in the config a job carries, and leaves the rest alone", () => {
    assert.equal(
      jobConfig(snapshot("scripted:model.jsonl"), "/home/me/bench").options.llm,
      "scripted:/home/me/bench/model.jsonl",
    );
    assert.equal(jobConfig(snapshot("scripted:/abs/model.jsonl"), "/x").options.llm, "scripted:/abs/model.jsonl");
    assert.equal(jobConfig(snapshot("openai:gpt-4o-mini"), "/x").options.llm, "openai:gpt-4o-mini");
    const plain = snapshot();
    assert.equal(jobConfig(plain, "/x"), plain);
  });

  it("round-trips a unit result through the job, gzipped, and refuses a result it cannot read", () => {
    const result: UnitResult = {
      unitId: "bm25|ep",
      system: "bm25",
      episodeId: "ep",
      records: [],
      ingestMs: [1.5, 2],
      usage: [],
    };
    const job = encodeResult(result, "host:1");
    assert.equal(job.worker, "host:1");
    assert.deepEqual(decodeResult(JSON.parse(JSON.stringify(job))), result);
    assert.throws(() => decodeResult({ v: 2, gzip: "" }), /a job result this membench cannot read \(format 2\)/);
    assert.throws(() => decodeResult(null), /cannot read/);
  });
});
