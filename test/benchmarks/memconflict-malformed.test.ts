import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadMemconflict } from "../../src/benchmarks/memconflict/index.ts";
import type { LoadOptions } from "../../src/benchmarks/types.ts";
import { DataError } from "../../src/core/errors.ts";
import type { Dataset } from "../../src/core/model.ts";
import { fixture } from "../support/shared-data.ts";

const LINES = readFileSync(fixture("memconflict/Step4_4.jsonl"), "utf8").trim().split("\n");
const P1 = "7d3f9a21-4b6e-8c05-1f2a-93e4b5c6d7e8";
const P2 = "c41e0b7a-2d9f-4e13-a6b8-5f07d2c9e311";
const dir = mkdtempSync(join(tmpdir(), "memconflict-bad-"));
let n = 0;

// biome-ignore lint/suspicious/noExplicitAny: test edits of free-form JSON records
type Json = any;

/** A copy of the fixture with `edit` applied to the parsed personas, in its own file. */
function variant(edit: (personas: Json[]) => void): string {
  const personas = LINES.map((l) => JSON.parse(l));
  edit(personas);
  return rawVariant(`${personas.map((p) => JSON.stringify(p)).join("\n")}\n`);
}

function rawVariant(text: string): string {
  const file = join(dir, `variant-${++n}.jsonl`);
  writeFileSync(file, text);
  return file;
}

async function rejects(
  file: string,
  where: { record?: string; field?: string; message: RegExp },
  options?: LoadOptions,
): Promise<DataError> {
  try {
    await loadMemconflict(file, options);
  } catch (error) {
    assert.ok(error instanceof DataError, `expected a DataError, got ${error}`);
    assert.equal(error.file, file);
    assert.equal(error.record, where.record);
    assert.equal(error.field, where.field);
    assert.match(error.message, where.message);
    return error;
  }
  assert.fail("expected the load to fail");
}

const lenient = (file: string): Promise<Dataset> => loadMemconflict(file, { strict: false });
const rec2 = `line 2 (persona ${P2})`;

