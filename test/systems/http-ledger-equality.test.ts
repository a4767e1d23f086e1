import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import type { Summary } from "../../src/run/summary.ts";
import { startServe } from "../support/http-system.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

/** What a probe record says about retrieval and context, without who ran it or how long it took. */
function comparable(r: ProbeRecord) {
  return {
    status: r.status,
    skipReason: r.skipReason,
    retrieved: r.retrieved,
    context: r.context,
    retrieval: r.retrieval,
  };
}

/** A row's metrics without the timings (wall time differs between in process and over HTTP). */
function metricsOf(row: Summary["results"][number]): Record<string, number> {
  return Object.fromEntries(Object.entries(row.metrics).filter(([key]) => !/_ms_p\d+$/.test(key)));
}

/** Runs `data` through the ledger in process and through `membench serve` over the protocol, and compares. */
async function compareOn(data: string, minRecords: number): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), "mb-http-eq-"));
  const serve = await startServe(["--db", ":memory:", "--embedder", "hashing:64", "--ledger-extractor", "offline"]);
  try {
    // The http system named by its spec, as `--system` names it: the resolver, the client and the server.
    const outcome = await startRun({
      benchmark: "locomo",
      data,
      systems: ["ledger", `http:${serve.url}/v1/systems/ledger#ledger-http`],
      systemOptions: ["ledger.extractor=offline"],
      settings: ["default", "oracle", "perfect"],
      embedder: "hashing:64",
      out,
      id: "eq",
      progress: false,
    });
    assert.equal(outcome.failedUnits, 0);
    const records = readRecords(join(out, "eq"));
    const key = (r: ProbeRecord) => `${r.episodeId}/${r.probeId}/${r.setting}`;
    const local = new Map(records.filter((r) => r.system === "ledger").map((r) => [key(r), r]));
    const remote = new Map(records.filter((r) => r.system === "ledger-http").map((r) => [key(r), r]));
    assert.ok(local.size >= minRecords, `${local.size} records in process`);
    assert.deepEqual([...remote.keys()].sort(), [...local.keys()].sort());
    let items = 0;
    for (const [k, mine] of local) {
      const theirs = remote.get(k)!;
      // Exactly: the same engine, embedder and rules on both sides, and JSON carries a double exactly.
      assert.deepEqual(comparable(theirs), comparable(mine), k);
      items += mine.retrieved.length;
    }
    assert.ok(items > 0, "some probe retrieved something, so the comparison compared texts, ids and scores");
    const perfect = [...remote.values()].filter((r) => r.setting === "perfect" && r.status === "done");
    assert.ok(perfect.length > 0, "readback went over the protocol");

    const summary = JSON.parse(readFileSync(join(out, "eq", "summary.json"), "utf8")) as Summary;
    for (const setting of ["default", "oracle", "perfect"]) {
      const a = summary.results.find((r) => r.system === "ledger" && r.setting === setting)!;
      const b = summary.results.find((r) => r.system === "ledger-http" && r.setting === setting)!;
      assert.ok(a && b, setting);
      assert.equal(b.n, a.n, setting);
      assert.deepEqual(metricsOf(b), metricsOf(a), setting);
      assert.deepEqual(b.byLabel, a.byLabel, setting);
    }
    const defaults = summary.results.find((r) => r.system === "ledger-http" && r.setting === "default")!;
    assert.equal(typeof defaults.metrics["recall_any@10"], "number", "provenance metrics were computed");

    // Each unit opened its namespace on the server and closed (erased) it at the end.
    const left = (await (await fetch(`${serve.url}/v1/namespaces`)).json()) as { namespaces: string[] };
    assert.deepEqual(left.namespaces, []);
  } finally {
    await serve.stop();
    rmSync(out, { recursive: true, force: true });
  }
}

const SAMPLE = sharedDataset("locomo/26.json");

describe("http: the ledger over the protocol equals the ledger in process", () => {
  it("gives the same probe records and metrics on the LoCoMo fixture, and closes every namespace", () =>
    compareOn(fixture("locomo/locomo10-mini.json"), 12));

  it("gives the same on the shared LoCoMo sample (19 sessions, 199 probes)", { skip: skipUnless(SAMPLE) }, () =>
    compareOn(SAMPLE!, 199 * 3),
  );
});
