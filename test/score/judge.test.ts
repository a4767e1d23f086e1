import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { z } from "zod";
import { ConfigError } from "../../src/core/errors.ts";
import { OpenAIChatModel } from "../../src/llm/openai-model.ts";
import { ScriptedChatModel } from "../../src/llm/scripted-model.ts";
import { describeJudgeFailures, judgeAll, majority, type NamedJudge, verdictScores } from "../../src/score/judge.ts";
import { PromptSet } from "../../src/score/prompts.ts";
import { suiteStub } from "../support/openai-stub.ts";

const Verdict = z.object({ correct: z.boolean(), reason: z.string() });

function setup() {
  const dir = mkdtempSync(join(tmpdir(), "mb-judge-"));
  const prompts = join(dir, "my-prompts");
  mkdirSync(join(prompts, "toy"), { recursive: true });
  writeFileSync(join(prompts, "toy", "qa.md"), "OVERRIDE WORDING. Question: {{question}}\nAnswer: {{answer}}\n");
  const script = join(dir, "judges.jsonl");
  writeFileSync(
    script,
    [
      { role: "judge", model: "a", match: "OVERRIDE WORDING", reply: { correct: true, reason: "ok" } },
      { role: "judge", model: "b", match: "OVERRIDE WORDING", reply: { correct: false, reason: "no" } },
      { role: "judge", model: "c", match: "OVERRIDE WORDING", reply: "this is not json" },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n"),
  );
  const judge = (name: string): NamedJudge => ({ name, model: new ScriptedChatModel({ file: script, name }) });
  return { prompts: new PromptSet(prompts), judge };
}

describe("judges", () => {
  it("uses the user's prompt folder, names it, and records the template hash", async () => {
    const { prompts, judge } = setup();
    const [v] = await judgeAll(
      { bench: "toy", template: "qa", vars: { question: "q?", answer: "a" }, schema: Verdict },
      { judges: [judge("a")], runs: 1, prompts },
    );
    assert.equal(v?.ok, true);
    assert.deepEqual(v?.value, { correct: true, reason: "ok" });
    assert.equal(v?.promptSet, "my-prompts");
    assert.equal(v?.template, "toy/qa");
    assert.equal(v?.templateHash.length, 16);
  });

  it("records an unparseable verdict as a failure and majority-votes disagreeing judges", async () => {
    const { prompts, judge } = setup();
    const verdicts = await judgeAll(
      { bench: "toy", template: "qa", vars: { question: "q?", answer: "a" }, schema: Verdict },
      { judges: [judge("a"), judge("b"), judge("c")], runs: 1, prompts },
    );
    assert.deepEqual(
      verdicts.map((v) => [v.judge, v.ok]),
      [
        ["a", true],
        ["b", true],
        ["c", false],
      ],
    );
    assert.match(verdicts[2]!.failure ?? "", /json|JSON|parse/);
    const scores = verdictScores(verdicts, (v) => (v.correct ? 1 : 0), 0);
    assert.deepEqual(scores, [1, 0, 0]);
    assert.equal(majority(scores, 0), 0);
    assert.equal(majority([1, 1, 0], 0), 1);
    assert.equal(majority([1, 0], 0), 0, "a tie goes to the worse outcome");
    assert.equal(majority([3, 2, 2, 3], 0), 2);
    assert.equal(majority([], 0), 0);
  });

  it("refuses a template variable that is not provided", async () => {
    const { prompts } = setup();
    assert.throws(() => prompts.render("toy", "qa", { question: "q" }), ConfigError);
  });
});

describe("judge failures name their cause", () => {
  const stub = suiteStub();
  const call = { bench: "toy", template: "qa", vars: { question: "q?", answer: "a" }, schema: Verdict };

  it("an endpoint error is an endpoint failure, not an unparsable reply; both score as the worst outcome", async () => {
    const { prompts } = setup();
    const judge = (name: string): NamedJudge => ({
      name,
      model: new OpenAIChatModel({ model: name, baseUrl: stub().url }),
    });
    stub().enqueueFailure({ status: 503 });
    const [down] = await judgeAll(call, { judges: [judge("j")], runs: 1, prompts });
    assert.equal(down?.ok, false);
    assert.equal(down?.failureCause, "endpoint");
    assert.match(down?.failure ?? "", /\[503\]/);
    assert.equal(down?.reply, undefined, "no reply arrived");

    stub().enqueueReply("I think it is right", "still no json");
    const [garbled] = await judgeAll(call, { judges: [judge("j")], runs: 1, prompts });
    assert.equal(garbled?.ok, false);
    assert.equal(garbled?.failureCause, "unparsable");
    assert.equal(garbled?.reply, "still no json");
    assert.deepEqual(
      verdictScores([down!, garbled!], (v) => (v.correct ? 1 : 0), 0),
      [0, 0],
    );

    assert.equal(
      describeJudgeFailures([down!, garbled!, garbled!].map((v) => ({ cause: v.failureCause, reason: v.failure! }))),
      "2 unparsable replies, 1 endpoint failure",
    );
  });

  it("infers the cause of verdicts stored before causes were recorded", () => {
    assert.equal(
      describeJudgeFailures([
        { reason: 'structured output "qa" unusable after one repair: no complete JSON object in the reply' },
        { reason: "http://127.0.0.1:1/v1 [500]: chat completion with model j failed: boom" },
      ]),
      "1 unparsable reply, 1 endpoint failure",
    );
  });
});

describe("prompt variables", () => {
  it("refuses a template variable that is not provided", async () => {
    const { prompts } = setup();
    assert.throws(() => prompts.render("toy", "qa", { question: "q" }), ConfigError);
  });
});
