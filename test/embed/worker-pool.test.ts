import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { BatchingEmbedder } from "../../src/embed/batch.ts";
import { createEmbedder } from "../../src/embed/create.ts";
import { WorkerPoolEmbedder } from "../../src/embed/worker-pool.ts";
import { ROOT } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

const script = new URL(`file://${fixture("embed/test-worker.mjs")}`);
const pool = (size: number) => new WorkerPoolEmbedder({ id: "test", dim: 2, script, size });
const tmp = mkdtempSync(join(tmpdir(), "membench-embed-workers-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

describe("WorkerPoolEmbedder", () => {
  it("runs batches on up to `size` threads at once, started on demand", async () => {
    const embedder = pool(2);
    assert.equal(embedder.started, 0);
    const replies = await Promise.all([embedder.embed(["a", "bb"]), embedder.embed(["ccc"]), embedder.embed(["dddd"])]);
    assert.deepEqual(
      replies.map((r) => r.map((v) => v[0])),
      [[1, 2], [3], [4]],
    );
    assert.equal(embedder.started, 2);
    assert.equal(new Set(replies.flat().map((v) => v[1])).size, 2, "two threads answered");
    embedder.close();
  });

  it("fails the batch of a thread that dies, and starts a new thread for the next", async () => {
    const embedder = pool(1);
    await assert.rejects(embedder.embed(["exit"]), /worker thread stopped \(exit code 3\)/);
    assert.deepEqual(
      (await embedder.embed(["after"])).map((v) => v[0]),
      [5],
    );
    embedder.close();
  });

  it("passes a thread's ConfigError on as a ConfigError", async () => {
    const embedder = pool(1);
    await assert.rejects(
      embedder.embed(["config"]),
      (e: Error) => e instanceof ConfigError && /no model here/.test(e.message),
    );
    embedder.close();
  });

  it("USE-lite on two threads gives the vectors it gives on the main thread, bit for bit", async () => {
    const texts = Array.from({ length: 80 }, (_, i) => `note ${i}: the user ${i % 3 ? "walks" : "cycles"} to work`);
    texts[5] = "";
    const threads = await createEmbedder("use-lite", { workers: 2, cache: false });
    const main = await createEmbedder("use-lite", { workers: 0, cache: false });
    const [a, b] = await Promise.all([threads.embed(texts), main.embed(texts)]);
    assert.deepEqual(
      a.map((v) => [...v]),
      b.map((v) => [...v]),
    );
    assert.ok(threads instanceof BatchingEmbedder && threads.inner instanceof WorkerPoolEmbedder);
    assert.equal(threads.concurrency, 2);
    assert.equal(threads.inner.started, 2, "80 texts are two batches of at most 64, one per thread");
    threads.close();
  });

  it("lets the process exit while its threads are idle, without close()", () => {
    const code = `
      import { createEmbedder } from ${JSON.stringify(join(ROOT, "src/embed/create.ts"))};
      const e = await createEmbedder("use-lite", { workers: 1, cacheDir: ${JSON.stringify(tmp)} });
      const [v] = await e.embed(["the process ends after this"]);
      console.log(v.length);`;
    const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 60_000,
    });
    assert.equal(r.signal, null, `timed out: ${r.stderr}`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout.trim(), "512");
  });
});
