/**
 * The onnx:DIR embedder, on both sides of its optional dependency, whichever
 * side this machine is on:
 *
 * - Without transformers.js: the real command line in a child process where
 *   Node cannot resolve the package (a resolve hook sends that one specifier
 *   to Node's own resolver from an empty folder, so the failure is Node's
 *   genuine ERR_MODULE_NOT_FOUND, as on a machine without it). Always runs.
 * - With transformers.js: real inference, by transformers.js and
 *   onnxruntime-node, on a real ONNX model the test writes itself
 *   (test/support/tiny-onnx.ts: a token-embedding lookup whose mean-pooled,
 *   normalised output is worked out by hand), through the embedder and through
 *   `membench run --embedder onnx:DIR`. Nothing is downloaded. Skipped with a
 *   message when the package is absent, except under CI=true, where it fails
 *   (.ci/run installs it).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { pathToFileURL } from "node:url";
import { ConfigError } from "../../src/core/errors.ts";
import { createEmbedder } from "../../src/embed/create.ts";
import {
  checkOnnxFolder,
  OnnxEmbedder,
  onnxEmbedderId,
  TRANSFORMERS_INSTALL,
  TRANSFORMERS_PACKAGE,
} from "../../src/embed/onnx-embedder.ts";
import { membenchBin } from "../support/bin.ts";
import { fixture } from "../support/shared-data.ts";
import { expectedEmbedding, TINY_DIM, writeTinyOnnxModel } from "../support/tiny-onnx.ts";

function installed(): boolean {
  try {
    createRequire(import.meta.url).resolve(TRANSFORMERS_PACKAGE);
    return true;
  } catch {
    return false;
  }
}

const UNDER_CI = process.env.CI === "true";
const withTransformers =
  installed() || UNDER_CI
    ? false
    : `${TRANSFORMERS_PACKAGE} is not installed here: real ONNX inference skipped (\`${TRANSFORMERS_INSTALL}\` runs it; under CI=true it fails instead)`;

const tmp = mkdtempSync(join(tmpdir(), "membench-onnx-"));
after(() => rmSync(tmp, { recursive: true, force: true }));
const model = writeTinyOnnxModel(join(tmp, "models", "tiny"));

/** A Node --import module that makes @huggingface/transformers unresolvable, as on a machine without it. */
function hidePackageHook(): string {
  const nowhere = mkdtempSync(join(tmpdir(), "membench-no-packages-"));
  const hooks = `
    const from = ${JSON.stringify(pathToFileURL(join(nowhere, "index.js")).href)};
    export async function resolve(specifier, context, next) {
      if (specifier === ${JSON.stringify(TRANSFORMERS_PACKAGE)}) return next(specifier, { ...context, parentURL: from });
      return next(specifier, context);
    }`;
  const file = join(tmp, "hide-transformers.mjs");
  writeFileSync(
    file,
    `import { register } from "node:module";\nregister(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hooks)}`)});\n`,
  );
  return file;
}

function cli(args: string[], options: { hide?: boolean; env?: Record<string, string> } = {}) {
  const r = spawnSync(
    process.execPath,
    [...(options.hide ? ["--import", hidePackageHook()] : []), membenchBin(), ...args],
    { cwd: tmp, env: { ...process.env, ...options.env }, encoding: "utf8" },
  );
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe("onnx:DIR without transformers.js", () => {
  it("refuses a run before it starts, saying how to install the package and how it stays offline", () => {
    const r = cli(
      ["run", "realmem", "--data", fixture("realmem"), "--system", "dense", "--embedder", `onnx:${model}`],
      {
        hide: true,
      },
    );
    assert.equal(r.status, 2, r.stderr);
    const line = r.stderr.trim().split("\n").at(-1) ?? "";
    assert.match(line, /^error: embedder[^:]*: onnx embedder unavailable: /);
    assert.match(line, new RegExp(`the optional package ${TRANSFORMERS_PACKAGE} is not installed`));
    assert.ok(line.includes(TRANSFORMERS_INSTALL), line);
    assert.match(line, /env\.allowRemoteModels = false/);
    assert.match(line, /env\.localModelPath/);
  });

  it("is reported as not ready by doctor, with the same reason, and doctor exits 1", () => {
    const r = cli(["doctor", "--json"], { hide: true, env: { MEMBENCH_EMBEDDER: `onnx:${model}` } });
    assert.equal(r.status, 1, r.stderr);
    const embedder = JSON.parse(r.stdout).embedder;
    assert.equal(embedder.id, onnxEmbedderId(model));
    assert.equal(embedder.ready, false);
    assert.match(embedder.detail, /is not installed/);
  });
});

describe("onnx:DIR with transformers.js: real inference on a model written here", { skip: withTransformers }, () => {
  before(() => assert.ok(installed(), `CI=true but ${TRANSFORMERS_PACKAGE} is not installed: .ci/run installs it`));

  it("loads the folder offline and embeds like the model: mean-pooled, normalised, in batches", async () => {
    const embedder = await OnnxEmbedder.open(model, { batchSize: 2 });
    assert.equal(embedder.id, onnxEmbedderId(model));
    assert.equal(embedder.dim, TINY_DIM, "learned from the probe sentence");
    // Different lengths in one batch (padding must not count), a batch of one, an unknown word.
    const texts = ["red apple", "green grass sky", "Blue", "words it never saw", "sky"];
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, texts.length);
    texts.forEach((text, i) => {
      const got = Array.from(vectors[i]!);
      const want = expectedEmbedding(text);
      for (const [d, x] of got.entries()) {
        assert.ok(Math.abs(x - want[d]!) < 1e-5, `${text}[${d}]: ${x} ≠ ${want[d]}`);
      }
    });
  });

  it("loads quantized-only weights as transformers.js names them", async () => {
    const quantized = writeTinyOnnxModel(join(tmp, "models", "tiny-q8"), "model_quantized.onnx");
    assert.equal(checkOnnxFolder(quantized).dtype, "q8");
    const embedder = await OnnxEmbedder.open(quantized);
    const [v] = await embedder.embed(["red apple"]);
    assert.deepEqual(
      Array.from(v!).map((x) => x.toFixed(5)),
      expectedEmbedding("red apple").map((x) => x.toFixed(5)),
    );
  });

  it("names the folder when its weights cannot be loaded, and never fetches them", async () => {
    const broken = writeTinyOnnxModel(join(tmp, "models", "broken"));
    writeFileSync(join(broken, "onnx", "model.onnx"), "not an onnx graph");
    await assert.rejects(OnnxEmbedder.open(broken, { source: "--embedder" }), (error: unknown) => {
      assert.ok(error instanceof ConfigError, String(error));
      assert.equal(error.source, "--embedder");
      assert.match(error.message, new RegExp(`cannot load the onnx model in ${broken}`));
      return true;
    });
  });

  it("serves `membench run --embedder onnx:DIR` end to end, and the cache keeps its vectors", async () => {
    const out = join(tmp, "runs");
    const args = ["run", "realmem", "--data", fixture("realmem"), "--system", "dense", "--out", out, "--no-progress"];
    const r = cli([...args, "--embedder", `onnx:${model}`]);
    assert.equal(r.status, 0, r.stderr);
    const dir = /run stored in (.+)/.exec(r.stderr)![1]!.trim();
    const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
    assert.equal(config.options.embedder, `onnx:${model}`);
    const summary = JSON.parse(readFileSync(join(dir, "summary.json"), "utf8"));
    assert.equal(summary.results[0].system, "dense");
    assert.ok(summary.results[0].metrics.n_retrieval > 0, "dense retrieval ran on the model's vectors");
    const embedder = await createEmbedder(`onnx:${model}`, { cacheDir: join(tmp, ".membench", "cache") });
    const [cached] = await embedder.embed(["green grass sky"]);
    assert.deepEqual(
      Array.from(cached!).map((x) => x.toFixed(5)),
      expectedEmbedding("green grass sky").map((x) => x.toFixed(5)),
    );
  });
});

describe("onnxEmbedderId", () => {
  it("records the folder as given, without a trailing slash or dot segments", () => {
    assert.equal(onnxEmbedderId("./models/minilm/"), "onnx:models/minilm");
    assert.equal(onnxEmbedderId("/opt/models/e5"), "onnx:/opt/models/e5");
  });
});

describe("checkOnnxFolder", () => {
  const make = (files: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), "membench-onnx-folder-"));
    for (const file of files) {
      mkdirSync(join(dir, file, ".."), { recursive: true });
      writeFileSync(join(dir, file), "x");
    }
    return dir;
  };
  const dirs: string[] = [];
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it("picks full-precision weights first, quantized ones otherwise", () => {
    const full = make(["config.json", "onnx/model.onnx", "onnx/model_quantized.onnx"]);
    const quantized = make(["config.json", "onnx/model_quantized.onnx"]);
    dirs.push(full, quantized);
    assert.deepEqual(checkOnnxFolder(full), { path: full, dtype: "fp32" });
    assert.deepEqual(checkOnnxFolder(quantized), { path: quantized, dtype: "q8" });
  });

  it("names what is missing: the folder, config.json, or the weights", () => {
    const noConfig = make(["onnx/model.onnx"]);
    const noWeights = make(["config.json", "tokenizer.json"]);
    dirs.push(noConfig, noWeights);
    const fails = (dir: string, pattern: RegExp) =>
      assert.throws(
        () => checkOnnxFolder(dir, "--embedder"),
        (e: unknown) => e instanceof ConfigError && e.source === "--embedder" && pattern.test(e.message),
      );
    fails(join(noConfig, "absent"), /does not exist/);
    fails(noConfig, /no config\.json/);
    fails(noWeights, /none of onnx\/model\.onnx/);
  });
});
