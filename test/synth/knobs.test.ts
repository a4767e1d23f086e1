import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ConfigError } from "../../src/core/errors.ts";
import { describeKnobs, resolveKnobs } from "../../src/synth/knobs.ts";
import { type ToyKnobs, toyGenerator } from "./toy-generator.ts";

describe("synth knobs", () => {
  it("describes each knob from its schema: type, default, description", () => {
    const byName = Object.fromEntries(describeKnobs(toyGenerator).map((k) => [k.name, k]));
    assert.deepEqual(byName.instances, {
      name: "instances",
      type: "integer",
      default: 2,
      description: "number of questions, one instance each",
    });
    assert.equal(byName.topics?.type, "list of string");
    assert.deepEqual(byName.topics?.default, ["basil", "trains"]);
    assert.equal(byName.uppercase?.type, "boolean");
    assert.equal(byName.style?.type, "plain | chatty");
  });

  it("resolves defaults, --size, typed values and --knob text", () => {
    assert.deepEqual(resolveKnobs<ToyKnobs>(toyGenerator), {
      instances: 2,
      fillers: 1,
      topics: ["basil", "trains"],
      uppercase: false,
      style: "plain",
    });
    const k = resolveKnobs<ToyKnobs>(toyGenerator, {
      size: 5,
      values: { fillers: 3 },
      pairs: ["topics=tea, ships", "uppercase=true", "style=chatty"],
    });
    assert.equal(k.instances, 5);
    assert.equal(k.fillers, 3);
    assert.deepEqual(k.topics, ["tea", "ships"]);
    assert.equal(k.uppercase, true);
    assert.equal(k.style, "chatty");
    assert.deepEqual(resolveKnobs<ToyKnobs>(toyGenerator, { pairs: ['topics=["a,b"]'] }).topics, ["a,b"]);
    // --knob wins over --size: it is the more specific of the two.
    assert.equal(resolveKnobs<ToyKnobs>(toyGenerator, { size: 5, pairs: ["instances=4"] }).instances, 4);
  });

  it("refuses unknown knobs and bad values, naming the knob", () => {
    assert.throws(
      () => resolveKnobs(toyGenerator, { pairs: ["colour=red"] }),
      (e: Error) =>
        e instanceof ConfigError && /no knob "colour"/.test(e.message) && /instances, fillers/.test(e.message),
    );
    assert.throws(
      () => resolveKnobs(toyGenerator, { pairs: ["instances=0"] }),
      (e: Error) => e instanceof ConfigError && /knob instances/.test(e.message),
    );
    assert.throws(
      () => resolveKnobs(toyGenerator, { pairs: ["instances=two"] }),
      (e: Error) => e instanceof ConfigError && /knob instances/.test(e.message),
    );
    assert.throws(
      () => resolveKnobs(toyGenerator, { pairs: ["style=loud"] }),
      (e: Error) => e instanceof ConfigError && /knob style/.test(e.message),
    );
    assert.throws(() => resolveKnobs(toyGenerator, { pairs: ["novalue"] }), /expected key=value/);
    assert.throws(
      () => resolveKnobs({ ...toyGenerator, sizeKnob: undefined }, { size: 3 }),
      (e: Error) => e instanceof ConfigError && /no size knob/.test(e.message),
    );
  });
});
