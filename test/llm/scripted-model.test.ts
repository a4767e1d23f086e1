import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { DataError, ModelError } from "../../src/core/errors.ts";
import { createChatModel, withModelName } from "../../src/llm/create.ts";
import { parseScript, SCRIPTED_HELP, ScriptedChatModel } from "../../src/llm/scripted-model.ts";
import type { ChatRequest, ModelRole } from "../../src/llm/types.ts";
import { countTokens } from "../../src/tokens/count.ts";

const dir = mkdtempSync(join(tmpdir(), "membench-scripted-"));

function script(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${lines.join("\n")}\n`);
  return file;
}

const ask = (role: ModelRole, content: string): ChatRequest => ({
  role,
  messages: [
    { role: "system", content: "You are terse." },
    { role: "user", content: "an earlier question" },
    { role: "assistant", content: "an earlier answer" },
    { role: "user", content },
  ],
});

const file = script("rules.jsonl", [
  "# judges disagree about the bakery",
  '{"role": "judge", "model": "judge-a", "match": "bakery", "reply": {"label": "CORRECT"}}',
  '{"role": "judge", "model": "judge-b", "match": "bakery", "reply": {"label": "WRONG"}}',
  "",
  '{"role": "answerer", "match": "^When did .* move", "flags": "i", "reply": "In March 2021."}',
  '{"role": "answerer", "match": "move", "reply": "second rule, never reached for when-questions"}',
  '{"role": "extractor", "reply": ["fact one", "fact two"]}',
  '{"match": "weather", "reply": "Sunny."}',
]);

describe("ScriptedChatModel", () => {
  it("answers with the first rule whose role and regex match the last user message", async () => {
    const model = new ScriptedChatModel({ file });
    assert.equal(model.id, "scripted:scripted");
    assert.equal((await model.chat(ask("answerer", "when did Ana move to Porto?"))).text, "In March 2021.");
    assert.equal(
      (await model.chat(ask("answerer", "Ana will move soon"))).text,
      "second rule, never reached for when-questions",
    );
    // A role-less rule serves every role.
    assert.equal((await model.chat(ask("generator", "what weather today"))).text, "Sunny.");
    assert.equal((await model.chat(ask("judge", "and the weather?"))).text, "Sunny.");
  });

  it("matches the regex against the last user message only", async () => {
    const model = new ScriptedChatModel({ file });
    const req: ChatRequest = {
      role: "answerer",
      messages: [
        { role: "user", content: "when did Ana move?" },
        { role: "assistant", content: "weather" },
        { role: "user", content: "something unrelated" },
      ],
    };
    await assert.rejects(model.chat(req), ModelError);
  });

  it("lets distinct named judges disagree", async () => {
    const a = createChatModel({ spec: withModelName(`scripted:${file}`, "judge-a") });
    const b = createChatModel({ spec: withModelName(`scripted:${file}`, "judge-b") });
    assert.equal(a.id, "scripted:judge-a");
    assert.equal(b.model, "judge-b");
    assert.equal((await a.chat(ask("judge", "is the bakery answer right?"))).text, '{"label":"CORRECT"}');
    assert.equal((await b.chat(ask("judge", "is the bakery answer right?"))).text, '{"label":"WRONG"}');
  });

  it("sends object and array replies as JSON text and counts tokens", async () => {
    const model = new ScriptedChatModel({ file });
    const req = ask("extractor", "extract facts");
    const result = await model.chat(req);
    assert.equal(result.text, '["fact one","fact two"]');
    assert.deepEqual(JSON.parse(result.text), ["fact one", "fact two"]);
    assert.equal(result.cached, false);
    assert.equal(result.usage.outputTokens, countTokens('["fact one","fact two"]'));
    assert.equal(
      result.usage.inputTokens,
      req.messages.reduce((s, m) => s + countTokens(m.content), 0),
    );
    assert.ok(result.usage.inputTokens > 5);
  });

  it("fails with a non-retryable ModelError naming role, model and message when nothing matches", async () => {
    const model = new ScriptedChatModel({ file, name: "judge-c" });
    const error = await model.chat(ask("judge", "is the bakery answer right?")).catch((e: unknown) => e);
    assert.ok(error instanceof ModelError);
    assert.equal(error.retryable, false);
    assert.match(error.message, /role "judge"/);
    assert.match(error.message, /model "judge-c"/);
    assert.match(error.message, /is the bakery answer right\?/);
    assert.ok(error.message.includes(file));
  });

  it("rejects bad rule lines with a DataError naming file and line", () => {
    const cases: [string, RegExp, string | undefined][] = [
      ["{not json", /not valid JSON/, undefined],
      ['{"match": "x"}', /reply/, "reply"],
      ['{"role": "critic", "reply": "x"}', /role|option/i, "role"],
      ['{"reply": "x", "repl": "y"}', /unknown field\(s\) repl/, undefined],
      ['{"match": "(", "reply": "x"}', /bad regular expression/, "match"],
      ['{"flags": "i", "reply": "x"}', /flags given without match/, "flags"],
      ['{"reply": 42}', /./, "reply"],
    ];
    for (const [line, message, field] of cases) {
      const text = `{"reply": "fine"}\n\n${line}\n`;
      assert.throws(
        () => parseScript(text, "judges.jsonl"),
        (e: unknown) => {
          assert.ok(e instanceof DataError, `${line}: ${String(e)}`);
          assert.equal(e.file, "judges.jsonl");
          assert.equal(e.record, "line 3");
          assert.equal(e.field, field, line);
          assert.match(e.message, message);
          return true;
        },
      );
    }
  });

  it("reports an unreadable script file as a DataError", () => {
    assert.throws(
      () => new ScriptedChatModel({ file: join(dir, "missing.jsonl") }),
      (e: unknown) => e instanceof DataError && e.file === join(dir, "missing.jsonl"),
    );
  });

  it("ignores g and y flags so matching does not depend on earlier calls", async () => {
    const model = new ScriptedChatModel({
      file: script("g.jsonl", ['{"match": "cat", "flags": "gi", "reply": "meow"}']),
    });
    for (let i = 0; i < 3; i++) assert.equal((await model.chat(ask("answerer", "a Cat"))).text, "meow");
  });

  it("documents the format for --help", () => {
    for (const word of ["scripted:FILE", "role", "model", "match", "reply", "first rule"]) {
      assert.ok(SCRIPTED_HELP.includes(word), word);
    }
  });
});
