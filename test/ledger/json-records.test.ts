import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type JsonRecord, jsonRecords } from "../../src/ledger/service/json-records.ts";
import { RequestError } from "../../src/util/http-server.ts";

async function* split(text: string, sizes: readonly number[]): AsyncGenerator<Buffer> {
  const bytes = Buffer.from(text, "utf8");
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length]!;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function records(text: string, sizes: readonly number[] = [1 << 16], max = 1 << 20): Promise<JsonRecord[]> {
  const out: JsonRecord[] = [];
  for await (const r of jsonRecords(split(text, sizes), max)) out.push(r);
  return out;
}

/** What the records should be: each top-level value, a list item by item. */
function expected(value: Record<string, unknown>): JsonRecord[] {
  return Object.entries(value).flatMap(([key, v]) =>
    Array.isArray(v) ? v.map((item, index) => ({ key, index, value: item })) : [{ key, value: v }],
  );
}

const sample = {
  format: "membench-ledger",
  version: 1,
  ns: "ålesund \u{1F30A}",
  sessions: [{ id: "s1", index: 0, time: "2024-01-01T00:00:00.000Z" }],
  turns: [
    { id: 't"1', content: 'a "quoted" {brace} [list], colon: and a tab\t, naïve café \u{1F600}', position: 0 },
    { id: "t2", content: "", position: -1.5e3 },
    { id: "t3", content: "C:\\path\\", position: 2 },
  ],
  empty: [],
  nested: { a: [1, { b: [true, false, null] }], c: "}" },
  numbers: [0, -0.5, 12e-3, 7],
  links: [],
};

describe("json records", () => {
  it("reads each top-level value, and each item of a list, however the bytes are split", async () => {
    const compact = JSON.stringify(sample);
    const pretty = JSON.stringify(sample, null, 2);
    for (const text of [compact, pretty]) {
      for (const sizes of [[1], [2, 3], [7], [64], [1 << 16]]) {
        assert.deepEqual(await records(text, sizes), expected(sample), `split ${sizes}`);
      }
    }
  });

  it("refuses what is not one JSON object, naming the byte", async () => {
    const bad = [
      ["", /the body is empty/],
      ["[1, 2]", /expected an object \(byte 0\)/],
      ['{"a": 1,}', /expected a key/],
      ['{"a": [1, 2,]}', /malformed value at a\[2\]/],
      ['{"a": [1 2]}', /expected ',' or '\]'/],
      ['{"a": tru}', /malformed value at a/],
      ['{"a": {"b": 1}', /ends early/],
      ['{"a": 1} {"b": 2}', /more after the end/],
    ] as const;
    for (const [text, message] of bad) {
      await assert.rejects(records(text, [3]), (e: unknown) => {
        assert.ok(e instanceof RequestError, text);
        assert.equal(e.status, 400, text);
        assert.match(e.message, message, text);
        return true;
      });
    }
  });

  it("refuses an item larger than the limit with a 413 naming it, before reading the rest", async () => {
    const text = JSON.stringify({ turns: [{ content: "short" }, { content: "x".repeat(500) }], more: 1 });
    await assert.rejects(records(text, [16], 100), (e: unknown) => {
      assert.ok(e instanceof RequestError);
      assert.equal(e.status, 413);
      assert.deepEqual(e.detail, { field: "turns[1]", limit: 100 });
      return true;
    });
  });
});
