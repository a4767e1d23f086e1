import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import { FullContextSystem } from "../../src/systems/full-context.ts";
import { ADAPTERS, createSystem, systemIds } from "../../src/systems/index.ts";

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
      "mem0",
      "mem0-oss",
      "zep",
      "letta",
      "supermemory",
    ]);
  });

  it("creates each built-in system under its own id (the adapters need a service: test/systems/<name>.test.ts)", async () => {
    const embedder = new HashingEmbedder(32);
    const adapters = new Set(ADAPTERS.map((d) => d.id));
    for (const id of systemIds().filter((x) => !adapters.has(x))) {
      assert.equal((await createSystem(id, { embedder })).id, id);
    }
  });

  it("says what a system can be when asked for an unknown one", async () => {
    await assert.rejects(
      () => createSystem("nosuchsystem"),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.equal(error.setting, "system");
        assert.match(error.message, /unknown system "nosuchsystem"; expected a registered id, a module path/);
        assert.match(error.message, /membench systems lists the ids/);
        return true;
      },
    );
    await assert.rejects(() => createSystem("toString"), ConfigError);
  });

  it("passes the context and the options through", async () => {
    const system = await createSystem("full-context", { tokenBudget: 2048 });
    assert.ok(system instanceof FullContextSystem);
    assert.equal(system.tokenBudget, 2048);
    const own = await createSystem('full-context#{"tokenBudget":512}', { tokenBudget: 2048 });
    assert.equal((own as FullContextSystem).tokenBudget, 512, "the system's own option wins over the run's budget");
    const set = await createSystem("full-context", { options: { tokenBudget: 64 } });
    assert.equal((set as FullContextSystem).tokenBudget, 64);
    await assert.rejects(() => createSystem("dense"), /needs an embedder/);
    await assert.rejects(() => createSystem("hybrid-session", {}), ConfigError);
  });
});
