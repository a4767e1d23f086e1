import assert from "node:assert/strict";
import { describe, it, mock } from "node:test";
import { runServeBench } from "../../bench/serve.ts";

describe("bench/serve", () => {
  it("writes and searches one store in process and one through the service, and prints both with their ratio", async () => {
    const log = mock.method(console, "log", () => undefined);
    try {
      await runServeBench(200);
    } finally {
      log.mock.restore();
    }
    const out = log.mock.calls.map((c) => String(c.arguments[0])).join("\n");
    assert.match(out, /ledger service overhead \(synthetic, 200 turns/);
    for (const row of ["search p50", "search p95", "write, one session"]) {
      assert.match(
        out,
        new RegExp(`\\| ${row}[^|]*\\| [\\d.]+ (ms|turns/s) \\| [\\d.]+ (ms|turns/s) \\| [\\d.]+ \\|`),
        row,
      );
    }
  });
});
