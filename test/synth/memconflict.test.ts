import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import { loadMemconflict } from "../../src/benchmarks/memconflict/load.ts";
import type { Dataset } from "../../src/core/model.ts";
import { inspectDataset } from "../../src/data/inspect.ts";
import { type MemconflictKnobs, memconflictGenerator } from "../../src/synth/memconflict/index.ts";
import { runGenerator, type SynthResult, validateWith, validationErrors } from "../../src/synth/synthesize.ts";
import { sharedDataset, skipUnless } from "../support/shared-data.ts";

// biome-ignore lint/suspicious/noExplicitAny: the tests walk generated JSON of many shapes
type Rec = Record<string, any>;

const tmp = (p: string) => mkdtempSync(join(tmpdir(), `mb-mc-${p}-`));

async function generate(knobs: Partial<MemconflictKnobs> = {}, seed = 7, out = tmp("gen")): Promise<SynthResult> {
  return runGenerator(memconflictGenerator, { out, seed, knobValues: { personas: 1, ...knobs }, progress: false });
}

function personas(dir: string, file = "Step4_4.jsonl"): Rec[] {
  return readFileSync(join(dir, file), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
}

function writePersonas(dir: string, records: Rec[], file = "Step4_4.jsonl"): void {
  writeFileSync(join(dir, file), `${records.map((r) => JSON.stringify(r)).join("\n")}\n`);
}

const monthIndex = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));

/** Every question of a persona as `conflict_type|id|answer` (ids restart per session, so with the session's date). */
function questionKeys(persona: Rec): string[] {
  return persona.Full_Session_Chain.flatMap((s: Rec) =>
    s.Session_Questions.map((q: Rec) => `${s.Date}|${q.question_id}|${q.conflict_type}|${q.answer}`),
  ).sort();
}

const SESSION_KEYS = [
  "Session_ID",
  "Date",
  "Session_Type",
  "Static_Conflict_Information",
  "Conditional_Conflict_Information",
  "Others_Dynamic_Information",
  "Question_Trigger_Types",
  "Session_Questions",
  "Session_Question_Count",
  "Event_Types",
  "Session_Outline",
  "Session_Dialogue",
  "Session_Dialogue_Token_Length",
];

describe("memconflict generator: release format and category mix", () => {
  let result: SynthResult;
  let data: Dataset;
  it("writes Step4_4.jsonl in the release's final format, which the loader reads strictly, tying every question to its records", async () => {
    result = await generate({ personas: 2 });
    assert.deepEqual(result.issues, []);
    assert.deepEqual(
      result.manifest.files.map((f) => f.path),
      ["Step4_4.jsonl"],
    );
    const [p] = personas(result.out);
    assert.deepEqual(Object.keys(p as Rec), [
      "ID",
      "Fixed_Profile",
      "Dynamic_Profile",
      "Preference_Profile",
      "Personality",
      "Life_Goal",
      "Others_Profile",
      "Full_Session_Chain",
      "metadata",
      "token_cost",
      "Total_Dialogue_Token_Length",
      "Valid_Session_Dialogue_Count",
      "Total_Session_Question_Count",
      "Triggered_Session_Count",
    ]);
    for (const s of (p as Rec).Full_Session_Chain) {
      const expected = [...SESSION_KEYS];
      expected.splice(3, 0, s.Session_Type === "initial_reveal" ? "Revealed_Attributes" : "Updated_Attributes");
      assert.deepEqual(Object.keys(s), expected, `session ${s.Session_ID}`);
      assert.ok(!("State_Before" in s) && !("Update_Reason" in s));
    }
    assert.equal((p as Rec).metadata.membench_synth.realised_by, "templates");
    assert.equal((p as Rec).token_cost.current_stage.model, "templates");
    data = await loadMemconflict(result.out, { strict: true });
    assert.equal(data.episodes.length, 2);
    const ties = new Set(data.episodes.flatMap((e) => e.probes.map((q) => q.meta?.evidenceTie)));
    assert.deepEqual([...ties], ["template"]);
    assert.ok(data.episodes.every((e) => e.probes.every((q) => (q.gold.evidenceSessionIds ?? []).length > 0)));
  });

  it("has the paper's shape: ~52 sessions, 12 static conflicts, one conditional group per preference type, mostly dynamic questions", () => {
    const report = inspectDataset(data);
    const byType = report.byLabel.conflict_type as Record<string, number>;
    for (const episode of data.episodes) {
      const n = episode.sessions.length;
      assert.ok(n >= 51 && n <= 54, `sessions ${n}`);
      const count = (k: string) => episode.probes.filter((q) => q.labels?.conflict_type === k).length;
      assert.equal(count("static"), 12);
      const prefs = Object.values(episode.meta?.preferenceProfile as Rec);
      const conditional = prefs.reduce((s: number, items: Rec) => s + Object.keys(items).length - 1, 0);
      assert.equal(count("conditional"), conditional);
      assert.ok(count("dynamic") >= 60 && count("dynamic") <= 130, `dynamic ${count("dynamic")}`);
    }
    assert.equal(byType.static, 24);
    assert.ok((byType.dynamic ?? 0) > (byType.static ?? 0) + (byType.conditional ?? 0), JSON.stringify(byType));
  });

  it("proportions follow the knobs: fewer updates and statics, fewer preference items", async () => {
    const few = await generate({ personas: 2, updateShare: 0.3, staticConflicts: 4, itemsPerType: [2, 2] });
    const d = await loadMemconflict(few.out, { strict: true });
    const byType = inspectDataset(d).byLabel.conflict_type as Record<string, number>;
    const before = inspectDataset(data).byLabel.conflict_type as Record<string, number>;
    assert.equal(byType.static, 8);
    assert.ok((byType.dynamic ?? 0) < (before.dynamic ?? 0) * 0.7, `${byType.dynamic} vs ${before.dynamic}`);
    for (const e of d.episodes) {
      const groups = Object.keys(e.meta?.preferenceProfile as Rec).length;
      assert.equal(e.probes.filter((q) => q.labels?.conflict_type === "conditional").length, groups);
    }
  });
});

