import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, it } from "node:test";
import { z } from "zod";
import { ConfigError } from "../../src/core/errors.ts";
import {
  CONFIG_FILE,
  type RunOptions,
  type RunSnapshot,
  recordedSystems,
  resumeRun,
  runBenchmark,
  startRun,
} from "../../src/run/runner.ts";
import { RunStore, STORE_FILE } from "../../src/run/store.ts";
import { Bm25System } from "../../src/systems/bm25.ts";
import type { SystemDefinition } from "../../src/systems/definition.ts";
import { registerSystem, unregisterSystem } from "../../src/systems/index.ts";
import { resolveSystems } from "../../src/systems/resolve.ts";
import { fixture } from "../support/shared-data.ts";

const root = resolve(import.meta.dirname, "../..");
const keyword = join(root, "test/fixtures/systems/keyword-system.mjs");
const data = fixture("locomo/per-conversation");
const out = mkdtempSync(join(tmpdir(), "membench-systems-run-"));
after(() => rmSync(out, { recursive: true, force: true }));

let runs = 0;
function run(options: Partial<RunOptions> & Pick<RunOptions, "systems">) {
  return startRun({ benchmark: "locomo", data, out, id: `r${++runs}`, progress: false, limit: 1, ...options });
}

function config(dir: string): RunSnapshot {
  return JSON.parse(readFileSync(join(dir, CONFIG_FILE), "utf8")) as RunSnapshot;
}

/** Marks a finished unit of `system` unfinished, as a crash would have left it. */
function unfinish(dir: string, system: string): void {
  const store = new RunStore(join(dir, STORE_FILE));
  try {
    const unit = store.units().find((u) => u.system === system);
    assert.ok(unit, `a unit of ${system}`);
    store.requeue([unit.id]);
  } finally {
    store.close();
  }
}

function unitsDone(dir: string): string[] {
  const store = new RunStore(join(dir, STORE_FILE));
  try {
    return store
      .units()
      .filter((u) => u.state === "done")
      .map((u) => u.system);
  } finally {
    store.close();
  }
}

describe("systems of a run", () => {
  it("records every system's spec, source, options, caps and info in config.json; rows are labels", async () => {
    const outcome = await run({
      systems: [
        'bm25,fast=ledger#{"extractor":"offline","vectors":false}',
        "./test/fixtures/systems/keyword-system.mjs",
      ],
      systemOptions: ["keyword-system.minShared=2", "fast.retrieval.memoriesPerHit=1"],
      embedder: "hashing:64",
    });
    assert.equal(outcome.failedUnits, 0);
    const snapshot = config(outcome.dir);
    assert.deepEqual(snapshot.options.systems, ["bm25", "fast", "keyword-system"]);
    assert.equal(
      (snapshot.options as unknown as Record<string, unknown>).systemOptions,
      undefined,
      "merged into each system",
    );
    const [bm25, fast, mine] = snapshot.systems!;
    assert.deepEqual(bm25, {
      label: "bm25",
      spec: "bm25",
      source: { kind: "registered", id: "bm25" },
      options: {},
      caps: { granularity: "session", ranked: true, provenance: true, readback: true, nativeAnswer: false },
      info: { unit: "turn" },
    });
    assert.deepEqual(fast!.options, {
      extractor: "offline",
      vectors: false,
      queryRewrite: false,
      retrieval: { memoriesPerHit: 1 },
    });
    assert.deepEqual(fast!.info, {
      unit: "memory",
      extractor: "offline rules",
      embedder: "none (lexical search only)",
    });
    assert.deepEqual(mine!.source, { kind: "module", path: keyword }, "the module path is recorded absolute");
    assert.deepEqual(mine!.options, { minShared: 2 });
    assert.deepEqual(mine!.info, { name: "keyword-fixture", version: "0.0.1", minShared: 2 });
    assert.deepEqual(
      outcome.summary.results.map((r) => r.system),
      ["bm25", "fast", "keyword-system"],
    );
  });

  it("--resume rebuilds a module system from its absolute path, from another working directory", async () => {
    const first = await run({ systems: ['./test/fixtures/systems/keyword-system.mjs#{"minShared":2}'] });
    const label = 'keyword-system#{"minShared":2}';
    unfinish(first.dir, label);
    const cwd = process.cwd();
    process.chdir(tmpdir());
    try {
      const resumed = await resumeRun(first.dir);
      assert.equal(resumed.failedUnits, 0);
    } finally {
      process.chdir(cwd);
    }
    assert.deepEqual(unitsDone(first.dir), [label]);
  });

  it("takes MemorySystem instances; resuming needs the same instance again, and says so", async () => {
    const instance = new Bm25System({ unit: "session" });
    let disposed = 0;
    Object.assign(instance, { dispose: async () => void disposed++ });
    const outcome = await run({ systems: [instance, "bm25"] });
    assert.equal(outcome.failedUnits, 0);
    assert.equal(disposed, 0, "an instance the caller gave is the caller's to dispose");
    const snapshot = config(outcome.dir);
    assert.deepEqual(snapshot.options.systems, ["bm25-session", "bm25"]);
    assert.deepEqual(snapshot.systems![0]!.source, { kind: "instance", id: "bm25-session" });
    unfinish(outcome.dir, "bm25-session");
    await assert.rejects(resumeRun(outcome.dir), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.match(
        error.message,
        /system bm25-session was a MemorySystem instance handed to startRun, which config\.json cannot hold; resume it from the library with the same instance: resumeRun\(dir, \{ systems: \[instance\] \}\)/,
      );
      return true;
    });
    const resumed = await resumeRun(outcome.dir, { systems: [instance] });
    assert.equal(resumed.failedUnits, 0);
    assert.deepEqual(unitsDone(outcome.dir).sort(), ["bm25", "bm25-session"]);
    // With nothing left to replay (asking failed answers again), no system is made, so none is needed.
    assert.equal((await resumeRun(outcome.dir, false)).failedUnits, 0);
  });

  it("takes definitions; disposes the systems it made once the run ends", async () => {
    let disposed = 0;
    const definition: SystemDefinition<{ unit: "turn" | "session" }> = {
      id: "disposable",
      summary: "bm25 that counts dispose()",
      options: z.object({ unit: z.enum(["turn", "session"]).default("turn") }).strict(),
      create: (o) => Object.assign(new Bm25System({ unit: o.unit }), { dispose: async () => void disposed++ }),
    };
    const outcome = await run({ systems: [definition], systemOptions: ["disposable.unit=session"] });
    assert.equal(outcome.failedUnits, 0);
    assert.equal(disposed, 1);
    assert.deepEqual(config(outcome.dir).systems![0]!.options, { unit: "session" });
    assert.deepEqual(config(outcome.dir).systems![0]!.source, { kind: "definition", id: "disposable" });
    unfinish(outcome.dir, "disposable");
    await assert.rejects(resumeRun(outcome.dir), /was a SystemDefinition handed to startRun; pass it again/);
    await resumeRun(outcome.dir, { systems: [definition] });
    assert.equal(disposed, 2);
  });

  it("refuses a spec, an option or a module problem before the run directory exists", async () => {
    const cases: Array<[Partial<RunOptions> & Pick<RunOptions, "systems">, RegExp]> = [
      [{ systems: ["nosuch"] }, /unknown system "nosuch"/],
      [{ systems: ["bm25", "bm25"] }, /two systems would both be labelled "bm25"/],
      [
        { systems: ["bm25"], systemOptions: ["bm25.k9=1"] },
        /bm25\.k9: unknown option of system bm25; known: k1, b, delta/,
      ],
      [{ systems: ["./nope.mjs"] }, /does not exist/],
      [{ systems: [] }, /name at least one system/],
    ];
    for (const [options, message] of cases) {
      const id = `refused-${++runs}`;
      await assert.rejects(run({ ...options, id }), message);
      assert.equal(existsSync(join(out, id)), false, String(message));
    }
  });

  it("runBenchmark returns the outcome with every probe record", async () => {
    const result = await runBenchmark({ benchmark: "locomo", data, out, id: "one-call", limit: 1, systems: ["bm25"] });
    assert.equal(result.failedUnits, 0);
    assert.ok(result.records.length > 0);
    assert.ok(result.records.every((r) => r.system === "bm25" && r.retrieved.length > 0));
  });

  it("--system-concurrency sets `concurrency` only for systems whose schema takes it", async () => {
    registerSystem({
      id: "remote-like",
      summary: "a system with a concurrency option",
      options: z.object({ concurrency: z.number().int().positive().default(1) }).strict(),
      create: () => new Bm25System(),
    });
    try {
      const resolved = await resolveSystems(["bm25", "remote-like", 'b=remote-like#{"concurrency":8}'], {
        concurrency: 3,
      });
      assert.deepEqual(
        resolved.map((r) => r.options),
        [{}, { concurrency: 3 }, { concurrency: 8 }],
      );
    } finally {
      unregisterSystem("remote-like");
    }
  });
});

