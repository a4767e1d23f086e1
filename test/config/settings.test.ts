import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { resolveNumber, resolveSetting } from "../../src/config/settings.ts";
import { ConfigError } from "../../src/core/errors.ts";

describe("settings precedence", () => {
  const env = { MEMBENCH_MODEL: "env-model", OPENAI_BASE_URL: "http://openai-env/v1" };
  const file = { model: "file-model", baseUrl: "http://file/v1", concurrency: 3 };

  it("flags > env > config file > defaults", () => {
    assert.deepEqual(resolveSetting("model", { flags: { model: "flag-model" }, env, file }), {
      value: "flag-model",
      source: "flag",
      from: "--model",
    });
    assert.equal(resolveSetting("model", { env, file }).value, "env-model");
    assert.equal(resolveSetting("model", { env: {}, file }).source, "config file");
    assert.equal(resolveSetting("model", { env: {}, file: {} }).source, "default");
  });

  it("prefers MEMBENCH_* over OPENAI_* variables", () => {
    assert.equal(resolveSetting("baseUrl", { env }).from, "OPENAI_BASE_URL");
    assert.equal(
      resolveSetting("baseUrl", { env: { ...env, MEMBENCH_BASE_URL: "http://mb/v1" } }).value,
      "http://mb/v1",
    );
  });

  it("never reads secrets from the config file", () => {
    assert.throws(() => resolveSetting("apiKey", { env: {}, file: { apiKey: "sk-123" } }), ConfigError);
  });

  it("validates numbers and names their source", () => {
    assert.equal(resolveNumber("concurrency", { env: {}, file }, 8).value, 3);
    assert.throws(
      () => resolveNumber("concurrency", { env: { MEMBENCH_CONCURRENCY: "lots" } }, 8),
      /concurrency \(from MEMBENCH_CONCURRENCY\)/,
    );
  });
});
