import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { z } from "zod";
import { ConfigError, SystemError } from "../../src/core/errors.ts";
import { HashingEmbedder } from "../../src/embed/hashing.ts";
import { ScriptedChatModel } from "../../src/llm/scripted-model.ts";
import { Bm25System } from "../../src/systems/bm25.ts";
import { systemContext } from "../../src/systems/context.ts";
import type { SystemDefinition } from "../../src/systems/definition.ts";
import {
  createSystem,
  getSystemDefinition,
  registerSystem,
  systemDefinitions,
  systemIds,
  unregisterSystem,
} from "../../src/systems/index.ts";
import type { LedgerSystem } from "../../src/systems/ledger.ts";
import { checkSystemOptions, describeOptions, knownOptionKeys } from "../../src/systems/options.ts";
import { resolveSystems } from "../../src/systems/resolve.ts";

function configError(setting: RegExp | string, message: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof ConfigError, String(error));
    if (typeof setting === "string") assert.equal(error.setting, setting);
    else assert.match(error.setting, setting);
    assert.match(error.message, message);
    return true;
  };
}

describe("built-in definitions", () => {
  it("every built-in refuses an unknown option and names the known ones", async () => {
    const expected: Record<string, string> = {
      none: "none",
      "full-context": "tokenBudget",
      bm25: "k1, b, delta",
      "bm25-session": "k1, b, delta",
      dense: "batchSize",
      "dense-session": "batchSize",
      hybrid: "batchSize, bm25, rrfK",
      "hybrid-session": "batchSize, bm25, rrfK",
      ledger: "extractor, queryRewrite, retrieval, vectors, tokenBudget",
    };
    assert.deepEqual(Object.keys(expected), systemIds().slice(0, 9));
    for (const [id, known] of Object.entries(expected)) {
      await assert.rejects(
        resolveSystems([`${id}#{"bogus":1}`]),
        configError(`${id}#{"bogus":1}.bogus`, new RegExp(`unknown option of system ${id}; known: ${known}$`)),
      );
    }
  });

  it("names a nested unknown key with its path and its siblings", () => {
    const ledger = getSystemDefinition("ledger")!;
    assert.throws(
      () => checkSystemOptions(ledger, { retrieval: { weights: { memoryLexicl: 1 } } }, "ledger"),
      configError("ledger.retrieval.weights.memoryLexicl", /known: .*memoryLexical/),
    );
    assert.throws(
      () => checkSystemOptions(ledger, { extractor: "gpt" }, "mine"),
      configError("mine.extractor", /expected one of "auto"\|"offline"\|"llm"/),
    );
    const hybrid = getSystemDefinition("hybrid")!;
    assert.throws(() => checkSystemOptions(hybrid, { bm25: { b: 2 } }, "hybrid"), configError("hybrid.bm25.b", /<=1/));
    assert.deepEqual(knownOptionKeys(hybrid.options!, ["bm25"]), ["k1", "b", "delta"]);
  });

  it("fills the defaults in, so the run snapshot records what was used", () => {
    assert.deepEqual(checkSystemOptions(getSystemDefinition("ledger")!, {}, "ledger"), {
      extractor: "auto",
      queryRewrite: false,
      vectors: true,
    });
  });

  it("passes each option to the system it configures", async () => {
    const embedder = new HashingEmbedder(32);
    const bm25 = await createSystem('bm25#{"k1":2,"b":0.5,"delta":0}');
    assert.deepEqual((bm25 as unknown as { params: unknown }).params, { k1: 2, b: 0.5, delta: 0 });
    const hybrid = await createSystem('hybrid-session#{"rrfK":10,"batchSize":3}', { embedder });
    assert.deepEqual((hybrid as unknown as { options: Record<string, unknown> }).options.rrfK, 10);
    assert.equal((hybrid as unknown as { options: Record<string, unknown> }).options.batchSize, 3);
    assert.equal((hybrid as unknown as { unit: string }).unit, "session");
  });

  it("a ledger option that calls a model is refused without one, and uses the model when there is one", async () => {
    await assert.rejects(
      createSystem('ledger#{"extractor":"llm","vectors":false}'),
      configError("ledger.extractor", /"llm" needs a model \(no model was given\)/),
    );
    await assert.rejects(
      createSystem('ledger#{"queryRewrite":true,"vectors":false}'),
      configError("ledger.queryRewrite", /query rewrite needs a model/),
    );
    const model = new ScriptedChatModel({ file: "(inline)", rules: [], name: "scripted-x" });
    const auto = (await createSystem('ledger#{"vectors":false}', { model })) as LedgerSystem;
    assert.equal(auto.info().extractor, `llm (${model.id})`, "auto extracts with the model given");
    const offline = (await createSystem('ledger#{"vectors":false,"extractor":"offline","queryRewrite":true}', {
      model,
    })) as LedgerSystem;
    assert.equal(offline.info().extractor, "offline rules");
    assert.equal(offline.info().queryRewrite, `llm (${model.id})`);
    const unconfigured = (await createSystem('ledger#{"vectors":false}', {
      model,
      modelStatus: { configured: false, detail: "off" },
    })) as LedgerSystem;
    assert.equal(unconfigured.info().extractor, "offline rules", "a model that is not configured is not used");
  });

  it("describes every option for `membench systems`", () => {
    const ledger = describeOptions(getSystemDefinition("ledger")!.options);
    const extractor = ledger.find((o) => o.key === "extractor")!;
    assert.equal(extractor.type, '"auto" | "offline" | "llm"');
    assert.equal(extractor.default, "auto");
    assert.match(extractor.description ?? "", /who writes the memories/);
    assert.deepEqual(
      ledger.find((o) => o.key === "retrieval.weights.memoryLexical"),
      {
        key: "retrieval.weights.memoryLexical",
        type: "number ≥ 0",
        description: ledger.find((o) => o.key === "retrieval.weights.memoryLexical")!.description,
      },
    );
    assert.match(ledger.find((o) => o.key === "retrieval.depth")!.description!, /^default \d+$/);
    assert.deepEqual(describeOptions(getSystemDefinition("none")!.options), []);
    assert.equal(describeOptions(getSystemDefinition("full-context")!.options)[0]!.type, "integer ≥ 0");
  });
});

