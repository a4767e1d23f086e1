/**
 * Ingest progress: each unit (system × episode) says how many of its turns are
 * ingested and at how many turns per second, so the slow part of a run (an
 * embedding system's ingest) is not silent. Piped output (not a terminal), as
 * in CI and `2> log`.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { formatRate, IngestMeter, startProgress } from "../../src/run/progress.ts";
import { startRun } from "../../src/run/runner.ts";
import { fixture } from "../support/shared-data.ts";

/** Runs `fn` and returns what it wrote to stderr. */
async function stderrOf(fn: () => unknown): Promise<string> {
  const write = process.stderr.write;
  const isTTY = process.stderr.isTTY;
  let text = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += String(chunk);
    return true;
  }) as typeof process.stderr.write;
  Object.defineProperty(process.stderr, "isTTY", { value: false, configurable: true });
  try {
    await fn();
  } finally {
    process.stderr.write = write;
    Object.defineProperty(process.stderr, "isTTY", { value: isTTY, configurable: true });
  }
  return text;
}

describe("ingest progress", () => {
  it("measures turns per second from a unit's first ingest call", () => {
    let now = 1000;
    const meter = new IngestMeter(() => now);
    assert.deepEqual(meter.step("bm25|e1", 0, 40), { rate: 0, finished: false });
    now += 2000;
    assert.deepEqual(meter.step("bm25|e1", 20, 40), { rate: 10, finished: false });
    now += 2000;
    assert.deepEqual(meter.step("bm25|e1", 40, 40), { rate: 10, finished: true });
    assert.equal(meter.unitsFinished, 1);
    assert.equal(formatRate(10), "10.0 turns/s");
    assert.equal(formatRate(1234.4), "1234 turns/s");
    assert.equal(formatRate(0), "–");
  });

  it("prints a line when a unit has ingested all its turns, none at its start", async () => {
    const text = await stderrOf(() => {
      const p = startProgress(3, "locomo");
      p.ingest("dense|conv-26", 0, 419);
      p.ingest("dense|conv-26", 419, 419);
      p.stop();
    });
    assert.match(text, /^locomo ingest dense\|conv-26: 419\/419 turns, (?:[\d.]+ turns\/s|–) \(1 units ingested\)$/m);
    assert.doesNotMatch(text, /0\/419/);
  });

  it("a run reports every unit's ingest with its turns per second", async () => {
    const out = mkdtempSync(join(tmpdir(), "mb-ingest-"));
    const text = await stderrOf(() =>
      startRun({ benchmark: "realmem", data: fixture("realmem"), systems: ["bm25", "none"], out, progress: true }),
    );
    const lines = text.split("\n").filter((l) => / ingest /.test(l));
    assert.ok(lines.length >= 2, text);
    for (const system of ["bm25", "none"]) {
      assert.ok(
        lines.some((l) => new RegExp(`^realmem ingest ${system}\\|.+: (\\d+)/\\1 turns, `).test(l)),
        `${system} in:\n${lines.join("\n")}`,
      );
    }
  });
});