describe("memconflict generator: determinism", () => {
  it("the same seed and knobs give byte-identical files; another seed does not", async () => {
    const knobs = { end: "2022-09" };
    const [a, b, c] = await Promise.all([generate(knobs, 3), generate(knobs, 3), generate(knobs, 4)]);
    const bytes = (r: SynthResult) => readFileSync(join(r.out, "Step4_4.jsonl"));
    assert.ok(bytes(a).equals(bytes(b)));
    assert.ok(!bytes(a).equals(bytes(c)));
    assert.equal(a.manifest.files[0]?.sha256, b.manifest.files[0]?.sha256);
  });
});

describe("memconflict generator: simulator rules", () => {
  it("timeline: January reveals of all seven attributes, monthly sessions with the update share, a closing future_plan", async () => {
    const r = await generate({}, 11);
    for (const p of personas(r.out)) {
      const chain = p.Full_Session_Chain as Rec[];
      const reveals = chain.filter((s) => s.Session_Type === "initial_reveal");
      assert.ok(reveals.length >= 3 && reveals.length <= 6);
      assert.ok(reveals.every((s) => s.Date.startsWith("2022-01")));
      assert.deepEqual(reveals.flatMap((s) => Object.keys(s.Revealed_Attributes)).sort(), [
        "Career_Status",
        "Children_Status",
        "Health_Status",
        "Marital_Status",
        "Residence",
        "Social_Relationships",
        "Work_Status",
      ]);
      const monthly = chain.filter((s) => s.Session_Type === "update" || s.Session_Type === "chitchat");
      assert.equal(monthly.length, 47);
      const updates = monthly.filter((s) => s.Session_Type === "update");
      // floor(47 × 0.65) = 30 planned; an update that changes nothing becomes chitchat.
      assert.ok(updates.length <= 30 && updates.length >= 25, `${updates.length} updates`);
      assert.ok(updates.every((s) => s.Updated_Attributes.length >= 1 && s.Updated_Attributes.length <= 2));
      assert.deepEqual(chain.at(-1)?.Session_Type, "future_plan");
      assert.equal(chain.at(-1)?.Date, "2026-01-15");
    }
  });

  it("updates keep cooldowns, marital transitions and child preconditions, and each changes something", async () => {
    const cooldown: Record<string, number> = {
      Residence: 3,
      Marital_Status: 2,
      Children_Status: 10,
      Career_Status: 3,
      Work_Status: 1,
      Health_Status: 1,
      Social_Status: 1,
    };
    const allowed: Record<string, string[]> = {
      Single: ["Dating"],
      Dating: ["Married", "Single"],
      Married: ["Divorced"],
      Divorced: ["Dating"],
    };
    const r = await generate({ personas: 3 }, 5);
    let checked = 0;
    for (const p of personas(r.out)) {
      const chain = p.Full_Session_Chain as Rec[];
      const start = monthIndex(chain[0]?.Date);
      const last: Record<string, number> = Object.fromEntries(Object.keys(cooldown).map((a) => [a, start]));
      let marital = p.Dynamic_Profile.Marital_Status.Status as string;
      for (const s of chain) {
        for (const u of s.Updated_Attributes ?? []) {
          checked++;
          const m = monthIndex(s.Date);
          assert.ok(
            m - (last[u.Attribute] as number) > (cooldown[u.Attribute] as number),
            `${u.Attribute} in cooldown at ${s.Date}`,
          );
          last[u.Attribute] = m;
          assert.notDeepEqual(u.Before, u.After);
          if (u.Attribute === "Marital_Status") {
            assert.ok(allowed[marital]?.includes(u.After.Status), `${marital} → ${u.After.Status}`);
            marital = u.After.Status;
          }
          if (u.Attribute === "Children_Status") {
            assert.equal(marital, "Married", `a child while ${marital}`);
            assert.ok(Object.keys(u.After).filter((k) => k.startsWith("Child_")).length <= 4);
          }
        }
      }
    }
    assert.ok(checked > 60);
  });

  it("static and conditional placement: Point_A early, Point_B ≥ 10 later and mostly in chitchat, distractors inside the span, never in the last session", async () => {
    const r = await generate({ personas: 2 }, 9);
    for (const p of personas(r.out)) {
      const chain = p.Full_Session_Chain as Rec[];
      const lastId = chain.length - 1;
      const where = (kind: string) =>
        chain.flatMap((s) => (s[kind] as Rec[]).map((x): Rec => ({ ...x, at: s.Session_ID, type: s.Session_Type })));
      assert.equal(chain[lastId]?.Static_Conflict_Information.length, 0);
      assert.equal(chain[lastId]?.Conditional_Conflict_Information.length, 0);
      const statics = where("Static_Conflict_Information");
      const ids = [...new Set(statics.map((x) => x.Conflict_ID))];
      assert.equal(ids.length, 12);
      let chit = 0;
      for (const id of ids) {
        const a = statics.find((x) => x.Conflict_ID === id && x.Role === "Point_A");
        const b = statics.find((x) => x.Conflict_ID === id && x.Role === "Point_B");
        assert.ok(a && b && a.at <= 9 && b.at - a.at >= 10, `${id}: A ${a?.at} B ${b?.at}`);
        if (b.type === "chitchat") chit++;
        for (const d of statics.filter((x) => x.Conflict_ID === id && x.Role === "Distractor")) {
          assert.ok(d.at > a.at && d.at < b.at && d.Source_Person_ID in p.Others_Profile);
          assert.notEqual(JSON.stringify(d.Value), JSON.stringify(a.Value));
        }
        // The fact is not mentioned in between: no other record of this path.
        assert.equal(
          statics.filter((x) => x.Target_Field_Path === a.Target_Field_Path && x.Role !== "Distractor").length,
          2,
        );
      }
      assert.ok(chit >= 9, `${chit}/12 Point_B in chitchat`);
      const conditionals = where("Conditional_Conflict_Information");
      for (const [g, type] of Object.keys(p.Preference_Profile).entries()) {
        const id = `CC_${String(g + 1).padStart(3, "0")}`;
        const points = conditionals.filter((x) => x.Conflict_ID === id && x.Role !== "Distractor");
        assert.deepEqual(
          points.map((x) => x.Item),
          Object.keys(p.Preference_Profile[type]),
        );
        assert.ok((points[0]?.at as number) <= 9);
        for (let i = 1; i < points.length; i++) assert.ok(points[i]!.at > points[i - 1]!.at, `${id} out of order`);
        const distractors = conditionals.filter((x) => x.Conflict_ID === id && x.Role === "Distractor");
        assert.ok(distractors.length <= 2);
        for (const d of distractors) assert.ok(d.at > points[0]!.at && d.at < points.at(-1)!.at);
      }
      for (const s of chain) {
        for (const d of s.Others_Dynamic_Information) {
          assert.ok(d.Linked_Left_Session_ID < s.Session_ID && s.Session_ID < d.Linked_Right_Session_ID);
        }
      }
    }
  });

  it("questions: the loader's template layout, old → new for dynamic, the inconsistency and truth for static, the previous item's condition for conditional", async () => {
    const r = await generate({}, 2);
    const [p] = personas(r.out);
    const chain = (p as Rec).Full_Session_Chain as Rec[];
    const statics = chain.flatMap((s) => s.Static_Conflict_Information as Rec[]);
    for (const s of chain) {
      const q = s.Session_Questions as Rec[];
      assert.deepEqual(
        q.map((x) => x.question_id),
        q.map((_, i) => `Q_${String(i + 1).padStart(3, "0")}`),
      );
      for (const x of q.filter((y) => y.conflict_type === "static_conflict")) {
        assert.equal(x.ability_target, "recover_truth");
        assert.equal(x.difficulty, "hard");
        assert.match(x.answer, /contradicts itself .* What holds is .*; the other claim .* is false\.$/);
        assert.doesNotMatch(x.question, /conflict|inconsisten/i);
      }
      for (const u of s.Updated_Attributes ?? []) {
        if (u.Attribute === "Career_Status") continue;
        const easy = q.find((x) => x.answer === "Yes." && x.difficulty === "easy");
        assert.ok(easy, `session ${s.Session_ID} has its "changed?" question`);
      }
    }
    // A conditional question asks about the previous point, not the newest one.
    const cond = chain.find((s) =>
      (s.Session_Questions as Rec[]).some((x) => x.conflict_type === "conditional_conflict"),
    ) as Rec;
    assert.ok(cond, "some session asks a conditional question");
    const point = (cond.Conditional_Conflict_Information as Rec[]).find((x) => /^Point_[B-Z]$/.test(x.Role)) as Rec;
    const previousRole = `Point_${String.fromCharCode(point.Role.charCodeAt(6) - 1)}`;
    const previous = chain
      .flatMap((s) => s.Conditional_Conflict_Information as Rec[])
      .find((x) => x.Conflict_ID === point.Conflict_ID && x.Role === previousRole) as Rec;
    const q = (cond.Session_Questions as Rec[]).find((x) => x.conflict_type === "conditional_conflict") as Rec;
    assert.ok(q.answer.includes(previous.Item) && q.answer.includes(previous.Condition), q.answer);
    assert.ok(!q.answer.includes(point.Item), "not the newest point's item");
    assert.equal(statics.filter((x) => x.Role === "Point_A").length, 12);
  });
});

