import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { isUnifiedJsonl, loadUnified, writeUnified } from "../../src/benchmarks/unified/format.ts";
import { DataError } from "../../src/core/errors.ts";
import { sampleDataset } from "../support/sample-dataset.ts";

describe("unified JSONL", () => {
  it("round-trips a dataset exactly", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-unified-"));
    const out = join(dir, "ds.jsonl");
    const ds = sampleDataset();
    assert.equal(await writeUnified(ds, out), 1);
    assert.ok(isUnifiedJsonl(out));
    const back = await loadUnified(out);
    assert.deepEqual(back.episodes, ds.episodes);
    assert.equal(back.benchmark, "locomo");
  });

  it("names the line and field of a bad record and the benchmark mismatch", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-unified-"));
    const out = join(dir, "ds.jsonl");
    await writeUnified(sampleDataset(), out);
    const line = JSON.parse(readFileSync(out, "utf8")) as { probes: Array<{ question?: string }> };
    delete line.probes[1]!.question;
    const bad = join(dir, "bad.jsonl");
    writeFileSync(bad, `${readFileSync(out, "utf8")}${JSON.stringify({ ...line, id: "conv-2" })}\n`);
    await assert.rejects(loadUnified(bad), (e: unknown) => {
      assert.ok(e instanceof DataError);
      assert.equal(e.record, "line 2");
      assert.equal(e.field, "probes[1].question");
      return true;
    });
    await assert.rejects(loadUnified(out, { benchmark: "realmem" }), /benchmark "locomo", not "realmem"/);
    const lenient = await loadUnified(out, { benchmark: "realmem", strict: false });
    assert.equal(lenient.warnings.length, 1);
  });

  it("rejects a truncated line and a duplicate episode", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-unified-"));
    const out = join(dir, "ds.jsonl");
    await writeUnified(sampleDataset(), out);
    const text = readFileSync(out, "utf8");
    const cut = join(dir, "cut.jsonl");
    writeFileSync(cut, text.slice(0, text.length - 40));
    await assert.rejects(loadUnified(cut), /line 1: invalid JSON/);
    const dup = join(dir, "dup.jsonl");
    writeFileSync(dup, text + text);
    await assert.rejects(loadUnified(dup), /line 2, field id: duplicate episode id "conv-1"/);
  });
});
