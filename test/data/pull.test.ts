import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { BenchmarkDefinition } from "../../src/benchmarks/types.ts";
import { sha256Hex } from "../../src/core/ids.ts";
import { PullError, pullRelease, RELEASE_MANIFEST } from "../../src/data/pull.ts";
import { unzip } from "../../src/data/unzip.ts";
import { makeZip } from "../support/zip.ts";

const files: Record<string, Buffer> = {
  "/a.json": Buffer.from('{"hello":"world"}'),
  "/pack.zip": makeZip([
    { name: "inner/26.json", data: '{"n":26}' },
    { name: "inner/30.json", data: "x".repeat(5000) },
  ]),
};

let server: Server;
let base = "";
const hits: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const body = files[req.url ?? ""];
    if (!body) {
      res.writeHead(404).end("nope");
      return;
    }
    res.writeHead(200).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

function bench(release: BenchmarkDefinition["release"]): BenchmarkDefinition {
  return {
    id: "toy",
    title: "toy",
    variants: [],
    labels: [],
    load: async () => assert.fail("not loaded here"),
    release,
  };
}

describe("unzip", () => {
  it("reads deflated entries", () => {
    const entries = unzip(files["/pack.zip"]!);
    assert.deepEqual(
      entries.map((e) => e.name),
      ["inner/26.json", "inner/30.json"],
    );
    assert.equal(entries[1]!.data.toString(), "x".repeat(5000));
  });
  it("rejects a non-zip", () => {
    assert.throws(() => unzip(Buffer.from("not a zip at all, just text that is long enough")), /not a zip archive/);
  });
});

describe("pullRelease", () => {
  it("downloads, unzips, hashes and records the release", async () => {
    const dest = mkdtempSync(join(tmpdir(), "mb-pull-"));
    const result = await pullRelease(
      bench({
        home: "https://example.org/toy",
        revision: "abc123",
        manual: "fetch a.json",
        files: [
          { url: `${base}/a.json`, path: "a.json", sha256: sha256Hex(files["/a.json"]!) },
          { url: `${base}/pack.zip`, path: "unpacked", unzip: true },
        ],
      }),
      dest,
    );
    assert.equal(readFileSync(join(dest, "a.json"), "utf8"), '{"hello":"world"}');
    assert.equal(readFileSync(join(dest, "unpacked/inner/26.json"), "utf8"), '{"n":26}');
    const manifest = JSON.parse(readFileSync(join(dest, RELEASE_MANIFEST), "utf8"));
    assert.equal(manifest.revision, "abc123");
    assert.equal(manifest.files[0].sha256, sha256Hex(files["/a.json"]!));
    assert.equal(result.files[1]?.bytes, files["/pack.zip"]!.length);
  });

  it("fails fast with manual instructions when a file cannot be fetched, writing nothing partial", async () => {
    const dest = mkdtempSync(join(tmpdir(), "mb-pull-"));
    const release = {
      home: "https://example.org/toy",
      revision: "abc123",
      manual: "get toy.json from the example site",
      files: [{ url: `${base}/missing.json`, path: "missing.json" }],
    };
    await assert.rejects(pullRelease(bench(release), dest), (e: unknown) => {
      assert.ok(e instanceof PullError);
      assert.match(e.message, /missing\.json: HTTP 404/);
      assert.match(e.message, /get toy\.json from the example site/);
      assert.match(e.message, new RegExp(`Put the files under ${dest.replace(/[/\\]/g, ".")}`));
      return true;
    });
    assert.equal(existsSync(join(dest, RELEASE_MANIFEST)), false);
  });

  it("refuses a file whose hash does not match the pinned one", async () => {
    const dest = mkdtempSync(join(tmpdir(), "mb-pull-"));
    const release = {
      home: "h",
      revision: "r",
      manual: "m",
      files: [{ url: `${base}/a.json`, path: "a.json", sha256: "0".repeat(64) }],
    };
    await assert.rejects(pullRelease(bench(release), dest), /does not match the pinned/);
    assert.equal(existsSync(join(dest, "a.json")), false);
  });

  it("reports an unreachable host as a download failure", async () => {
    const dest = mkdtempSync(join(tmpdir(), "mb-pull-"));
    const release = { home: "h", revision: "r", manual: "m", files: [{ url: "http://127.0.0.1:9/x", path: "x" }] };
    await assert.rejects(pullRelease(bench(release), dest), /cannot download http:\/\/127\.0\.0\.1:9\/x/);
  });
});