describe("registerSystem", () => {
  it("registers a factory by id; options reach it unchecked, with the context", async () => {
    const seen: unknown[] = [];
    registerSystem(
      "my-bm25",
      (options, context) => {
        seen.push(options, context.tokenBudget);
        return new Bm25System();
      },
      "bm25 under another name",
    );
    try {
      assert.ok(systemIds().includes("my-bm25"));
      assert.equal(systemDefinitions().at(-1)!.summary, "bm25 under another name");
      const system = await createSystem('my-bm25#{"anything":[1]}', { tokenBudget: 7 });
      assert.ok(system instanceof Bm25System);
      assert.deepEqual(seen, [{ anything: [1] }, 7]);
      const [resolved] = await resolveSystems(["my-bm25"]);
      assert.deepEqual(resolved!.source, { kind: "registered", id: "my-bm25" });
    } finally {
      assert.equal(unregisterSystem("my-bm25"), true);
    }
    assert.ok(!systemIds().includes("my-bm25"));
  });

  it("registers a definition with its own schema", async () => {
    const definition: SystemDefinition<{ k1: number }> = {
      id: "tuned-bm25",
      summary: "bm25 with k1",
      options: z.object({ k1: z.number().default(1.5) }).strict(),
      create: (options) => new Bm25System({ k1: options.k1 }),
    };
    registerSystem(definition);
    try {
      registerSystem(definition); // the same definition again is no change
      const system = await createSystem("tuned-bm25");
      assert.equal((system as unknown as { params: { k1: number } }).params.k1, 1.5);
      await assert.rejects(createSystem('tuned-bm25#{"k2":1}'), configError(/k2$/, /known: k1/));
    } finally {
      unregisterSystem("tuned-bm25");
    }
  });

  it("refuses a taken id, a bad id and a missing factory; built-ins cannot be unregistered", () => {
    assert.throws(
      () => registerSystem("bm25", () => new Bm25System()),
      configError("system", /"bm25" is registered already/),
    );
    for (const id of ["my system", "./x", "x.js", "http", ""]) {
      assert.throws(
        () => registerSystem(id, () => new Bm25System()),
        configError("system", /cannot be a system id/),
        id,
      );
    }
    assert.throws(() => registerSystem("x", undefined as never), configError("system", /must be a function/));
    assert.throws(() => registerSystem({ id: "x" } as never), configError("system", /takes a SystemDefinition/));
    assert.equal(unregisterSystem("bm25"), false);
    assert.ok(systemIds().includes("bm25"));
  });

  it("a factory that returns something else fails where it happened", async () => {
    registerSystem("broken-factory", () => ({ id: "nope" }) as never);
    try {
      await assert.rejects(createSystem("broken-factory"), (error: unknown) => {
        assert.ok(error instanceof SystemError);
        assert.match(error.message, /returned an object, not a MemorySystem \(caps, open, ingest, search, close\)/);
        return true;
      });
    } finally {
      unregisterSystem("broken-factory");
    }
  });
});

describe("createSystem", () => {
  it("takes an instance or a definition as well as a spec", async () => {
    const instance = new Bm25System();
    assert.equal(await createSystem(instance), instance);
    const made = await createSystem({ id: "adhoc", summary: "", create: () => instance });
    assert.equal(made, instance);
    await assert.rejects(createSystem("bm25,ledger"), /createSystem makes one system/);
  });

  it("a system that embeds gets the context's embedder, made once", async () => {
    let made = 0;
    const context = systemContext({
      embedder: async () => {
        made++;
        return new HashingEmbedder(16);
      },
    });
    await createSystem("dense", { context });
    await createSystem("hybrid", { context });
    assert.equal(made, 1);
    await assert.rejects(createSystem("dense"), configError("embedder", /needs an embedder; pass one/));
  });
});
