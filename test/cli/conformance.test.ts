import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { assertConformance, CONFORMANCE_CHECKS } from "../../src/systems/conformance.ts";
import { createSystem } from "../../src/systems/index.ts";
import { fixture } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");
const fixtures = join(root, "test/fixtures/systems");
const BUILT_INS = [
  "none",
  "full-context",
  "bm25",
  "bm25-session",
  "dense",
  "dense-session",
  "hybrid",
  "hybrid-session",
  "ledger",
];

/** The real CLI, with a TypeScript loader so `--system ./x.ts` modules load, as under `npx tsx`. */
function cli(args: string[], cwd = root) {
  const r = spawnSync(
    process.execPath,
    ["--import", import.meta.resolve("tsx"), join(root, "bin/membench.js"), ...args],
    { cwd, env: process.env, encoding: "utf8" },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const temp: string[] = [];
after(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

interface Report {
  passed: boolean;
  systems: Array<{
    label: string;
    systemId?: string;
    passed: boolean;
    source: { kind: string; path?: string };
    checks: Array<{ name: string; passed: boolean; skipped?: boolean; detail: string }>;
  }>;
}

/** The copy-paste module of docs/systems.md (or the README), as a user would save it. */
function docsModule(file = "docs/systems.md"): string {
  const doc = readFileSync(join(root, file), "utf8");
  const block = /```js\n(\/\/ my-system\.mjs[\s\S]*?)```/.exec(doc);
  assert.ok(block, "docs/systems.md has the my-system.mjs example");
  return block[1]!;
}

describe("membench conformance", () => {
  it("passes every built-in system, in one command, as JSON", () => {
    const r = cli(["conformance", "--system", BUILT_INS.join(","), "--embedder", "hashing:64", "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout) as Report;
    assert.equal(report.passed, true);
    assert.deepEqual(
      report.systems.map((s) => s.label),
      BUILT_INS,
    );
    for (const system of report.systems) {
      assert.deepEqual(
        system.checks.map((c) => c.name),
        [...CONFORMANCE_CHECKS],
        system.label,
      );
      assert.ok(
        system.checks.every((c) => c.passed && !c.skipped),
        `${system.label}: ${JSON.stringify(system.checks)}`,
      );
    }
  });

  it("fails a broken .ts module system, naming each failed check and why; exit code 1", () => {
    const r = cli(["conformance", "--system", "./leaky-system.ts#LeakySystem"], fixtures);
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /^LeakySystem \(system id leaky\): FAILED 3 of 7 checks$/m);
    assert.match(r.stdout, /^ {2}pass {2}contract +id, caps and methods are well formed$/m);
    assert.match(
      r.stdout,
      /^ {2}FAIL {2}namespace-isolation +search in membench-conformance-a for "[^"]+" returned text of conf-s3, sessionId conf-s3/m,
    );
    assert.match(r.stdout, /^ {2}FAIL {2}no-future-leakage +after 0 of 4 sessions, "[^"]+" returned text of conf-s\d/m);
    assert.match(r.stdout, /^ {2}FAIL {2}close-reopen-empty +after close and open, /m);
    assert.match(r.stdout, /^ {2}skip {2}readback +caps\.readback is false$/m);

    const json = cli(["conformance", "--system", "./leaky-system.ts#LeakySystem", "--json"], fixtures);
    assert.equal(json.status, 1);
    const report = JSON.parse(json.stdout) as Report;
    assert.equal(report.passed, false);
    assert.deepEqual(report.systems[0]!.source, {
      kind: "module",
      path: join(fixtures, "leaky-system.ts"),
      export: "LeakySystem",
    });
    assert.deepEqual(
      report.systems[0]!.checks.filter((c) => !c.passed).map((c) => c.name),
      ["namespace-isolation", "no-future-leakage", "close-reopen-empty"],
    );
  });

  it("--timeout fails a check that does not finish in time", () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-slow-system-"));
    temp.push(dir);
    const url = JSON.stringify(pathToFileURL(join(fixtures, "keyword-system.mjs")).href);
    writeFileSync(
      join(dir, "slow.mjs"),
      `import { KeywordSystem } from ${url};\nexport default class Slow extends KeywordSystem {\n  search() { return new Promise(() => {}); }\n}\n`,
    );
    const r = cli(["conformance", "--system", "./slow.mjs", "--timeout", "150", "--json"], dir);
    assert.equal(r.status, 1, r.stderr);
    const checks = (JSON.parse(r.stdout) as Report).systems[0]!.checks;
    assert.equal(checks.find((c) => c.name === "contract")!.passed, true);
    assert.equal(
      checks.find((c) => c.name === "result-shape")!.detail,
      "threw Error: check result-shape did not finish within 150 ms",
    );
    assert.equal(cli(["conformance", "--system", "bm25", "--timeout", "soon"]).status, 2);
  });

  it("refuses a spec it cannot resolve, or a system that refuses its options, with exit code 2", () => {
    const r = cli(["conformance", "--system", "nosuch"]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /unknown system "nosuch"; expected a registered id/);
    assert.equal(cli(["conformance"]).status, 2);
    const llm = cli(["conformance", "--system", "ledger", "--system-option", "ledger.extractor=llm"]);
    assert.equal(llm.status, 2);
    assert.match(llm.stderr, /ledger\.extractor: "llm" needs a model/);
    assert.equal(llm.stdout, "", "no check ran");
  });
});

describe("the module system of docs/systems.md", () => {
  it("passes conformance and runs a benchmark through --system ./my-system.mjs", () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-my-system-"));
    temp.push(dir);
    writeFileSync(join(dir, "my-system.mjs"), docsModule());
    const check = cli(["conformance", "--system", "./my-system.mjs"], dir);
    assert.equal(check.status, 0, check.stdout + check.stderr);
    assert.match(check.stdout, /^my-system: passed$/m);
    const run = cli(
      [
        "run",
        "locomo",
        "--data",
        fixture("locomo/per-conversation"),
        "--limit",
        "1",
        "--system",
        'bm25,./my-system.mjs#{"minShared":2}',
        "--no-progress",
      ],
      dir,
    );
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /\| my-system#\{"minShared":2\} +\| 5 \|/);
    const [id] = readdirSync(join(dir, "runs"));
    const config = JSON.parse(readFileSync(join(dir, "runs", id!, "config.json"), "utf8"));
    assert.deepEqual(config.systems[1].source, { kind: "module", path: join(dir, "my-system.mjs") });
    assert.deepEqual(config.systems[1].options, { minShared: 2 });
  });
});

describe("the module system of the README", () => {
  it("passes every conformance check", async () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-readme-system-"));
    temp.push(dir);
    const path = join(dir, "my-system.mjs");
    writeFileSync(path, docsModule("README.md"));
    const report = await assertConformance(() => createSystem(path));
    assert.equal(report.systemId, "my-system");
  });
});

