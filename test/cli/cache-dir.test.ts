/**
 * The cache goes to a per-user folder (XDG), not `.membench/cache` under
 * whatever folder a command ran in; MEMBENCH_CACHE_DIR still overrides it.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { defaultCacheDir } from "../../src/config/settings.ts";
import { resolveModelSettings } from "../../src/llm/create.ts";
import { membenchBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";

describe("the cache folder", () => {
  it("is $XDG_CACHE_HOME/membench, else ~/.cache/membench; a relative XDG path is ignored", () => {
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: "/var/cache/u1" }), "/var/cache/u1/membench");
    assert.equal(defaultCacheDir({ HOME: "/home/u2" }), "/home/u2/.cache/membench");
    assert.equal(defaultCacheDir({ XDG_CACHE_HOME: "rel/cache", HOME: "/home/u3" }), "/home/u3/.cache/membench");
    assert.equal(defaultCacheDir({}), join(homedir(), ".cache", "membench"));
  });

  it("settings: MEMBENCH_CACHE_DIR (or the config key) wins over the default", () => {
    assert.equal(resolveModelSettings({ env: { XDG_CACHE_HOME: "/x" } }).cacheDir, "/x/membench");
    assert.equal(resolveModelSettings({ env: { MEMBENCH_CACHE_DIR: "/y" } }).cacheDir, "/y");
    assert.equal(resolveModelSettings({ env: {}, file: { cacheDir: "/z" } }).cacheDir, "/z");
  });

  it("a run writes no .membench folder where it ran, and doctor names the per-user folder", () => {
    const cwd = mkdtempSync(join(tmpdir(), "mb-cwd-"));
    const xdg = mkdtempSync(join(tmpdir(), "mb-xdg-"));
    const env = { ...process.env, XDG_CACHE_HOME: xdg };
    const run = spawnSync(
      process.execPath,
      [membenchBin(), "run", "realmem", "--data", fixture("realmem"), "--system", "dense", "--embedder", "use-lite"],
      { cwd, env, encoding: "utf8" },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(existsSync(join(cwd, ".membench")), false, "nothing cached under the working folder");
    assert.ok(existsSync(join(xdg, "membench", "embeddings.sqlite")), "the embeddings are cached per user");
    const doctor = spawnSync(process.execPath, [membenchBin(), "doctor", "--json"], { cwd, env, encoding: "utf8" });
    assert.equal(JSON.parse(doctor.stdout).cacheDir, join(xdg, "membench"));
  });
});
