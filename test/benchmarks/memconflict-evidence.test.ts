import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  dynamicQuestionDetails,
  previousMention,
  templateSlots,
  tieQuestions,
} from "../../src/benchmarks/memconflict/evidence.ts";
import type { SessionRecords, UpdateRecord } from "../../src/benchmarks/memconflict/records.ts";
import { attributeText, valueText } from "../../src/benchmarks/memconflict/values.ts";

const career = (before: Record<string, string>, after: Record<string, string>): UpdateRecord => ({
  attribute: "Career_Status",
  before,
  after,
});

function session(index: number, parts: Partial<SessionRecords> = {}): SessionRecords {
  return {
    id: String(index),
    index,
    type: "chitchat",
    revealed: {},
    updates: [],
    statics: [],
    conditionals: [],
    othersDynamic: [],
    ...parts,
  };
}

describe("memconflict template layout (Step4_4 question generation)", () => {
  it("gives a plain attribute two questions", () => {
    assert.deepEqual(dynamicQuestionDetails({ attribute: "Residence", before: "A", after: "B" }), [
      undefined,
      undefined,
    ]);
    // A career change that is not an object pair is an ordinary attribute upstream.
    assert.equal(
      dynamicQuestionDetails({ attribute: "Career_Status", before: "x", after: { Job_Title: "Senior" } }).length,
      2,
    );
  });

  it("gives a career change 1 + changed fields (max 3, in priority order) + one stable field", () => {
    const base = {
      Employment_Status: "Employed",
      Company_Name: "A",
      Job_Title: "Junior",
      Industry: "Media",
      Monthly_Income: "1-2",
      Savings_Amount: "3-4",
    };
    const one = dynamicQuestionDetails(career(base, { ...base, Monthly_Income: "2-3" }));
    assert.deepEqual(
      one.map((d) => d && [d.key, d.stable]),
      [undefined, ["Monthly_Income", false], ["Employment_Status", true]],
    );
    const many = dynamicQuestionDetails(
      career(base, {
        Employment_Status: "Entrepreneur",
        Company_Name: "B",
        Job_Title: "Senior",
        Industry: "Legal",
        Monthly_Income: "2-3",
        Savings_Amount: "5-6",
      }),
    );
    // Every stable candidate changed: no "stayed the same" question.
    assert.deepEqual(
      many.map((d) => d?.key),
      [undefined, "Company_Name", "Job_Title", "Industry"],
    );
    // Employment_Status changed, so the next stable candidate, Savings_Amount, is asked about.
    const savings = dynamicQuestionDetails(
      career(base, { ...base, Employment_Status: "Unemployed", Job_Title: "Intern" }),
    );
    assert.deepEqual(
      savings.map((d) => d && [d.key, d.stable]),
      [undefined, ["Job_Title", false], ["Employment_Status", false], ["Savings_Amount", true]],
    );
  });

  it("lays out dynamic, then static, then conditional slots, skipping empty updates and first points", () => {
    const s = session(5, {
      updates: [
        { attribute: "Work_Status", before: { Current_State: "Busy" }, after: {} },
        { attribute: "Residence", before: "A", after: "B" },
      ],
      statics: [
        { conflictId: "SC_1", role: "Point_A", fieldPath: "Name", value: "x" },
        { conflictId: "SC_2", role: "Point_B", fieldPath: "Gender", value: "y" },
        { conflictId: "SC_3", role: "Distractor", fieldPath: "Gender", value: "z", sourcePersonId: "Father" },
      ],
      conditionals: [
        { conflictId: "CC_1", role: "Point_C", rank: 3, preferenceType: "Food", item: "i", condition: "c" },
      ],
    });
    assert.deepEqual(
      templateSlots(s).map((t) => [t.kind, t.kind === "dynamic" ? t.update.attribute : t.point.conflictId]),
      [
        ["dynamic", "Residence"],
        ["dynamic", "Residence"],
        ["static", "SC_2"],
        ["conditional", "CC_1"],
      ],
    );
    const ties = tieQuestions(s, [
      { questionId: "Q_001", kind: "dynamic" },
      { questionId: "Q_002", kind: "dynamic" },
      { questionId: "Q_003", kind: "static" },
      { questionId: "Q_004", kind: "conditional" },
    ]);
    assert.deepEqual(
      ties.map((t) => t.method),
      ["template", "template", "template", "template"],
    );
    // One question dropped by upstream's sanitizer: the remaining ids still fit.
    assert.deepEqual(
      tieQuestions(s, [
        { questionId: "Q_001", kind: "dynamic" },
        { questionId: "Q_004", kind: "conditional" },
      ]).map((t) => t.method),
      ["template", "template"],
    );
    // Ids out of step with the labels: fall back to the records of each type.
    assert.deepEqual(
      tieQuestions(s, [
        { questionId: "Q_003", kind: "dynamic" },
        { questionId: "Q_001", kind: "static" },
        { questionId: "Q_002" },
      ]).map((t) => [t.method, t.targets.length]),
      [
        ["type", 1],
        ["type", 1],
        ["none", 0],
      ],
    );
  });
});

describe("memconflict previous mention of a dynamic attribute", () => {
  it("finds the latest reveal or update before the session, reading Social_Status inside Social_Relationships", () => {
    const chain = [
      session(0, { revealed: { Social_Relationships: { Social_Status: { Current_State: "Keeping_to_Oneself" } } } }),
      session(1, { revealed: { Residence: "A" } }),
      session(2, { updates: [{ attribute: "Residence", before: "A", after: "B" }] }),
      session(3, { updates: [{ attribute: "Residence", before: "B", after: "" }] }),
      session(4),
    ];
    const at = chain[4] as SessionRecords;
    assert.equal(previousMention(chain, at, "Residence")?.id, "2");
    assert.equal(previousMention(chain, at, "Social_Status")?.id, "0");
    assert.equal(previousMention(chain, chain[2] as SessionRecords, "Residence")?.id, "1");
    assert.equal(previousMention(chain, at, "Health_Status"), undefined);
  });
});

describe("memconflict value texts", () => {
  it("renders record values readably", () => {
    assert.equal(valueText({ Current_State: "On_Business_Trip" }), "On Business Trip");
    assert.equal(
      valueText({ Physical_Health: "Often Fatigued", Mental_Health: "Frequently Stressed" }),
      "physical health: Often Fatigued; mental health: Frequently Stressed",
    );
    assert.equal(
      valueText({ Status: "Yes", Child_1: { Name: "Maya", Birthdate: "2014-02-04" } }),
      "status: Yes; child 1: (name: Maya; birthdate: 2014-02-04)",
    );
    assert.equal(valueText(1), "1");
    assert.equal(valueText(true), "true");
    assert.equal(valueText("Darwin, Australia"), "Darwin, Australia");
    assert.equal(
      attributeText("Marital_Status", { Status: "Dating", Name: "Helen Wilson", Birthdate: "1990-06-27" }),
      "Dating (Helen Wilson)",
    );
    assert.equal(attributeText("Marital_Status", { Status: "Divorced" }), "Divorced");
  });
});
