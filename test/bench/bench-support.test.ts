import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { benchReply, valueFor } from "../../bench/model-stub.ts";
import { selectBenches } from "../../bench/run.ts";
import { formatPerItem, formatRate, MIN_MEASURABLE_MS } from "../../bench/support.ts";
import { memoryVerdictSchema, qaVerdictSchema } from "../../src/benchmarks/realmem/score.ts";
import { jsonSchemaOf } from "../../src/llm/structured.ts";
import { QaVerdict } from "../../src/score/verdicts.ts";

describe("bench figures from short phases", () => {
  it("prints a bound, not a rate, when a phase is under the measurable minimum (199 probes in 1 ms is not 199,000/s)", () => {
    assert.equal(MIN_MEASURABLE_MS, 50);
    assert.equal(formatRate(199, 1, ""), "> 3980");
    assert.equal(formatRate(199, 0.2), "> 3980/s");
    assert.equal(formatPerItem(1, 199), "< 0.251 ms");
    assert.equal(formatPerItem(-3, 10), "< 5.000 ms");
  });

  it("prints the measured figure from a long enough phase", () => {
    assert.equal(formatRate(200, 400, ""), "500");
    assert.equal(formatPerItem(400, 200), "2.000 ms");
    assert.equal(formatPerItem(400, 0), "n/a");
  });
});

describe("bench stub replies", () => {
  it("answers a structured call with an object its schema accepts, for every judge shape", () => {
    for (const schema of [qaVerdictSchema, memoryVerdictSchema, QaVerdict]) {
      const json = jsonSchemaOf(schema);
      const reply = benchReply({ response_format: { type: "json_schema", json_schema: { name: "v", schema: json } } });
      assert.equal(schema.safeParse(reply).success, true, JSON.stringify(reply));
    }
  });

  it("fills arrays to their minimum length and takes the first of a union", () => {
    assert.deepEqual(valueFor({ type: "array", minItems: 2, items: { type: "integer", minimum: 1 } }), [1, 1]);
    assert.equal(valueFor({ anyOf: [{ const: 2 }, { const: 3 }] }), 2);
    assert.equal(benchReply({ messages: [{ role: "user", content: "hi" }] }), "I don't know.");
  });
});

describe("bench selection", () => {
  it("runs every bench but the long ones by default, all of them with --full, and the named ones only when named", () => {
    const all = selectBenches([], false);
    assert.equal(all.full, false);
    assert.ok(!all.names.includes("ledger"));
    for (const name of ["harness", "throughput", "rerun", "shards", "ledger-scale", "embed", "release"]) {
      assert.ok(all.names.includes(name), name);
    }
    const full = selectBenches(["--full"], false);
    assert.equal(full.full, true);
    assert.ok(full.names.includes("ledger"));
    assert.deepEqual(selectBenches(["ledger-scale", "--full"], false), { names: ["ledger-scale"], full: true });
    assert.deepEqual(selectBenches(["all"], false).names, all.names);
    assert.throws(() => selectBenches(["nope"], false), /unknown bench "nope"; known: loaders/);
  });
});