describe("memconflict generator: validators catch corrupted files", () => {
  it("a future fact, a missing piece of evidence, and an unknown label", async () => {
    const r = await generate({ end: "2023-12" }, 21);
    const records = personas(r.out);
    const p = records[0] as Rec;
    const chain = p.Full_Session_Chain as Rec[];

    // Future fact: the true value of a static conflict moved after its false claim.
    const bSession = chain.find((s) => s.Static_Conflict_Information.some((x: Rec) => x.Role === "Point_B")) as Rec;
    const b = bSession.Static_Conflict_Information.find((x: Rec) => x.Role === "Point_B");
    const aSession = chain.find((s) =>
      s.Static_Conflict_Information.some((x: Rec) => x.Conflict_ID === b.Conflict_ID && x.Role === "Point_A"),
    ) as Rec;
    const a = aSession.Static_Conflict_Information.find(
      (x: Rec) => x.Conflict_ID === b.Conflict_ID && x.Role === "Point_A",
    );
    aSession.Static_Conflict_Information = aSession.Static_Conflict_Information.filter((x: Rec) => x !== a);
    const later = chain[chain.indexOf(bSession) + 1] as Rec;
    later.Static_Conflict_Information.push(a);

    // Missing evidence: the turn that states a reveal is emptied of it.
    const reveal = chain[0] as Rec;
    const city = String(reveal.Revealed_Attributes.Residence ?? "").split(",")[0];
    const attr = Object.keys(reveal.Revealed_Attributes)[0] as string;
    for (const turn of Object.values(reveal.Session_Dialogue) as Rec[][]) {
      for (const m of turn) if (m.role === "user") m.content = "Nothing to report.";
    }

    // Unknown label.
    const asked = chain.find((s) => s.Session_Questions.length) as Rec;
    asked.Session_Questions[0].conflict_type = "temporal_conflict";

    writePersonas(r.out, records);
    const issues = await validateWith(memconflictGenerator, r.out);
    const text = issues.map((i) => `${i.field}: ${i.problem}`).join("\n");
    assert.match(text, new RegExp(`Point_B of ${b.Conflict_ID} has no earlier Point_A`));
    assert.match(text, /the answer is not what the history up to session \d+ supports/);
    assert.match(
      text,
      new RegExp(`Full_Session_Chain\\[0\\]\\.Session_Dialogue: the user's turns do not state: reveal/${attr}`),
    );
    assert.match(text, /unknown conflict_type "temporal_conflict"/);
    assert.match(text, /loader refuses it/);
    assert.ok(issues.some((i) => i.severity === "warning" && /changed since it was generated/.test(i.problem)));
    assert.ok(validationErrors(issues).length >= 4);
    assert.ok(city !== undefined);
  });

  it("an update whose old value was never the stated one (a leaked later state) is caught", async () => {
    const r = await generate({ end: "2023-06" }, 4);
    const records = personas(r.out);
    const chain = (records[0] as Rec).Full_Session_Chain as Rec[];
    const updates = chain.filter((s) => (s.Updated_Attributes ?? []).some((u: Rec) => u.Attribute === "Residence"));
    assert.ok(updates.length >= 1);
    const u = (updates[0] as Rec).Updated_Attributes.find((x: Rec) => x.Attribute === "Residence");
    u.Before = "Atlantis, Nowhere";
    writePersonas(r.out, records);
    const issues = await validateWith(memconflictGenerator, r.out);
    assert.ok(
      issues.some((i) => /Updated_Attributes\[\d\]\.Before/.test(i.field ?? "") && /last stated as/.test(i.problem)),
      JSON.stringify(issues),
    );
  });
});

