import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import { FullContextSystem } from "../../src/systems/full-context.ts";
import { createSystem, systemIds } from "../../src/systems/index.ts";

describe("system registry", () => {
  it("lists the built-in systems", () => {
    assert.deepEqual(systemIds(), [
      "none",
      "full-context",
      "bm25",
      "bm25-session",
      "dense",
      "dense-session",
      "hybrid",
      "hybrid-session",
      "ledger",
    ]);
  });

  it("creates each system under its own id", () => {
    const embedder = new HashingEmbedder(32);
    for (const id of systemIds()) assert.equal(createSystem(id, { embedder }).id, id);
  });

  it("names the known ids when asked for an unknown one", () => {
    assert.throws(
      () => createSystem("mem9"),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.setting, "system");
        assert.match(error.message, /unknown system "mem9"; known: none, full-context, bm25, bm25-session, dense/);
        return true;
      },
    );
    assert.throws(() => createSystem("toString"), ConfigError);
  });

  it("passes the options through", () => {
    const system = createSystem("full-context", { tokenBudget: 2048 });
    assert.ok(system instanceof FullContextSystem);
    assert.equal(system.tokenBudget, 2048);
    assert.throws(() => createSystem("dense"), ConfigError);
    assert.throws(() => createSystem("hybrid-session", {}), ConfigError);
  });
});
