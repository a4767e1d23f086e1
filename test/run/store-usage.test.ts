import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { CallUsage } from "../../src/llm/accounting.ts";
import { RunStore } from "../../src/run/store.ts";

const call = (over: Partial<CallUsage>): CallUsage => ({
  role: "answerer",
  ok: true,
  cached: false,
  inputTokens: 100,
  outputTokens: 10,
  latencyMs: 5,
  costUsd: 0.001,
  model: "m",
  ...over,
});

describe("run store usage", () => {
  it("has none for a run that predates the table, and sums every unit and stage it holds", () => {
    const path = join(mkdtempSync(join(tmpdir(), "mb-store-usage-")), "run.sqlite");
    const store = new RunStore(path);
    assert.equal(store.usage("run"), undefined);
    store.addUsage("a|e1", "run", call({}));
    store.addUsage("a|e1", "run", call({ cached: true, costUsd: 0 }));
    store.addUsage("a|e2", "run", call({ ok: false, inputTokens: 0, outputTokens: 0, costUsd: 0 }));
    store.addUsage("a|e2", "run", call({ role: "extractor", costUsd: 0.002 }));
    store.addUsage("a|e1", "score", call({ role: "judge", costUsd: null, model: "unpriced-judge" }));
    store.close();

    const reopened = new RunStore(path);
    const run = reopened.usage("run")!;
    assert.deepEqual([run.roles.answerer.calls, run.roles.answerer.cachedCalls, run.roles.answerer.errors], [2, 1, 1]);
    assert.equal(run.roles.answerer.inputTokens, 100, "tokens of calls made");
    assert.equal(run.roles.answerer.cachedInputTokens, 100);
    assert.equal(run.roles.extractor.calls, 1);
    assert.ok(Math.abs(run.total.costUsd! - 0.003) < 1e-12);
    const score = reopened.usage("score")!;
    assert.equal(score.roles.judge.calls, 1);
    assert.equal(score.total.costUsd, null, "an unpriced model makes the cost unknown, not 0");
    assert.deepEqual(score.total.unpricedModels, ["unpriced-judge"]);
    reopened.close();
  });
});
