import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import { Bm25System } from "../../src/systems/bm25.ts";
import {
  assertConformance,
  CONFORMANCE_CHECKS,
  CONFORMANCE_HISTORY,
  type ConformanceReport,
  runConformance,
} from "../../src/systems/conformance.ts";
import { ADAPTERS, createSystem, systemIds } from "../../src/systems/index.ts";
import type { MemorySystem, Retrieved } from "../../src/systems/types.ts";

const embedder = new HashingEmbedder(256);

/** A bm25 system with some of its behaviour replaced. */
function bm25With(overrides: (inner: Bm25System) => Partial<MemorySystem>): MemorySystem {
  const inner = new Bm25System();
  const base: MemorySystem = {
    id: "leaky",
    caps: inner.caps,
    open: (ns) => inner.open(ns),
    ingest: (ns, b) => inner.ingest(ns, b),
    flush: (ns) => inner.flush(ns),
    search: (ns, q) => inner.search(ns, q),
    readback: (ns, ids) => inner.readback(ns, ids),
    close: (ns) => inner.close(ns),
  };
  return { ...base, ...overrides(inner) };
}

function failedChecks(report: ConformanceReport): string[] {
  return report.checks.filter((c) => !c.passed).map((c) => c.name);
}

function check(report: ConformanceReport, name: string) {
  const found = report.checks.find((c) => c.name === name);
  assert.ok(found, `no check ${name}`);
  return found;
}

describe("conformance kit on the built-in systems", () => {
  for (const id of systemIds().filter((x) => !ADAPTERS.some((a) => a.id === x))) {
    it(`${id} passes every check`, async () => {
      const report = await assertConformance(() => createSystem(id, { embedder }));
      assert.equal(report.systemId, id);
      assert.deepEqual(
        report.checks.map((c) => c.name),
        [...CONFORMANCE_CHECKS],
      );
      assert.ok(report.checks.every((c) => c.passed && c.detail.length > 0));
    });
  }
});

