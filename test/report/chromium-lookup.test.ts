/** How the browser tests find Chromium (test/support/chromium.ts): the variable, then PATH, else skip or, under CI, fail. */
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { after, describe, it } from "node:test";
import { chromiumSkip, findChromium, requireChromium } from "../support/chromium.ts";

describe("finding Chromium for the browser tests", () => {
  const tmp = mkdtempSync(join(tmpdir(), "mb-chromium-lookup-"));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  const bin = (dir: string, name: string, mode = 0o755) => {
    mkdirSync(join(tmp, dir), { recursive: true });
    const path = join(tmp, dir, name);
    writeFileSync(path, "#!/bin/sh\n");
    chmodSync(path, mode);
    return path;
  };
  const a = bin("a", "google-chrome");
  const b = bin("b", "chromium-browser");
  bin("c", "chromium", 0o644);
  const PATH = [join(tmp, "c"), join(tmp, "a"), join(tmp, "b")].join(delimiter);

  it("takes CHROMIUM_PATH first, and only it when set", () => {
    assert.deepEqual(findChromium({ CHROMIUM_PATH: a, PATH }), { path: a, looked: `CHROMIUM_PATH=${a}` });
    const missing = join(tmp, "none", "chromium");
    assert.equal(findChromium({ CHROMIUM_PATH: missing, PATH }).path, undefined);
  });

  it("then chromium, chromium-browser, google-chrome on PATH, skipping files that are not executable", () => {
    // c/chromium is not executable; chromium-browser comes before google-chrome whatever the PATH order.
    assert.deepEqual(findChromium({ PATH }), { path: b, looked: "chromium-browser on PATH" });
    assert.equal(findChromium({ PATH: join(tmp, "a") }).path, a);
  });

  it("skips with where it looked outside CI, and fails under CI=true", () => {
    const none = findChromium({ PATH: join(tmp, "c") });
    assert.equal(none.path, undefined);
    const skip = chromiumSkip(none, "browser test", false);
    assert.match(
      String(skip),
      /^no Chromium \(looked at CHROMIUM_PATH \(unset\), then chromium, chromium-browser, google-chrome on PATH\): browser test skipped/,
    );
    assert.equal(chromiumSkip(none, "browser test", true), false);
    assert.throws(() => requireChromium(none), /CI=true but no Chromium/);
    assert.equal(chromiumSkip({ path: a, looked: "" }, "browser test", false), false);
  });
});
