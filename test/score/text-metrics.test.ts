import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  bestOver,
  exactMatch,
  normalizeAnswer,
  parseAnswerLine,
  rougeL,
  substringMatch,
  tokenF1,
} from "../../src/score/text-metrics.ts";

describe("text metrics", () => {
  it("normalises like SQuAD", () => {
    assert.equal(normalizeAnswer("  The Eiffel-Tower, in Paris! "), "eiffeltower in paris");
    assert.equal(normalizeAnswer("An apple a day"), "apple day");
  });

  it("EM, SubEM and F1", () => {
    assert.equal(exactMatch("the Paris", "paris"), 1);
    assert.equal(substringMatch("It is in Paris, France.", "Paris"), 1);
    assert.equal(substringMatch("Lyon", "Paris"), 0);
    // pred tokens: [red, car], gold: [red, bike] → P = R = .5
    assert.equal(tokenF1("a red car", "the red bike"), 0.5);
    assert.equal(tokenF1("yes", "no"), 0);
    assert.equal(tokenF1("", "x"), 0);
    assert.equal(
      bestOver(["bike", "red car"], (g) => tokenF1("red car", g)),
      1,
    );
  });

  it("ROUGE-L uses the longest common subsequence", () => {
    // LCS of "a b c d" and "a c d e" = 3: P = 3/4, R = 3/4
    assert.equal(rougeL("a b c d", "a c d e"), 0.75);
  });

  it("parses the answer line", () => {
    assert.equal(parseAnswerLine("Reasoning...\nAnswer: 42\nmore"), "42");
    assert.equal(parseAnswerLine("first line\nsecond"), "first line");
    assert.equal(parseAnswerLine("Answer: Answer: x"), "x");
  });
});