describe("conformance kit on faulty systems", () => {
  it("fails a system that ignores the namespace", async () => {
    // Everything goes into one shared namespace, whatever the caller asked for.
    const leaky = () =>
      bm25With((inner) => ({
        open: () => inner.open("shared"),
        ingest: (_ns, b) => inner.ingest("shared", b),
        flush: () => inner.flush("shared"),
        search: (_ns, q) => inner.search("shared", q),
        readback: (_ns, ids) => inner.readback("shared", ids),
        close: async () => {},
      }));
    const report = await runConformance(leaky);
    assert.equal(report.passed, false);
    const isolation = check(report, "namespace-isolation");
    assert.equal(isolation.passed, false);
    assert.match(isolation.detail, /returned text of conf-s3, sessionId conf-s3, turnIds conf-s3-t1/);
    assert.ok(failedChecks(report).includes("close-reopen-empty"));
    assert.equal(check(report, "contract").passed, true);
    await assert.rejects(assertConformance(leaky), /failed \d conformance check\(s\):\n {2}- namespace-isolation: /);
  });

  it("fails a system that returns a session not yet ingested", async () => {
    const last = CONFORMANCE_HISTORY.at(-1)!.batch;
    const leaky = () =>
      bm25With((inner) => ({
        search: async (ns, q) => {
          const hits = await inner.search(ns, q);
          const leak: Retrieved = { text: "planning notes", score: 0, sessionIds: [last.sessionId] };
          return hits.length < q.k ? [...hits, leak] : hits;
        },
      }));
    const report = await runConformance(leaky);
    const leakage = check(report, "no-future-leakage");
    assert.equal(leakage.passed, false);
    assert.match(leakage.detail, /after 0 of 4 sessions, .* returned sessionId conf-s4/);
    // Once everything is ingested the id is real, so these checks have nothing to object to.
    assert.equal(check(report, "provenance-ids").passed, true);
    assert.equal(check(report, "result-shape").passed, true);
  });

  it("fails a system whose results are not ranked although it says so", async () => {
    const report = await runConformance(() =>
      bm25With((inner) => ({ search: async (ns, q) => (await inner.search(ns, q)).reverse() })),
    );
    assert.deepEqual(failedChecks(report), ["result-shape"]);
    assert.match(check(report, "result-shape").detail, /is above the previous .* although caps.ranked/);
  });

  it("fails a system that returns more than k items or a non-finite score", async () => {
    const report = await runConformance(() =>
      bm25With((inner) => ({
        search: async (ns, q) => {
          const hits = await inner.search(ns, { ...q, k: q.k + 5 });
          return hits.map((h, i) => (i === 0 ? { ...h, score: Number.NaN } : h));
        },
      })),
    );
    assert.ok(failedChecks(report).includes("result-shape"));
    assert.match(check(report, "result-shape").detail, /returned 2 items for k = 1/);
    assert.match(check(report, "result-shape").detail, /score NaN is not a finite number/);
  });

  it("fails a system whose provenance ids were never ingested", async () => {
    const report = await runConformance(() =>
      bm25With((inner) => ({
        search: async (ns, q) => (await inner.search(ns, q)).map((h) => ({ ...h, turnIds: ["made-up-turn"] })),
      })),
    );
    assert.deepEqual(failedChecks(report), ["provenance-ids"]);
    assert.match(check(report, "provenance-ids").detail, /unknown turnId made-up-turn/);
  });

  it("skips provenance for a system that does not claim it, and checks readback only if claimed", async () => {
    const report = await runConformance(() =>
      bm25With((inner) => ({
        caps: { ...inner.caps, provenance: false, readback: false },
        readback: undefined,
        search: async (ns, q) => (await inner.search(ns, q)).map(({ text, score }) => ({ text, score })),
      })),
    );
    assert.equal(report.passed, true);
    assert.equal(check(report, "provenance-ids").skipped, true);
    assert.equal(check(report, "readback").skipped, true);
  });

  it("fails a readback that returns sessions it was not asked for", async () => {
    const report = await runConformance(() =>
      bm25With((inner) => ({
        readback: (ns) =>
          inner.readback(
            ns,
            CONFORMANCE_HISTORY.map((s) => s.batch.sessionId),
          ),
      })),
    );
    assert.ok(failedChecks(report).includes("readback"));
    assert.match(check(report, "readback").detail, /readback of conf-s1 returned text of conf-s2/);
  });

  it("fails a readback that returns nothing although search shows the data", async () => {
    const report = await runConformance(() => bm25With(() => ({ readback: async () => [] })));
    assert.deepEqual(failedChecks(report), ["readback"]);
    assert.match(check(report, "readback").detail, /search returned data of conf-s1 but readback of conf-s1 is empty/);
  });

  it("fails a system that keeps data after close", async () => {
    const report = await runConformance(() => bm25With(() => ({ close: async () => {} })));
    assert.deepEqual(failedChecks(report), ["close-reopen-empty"]);
  });

  it("fails the contract check for bad caps and missing methods", async () => {
    const report = await runConformance(() =>
      bm25With((inner) => ({
        caps: { ...inner.caps, granularity: "paragraph" as never, nativeAnswer: true },
      })),
    );
    const contract = check(report, "contract");
    assert.equal(contract.passed, false);
    assert.match(contract.detail, /caps.granularity is "paragraph"/);
    assert.match(contract.detail, /caps.nativeAnswer is true but answer\(\) is missing/);
  });

  it("feeds a turn-granularity system one turn at a time and awaits flush", async () => {
    const seen: number[] = [];
    let pending = 0;
    const report = await runConformance(() =>
      bm25With((inner) => ({
        caps: { ...inner.caps, granularity: "turn" },
        ingest: async (ns, b) => {
          seen.push(b.turns.length);
          pending++;
          await inner.ingest(ns, b);
        },
        flush: async (ns) => {
          await inner.flush(ns);
          pending = 0;
        },
        search: async (ns, q) => {
          assert.equal(pending, 0, "search before flush");
          return inner.search(ns, q);
        },
      })),
    );
    assert.equal(report.passed, true, JSON.stringify(report.checks));
    assert.ok(seen.length > 0 && seen.every((n) => n === 1));
  });

  it("reports a factory that throws and a check that hangs", async () => {
    const broken = await runConformance(() => {
      throw new Error("no server at localhost:9999");
    });
    assert.equal(broken.passed, false);
    assert.ok(broken.checks.every((c) => !c.passed && /the factory failed: .*localhost:9999/.test(c.detail)));

    const hanging = await runConformance(() => bm25With(() => ({ search: () => new Promise<never>(() => {}) })), {
      timeoutMs: 50,
    });
    assert.match(check(hanging, "result-shape").detail, /did not finish within 50 ms/);
    assert.equal(check(hanging, "contract").passed, true);
  });
});