describe("memconflict loader, malformed input", () => {
  it("names the line and persona of a truncated JSON line", async () => {
    const cut = LINES[1]?.slice(0, 5000) ?? "";
    const file = rawVariant(`${LINES[0]}\n${cut}\n`);
    await rejects(file, { record: rec2, field: "(line)", message: /invalid JSON \(the line looks truncated\)/ });
    await rejects(file, { record: rec2, field: "(line)", message: /truncated/ }, { strict: false });
  });

  it("names the full path of a missing required field", async () => {
    await rejects(
      variant((p) => {
        delete p[1].Full_Session_Chain[3].Session_Questions[0].answer;
      }),
      { record: rec2, field: "Full_Session_Chain[3].Session_Questions[0].answer", message: /missing/ },
    );
    await rejects(
      variant((p) => {
        delete p[0].ID;
      }),
      { record: "line 1", field: "ID", message: /missing/ },
    );
    await rejects(
      variant((p) => {
        delete p[0].Full_Session_Chain[2].Session_Dialogue;
      }),
      { record: `line 1 (persona ${P1})`, field: "Full_Session_Chain[2].Session_Dialogue", message: /missing/ },
    );
    await rejects(
      variant((p) => {
        delete p[0].Full_Session_Chain[4].Static_Conflict_Information[0].Conflict_ID;
      }),
      {
        record: `line 1 (persona ${P1})`,
        field: "Full_Session_Chain[4].Static_Conflict_Information[0].Conflict_ID",
        message: /missing/,
      },
    );
    await rejects(
      variant((p) => {
        p[1].Full_Session_Chain[2].Session_Questions[1].question = "  ";
      }),
      { record: rec2, field: "Full_Session_Chain[2].Session_Questions[1].question", message: /empty/ },
      { strict: false },
    );
    await rejects(
      variant((p) => {
        p[0].Full_Session_Chain[0].Date = undefined;
      }),
      { record: `line 1 (persona ${P1})`, field: "Full_Session_Chain[0].Date", message: /missing/ },
    );
  });

  it("rejects a line that is not a persona object", async () => {
    await rejects(rawVariant("[1, 2]\n"), { record: "line 1", field: "(root)", message: /expected an object/ });
    await rejects(rawVariant("\n\n"), { message: /no memconflict episodes found/ });
  });

  it("turns an unknown label into an error when strict and a warning when lenient", async () => {
    const file = variant((p) => {
      p[0].Full_Session_Chain[4].Session_Questions[5].conflict_type = "temporal_conflict";
    });
    const field = "Full_Session_Chain[4].Session_Questions[5].conflict_type";
    await rejects(file, {
      record: `line 1 (persona ${P1})`,
      field,
      message: /unknown conflict_type "temporal_conflict"/,
    });
    const ds = await lenient(file);
    const probe = ds.episodes[0]?.probes.find((p) => p.id === `${P1}:4:Q_006`);
    assert.equal(probe?.labels.conflict_type, "temporal_conflict");
    assert.ok(ds.warnings.some((w) => w.includes(field) && w.includes("temporal_conflict")));

    for (const [key, value] of [
      ["ability_target", "remember_everything"],
      ["difficulty", "extreme"],
    ] as const) {
      const f = variant((p) => {
        p[1].Full_Session_Chain[3].Session_Questions[0][key] = value;
      });
      const path = `Full_Session_Chain[3].Session_Questions[0].${key}`;
      await rejects(f, { record: rec2, field: path, message: new RegExp(`unknown ${key} "${value}"`) });
      const l = await lenient(f);
      assert.equal(
        l.episodes[1]?.probes.find((p) => p.id === `${P2}:3:Q_001`)?.labels[
          key === "difficulty" ? "difficulty" : "ability"
        ],
        value,
      );
      assert.equal(l.warnings.length, 1);
    }
  });

  it("treats an unknown session type, record role or date like a label", async () => {
    const cases: Array<[(p: Json[]) => void, string, RegExp]> = [
      [
        (p) => {
          p[0].Full_Session_Chain[2].Session_Type = "smalltalk";
        },
        "Full_Session_Chain[2].Session_Type",
        /unknown Session_Type "smalltalk"/,
      ],
      [
        (p) => {
          p[0].Full_Session_Chain[0].Static_Conflict_Information[0].Role = "Point_A1";
        },
        "Full_Session_Chain[0].Static_Conflict_Information[0].Role",
        /unknown role "Point_A1"/,
      ],
      [
        (p) => {
          p[0].Full_Session_Chain[5].Date = "sometime in May";
        },
        "Full_Session_Chain[5].Date",
        /cannot read the date/,
      ],
    ];
    for (const [edit, field, message] of cases) {
      const file = variant(edit);
      await rejects(file, { record: `line 1 (persona ${P1})`, field, message });
      const ds = await lenient(file);
      assert.equal(ds.episodes.length, 2);
      assert.ok(ds.warnings.some((w) => w.includes(field)));
    }
  });

  it("rejects duplicate persona, session and question ids", async () => {
    await rejects(rawVariant(`${LINES.join("\n")}\n${LINES[0]}\n`), {
      record: `line 3 (persona ${P1})`,
      field: "id",
      message: /duplicate episode id/,
    });
    await rejects(
      variant((p) => {
        p[0].Full_Session_Chain[1].Session_ID = 0;
      }),
      {
        record: `line 1 (persona ${P1})`,
        field: "Full_Session_Chain[1].Session_ID",
        message: /duplicate Session_ID "0"/,
      },
      { strict: false },
    );
    await rejects(
      variant((p) => {
        p[1].Full_Session_Chain[2].Session_Questions[2].question_id = "Q_001";
      }),
      {
        record: rec2,
        field: "Full_Session_Chain[2].Session_Questions[2].question_id",
        message: /duplicate question_id/,
      },
      { strict: false },
    );
  });

  it("checks the declared question counts", async () => {
    const file = variant((p) => {
      p[0].Full_Session_Chain[3].Session_Question_Count = 4;
    });
    await rejects(file, {
      record: `line 1 (persona ${P1})`,
      field: "Full_Session_Chain[3].Session_Question_Count",
      message: /declares 4 questions but holds 5/,
    });
    const ds = await lenient(file);
    assert.equal(ds.episodes[0]?.probes.length, 15);
    await rejects(
      variant((p) => {
        p[1].Total_Session_Question_Count = 8;
      }),
      { record: rec2, field: "Total_Session_Question_Count", message: /declares 8 questions but holds 7/ },
    );
  });

  it("reports a message without a role, and drops it when lenient", async () => {
    const file = variant((p) => {
      p[0].Full_Session_Chain[0].Session_Dialogue.dialogue_turn_1[0] = { speaker: "Marta", text: "Hello" };
    });
    const field = "Full_Session_Chain[0].Session_Dialogue.dialogue_turn_1[0]";
    await rejects(file, {
      record: `line 1 (persona ${P1})`,
      field,
      message: /no role in message with keys \[speaker, text\]/,
    });
    const ds = await lenient(file);
    assert.equal(ds.episodes[0]?.sessions[0]?.turns.length, 5);
    assert.equal(ds.episodes[0]?.sessions[0]?.turns[0]?.id, "0#0");
  });

  it("warns, in both modes, about a session without dialogue", async () => {
    const ds = await loadMemconflict(
      variant((p) => {
        p[1].Full_Session_Chain[4].Session_Dialogue = {};
      }),
    );
    assert.equal(ds.episodes[1]?.sessions[4]?.turns.length, 0);
    assert.deepEqual(
      ds.warnings.map((w) => w.replace(/^file \S+, /, "")),
      [`record ${rec2}, field Full_Session_Chain[4].Session_Dialogue: session 4 has no dialogue messages`],
    );
  });

  it("refuses a file that mixes direct and implicit personas unless lenient", async () => {
    const implicitLine = readFileSync(fixture("memconflict/implicit/Step4_4_indirect.jsonl"), "utf8").split("\n")[1];
    const file = rawVariant(`${LINES[0]}\n${implicitLine}\n`);
    await rejects(file, { message: /mixes query styles \(direct, implicit\)/ });
    const ds = await lenient(file);
    assert.equal(ds.variant, "implicit");
    assert.deepEqual(
      ds.episodes.map((e) => e.probes[0]?.labels.query_style),
      ["direct", "implicit"],
    );
  });

  it("refuses a folder with several release files", async () => {
    const root = mkdtempSync(join(tmpdir(), "memconflict-two-"));
    for (const sub of ["a", "b"]) {
      mkdirSync(join(root, sub));
      writeFileSync(join(root, sub, "Step4_4.jsonl"), `${LINES[0]}\n`);
    }
    await assert.rejects(loadMemconflict(root), (e: unknown) => {
      assert.ok(e instanceof DataError);
      assert.equal(e.file, root);
      assert.match(e.message, /several release files found/);
      return true;
    });
    await assert.rejects(loadMemconflict(join(root, "missing.jsonl")), /no such file or folder/);
  });
});

