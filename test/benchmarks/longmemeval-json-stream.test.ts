import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { type ArrayElement, streamJsonArray } from "../../src/benchmarks/longmemeval/json-array-stream.ts";
import { dataError } from "../support/data-error.ts";
import { fixture } from "../support/shared-data.ts";

const TMP = mkdtempSync(join(tmpdir(), "membench-jsonstream-"));
after(() => rmSync(TMP, { recursive: true, force: true }));

const FIXTURE = fixture("longmemeval/longmemeval_s_cleaned.json");

function tempFile(content: string | Buffer): string {
  const file = join(mkdtempSync(join(TMP, "case-")), "data.json");
  writeFileSync(file, content);
  return file;
}

async function collect(file: string, chunkSize?: number): Promise<ArrayElement[]> {
  const out: ArrayElement[] = [];
  for await (const element of streamJsonArray(file, { chunkSize })) out.push(element);
  return out;
}

async function values(file: string, chunkSize?: number): Promise<unknown[]> {
  const elements = await collect(file, chunkSize);
  assert.deepEqual(
    elements.map((e) => e.index),
    elements.map((_, i) => i),
  );
  return elements.map((e) => e.value);
}

/** Strings that trip a naive splitter: braces, brackets, quotes and backslashes inside strings. */
const TRICKY = [
  { text: "a } closing brace", other: "{ and an opening one", list: "[not, an, array]" },
  { quote: 'she said "hi" and left', escapedBackslash: "ends with a backslash \\", both: '\\"}' },
  { unicode: "café 東京 🏃‍♀️ — “quotes”", escapes: "\u00e9\u6771\ud83c\udfc3", control: "tab\tnew\nline\r" },
  { nested: { deeper: [{ a: [1, 2, { b: "}]" }] }, [] as unknown[], {}], empty: "" }, n: -1.5e3, t: true, z: null },
  {},
];

describe("streamJsonArray", () => {
  it("yields the same elements as JSON.parse on the LongMemEval fixture, whatever the chunk size", async () => {
    const expected = JSON.parse(readFileSync(FIXTURE, "utf8"));
    assert.equal(expected.length, 4);
    for (const size of [1, 3, 7, 64, 4096, undefined]) {
      assert.deepEqual(await values(FIXTURE, size), expected, `chunk size ${size}`);
    }
  });

  it("cuts correctly around braces, quotes, escapes and multi-byte characters in strings", async () => {
    const expected = JSON.parse(JSON.stringify(TRICKY));
    const compact = tempFile(JSON.stringify(TRICKY));
    // Pretty-printed with CRLF line ends, a BOM and escaped non-ASCII, as other tools write it.
    const crlf = tempFile(`\ufeff${JSON.stringify(TRICKY, null, 2).replace(/\n/g, "\r\n")}\r\n`);
    const escaped = tempFile(
      JSON.stringify(TRICKY).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
    );
    for (const file of [compact, crlf, escaped]) {
      for (let size = 1; size <= 13; size++) {
        assert.deepEqual(await values(file, size), expected, `${file} at chunk size ${size}`);
      }
      assert.deepEqual(await values(file), expected);
    }
  });

  it("reads an empty array as no elements", async () => {
    assert.deepEqual(await values(tempFile(" [ \r\n ] \n")), []);
  });

  it("reports progress up to the file size", async () => {
    const calls: number[] = [];
    const total = statSync(FIXTURE).size;
    for await (const _ of streamJsonArray(FIXTURE, {
      chunkSize: 1000,
      onProgress: (done, all) => {
        assert.equal(all, total);
        calls.push(done);
      },
    })) {
      // consume
    }
    assert.equal(calls.length, Math.ceil(total / 1000));
    assert.deepEqual(
      calls,
      [...calls].sort((a, b) => a - b),
    );
    assert.equal(calls.at(-1), total);
  });

  it("names the file and the element a truncated file ends in", async () => {
    const text = readFileSync(FIXTURE, "utf8");
    const fourth = text.indexOf('"question_id": "71aa0d44"');
    const file = tempFile(text.slice(0, fourth + 200));
    const error = await dataError(collect(file));
    assert.equal(error.file, file);
    assert.equal(error.record, "element 3");
    assert.match(error.message, /truncated/);
  });

  it("names the last element when the closing bracket is missing", async () => {
    const file = tempFile('[{"a": 1}, {"b": "x"}\n');
    const error = await dataError(collect(file));
    assert.equal(error.file, file);
    assert.equal(error.record, "element 1");
    assert.match(error.message, /without the closing \]/);
  });

  it("names the element that is not valid JSON", async () => {
    const file = tempFile('[{"a": 1}, {"b": tru}, {"c": 3}]');
    const error = await dataError(collect(file));
    assert.equal(error.record, "element 1");
    assert.match(error.message, /invalid JSON/);
  });

  it("rejects what is not an array of objects", async () => {
    const cases: Array<[string, RegExp, string | undefined]> = [
      ['{"a": 1}', /expected a JSON array/, undefined],
      ["", /empty file/, undefined],
      ['[{"a": 1}, 2]', /expected an object/, "element 1"],
      ['[{"a": 1},]', /trailing comma/, "element 1"],
      ['[{"a": 1} {"b": 2}]', /expected "," or "\]"/, "element 0"],
      ['[{"a": 1}] x', /after the closing \]/, undefined],
    ];
    for (const [content, message, record] of cases) {
      const file = tempFile(content);
      const error = await dataError(collect(file));
      assert.equal(error.file, file);
      assert.match(error.message, message, content);
      assert.equal(error.record, record, content);
    }
  });
});
