/**
 * `--embed-workers` on run, serve and conformance, through the built bin: the
 * offline model on worker threads (dist/embed/use-lite-worker.js) gives the run the
 * same records as on the main thread, and a bad value is refused naming its source.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { readRecords } from "../../src/run/runner.ts";
import { runBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

const tmp = mkdtempSync(join(tmpdir(), "mb-embed-workers-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string> = {}) => runBin(args, { env, timeout: 180_000 });

/** A RealMem fixture run of `dense` and `hybrid-session` with `flags`, each with a cold embedding cache of its own. */
function run(id: string, flags: string[], env: Record<string, string> = {}) {
  const args = ["run", "realmem", "--data", fixture("realmem"), "--system", "dense,hybrid-session"];
  return cli([...args, "--out", join(tmp, id), "--no-progress", ...flags], {
    MEMBENCH_CACHE_DIR: join(tmp, `cache-${id}`),
    ...env,
  });
}

describe("--embed-workers", () => {
  it("a run on two threads stores the records of a run on the main thread", () => {
    const threads = run("threads", ["--embed-workers", "2"]);
    assert.equal(threads.status, 0, threads.stderr);
    const main = run("main", [], { MEMBENCH_EMBED_WORKERS: "0" });
    assert.equal(main.status, 0, main.stderr);
    const dir = (out: string) => /run stored in (\S+)/.exec(out)![1]!;
    const strip = (dirOf: string) =>
      readRecords(dirOf).map(({ retrieved, system, probeId }) => ({
        system,
        probeId,
        retrieved: retrieved.map((r) => [r.turnIds, r.score]),
      }));
    const a = strip(dir(threads.stderr));
    assert.ok(a.length > 0 && a.every((r) => r.retrieved.length > 0));
    assert.deepEqual(a, strip(dir(main.stderr)));
  });

  it("refuses a bad value, naming the flag or the variable", () => {
    const flag = run("bad-flag", ["--embed-workers", "two"]);
    assert.notEqual(flag.status, 0);
    assert.match(flag.stderr, /embed-workers \(from --embed-workers\): expected a whole number of threads/);
    const env = run("bad-env", [], { MEMBENCH_EMBED_WORKERS: "-1" });
    assert.notEqual(env.status, 0);
    assert.match(env.stderr, /embed-workers \(from MEMBENCH_EMBED_WORKERS\): expected a whole number/);
    const serve = cli(["serve", "--db", ":memory:", "--port", "0", "--embed-workers", "1.5"]);
    assert.notEqual(serve.status, 0);
    assert.match(serve.stderr, /embed-workers \(from --embed-workers\)/);
  });

  it("conformance checks a system that embeds with the model on a worker thread", () => {
    const r = cli(["conformance", "--system", "dense", "--embed-workers", "1", "--json"], {
      MEMBENCH_CACHE_DIR: join(tmp, "cache-conformance"),
    });
    assert.equal(r.status, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { passed: boolean }).passed, true);
  });
});