describe("memconflict evidence, when the records do not fit the template", () => {
  it("falls back to all records of the question's type when the ids do not follow the template", async () => {
    const ds = await loadMemconflict(
      variant((p) => {
        p[0].Full_Session_Chain[4].Session_Questions.forEach((q: Json, i: number) => {
          q.question_id = `Q_${101 + i}`;
        });
      }),
    );
    assert.deepEqual(ds.warnings, []);
    const probes = ds.episodes[0]?.probes.filter((p) => p.position.at === "after" && p.position.sessionId === "4");
    assert.deepEqual(
      probes?.map((p) => [p.id.slice(P1.length + 1), p.meta?.evidenceTie, p.gold.evidenceSessionIds]),
      [
        ["4:Q_101", "type", ["1", "4"]],
        ["4:Q_102", "type", ["1", "4"]],
        ["4:Q_103", "type", ["1", "4"]],
        ["4:Q_104", "type", ["1", "4"]],
        ["4:Q_105", "type", ["1", "4"]],
        ["4:Q_106", "type", ["0", "4"]],
      ],
    );
    // Tied to the whole career change, not to one field.
    assert.match(probes?.[2]?.gold.evidenceMemories[0] ?? "", /^User's career status changed from/);
  });

  it("ties nothing, with a warning, when the session has no record of the question's type", async () => {
    const ds = await loadMemconflict(
      variant((p) => {
        p[1].Full_Session_Chain[2].Session_Questions[0].conflict_type = "static_conflict";
      }),
    );
    const probes = ds.episodes[1]?.probes.filter((p) => p.position.at === "after" && p.position.sessionId === "2");
    assert.deepEqual(
      probes?.map((p) => [p.labels.conflict_type, p.meta?.evidenceTie, p.gold.evidenceSessionIds]),
      [
        ["static", "none", []],
        ["dynamic", "type", ["0", "2"]],
        ["dynamic", "type", ["0", "2"]],
        ["dynamic", "type", ["0", "2"]],
      ],
    );
    assert.deepEqual(probes?.[1]?.meta?.attributes, ["Social_Status", "Marital_Status"]);
    assert.deepEqual(probes?.[0]?.gold.answers, ["Yes."]);
    assert.equal(ds.warnings.length, 1);
    assert.match(ds.warnings[0] ?? "", /Q_001 matches no static_conflict record of session 2/);
    assert.match(ds.warnings[0] ?? "", /field Full_Session_Chain\[2\]\.Session_Questions\[0\]\.question_id/);
  });

  it("keeps only the claim's session, with a warning, when a static Point_A is missing", async () => {
    const ds = await loadMemconflict(
      variant((p) => {
        p[0].Full_Session_Chain[1].Static_Conflict_Information = [];
      }),
    );
    const probe = ds.episodes[0]?.probes.find((p) => p.id === `${P1}:5:Q_001`);
    assert.deepEqual(probe?.gold.evidenceSessionIds, ["5"]);
    assert.deepEqual(probe?.gold.evidenceMemories, []);
    assert.deepEqual(probe?.meta?.conflictingClaims, ["Marine Engineering"]);
    assert.equal(probe?.meta?.trueValues, undefined);
    assert.equal(ds.warnings.length, 1);
    assert.match(ds.warnings[0] ?? "", /Q_001: static conflict SC_002 has no Point_A before its Point_B/);
  });

  it("keeps only the update session, with a warning, when nothing earlier states the attribute", async () => {
    const ds = await loadMemconflict(
      variant((p) => {
        p[0].Full_Session_Chain[0].Revealed_Attributes = { Work_Status: { Current_State: "Busy" } };
      }),
    );
    const probe = ds.episodes[0]?.probes.find((p) => p.id === `${P1}:3:Q_001`);
    assert.deepEqual(probe?.gold.evidenceSessionIds, ["3"]);
    assert.equal(probe?.meta?.distance, 0);
    assert.equal(ds.warnings.length, 2);
    assert.match(ds.warnings[0] ?? "", /Q_001: no earlier session states Residence/);
  });
});
