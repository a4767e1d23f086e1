import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";

const root = resolve(import.meta.dirname, "../..");

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [join(root, "bin/membench.js"), ...args], {
    cwd: root,
    env: process.env,
    encoding: "utf8",
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("membench synth (CLI)", () => {
  it("--list shows each generator's knobs with type, default and description", () => {
    const r = cli(["synth", "--list"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^memconflict \(generator \d+\.\d+\.\d+\): /m);
    assert.match(r.stdout, /--size sets personas/);
    assert.match(r.stdout, /^ {2}personas {2}\[integer\] {2}default 12$/m);
    assert.match(r.stdout, /^ {2}queryStyle {2}\[direct \| implicit \| both\] {2}default "direct"$/m);
    assert.match(r.stdout, /^ {2}pools {2}\[string\] {2}default \(none\)$/m);
    assert.match(r.stdout, /^memoryagentbench \(generator \d+\.\d+\.\d+\): [\s\S]*--size sets questions/m);
    assert.match(r.stdout, /^ {2}length {2}\[6k \| 32k \| 64k \| 262k\] {2}default "262k"$/m);
    const json = JSON.parse(cli(["synth", "--list", "--json"]).stdout);
    const mc = json.find((g: { benchmark: string }) => g.benchmark === "memconflict");
    assert.equal(mc.sizeKnob, "personas");
    assert.ok(mc.knobs.every((k: { description: string }) => k.description.length > 10));
  });

  it("generates, validates, and fails validation after a corruption (exit 1); usage errors exit 2", () => {
    const out = join(mkdtempSync(join(tmpdir(), "mb-synth-cli-")), "mc");
    const r = cli([
      "synth",
      "memconflict",
      "--seed",
      "3",
      "--size",
      "1",
      "--knob",
      "end=2022-04",
      "--out",
      out,
      "--no-progress",
    ]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /memconflict: 1 file in .* \(seed 3, realised by templates\)/);
    assert.match(r.stdout, /memconflict: valid \(0 errors, 0 warnings\)/);
    assert.equal(JSON.parse(readFileSync(join(out, "membench-synth.json"), "utf8")).knobs.end, "2022-04");
    assert.equal(cli(["synth", "validate", "memconflict", out]).status, 0);
    const file = join(out, "Step4_4.jsonl");
    writeFileSync(file, readFileSync(file, "utf8").replace('"difficulty":"hard"', '"difficulty":"extreme"'));
    const bad = cli(["synth", "validate", "memconflict", out]);
    assert.equal(bad.status, 1);
    assert.match(
      bad.stdout,
      /error: Step4_4.jsonl, line 1 \(persona [^)]+\), Full_Session_Chain\[\d+\]\.Session_Questions\[\d+\]\.difficulty: unknown difficulty "extreme"/,
    );
    assert.match(bad.stdout, /warning: Step4_4.jsonl: changed since it was generated/);
    assert.equal(cli(["synth", "memconflict", "--size", "1"]).status, 2);
    const unknown = cli(["synth", "memconflict", "--out", join(out, "x"), "--knob", "colour=red"]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /memconflict has no knob "colour"/);
    assert.equal(cli(["synth", "nosuchbench", "--out", join(out, "y")]).status, 2);
  });
});
