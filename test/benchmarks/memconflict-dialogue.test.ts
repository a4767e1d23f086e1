import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseDialogue } from "../../src/benchmarks/memconflict/dialogue.ts";
import type { Reporter } from "../../src/benchmarks/memconflict/reporter.ts";
import { DataError, type DataErrorWhere } from "../../src/core/errors.ts";

const where = { file: "f.jsonl", record: "line 1 (persona p)", field: "Full_Session_Chain[0].Session_Dialogue" };

/** A reporter that records instead of throwing, like lenient mode. */
function recorder(): Reporter & { issues: string[]; warnings: string[] } {
  const issues: string[] = [];
  const warnings: string[] = [];
  const fmt = (m: string, w: DataErrorWhere) => `${w.field}: ${m}`;
  return {
    issues,
    warnings,
    issue: (m, w) => issues.push(fmt(m, w)),
    warn: (m, w) => warnings.push(fmt(m, w)),
  };
}

const strict: Reporter = {
  issue: (m, w) => {
    throw new DataError(m, w);
  },
  warn: () => {},
};

describe("memconflict dialogue parsing", () => {
  it("orders dialogue_turn_N numerically, not as text", () => {
    const r = recorder();
    const d = parseDialogue(
      {
        dialogue_turn_10: [{ role: "user", content: "ten" }],
        dialogue_turn_2: [{ role: "user", content: "two" }],
        dialogue_turn_1: [{ role: "user", content: "one" }],
        dialogue_turn_9: [{ role: "assistant", content: "nine" }],
      },
      "7",
      where,
      r,
    );
    assert.deepEqual(
      d.turns.map((t) => [t.id, t.index, t.content, t.meta?.dialogueTurn]),
      [
        ["7#0", 0, "one", 1],
        ["7#1", 1, "two", 2],
        ["7#2", 2, "nine", 9],
        ["7#3", 3, "ten", 10],
      ],
    );
    assert.deepEqual(r.issues, []);
  });

  it("reads every known message shape and counts the quirks", () => {
    const r = recorder();
    const d = parseDialogue(
      {
        dialogue_turn_1: [
          { role: "user", content: "plain" },
          { assistant: "content", content: "sentinel" },
          { assistant: { content: "nested under role" } },
          { role: "assistant" },
          { role: "User", content: "recased" },
          { role: "assistant", content: { content: "nested content" } },
          { user: "role key holds the text" },
          { role: "assistant", content: "named", name: "Helper" },
          { role: "user", content: "   " },
        ],
        dialogue_turn_2: { role: "assistant", content: "single object turn" },
      },
      "s",
      where,
      r,
    );
    assert.deepEqual(
      d.turns.map((t) => [t.role, t.content, t.speaker ?? null, t.meta?.quirk ?? null]),
      [
        ["user", "plain", null, null],
        ["assistant", "sentinel", null, "sentinel_role_key"],
        ["assistant", "nested under role", null, "role_key_object"],
        ["user", "recased", null, null],
        ["assistant", "nested content", null, "nested_content"],
        ["user", "role key holds the text", null, "role_key_text"],
        ["assistant", "named", "Helper", null],
        ["assistant", "single object turn", null, null],
      ],
    );
    assert.equal(d.messageCount, 10);
    assert.deepEqual(d.quirks, {
      uneven_turn: 2,
      sentinel_role_key: 1,
      role_key_object: 1,
      no_content: 2,
      role_case: 1,
      nested_content: 1,
      role_key_text: 1,
      single_message_turn: 1,
    });
    assert.deepEqual(r.issues, []);
  });

  it("skips keys that are not dialogue turns with a warning", () => {
    const r = recorder();
    const d = parseDialogue({ dialogue_turn_1: [{ role: "user", content: "hi" }], notes: "generated" }, "s", where, r);
    assert.equal(d.turns.length, 1);
    assert.deepEqual(r.warnings, [
      'Full_Session_Chain[0].Session_Dialogue.notes: skipped key "notes" that is not dialogue_turn_<n>',
    ]);
  });

  it("reports unreadable turns and messages with their path", () => {
    const r = recorder();
    const d = parseDialogue(
      {
        dialogue_turn_1: "just text",
        dialogue_turn_2: [null, { role: "narrator", content: "x" }, { role: "user", content: "kept" }],
      },
      "s",
      where,
      r,
    );
    assert.deepEqual(
      d.turns.map((t) => [t.id, t.content]),
      [["s#0", "kept"]],
    );
    assert.deepEqual(r.issues, [
      "Full_Session_Chain[0].Session_Dialogue.dialogue_turn_1: expected a list of messages, got string",
      "Full_Session_Chain[0].Session_Dialogue.dialogue_turn_2[0]: expected a message object, got null",
      'Full_Session_Chain[0].Session_Dialogue.dialogue_turn_2[1]: unknown role "narrator"',
    ]);
    assert.throws(
      () => parseDialogue([{ role: "user", content: "x" }], "s", where, strict),
      (e: unknown) =>
        e instanceof DataError && e.field === where.field && /expected an object of dialogue turns/.test(e.message),
    );
  });
});
