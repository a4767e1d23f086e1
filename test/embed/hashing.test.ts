import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { HashingEmbedder, hashingTokens } from "../../src/embed/hashing.ts";
import { cosine } from "../../src/embed/types.ts";

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("HashingEmbedder", () => {
  it("gives the identical vector for the same text across instances", async () => {
    const text = "Maya moved to Porto in March and adopted a grey cat named Pixel.";
    const [a] = await new HashingEmbedder().embed([text]);
    const [b] = await new HashingEmbedder().embed([text]);
    assert.deepEqual([...a!], [...b!]);
  });

  it("has the requested dimension, an id naming it, and unit length", async () => {
    const e = new HashingEmbedder(64);
    assert.equal(e.id, "hashing:64");
    assert.equal(e.dim, 64);
    const vectors = await e.embed(["one two three", "The quick brown fox jumps over the lazy dog."]);
    assert.equal(vectors.length, 2);
    for (const v of vectors) {
      assert.equal(v.length, 64);
      assert.ok(Math.abs(norm(v) - 1) < 1e-5);
    }
    assert.equal(new HashingEmbedder().dim, 256);
  });

  it("ignores case and punctuation but not word choice", () => {
    const e = new HashingEmbedder();
    assert.deepEqual([...e.embedOne("Hello, WORLD!")], [...e.embedOne("hello world")]);
    assert.notDeepEqual([...e.embedOne("hello world")], [...e.embedOne("hello there")]);
  });

  it("scores texts sharing words above unrelated ones", async () => {
    const [query, related, unrelated] = await new HashingEmbedder().embed([
      "when is my dentist appointment",
      "your dentist appointment is on Tuesday at 3 pm",
      "the recipe needs two cups of flour and an egg",
    ]);
    assert.ok(cosine(query!, related!) > cosine(query!, unrelated!) + 0.2);
  });

  it("maps a text without words to the zero vector", async () => {
    const [v] = await new HashingEmbedder(16).embed(["  ...  "]);
    assert.deepEqual([...v!], new Array(16).fill(0));
  });

  it("tokenises letters and digits in any script", () => {
    assert.deepEqual(hashingTokens("Café au lait, 2 Uhr — Straße"), ["café", "au", "lait", "2", "uhr", "straße"]);
  });

  it("rejects a dimension outside 1..65536", () => {
    assert.throws(() => new HashingEmbedder(0), ConfigError);
    assert.throws(() => new HashingEmbedder(2.5), ConfigError);
  });
});
