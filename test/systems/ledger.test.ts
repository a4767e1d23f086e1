import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { createEmbedder } from "../../src/embed/create.ts";
import { type RunOptions, startRun } from "../../src/run/runner.ts";
import { assertConformance } from "../../src/systems/conformance.ts";
import { createSystem } from "../../src/systems/index.ts";
import { LedgerSystem } from "../../src/systems/ledger.ts";
import { fixture } from "../support/shared-data.ts";

/** A ledger run with these options is refused with `message`, and no run directory is made. */
async function refusedBeforeRun(options: Partial<RunOptions>, message: RegExp): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), "membench-ledger-"));
  try {
    await assert.rejects(
      startRun({
        benchmark: "realmem",
        data: fixture("realmem"),
        systems: ["ledger"],
        out,
        id: "refused",
        progress: false,
        ...options,
      }),
      message,
    );
    assert.equal(existsSync(join(out, "refused")), false);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

describe("ledger system", () => {
  it("passes the conformance kit with the hashing embedder", async () => {
    const embedder = await createEmbedder("hashing:256");
    const report = await assertConformance(() => new LedgerSystem({ embedder }));
    assert.equal(report.systemId, "ledger");
  });

  it("passes the conformance kit without an embedder (lexical only)", async () => {
    const report = await assertConformance(() => createSystem('ledger#{"vectors":false}'));
    assert.equal(report.systemId, "ledger");
    const lexical = await createSystem("ledger", { options: { vectors: false } });
    assert.equal((lexical as LedgerSystem).info().embedder, "none (lexical search only)");
  });

  it("returns session bundles with provenance and memory metadata", async () => {
    const system = new LedgerSystem({ embedder: await createEmbedder("hashing:256") });
    await system.open("n");
    await system.ingest("n", {
      sessionId: "s1",
      sessionIndex: 0,
      time: "2024-01-10",
      turns: [
        { id: "t1", role: "user", content: "I live in Boston." },
        { id: "t2", role: "assistant", content: "Noted." },
      ],
    });
    await system.ingest("n", {
      sessionId: "s2",
      sessionIndex: 1,
      time: "2024-06-01",
      turns: [{ id: "t3", role: "user", content: "I just moved to Denver." }],
    });
    const items = await system.search("n", { text: "Where did I move, Denver?", k: 2, time: "2024-07-01" });
    assert.deepEqual(items[0]?.sessionIds, ["s2"]);
    assert.ok(items[0]?.turnIds?.includes("t3"));
    const memories = items[0]?.meta?.memories as Array<{ attribute: string; value: string }>;
    assert.deepEqual(
      memories.map((m) => [m.attribute, m.value]),
      [["residence", "Denver"]],
    );
    // The superseded value comes back beside its successor.
    assert.deepEqual(
      items.map((i) => i.sessionIds),
      [["s2"], ["s1"]],
    );
    // The reader of a run sees the flags too: the old value says when and to what it changed.
    assert.match(items[1]!.text, /- I live in Boston\. \[updated on 2024-06-01; now "Denver"\]/);
    const context = await system.context("n", { text: "Denver Boston", k: 2, time: "2024-07-01" });
    assert.match(context, /updated on 2024-06-01/);
    // Asked as of before the move, Boston was still the standing value.
    const before = await system.context("n", { text: "Denver Boston", k: 2, time: "2024-03-01" });
    assert.match(before, /I live in Boston/);
    assert.doesNotMatch(before, /updated on|now "Denver"/);
    await system.close("n");
  });

  it("completes a RealMem run on the project fixture", async () => {
    const out = mkdtempSync(join(tmpdir(), "membench-ledger-"));
    try {
      const run = await startRun({
        benchmark: "realmem",
        data: fixture("realmem"),
        systems: ["ledger", "bm25-session"],
        out,
        progress: false,
        embedder: "hashing:256",
      });
      assert.equal(run.failedUnits, 0);
      const row = run.summary.results.find((r) => r.system === "ledger");
      assert.ok(row && row.n > 0, "the ledger answered every probe");
      assert.ok((row.metrics.n_retrieval ?? 0) > 0, "retrieval was measured from provenance");
      assert.ok(Number.isFinite(row.metrics["ndcg_realmem@10"]));
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("extracts with the configured model in a run, and with the rules when told to", async () => {
    const out = mkdtempSync(join(tmpdir(), "membench-ledger-"));
    try {
      const script = join(out, "script.jsonl");
      writeFileSync(
        script,
        [
          { role: "extractor", reply: { memories: [] } },
          { role: "retriever", reply: { queries: ["the trip itinerary"] } },
          { role: "answerer", reply: "scripted answer" },
          { role: "judge", reply: { label: "CORRECT", reason: "scripted" } },
        ]
          .map((r) => JSON.stringify(r))
          .join("\n"),
      );
      const run = (id: string, extractor?: "offline" | "llm", queryRewrite?: boolean) =>
        startRun({
          benchmark: "realmem",
          data: fixture("realmem"),
          systems: ["ledger"],
          out,
          id,
          progress: false,
          embedder: "hashing:256",
          llm: `scripted:${script}`,
          systemOptions: [
            ...(extractor ? [`ledger.extractor=${extractor}`] : []),
            ...(queryRewrite ? ["ledger.queryRewrite=true"] : []),
          ],
        });
      const withModel = await run("auto");
      assert.equal(withModel.failedUnits, 0);
      const extractions = withModel.summary.usage?.roles.extractor?.calls ?? 0;
      assert.ok(extractions > 0, "the ledger asked the configured model for memories");
      const offline = await run("offline", "offline");
      assert.equal(offline.failedUnits, 0);
      assert.equal(offline.summary.usage?.roles.extractor?.calls ?? 0, 0, "no extraction call with the rules");
      assert.equal(withModel.summary.usage?.roles.retriever?.calls ?? 0, 0, "no query rewrite unless asked");
      const rewriting = await run("rewrite", "offline", true);
      assert.equal(rewriting.failedUnits, 0);
      const probes = rewriting.summary.results.find((r) => r.system === "ledger")?.n ?? 0;
      assert.equal(rewriting.summary.usage?.roles.retriever?.calls, probes, "one rewrite per probe");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it("refuses extractor llm or query rewrite without a model before creating the run", async () => {
    await refusedBeforeRun(
      { systemOptions: ["ledger.extractor=llm"] },
      /ledger\.extractor: "llm" needs a model \(no model name/,
    );
    await refusedBeforeRun(
      { systems: ['ledger#{"queryRewrite":true}'] },
      /ledger\.queryRewrite: query rewrite needs a model/,
    );
  });

  it("takes retrieval overrides, and refuses an unknown one before creating the run", async () => {
    const shown = async (retrieval?: { memoriesPerHit: number }) => {
      const system = await createSystem("ledger", { options: { vectors: false, ...(retrieval ? { retrieval } : {}) } });
      await system.open("n");
      await system.ingest("n", {
        sessionId: "s1",
        sessionIndex: 0,
        turns: [{ id: "t1", role: "user", content: "I live in Boston." }],
      });
      const [item] = await system.search("n", { text: "Boston", k: 1 });
      await system.close("n");
      return (item?.meta?.memories as unknown[] | undefined)?.length;
    };
    assert.equal(await shown(), 1);
    assert.equal(await shown({ memoriesPerHit: 0 }), 0);

    await refusedBeforeRun(
      { systemOptions: ["ledger.retrieval.pullComplement=true"] },
      /ledger\.retrieval\.pullComplement: unknown option of system ledger; known: .*pullComplements/,
    );
  });
});