describe("runs recorded before systems took options", () => {
  it("reads ids and the ledger's old fields as the ledger's options", () => {
    const old = {
      options: {
        systems: ["bm25", "ledger"],
        ledgerExtractor: "offline",
        ledgerRetrieval: { memoriesPerHit: 0 },
        ledgerQueryRewrite: true,
      },
    } as unknown as RunSnapshot;
    assert.deepEqual(recordedSystems(old), [
      { label: "bm25", spec: "bm25", source: { kind: "registered", id: "bm25" }, options: {} },
      {
        label: "ledger",
        spec: "ledger",
        source: { kind: "registered", id: "ledger" },
        options: { extractor: "offline", retrieval: { memoriesPerHit: 0 }, queryRewrite: true },
      },
    ]);
    const noLedger = { options: { systems: ["bm25"], ledgerExtractor: "auto" } } as unknown as RunSnapshot;
    assert.deepEqual(recordedSystems(noLedger)[0]!.options, {}, "the old default extractor of a run without ledger");
  });

  it("resumes an old run, checking the old ledger options like new ones", async () => {
    const outcome = await run({ systems: ["bm25", "ledger"], embedder: "hashing:64" });
    const path = join(outcome.dir, CONFIG_FILE);
    const snapshot = config(outcome.dir);
    // As membench wrote it before: ids only, the ledger's flags beside them.
    delete snapshot.systems;
    const old = { ...snapshot, options: { ...snapshot.options, ledgerExtractor: "offline" } };
    writeFileSync(path, JSON.stringify(old));
    unfinish(outcome.dir, "ledger");
    const resumed = await resumeRun(outcome.dir);
    assert.equal(resumed.failedUnits, 0);
    assert.deepEqual(unitsDone(outcome.dir).sort(), ["bm25", "ledger"]);
    unfinish(outcome.dir, "ledger");
    writeFileSync(
      path,
      JSON.stringify({ ...old, options: { ...old.options, ledgerRetrieval: { pullComplement: true } } }),
    );
    await assert.rejects(resumeRun(outcome.dir), /ledger\.retrieval\.pullComplement: unknown option of system ledger/);
    writeFileSync(path, JSON.stringify({ ...old, options: { ...old.options, ledgerExtractor: "llm" } }));
    await assert.rejects(resumeRun(outcome.dir), /ledger\.extractor: "llm" needs a model/);
  });
});