describe("membench systems, and the options channel of run", () => {
  it("lists every system with its options, types and defaults", () => {
    const r = cli(["systems", "--json"]);
    assert.equal(r.status, 0, r.stderr);
    const systems = JSON.parse(r.stdout) as Array<{
      id: string;
      needsEmbedder?: boolean;
      options: Array<{ key: string; type: string; default?: unknown; description?: string }>;
    }>;
    assert.deepEqual(systems.map((s) => s.id).slice(0, 9), BUILT_INS);
    const ledger = systems.find((s) => s.id === "ledger")!;
    assert.deepEqual(
      ledger.options.find((o) => o.key === "extractor"),
      {
        key: "extractor",
        type: '"auto" | "offline" | "llm"',
        default: "auto",
        description: ledger.options.find((o) => o.key === "extractor")!.description,
      } as never,
    );
    assert.equal(systems.find((s) => s.id === "dense")!.needsEmbedder, true);
    assert.equal(systems.find((s) => s.id === "bm25")!.needsEmbedder, false);
    const text = cli(["systems"]);
    assert.match(text.stdout, /^full-context — .*\n {4}tokenBudget +integer ≥ 0 +o200k tokens/m);
    assert.match(cli(["run", "--help"]).stdout, /`membench systems` lists every registered system/);
  });

  it("--ledger-* flags are aliases of --system-option ledger.…, checked by the ledger's schema", () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-aliases-"));
    temp.push(dir);
    const base = ["run", "locomo", "--data", fixture("locomo/per-conversation"), "--limit", "1", "--no-progress"];
    const r = cli(
      [
        ...base,
        "--system",
        "ledger",
        "--embedder",
        "hashing:64",
        "--ledger-extractor",
        "offline",
        "--ledger-retrieval",
        '{"memoriesPerHit":1}',
        "--system-option",
        "ledger.retrieval.weights.memoryLexical=1",
      ],
      dir,
    );
    assert.equal(r.status, 0, r.stderr);
    const [id] = readdirSync(join(dir, "runs"));
    const config = JSON.parse(readFileSync(join(dir, "runs", id!, "config.json"), "utf8"));
    assert.deepEqual(config.systems[0].options, {
      extractor: "offline",
      queryRewrite: false,
      vectors: true,
      retrieval: { memoriesPerHit: 1, weights: { memoryLexical: 1 } },
    });
    assert.equal(config.options.ledgerExtractor, undefined, "the aliases are not recorded beside the options");

    const rewrite = cli([...base, "--system", "ledger", "--ledger-query-rewrite"], dir);
    assert.equal(rewrite.status, 2);
    assert.match(rewrite.stderr, /ledger\.queryRewrite: query rewrite needs a model/);
    const unknown = cli([...base, "--system", "ledger", "--ledger-retrieval", '{"pullComplement":true}'], dir);
    assert.equal(unknown.status, 2);
    assert.match(
      unknown.stderr,
      /ledger\.retrieval\.pullComplement: unknown option of system ledger; known: .*pullComplements/,
    );
    const noLedger = cli([...base, "--system", "bm25", "--ledger-extractor", "offline"], dir);
    assert.equal(noLedger.status, 2);
    assert.match(
      noLedger.stderr,
      /"ledger\.extractor=\\"offline\\"": no system of this run is labelled by the start of ledger\.extractor/,
    );
    assert.deepEqual(readdirSync(join(dir, "runs")), [id], "no refused run left a directory");
  });
});
