import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { checkOnnxFolder, OnnxEmbedder, onnxEmbedderId, TRANSFORMERS_PACKAGE } from "../../src/embed/onnx-embedder.ts";

function installed(): boolean {
  try {
    createRequire(import.meta.url).resolve(TRANSFORMERS_PACKAGE);
    return true;
  } catch {
    return false;
  }
}

const folder = mkdtempSync(join(tmpdir(), "membench-onnx-"));
writeFileSync(join(folder, "config.json"), JSON.stringify({ model_type: "bert", hidden_size: 384 }));
after(() => rmSync(folder, { recursive: true, force: true }));

describe("OnnxEmbedder without transformers.js", () => {
  it("explains how to install the optional package and how to point at a local folder", {
    skip: installed() ? `${TRANSFORMERS_PACKAGE} is installed here` : false,
  }, async () => {
    await assert.rejects(OnnxEmbedder.open(folder, { source: "MEMBENCH_EMBEDDER" }), (error: unknown) => {
      assert.ok(error instanceof ConfigError);
      assert.equal(error.setting, "embedder");
      assert.equal(error.source, "MEMBENCH_EMBEDDER");
      assert.match(error.message, /not installed/);
      assert.ok(error.message.includes("ONNXRUNTIME_NODE_INSTALL=skip npm install @huggingface/transformers"));
      assert.match(error.message, /env\.allowRemoteModels = false/);
      assert.match(error.message, /env\.localModelPath/);
      return true;
    });
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
