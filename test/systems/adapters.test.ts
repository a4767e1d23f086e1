/**
 * What the five adapters share beyond their own tests: registration, option
 * schemas that refuse unknown keys, and the message a user gets when an SDK is
 * not installed, produced by Node's own loader failing to find the package.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { ConfigError } from "../../src/core/errors.ts";
import { ADAPTERS, createSystem } from "../../src/systems/index.ts";

const context = {
  embedder: () => Promise.reject(new Error("no embedder in this test")),
  modelStatus: { configured: false, detail: "none" },
  cacheDir: tmpdir(),
};

describe("adapters: registration and options", () => {
  it("registers mem0, mem0-oss, zep, letta and supermemory, none needing the run's embedder", () => {
    assert.deepEqual(
      ADAPTERS.map((d) => d.id),
      ["mem0", "mem0-oss", "zep", "letta", "supermemory"],
    );
    for (const d of ADAPTERS) assert.equal(d.needsEmbedder?.(d.options!.parse({})), false);
  });

  it("refuses unknown option keys, naming them", async () => {
    await assert.rejects(createSystem("zep", { options: { apikeyenv: "X" }, context }), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /zep\.apikeyenv: unknown option of system zep; known: apiKeyEnv/);
      return true;
    });
  });

  it("never takes a key as an option, only the name of a variable", () => {
    for (const d of ADAPTERS.filter((x) => x.id !== "mem0-oss")) {
      assert.throws(() => d.options!.parse({ apiKeyEnv: "sk-live-123-abc" }), /environment variable name/);
      assert.throws(() => d.options!.parse({ apiKey: "sk" }));
    }
  });
});

describe("adapters: a missing SDK", () => {
  it("says exactly what to install, for each adapter, when Node cannot find the package", () => {
    const dir = mkdtempSync(join(tmpdir(), "membench-no-sdk-"));
    try {
      // A resolve hook that looks the SDKs up from a folder without node_modules: Node's own ERR_MODULE_NOT_FOUND.
      const hook = `export async function resolve(specifier, context, next) {
  if (/^(mem0ai|@getzep\\/zep-cloud|@letta-ai\\/letta-client|supermemory)(\\/|$)/.test(specifier)) {
    return next(specifier, { ...context, parentURL: ${JSON.stringify(pathToFileURL(join(dir, "nowhere.mjs")).href)} });
  }
  return next(specifier, context);
}`;
      writeFileSync(join(dir, "hook.mjs"), hook);
      writeFileSync(
        join(dir, "register.mjs"),
        `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hook.mjs")).href)});\n`,
      );
      const index = pathToFileURL(resolve("src/systems/index.ts")).href;
      writeFileSync(
        join(dir, "run.mts"),
        `import { createSystem } from ${JSON.stringify(index)};
const context = { embedder: async () => { throw new Error("none"); }, modelStatus: { configured: true, detail: "stub" },
  endpoint: { baseUrl: "http://127.0.0.1:9/v1", model: "m" }, cacheDir: ${JSON.stringify(dir)} };
for (const id of ["mem0", "mem0-oss", "zep", "letta", "supermemory"]) {
  try { await createSystem(id, { context }); console.log(JSON.stringify({ id, ok: true })); }
  catch (e) { console.log(JSON.stringify({ id, name: e.name, message: e.message })); }
}
`,
      );
      const out = execFileSync(
        process.execPath,
        ["--import", "tsx", "--import", pathToFileURL(join(dir, "register.mjs")).href, join(dir, "run.mts")],
        {
          encoding: "utf8",
          env: {
            ...process.env,
            MEM0_API_KEY: "k",
            ZEP_API_KEY: "k",
            LETTA_API_KEY: "k",
            SUPERMEMORY_API_KEY: "k",
          },
        },
      );
      const results = out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { id: string; name?: string; message?: string });
      const expected: Record<string, string> = {
        mem0: "npm install mem0ai@3",
        "mem0-oss": "npm install mem0ai@3",
        zep: "npm install @getzep/zep-cloud@3",
        letta: "npm install @letta-ai/letta-client@1",
        supermemory: "npm install supermemory@4",
      };
      assert.equal(results.length, 5);
      for (const r of results) {
        assert.equal(r.name, "ConfigError", `${r.id}: ${r.message}`);
        assert.ok(r.message?.includes(`run \`${expected[r.id]}\``), `${r.id}: ${r.message}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
