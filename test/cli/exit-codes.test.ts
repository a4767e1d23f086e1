/**
 * Exit codes through the real bin (`node bin/membench.js`, a child process):
 * 0 done, 1 failed, 2 a configuration or usage error (src/cli/errors.ts, the
 * README). Also how an error is printed: one line with its cause, the stack
 * only with --debug or --verbose.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { runBin } from "../support/bin.ts";
import { type DirLock, lockDir, snapshotDir } from "../support/read-only.ts";
import { fixture } from "../support/shared-data.ts";

const cli = (args: string[], cwd: string, env: Record<string, string> = {}) => runBin(args, { cwd, env });

const STACK_LINE = /^\s+at /m;

describe("exit codes of the real bin", () => {
  const tmp = mkdtempSync(join(tmpdir(), "mb-exit-"));
  const locks: DirLock[] = [];
  /** An offline RealMem run (bm25 and none, retrieval only). */
  let run: string;

  before(() => {
    const r = cli(
      ["run", "realmem", "--data", fixture("realmem"), "--system", "bm25,none", "--out", tmp, "--no-progress"],
      tmp,
    );
    assert.equal(r.status, 0, r.stderr);
    run = /run stored in (.+)/.exec(r.stderr)![1]!.trim();
  });
  after(() => {
    for (const lock of locks) lock.unlock();
    rmSync(tmp, { recursive: true, force: true });
  });

  it("run: 1 when a unit failed, after printing what it has", () => {
    // The ledger extracts with the model; the script answers but has no extractor rule, so ledger units fail.
    const script = join(tmp, "answers-only.jsonl");
    writeFileSync(script, `${JSON.stringify({ role: "answerer", reply: "I do not know." })}\n`);
    const r = cli(
      [
        "run",
        "realmem",
        "--data",
        fixture("realmem"),
        "--system",
        "ledger,bm25",
        "--ledger-extractor",
        "llm",
        "--llm",
        `scripted:${script}`,
        "--out",
        join(tmp, "failing"),
        "--no-progress",
      ],
      tmp,
    );
    assert.match(r.stderr, /error: 1 units failed; fix the cause and --resume /);
    assert.match(r.stdout, /Retrieval, default setting/);
    assert.equal(r.status, 1);
  });

  it("score: 2 for a target that is not a run, 1 when the run's data is gone", () => {
    const notRun = cli(["score", join(tmp, "no-such-run")], tmp);
    assert.equal(notRun.status, 2);
    assert.match(notRun.stderr, /is not a run directory/);
    const moved = join(tmp, "moved");
    cpSync(run, moved, { recursive: true });
    const config = JSON.parse(readFileSync(join(moved, "config.json"), "utf8"));
    config.options.data = join(tmp, "gone", "realmem");
    writeFileSync(join(moved, "config.json"), JSON.stringify(config));
    const r = cli(["score", moved], tmp);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /gone.*no such file or folder/);
  });

  it("report: 2 for a folder that is not a run; 0 on a read-only run, which it leaves as it was", () => {
    const missing = cli(["report", join(tmp, "no-such-run")], tmp);
    assert.equal(missing.status, 2);
    assert.match(missing.stderr, /not a run directory/);
    const archived = join(tmp, "archived");
    cpSync(run, archived, { recursive: true });
    const lock = lockDir(archived);
    locks.push(lock);
    const before = snapshotDir(archived);
    for (const args of [
      ["report"],
      ["report", "--format", "json"],
      ["compare", archived, "--system-a", "bm25", "--system-b", "none"],
    ]) {
      const r = cli([...args, archived], tmp);
      assert.equal(r.status, 0, `${args.join(" ")} (folder locked by ${lock.kind}): ${r.stderr}`);
      assert.doesNotMatch(r.stderr, /error/);
    }
    assert.deepEqual(snapshotDir(archived), before);
  });

  it("data inspect: 1 on data that cannot be read, 2 for an unknown benchmark", () => {
    const bad = join(tmp, "bad-locomo");
    mkdirSync(bad);
    writeFileSync(join(bad, "locomo10.json"), '[{"sample_id": "conv-1", "conversation": ');
    const r = cli(["data", "inspect", "locomo", bad], tmp);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stderr, /locomo10\.json/);
    assert.equal(cli(["data", "inspect", "nosuchbench", bad], tmp).status, 2);
  });

  it("doctor: 0 offline, 1 when a configured endpoint does not answer", () => {
    assert.equal(cli(["doctor"], tmp).status, 0);
    // A port nothing listens on: the connection is refused at once.
    const r = cli(["doctor", "--json"], tmp, { MEMBENCH_BASE_URL: "http://127.0.0.1:9/v1", MEMBENCH_MODEL: "m" });
    assert.equal(JSON.parse(r.stdout).model.reachable, false);
    assert.equal(r.status, 1);
  });

  it("usage errors exit 2; --help and --version exit 0", () => {
    for (const args of [["report", "--no-such-flag", "x"], ["report"], [], ["no-such-command"]]) {
      const r = cli(args, tmp);
      assert.equal(r.status, 2, `membench ${args.join(" ")}: ${r.stderr}`);
    }
    assert.equal(cli(["--help"], tmp).status, 0);
    assert.equal(cli(["report", "--help"], tmp).status, 0);
    assert.equal(cli(["--version"], tmp).status, 0);
  });

  describe("an unexpected error (here: the viewer's port is taken)", () => {
    let taken: Server;
    let port: number;
    before(async () => {
      taken = createServer();
      await new Promise<void>((done) => taken.listen(0, "127.0.0.1", done));
      port = (taken.address() as { port: number }).port;
    });
    after(() => taken.close());

    it("prints one line with its cause and exits 1", () => {
      const r = cli(["view", run, "--port", String(port)], tmp);
      assert.equal(r.status, 1);
      const lines = r.stderr.trim().split("\n");
      assert.equal(lines.length, 1, r.stderr);
      assert.match(
        lines[0]!,
        new RegExp(
          `^error: unexpected Error \\(EADDRINUSE\\): listen EADDRINUSE: address already in use 127\\.0\\.0\\.1:${port} \\(--debug prints the stack\\)$`,
        ),
      );
    });

    it("prints the stack with --debug, and with --verbose", () => {
      for (const flag of ["--debug", "--verbose"]) {
        const r = cli([flag, "view", run, "--port", String(port)], tmp);
        assert.equal(r.status, 1);
        assert.match(r.stderr, /^error: unexpected Error \(EADDRINUSE\): listen EADDRINUSE/m);
        assert.match(r.stderr, STACK_LINE, flag);
      }
      // A global flag after the command works too.
      assert.match(cli(["view", run, "--port", String(port), "--debug"], tmp).stderr, STACK_LINE);
    });

    it("prints an expected error's stack only with --debug", () => {
      const plain = cli(["report", join(tmp, "no-such-run")], tmp);
      assert.doesNotMatch(plain.stderr, STACK_LINE);
      assert.match(cli(["report", join(tmp, "no-such-run"), "--debug"], tmp).stderr, STACK_LINE);
    });
  });
});
