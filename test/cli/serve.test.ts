import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { membenchBin } from "../support/bin.ts";

const root = resolve(import.meta.dirname, "../..");
const bin = membenchBin();

/** Starts `membench serve` with `args` on a free port; resolves with its URL once it listens. */
async function serve(args: string[]) {
  const child = spawn(process.execPath, [bin, "serve", "--port", "0", ...args], { cwd: root, env: process.env });
  let stderr = "";
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 30 s; stderr: ${stderr}`)), 30_000);
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      const m = /membench serve: (http:\/\/\S+?)v1 /.exec(stderr);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!);
      }
    });
    child.on("exit", (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
  });
  return { child, url, stderr: () => stderr };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

describe("membench serve", () => {
  it("serves a store file, answers requests and stops cleanly on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-serve-"));
    const db = join(dir, "nested", "ledger.sqlite");
    const { child, url, stderr } = await serve(["--db", db, "--embedder", "hashing:64", "--max-turn", "50"]);
    try {
      const health = await (await fetch(`${url}v1/health`)).json();
      assert.deepEqual(health, {
        ok: true,
        store: db,
        embedder: "hashing:64",
        extractor: "offline rules",
        namespaces: 0,
        limits: {
          turnChars: 50,
          sessionChars: 4 * 1024 * 1024,
          memoriesPerWrite: 2000,
          bodyBytes: 32 * 1024 * 1024,
          turnsPerWrite: 10_000,
        },
      });
      const added = await post(`${url}v1/namespaces/me/sessions`, {
        sessionId: "s1",
        turns: [{ id: "t1", role: "user", content: "I live in Oslo." }],
      });
      assert.equal(added.status, 200);
      const long = await post(`${url}v1/namespaces/me/sessions`, {
        sessionId: "s1",
        turns: [{ id: "t2", role: "user", content: "I moved to Bergen, where it rains most of the year." }],
      });
      assert.equal(long.status, 413);
      assert.deepEqual(await long.json(), {
        error: "turns[0].content: longer than the limit of 50 characters per turn",
        field: "turns[0].content",
        limit: 50,
      });
      const exit = new Promise<number | null>((done) => child.once("exit", done));
      child.kill("SIGTERM");
      assert.equal(await exit, 0, stderr());
      assert.ok(existsSync(db), "the store file is where --db says");
    } finally {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("keeps a client's turns when the extraction model fails, and says why", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-serve-"));
    const script = join(dir, "script.jsonl");
    writeFileSync(script, `${JSON.stringify({ role: "extractor", reply: "sorry, no JSON today" })}\n`);
    const { child, url } = await serve([
      "--db",
      ":memory:",
      "--embedder",
      "none",
      "--llm",
      `scripted:${script}`,
      "--ledger-extractor",
      "llm",
    ]);
    try {
      const health = (await (await fetch(`${url}v1/health`)).json()) as { extractor: string; embedder?: string };
      assert.match(health.extractor, /^llm \(scripted/);
      assert.equal(health.embedder, undefined);
      const added = await post(`${url}v1/namespaces/me/sessions`, {
        sessionId: "s1",
        turns: [{ id: "t1", role: "user", content: "I live in Oslo." }],
      });
      assert.equal(added.status, 200);
      const body = (await added.json()) as { turns: number; memories: unknown[]; extractionError?: string };
      assert.equal(body.turns, 1);
      assert.deepEqual(body.memories, []);
      assert.match(body.extractionError ?? "", /sorry, no JSON today/);
      const found = (await (await post(`${url}v1/namespaces/me/search`, { query: "Oslo" })).json()) as {
        hits: Array<{ turnIds: string[] }>;
      };
      assert.deepEqual(found.hits[0]?.turnIds, ["t1"]);
    } finally {
      child.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses to listen beyond loopback without a token, and bad flags, naming the flag", () => {
    const open = spawnSync(process.execPath, [bin, "serve", "--host", "0.0.0.0", "--db", ":memory:"], {
      cwd: root,
      env: process.env,
      encoding: "utf8",
    });
    assert.notEqual(open.status, 0);
    assert.match(open.stderr, /MEMBENCH_SERVE_TOKEN/);
    const port = spawnSync(process.execPath, [bin, "serve", "--port", "http"], {
      cwd: root,
      env: process.env,
      encoding: "utf8",
    });
    assert.notEqual(port.status, 0);
    assert.match(port.stderr, /--port/);
    const limit = spawnSync(process.execPath, [bin, "serve", "--db", ":memory:", "--max-session", "lots"], {
      cwd: root,
      env: process.env,
      encoding: "utf8",
    });
    assert.notEqual(limit.status, 0);
    assert.match(limit.stderr, /max-session \(from --max-session\): expected a positive whole number, got "lots"/);
    const retrieval = spawnSync(
      process.execPath,
      [bin, "serve", "--db", ":memory:", "--ledger-retrieval", '{"wieghts":{}}'],
      {
        cwd: root,
        env: process.env,
        encoding: "utf8",
      },
    );
    assert.notEqual(retrieval.status, 0);
    assert.match(retrieval.stderr, /--ledger-retrieval .*wieghts/);
    const llm = spawnSync(process.execPath, [bin, "serve", "--db", ":memory:", "--ledger-extractor", "llm"], {
      cwd: root,
      env: process.env,
      encoding: "utf8",
    });
    assert.notEqual(llm.status, 0);
    assert.match(llm.stderr, /--ledger-extractor llm needs a model/);
    const rewrite = spawnSync(process.execPath, [bin, "serve", "--db", ":memory:", "--ledger-query-rewrite"], {
      cwd: root,
      env: process.env,
      encoding: "utf8",
    });
    assert.notEqual(rewrite.status, 0);
    assert.match(rewrite.stderr, /--ledger-query-rewrite needs a model/);
  });
});