describe("memconflict generator: ablations", () => {
  it("no distractors: no record about anyone else, and the same questions as with them", async () => {
    const [withD, without] = await Promise.all([generate({}, 8), generate({ distractors: false }, 8)]);
    const a = personas(withD.out)[0] as Rec;
    const b = personas(without.out)[0] as Rec;
    const chain = b.Full_Session_Chain as Rec[];
    assert.ok(chain.every((s) => s.Others_Dynamic_Information.length === 0));
    assert.ok(
      chain.every((s) =>
        [...s.Static_Conflict_Information, ...s.Conditional_Conflict_Information].every(
          (x: Rec) => x.Role !== "Distractor",
        ),
      ),
    );
    assert.ok((a.Full_Session_Chain as Rec[]).some((s) => s.Others_Dynamic_Information.length > 0));
    assert.deepEqual(questionKeys(b), questionKeys(a));
    assert.deepEqual(without.issues, []);
  });

  it("implicit queries: Step4_4_indirect.jsonl, same ids, answers and labels, reworded questions, loaded as the implicit variant", async () => {
    const r = await generate({ queryStyle: "both" }, 6);
    assert.deepEqual(r.issues, []);
    const direct = personas(r.out)[0] as Rec;
    const indirect = personas(r.out, "Step4_4_indirect.jsonl")[0] as Rec;
    assert.equal(indirect.Question_Style_Metadata.Target_Style, "indirect");
    assert.deepEqual(questionKeys(indirect), questionKeys(direct));
    const pairs = (direct.Full_Session_Chain as Rec[]).flatMap((s, i) =>
      (s.Session_Questions as Rec[]).map((q, j) => [q, indirect.Full_Session_Chain[i].Session_Questions[j]] as const),
    );
    assert.ok(pairs.length > 50);
    for (const [d, i] of pairs) {
      assert.equal(i.Original_Question, d.question);
      assert.equal(i.Question_Style, "indirect");
      assert.notEqual(i.question, d.question);
    }
    const data = await loadMemconflict(join(r.out, "Step4_4_indirect.jsonl"), { strict: true });
    assert.equal(data.variant, "implicit");
    assert.ok(data.episodes[0]?.probes.every((q) => q.labels?.query_style === "implicit"));
  });

  it("conflict distance near / far: every question's evidence is that many sessions back", async () => {
    for (const [distance, [lo, hi]] of [
      ["near", [5, 10]],
      ["far", [20, 25]],
    ] as const) {
      const r = await generate({ personas: 2, distance }, 12);
      assert.deepEqual(r.issues, [], distance);
      const data = await loadMemconflict(r.out, { strict: true });
      const probes = data.episodes.flatMap((e) => e.probes);
      assert.ok(probes.length >= 10, `${distance}: ${probes.length} questions`);
      for (const q of probes) {
        const d = q.meta?.distance as number;
        assert.ok(d >= lo && d <= hi, `${distance}: ${q.id} at distance ${d}`);
      }
      const kinds = new Set(probes.map((q) => q.labels?.conflict_type));
      assert.ok(kinds.has("static") && kinds.has("conditional"), `${distance}: ${[...kinds]}`);
    }
  });

  it("long history: unrelated QA up to the token target, the same questions, links renumbered", async () => {
    const [base, long] = await Promise.all([
      generate({}, 14),
      generate({ longHistory: true, longTargetTokens: 90000 }, 14),
    ]);
    assert.deepEqual(long.issues, []);
    const a = personas(base.out)[0] as Rec;
    const b = personas(long.out)[0] as Rec;
    assert.ok(b.Total_Dialogue_Token_Length >= 90000 && a.Total_Dialogue_Token_Length < 90000);
    assert.ok(b.Full_Session_Chain.length > a.Full_Session_Chain.length);
    const strip = (keys: string[]) => keys.map((k) => k.split("|").slice(1).join("|")).sort();
    assert.deepEqual(strip(questionKeys(b)), strip(questionKeys(a)));
    assert.ok((b.Full_Session_Chain as Rec[]).some((s) => s.Event_Types.includes("Unrelated_Question_Answering")));
  });
});

