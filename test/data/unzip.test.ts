/**
 * The release-archive reader on archives as other zippers write them: ZIP64
 * records and data descriptors (test/fixtures/zip, written by Python's
 * zipfile), and a damaged entry whose CRC-32 no longer matches.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DataError } from "../../src/core/errors.ts";
import { unzip } from "../../src/data/unzip.ts";
import { ROOT } from "../support/bin.ts";
import { makeZip } from "../support/zip.ts";

const archive = (name: string) => readFileSync(join(ROOT, "test/fixtures/zip", name));

describe("unzip (fflate, CRC-checked)", () => {
  it("reads an archive with ZIP64 end records and ZIP64 sizes in its central directory", () => {
    const entries = unzip(archive("zip64.zip"));
    assert.deepEqual(
      entries.map((e) => [e.name, e.data.length]),
      [
        ["inner/26.json", 190],
        ["inner/30.json", 3000],
      ],
    );
    assert.equal(entries[0]!.data.toString().slice(0, 19), '{"sample_id": "26"}');
  });

  it("reads an entry whose sizes follow its data (data descriptor)", () => {
    const [entry] = unzip(archive("descriptor.zip"));
    assert.equal(entry!.name, "inner/30.json");
    assert.equal(entry!.data.toString(), "x".repeat(5000));
  });

  it("refuses an entry whose CRC-32 does not match, naming the file and entry", () => {
    const zip = makeZip([{ name: "a.json", data: Buffer.from('{"a":1}') }]);
    // Flip one byte of the stored CRC in the central directory (46-byte header after the local entry).
    const central = zip.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    zip[central + 16] = zip[central + 16]! ^ 0xff;
    assert.throws(
      () => unzip(zip, "locomo10.zip"),
      (error: unknown) =>
        error instanceof DataError &&
        /CRC-32 mismatch/.test(error.message) &&
        /locomo10\.zip/.test(error.message) &&
        /a\.json/.test(error.message),
    );
  });

  it("says a truncated archive is not a zip", () => {
    const zip = makeZip([{ name: "a.json", data: "{}" }]);
    assert.throws(
      () => unzip(zip.subarray(0, zip.length - 30), "cut.zip"),
      /not a zip archive.*cut\.zip|cut\.zip.*not a zip/,
    );
  });
});
