import assert from "node:assert/strict";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadMemora } from "../../src/benchmarks/memora/index.ts";
import { rejectsAt } from "../support/data-error.ts";
import { fixture } from "../support/shared-data.ts";

const tmp = mkdtempSync(join(tmpdir(), "memora-bad-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

// biome-ignore lint/suspicious/noExplicitAny: the edits reach deep into parsed release JSON
type Json = Record<string, any>;

interface Copy {
  root: string;
  dir: string;
  questions: string;
  session: (n: number) => string;
}

let counter = 0;
/** A fresh copy of the fixture as `<root>/weekly/museum_curator/`. */
function copy(): Copy {
  const root = join(tmp, `case-${counter++}`);
  const dir = join(root, "weekly", "museum_curator");
  cpSync(fixture("memora/weekly/museum_curator"), dir, { recursive: true });
  return {
    root,
    dir,
    questions: join(dir, "evaluation_questions_museum_curator.json"),
    session: (n) => join(dir, "conversations", `session_${String(n).padStart(4, "0")}.json`),
  };
}

function edit(file: string, change: (doc: Json) => void): void {
  const doc = JSON.parse(readFileSync(file, "utf8")) as Json;
  change(doc);
  writeFileSync(file, JSON.stringify(doc, null, 2));
}

describe("memora malformed input", () => {
  it("rejects a truncated session file, naming the file and where it broke", async () => {
    const c = copy();
    const text = readFileSync(c.session(3), "utf8");
    writeFileSync(c.session(3), text.slice(0, Math.floor(text.length / 2)));
    const where = { file: c.session(3), message: /invalid JSON at line \d+, column \d+/ };
    await rejectsAt(loadMemora(c.root), where);
    await rejectsAt(loadMemora(c.root, { strict: false }), where);
  });

  it("rejects a truncated evaluation file", async () => {
    const c = copy();
    writeFileSync(c.questions, readFileSync(c.questions, "utf8").slice(0, 400));
    await rejectsAt(loadMemora(c.dir), { file: c.questions, message: /invalid JSON at line 14, column \d+/ });
  });

  it("rejects a question without its text, in both modes", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      delete d.questions.reasoning[1].question;
    });
    const where = {
      file: c.questions,
      record: "questions.reasoning[1] activity_food_total_5",
      field: "question",
      message: /missing/,
    };
    await rejectsAt(loadMemora(c.root), where);
    await rejectsAt(loadMemora(c.root, { strict: false }), where);
  });

  it("rejects a criterion without its evaluation_type", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      delete d.questions.recommending[0].evaluation.evaluation_questions[1].evaluation_type;
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.questions,
      record: "questions.recommending[0] pref_books_general_5 evaluation.evaluation_questions[1]",
      field: "evaluation_type",
      message: /missing/,
    });
  });

  it("rejects a session without its date, or with a date that is not a day", async () => {
    const c = copy();
    edit(c.session(2), (d) => {
      delete d.date;
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.session(2),
      record: "session_0002",
      field: "date",
      message: /missing/,
    });
    edit(c.session(2), (d) => {
      d.date = "sometime in June";
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.session(2),
      record: "session_0002",
      field: "date",
      message: /expected a YYYY-MM-DD day/,
    });
  });

  it("rejects a turn without a message", async () => {
    const c = copy();
    edit(c.session(4), (d) => {
      delete d.conversation[2].message;
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.session(4),
      record: "session_0004 conversation[2]",
      field: "message",
      message: /missing/,
    });
  });

  it("an unknown task is an error when strict and a labelled warning when lenient", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.summarising = d.questions.recommending;
      delete d.questions.recommending;
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.questions,
      record: "(root)",
      field: "questions.summarising",
      message: /unknown task "summarising"/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    assert.equal(ds.warnings.length, 1);
    assert.match(ds.warnings[0]!, /field questions\.summarising: unknown task "summarising"/);
    const tasks = ds.episodes[0]!.probes.map((p) => p.labels.task);
    assert.deepEqual(tasks, ["Remembering", "Reasoning", "Reasoning", "summarising", "summarising"]);
  });

  it("an unknown evaluation_type is an error when strict; lenient skips the criterion with warnings", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.recommending[1].evaluation.evaluation_questions[0].evaluation_type = "memory_recall";
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.questions,
      record: "questions.recommending[1] pref_books_authors_5",
      field: "evaluation.evaluation_questions[0].evaluation_type",
      message: /unknown evaluation_type "memory_recall"/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    const p = ds.episodes[0]!.probes.find((x) => x.id === "pref_books_authors_5")!;
    assert.deepEqual(
      p.gold.criteria.map((x) => x.kind),
      ["absence"],
    );
    assert.equal(ds.warnings.length, 2);
    assert.match(ds.warnings[0]!, /unknown evaluation_type/);
    // The stated count no longer matches what was kept.
    assert.match(ds.warnings[1]!, /field evaluation\.memory_presence_questions: says 1 but the list has 0/);
  });

  it("a criterion whose expected answer contradicts its kind is flagged", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.recommending[0].evaluation.evaluation_questions[1].expected_answer = "yes";
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.questions,
      record: "questions.recommending[0] pref_books_general_5",
      field: "evaluation.evaluation_questions[1].expected_answer",
      message: /forgetting_absence criterion should expect "no", got "yes"/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    const crit = ds.episodes[0]!.probes.find((x) => x.id === "pref_books_general_5")!.gold.criteria[1]!;
    assert.deepEqual([crit.kind, crit.expected], ["absence", "yes"]);
  });

  it("an unknown speaker is an error when strict; lenient drops the turn", async () => {
    const c = copy();
    edit(c.session(3), (d) => {
      d.conversation[3].speaker = "narrator";
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.session(3),
      record: "session_0003",
      field: "conversation[3].speaker",
      message: /unknown speaker "narrator"/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    assert.deepEqual(
      ds.episodes[0]!.sessions[2]!.turns.map((t) => t.id),
      ["session_0003:1", "session_0003:2", "session_0003:3"],
    );
    assert.equal(ds.warnings.length, 1);
  });

  it("a question id outside the generator's templates is flagged and left without a subtype", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.reasoning[1].question_id = "my_own_question";
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.questions,
      record: "questions.reasoning[1] my_own_question",
      field: "question_id",
      message: /known Memora question template/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    const p = ds.episodes[0]!.probes[2]!;
    assert.equal(p.id, "my_own_question");
    assert.deepEqual(p.labels, { task: "Reasoning", duration: "weekly", persona: "museum_curator" });
  });

  it("a question filed under the wrong task is flagged", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.reasoning.push(d.questions.recommending.pop());
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.questions,
      record: "questions.reasoning[2] pref_books_authors_5",
      field: "question_id",
      message: /is a Recommending question but is filed under Reasoning/,
    });
  });

  it("rejects a duplicate question id in both modes", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.recommending[1].question_id = "pref_books_general_5";
    });
    const where = {
      file: c.questions,
      record: "questions.recommending[1] pref_books_general_5",
      field: "question_id",
      message: /duplicate question_id "pref_books_general_5" \(also questions\.recommending\[0\]\)/,
    };
    await rejectsAt(loadMemora(c.root), where);
    await rejectsAt(loadMemora(c.root, { strict: false }), where);
  });

  it("rejects two session files with one session_id in both modes", async () => {
    const c = copy();
    const twin = join(c.dir, "conversations", "session_04.json");
    copyFileSync(c.session(4), twin);
    for (const strict of [true, false]) {
      await rejectsAt(loadMemora(c.root, { strict }), {
        file: twin,
        record: "session_0004",
        field: "session_id",
        message: /duplicate session_id 4 \(also in .*session_0004\.json\)/,
      });
    }
  });

  it("a missing session file is refused when strict and a warning when lenient", async () => {
    const c = copy();
    rmSync(c.session(3));
    await rejectsAt(loadMemora(c.root), {
      file: join(c.dir, "conversations"),
      record: undefined,
      field: undefined,
      message: /no file for session 3 \(session_0003\.json\); the sessions run from 1 to 5/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    assert.equal(ds.episodes[0]!.sessions.length, 4);
    assert.ok(ds.warnings.some((w) => /no file for session 3/.test(w)));
  });

  it("missing session files at the end are refused: the question ids name the last session", async () => {
    const c = copy();
    rmSync(c.session(5));
    rmSync(c.session(4));
    await rejectsAt(loadMemora(c.root), {
      file: join(c.dir, "conversations"),
      record: undefined,
      field: undefined,
      message:
        /no file for sessions 4–5 \(session_0004\.json … session_0005\.json\); the questions are asked after session 5 \(the number in their ids\)/,
    });
  });

  it("a session_id that disagrees with its file name is flagged", async () => {
    const c = copy();
    edit(c.session(5), (d) => {
      d.session_id = 6;
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.session(5),
      record: "session_0006",
      field: "session_id",
      message: /session_id 6 does not match the file name/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    // The id follows session_id, which is what the evidence refers to; so session_0005 no longer resolves.
    assert.equal(ds.episodes[0]!.sessions.at(-1)!.id, "session_0006");
    assert.ok(ds.warnings.some((w) => /evidence session "session_0005" not in the history/.test(w)));
  });

  it("a day that steps backwards is flagged", async () => {
    const c = copy();
    edit(c.session(5), (d) => {
      d.date = "2025-05-31";
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.session(5),
      record: "session_0005",
      field: "date",
      message: /date 2025-05-31 is before 2025-06-02 of the previous session session_0004/,
    });
    const ds = await loadMemora(c.root, { strict: false });
    // Order stays the release's own (session_id), not the dates.
    assert.deepEqual(ds.episodes[0]!.sessions.map((s) => s.id).slice(-2), ["session_0004", "session_0005"]);
  });

  it("a session of another persona is flagged", async () => {
    const c = copy();
    edit(c.session(1), (d) => {
      d.persona = "sales_manager";
    });
    await rejectsAt(loadMemora(c.root), {
      file: c.session(1),
      record: "session_0001",
      field: "persona",
      message: /belongs to persona "sales_manager"/,
    });
  });

  it("an evidence entry that is not a session reference is a warning in both modes, naming its path", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.reasoning[0].memory_evidence.activity_sessions[0].session_id = "yesterday";
    });
    const clean = (await loadMemora(copy().root)).episodes[0]!.probes.find(
      (p) => p.id === "goal_food_expenses_coffee_5_0",
    )!;
    for (const strict of [true, false]) {
      const ds = await loadMemora(c.root, { strict });
      assert.deepEqual(ds.warnings, [
        `file ${c.questions}, record questions.reasoning[0] goal_food_expenses_coffee_5_0, field memory_evidence.activity_sessions[0].session_id: not a session reference: "yesterday" (dropped from the evidence)`,
      ]);
      const p = ds.episodes[0]!.probes.find((x) => x.id === "goal_food_expenses_coffee_5_0")!;
      assert.deepEqual(p.gold.criteria, clean.gold.criteria);
      assert.ok(p.gold.evidenceSessionIds.length <= clean.gold.evidenceSessionIds.length);
    }
  });

  it("an unknown session_type or operation is a warning in both modes: only metadata reads them", async () => {
    const c = copy();
    edit(c.session(2), (d) => {
      d.session_type = "hobby";
      d.operation = "merge";
      delete d.operation_details;
    });
    for (const strict of [true, false]) {
      const ds = await loadMemora(c.root, { strict });
      assert.equal(ds.warnings.length, 2);
      assert.match(ds.warnings[0]!, /field session_type: unknown session_type "hobby"/);
      assert.match(ds.warnings[1]!, /field operation: unknown operation "merge"/);
      assert.deepEqual(ds.episodes[0]!.sessions[1]!.meta, { sessionType: "hobby", operation: "merge" });
    }
  });

  it("evidence pointing outside the history loads with a warning in both modes", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      d.questions.reasoning[1].memory_evidence.food_expenses[0].session_id = 99;
    });
    for (const strict of [true, false]) {
      const ds = await loadMemora(c.root, { strict });
      assert.deepEqual(ds.warnings, [
        'weekly/museum_curator/activity_food_total_5: evidence session "session_0099" not in the history',
      ]);
    }
  });

  it("takes the question date from session_date, then from date_range, when question_date is absent", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      delete d.questions.remembering[0].question_date;
      d.questions.remembering[0].session_date = "2025-06-03";
      delete d.questions.reasoning[0].question_date;
    });
    const ep = (await loadMemora(c.root)).episodes[0]!;
    assert.equal(ep.probes[0]!.time, "2025-06-03");
    assert.equal(ep.probes[1]!.time, "2025-06-02");
  });

  it("numbers questions without an id by episode and position", async () => {
    const c = copy();
    edit(c.questions, (d) => {
      delete d.questions.reasoning[1].question_id;
    });
    const ep = (await loadMemora(c.root)).episodes[0]!;
    assert.equal(ep.probes[2]!.id, "weekly/museum_curator:2");
    assert.equal(ep.probes[2]!.labels.subtype, undefined);
  });

  it("a duration folder that is not weekly, monthly or quarterly is flagged", async () => {
    const c = copy();
    const odd = join(c.root, "fortnightly", "museum_curator");
    cpSync(c.dir, odd, { recursive: true });
    rmSync(join(c.root, "weekly"), { recursive: true });
    await rejectsAt(loadMemora(c.root), { file: odd, message: /"fortnightly" is not a Memora duration/ });
    const ds = await loadMemora(c.root, { strict: false });
    assert.equal(ds.episodes[0]!.id, "fortnightly/museum_curator");
  });

  it("a half persona folder is flagged; lenient loads the complete ones", async () => {
    const c = copy();
    const half = join(c.root, "weekly", "sales_manager");
    mkdirSync(half);
    writeFileSync(join(half, "evaluation_questions_sales_manager.json"), "{}");
    await rejectsAt(loadMemora(c.root), { file: half, message: /no conversations\/ folder/ });
    const ds = await loadMemora(c.root, { strict: false });
    assert.deepEqual(
      ds.episodes.map((e) => e.id),
      ["weekly/museum_curator"],
    );
    assert.equal(ds.warnings.length, 1);
  });

  it("rejects a folder with no episodes and a path that does not exist", async () => {
    const empty = join(tmp, "empty");
    mkdirSync(empty);
    await rejectsAt(loadMemora(empty), { file: empty, message: /no memora episodes found/ });
    const missing = join(tmp, "missing");
    await rejectsAt(loadMemora(missing), { file: missing, message: /no such file or folder/ });
  });
});
