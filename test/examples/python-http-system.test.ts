import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readRecords, startRun } from "../../src/run/runner.ts";
import type { Summary } from "../../src/run/summary.ts";
import { runConformance } from "../../src/systems/conformance.ts";
import { HttpSystem } from "../../src/systems/http.ts";
import type { IngestBatch } from "../../src/systems/types.ts";
import { type ChildServer, startPythonExample } from "../support/http-system.ts";
import { fixture } from "../support/shared-data.ts";

const python = spawnSync("python3", ["--version"]).status === 0;
const skip = python ? false : "python3 is not installed";

const session = (n: number, time: string, content: string): IngestBatch => ({
  sessionId: `s${n}`,
  sessionIndex: n - 1,
  time,
  turns: [{ id: `s${n}-t1`, role: "user", content }],
});

describe("examples/python-http-system", { skip }, () => {
  let server: ChildServer;
  before(async () => {
    server = await startPythonExample();
  });
  after(() => server?.stop());

  it("passes the conformance kit through the http client", async () => {
    const report = await runConformance(() => HttpSystem.connect(server.url));
    const failed = report.checks.filter((c) => !c.passed).map((c) => `${c.name}: ${c.detail}`);
    assert.deepEqual(failed, []);
    assert.equal(report.checks.filter((c) => c.skipped).length, 0, "provenance and readback were checked");
  });

  it("returns nothing dated after the question, keeps provenance, and writes a retried batch once", async () => {
    const system = await HttpSystem.connect(server.url);
    assert.deepEqual(await system.info?.(), {
      name: "keyword-py",
      version: "0.1.0",
      protocolVersion: "1.0",
      url: server.url,
    });
    await system.open("timeline");
    try {
      await system.ingest("timeline", session(1, "2024-03-01T09:00:00Z", "My sister Ilse adopted a greyhound."));
      await system.ingest("timeline", session(2, "2024-05-01", "Ilse moved to Porto with the greyhound."));
      await system.ingest("timeline", session(2, "2024-05-01", "Ilse moved to Porto with the greyhound."));
      const april = await system.search("timeline", { text: "Did Ilse go to Porto?", k: 5, time: "2024-04-01" });
      assert.deepEqual(
        april.map((r) => r.sessionIds),
        [["s1"]],
      );
      const june = await system.search("timeline", { text: "Did Ilse go to Porto?", k: 5, time: "2024-06-01" });
      assert.deepEqual(
        june.map((r) => [r.sessionIds, r.turnIds, r.kind]),
        [
          [["s2"], ["s2-t1"], "turn"],
          [["s1"], ["s1-t1"], "turn"],
        ],
      );
      assert.ok(june[0]!.score > june[1]!.score, "the turn naming Porto ranks first");
      const sameDay = await system.search("timeline", { text: "Porto", k: 5, time: "2024-05-01" });
      assert.equal(sameDay.length, 1, "a question dated the day of a session sees that session");
    } finally {
      await system.close("timeline");
    }
  });

  it("runs the LoCoMo fixture through membench (every unit done, provenance metrics computed)", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-py-run-"));
    try {
      const outcome = await startRun({
        benchmark: "locomo",
        data: fixture("locomo/locomo10-mini.json"),
        systems: [`http:${server.url}#keyword-py`],
        settings: ["default", "perfect"],
        out,
        id: "py",
        progress: false,
      });
      assert.equal(outcome.failedUnits, 0);
      const records = readRecords(join(out, "py"));
      assert.equal(records.length, 4 * 2);
      const withItems = records.filter((r) => r.setting === "default" && r.retrieved.length > 0);
      assert.ok(withItems.length > 0);
      for (const r of withItems)
        for (const item of r.retrieved) assert.ok(item.sessionIds?.length && item.turnIds?.length);
      assert.ok(records.some((r) => r.setting === "perfect" && r.status === "done" && r.retrieved.length > 0));
      const summary = JSON.parse(readFileSync(join(out, "py", "summary.json"), "utf8")) as Summary;
      const row = summary.results.find((r) => r.system === "keyword-py" && r.setting === "default")!;
      assert.equal(typeof row.metrics["recall_any@10"], "number");
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe("examples/python-http-system with a token", { skip }, () => {
  it("refuses requests without the bearer token; the client sends it from MEMBENCH_HTTP_TOKEN", async () => {
    const server = await startPythonExample(["--token-env", "EXAMPLE_TOKEN"], {
      ...process.env,
      EXAMPLE_TOKEN: "py-secret",
    });
    try {
      await assert.rejects(HttpSystem.connect(server.url), /401: missing or wrong bearer token; .*MEMBENCH_HTTP_TOKEN/);
      process.env.MEMBENCH_HTTP_TOKEN = "py-secret";
      const system = await HttpSystem.connect(server.url);
      await system.open("x");
      await system.close("x");
    } finally {
      delete process.env.MEMBENCH_HTTP_TOKEN;
      await server.stop();
    }
  });
});
