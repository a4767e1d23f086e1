import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { lexicalTokens } from "../../src/text/tokenize.ts";

describe("lexicalTokens", () => {
  it("lowercases, drops stopwords and punctuation, keeps repeats and digits", () => {
    assert.deepEqual(lexicalTokens("The Cat sat on THE mat, the cat! In 2024."), ["cat", "sat", "mat", "cat", "2024"]);
  });

  it("keeps question words that say what is asked", () => {
    assert.deepEqual(lexicalTokens("When and where did Anna move?"), ["when", "where", "anna", "move"]);
  });

  it("cuts the possessive and treats curly apostrophes like straight ones", () => {
    assert.deepEqual(lexicalTokens("My sister’s café isn't open"), ["sister", "café", "open"]);
  });

  it("does not stem", () => {
    assert.deepEqual(lexicalTokens("running runs"), ["running", "runs"]);
  });
});