describe("memconflict generator: stage files and pools", () => {
  it("steps=true writes Step1_1 … Step4_3 under pipeline/, which the loader refuses as intermediate", async () => {
    const r = await generate({ steps: true, end: "2022-06" }, 1);
    const files = readdirSync(join(r.out, "pipeline")).sort();
    assert.equal(files.length, 13);
    assert.equal(files[0], "Step1_1.jsonl");
    assert.equal(files.at(-1), "Step4_3.jsonl");
    await assert.rejects(loadMemconflict(join(r.out, "pipeline", "Step4_1.jsonl")), /intermediate pipeline file/);
    const step22 = personas(join(r.out, "pipeline"), "Step2_2.jsonl")[0] as Rec;
    assert.equal(step22.Timeline_Sessions[0].Session_ID, 1);
    assert.ok("State_Before" in step22.Timeline_Sessions[0]);
  });

  const upstream = sharedDataset("memconflict");
  it("each stage file has the keys of the upstream stage [on ../shared/datasets/memconflict]", {
    skip: skipUnless(upstream),
  }, async () => {
    const r = await generate({ steps: true, end: "2022-09" }, 1);
    for (const stage of ["Step1_1", "Step1_5", "Step2_1", "Step2_2", "Step3_1", "Step3_2", "Step3_3", "Step4_1"]) {
      const theirs = personas(upstream as string, `${stage}.jsonl`)[0] as Rec;
      const ours = personas(join(r.out, "pipeline"), `${stage}.jsonl`)[0] as Rec;
      assert.deepEqual(Object.keys(ours), Object.keys(theirs), stage);
      if (theirs.Full_Session_Chain) {
        for (const i of [0, -1]) {
          assert.deepEqual(
            Object.keys(ours.Full_Session_Chain.at(i)),
            Object.keys(theirs.Full_Session_Chain.at(i)),
            `${stage} [${i}]`,
          );
        }
      }
    }
  });

  const config = sharedDataset("memconflict/Config.json");
  it("--knob pools reads a Config.json-shaped file [on ../shared/datasets/memconflict/Config.json]", {
    skip: skipUnless(config),
  }, async () => {
    const r = await generate({ pools: config as string, end: "2022-12" }, 3);
    assert.deepEqual(r.issues, []);
    const universities = Object.values(
      JSON.parse(readFileSync(config as string, "utf8")).Fixed_Information.Education.University,
    ).flat();
    const p = personas(r.out)[0] as Rec;
    assert.ok(universities.includes(p.Fixed_Profile.Education_Background.University));
  });

  it("refuses a pools file without the structure, naming the path", async () => {
    const dir = tmp("pools");
    const bad = join(dir, "pools.json");
    writeFileSync(bad, JSON.stringify({ Fixed_Information: { Genders: [] } }));
    await assert.rejects(generate({ pools: bad }), /pools.json does not have the pools structure: Fixed_Information/);
  });
});
