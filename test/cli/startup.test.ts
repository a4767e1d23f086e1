/**
 * `membench --help` and `--version` load commander and the command definitions,
 * nothing heavy: each command imports its modules (SQLite, the model client, the
 * embedder, vega) inside its action (src/cli/main.ts). Traced in a child process
 * running the real bin, with a resolve hook that records every module loaded.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { BENCHMARK_ALIASES, BENCHMARK_IDS } from "../../src/benchmarks/ids.ts";
import { benchmarkIds, getBenchmark } from "../../src/benchmarks/index.ts";
import { membenchBin, ROOT } from "../support/bin.ts";

/** Packages no start-up may load: SQLite, the OpenAI client, the offline embedder, the chart renderer, the queue. */
const HEAVY = /^(better-sqlite3|sqlite-vec|openai|vega(-.*)?|@energetic-ai\/.*|bullmq|ioredis)$/;
const TRACER = pathToFileURL(join(ROOT, "test/support/trace-modules.mjs")).href;

const tmp = mkdtempSync(join(tmpdir(), "mb-startup-"));
let runs = 0;

/** Runs the bin and returns its exit status and the npm packages it loaded (`@scope/name` or `name`). */
function packagesLoaded(args: string[]): { status: number | null; stdout: string; packages: string[] } {
  const trace = join(tmp, `trace-${runs++}.txt`);
  const r = spawnSync(process.execPath, ["--import", TRACER, membenchBin(), ...args], {
    cwd: tmp,
    env: { ...process.env, MEMBENCH_TRACE_MODULES: trace },
    encoding: "utf8",
  });
  const urls = existsSync(trace) ? readFileSync(trace, "utf8").split("\n").filter(Boolean) : [];
  const packages = new Set<string>();
  for (const url of urls) {
    const m = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
    if (m) packages.add(m[1]!);
  }
  return { status: r.status, stdout: r.stdout, packages: [...packages].sort() };
}

describe("CLI start-up", () => {
  after(() => rmSync(tmp, { recursive: true, force: true }));

  for (const args of [
    ["--help"],
    ["--version"],
    ["run", "--help"],
    ["serve", "--help"],
    ["worker", "--help"],
    ["data", "pull", "--help"],
    ["completion", "bash"],
  ]) {
    it(`membench ${args.join(" ")} loads no SQLite, model client, embedder, vega or queue`, () => {
      const r = packagesLoaded(args);
      assert.equal(r.status, 0);
      assert.ok(r.stdout.length > 0);
      assert.ok(r.packages.includes("commander"), `the trace saw ${r.packages.join(", ") || "nothing"}`);
      assert.deepEqual(
        r.packages.filter((p) => HEAVY.test(p)),
        [],
        `loaded: ${r.packages.join(", ")}`,
      );
    });
  }

  it("the trace does see them when a command loads them (report imports vega and SQLite)", () => {
    const r = packagesLoaded(["report", join(tmp, "no-such-run")]);
    assert.notEqual(r.status, 0);
    for (const p of ["vega", "better-sqlite3"]) assert.ok(r.packages.includes(p), `${p} in ${r.packages.join(", ")}`);
  });

  it("the help's benchmark list (kept apart from the registry) is the registry's", () => {
    assert.deepEqual([...BENCHMARK_IDS], benchmarkIds());
    for (const [alias, id] of Object.entries(BENCHMARK_ALIASES)) assert.equal(getBenchmark(alias).id, id);
  });
});
