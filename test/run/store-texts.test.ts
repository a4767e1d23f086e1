/**
 * Probe records keep their texts in the store's `texts` table, each text once:
 * they read back exactly as written, a store written before the table existed
 * reads as before (also opened read-only), and a real run's file shrinks.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";
import Database from "better-sqlite3";
import type { ProbeRecord } from "../../src/core/record.ts";
import { readRecords, startRun } from "../../src/run/runner.ts";
import { computeSummary } from "../../src/run/score-run.ts";
import { RunStore } from "../../src/run/store.ts";
import { fixture, sharedDataset, skipUnless } from "../support/shared-data.ts";

const SESSION = ["[session s1, 2024-01-02]", "user: I adopted a cat named Miso last week.", "assistant: Lovely!"].join(
  "\n",
);
const TURN_IDS = Array.from({ length: 12 }, (_, i) => `a-rather-long-session-id#${i}`);

function record(probeId: string, items: string[], context: string): ProbeRecord {
  return {
    unitId: "bm25|e1",
    system: "bm25",
    episodeId: "e1",
    probeId,
    setting: "default",
    question: `What is my cat called? (${probeId})`,
    labels: { category: "pets" },
    status: "done",
    retrieved: items.map((text, i) => ({
      rank: i + 1,
      text,
      score: 1 / (i + 1),
      sessionIds: ["s1"],
      turnIds: i % 2 ? TURN_IDS : ["t1"],
      kind: "session",
    })),
    context: { text: context, tokens: 42, used: items.length },
    timings: { flushMs: 0, searchMs: 1.5 },
    answer: "Miso",
  };
}

const numbered = (items: string[]) => items.map((t, i) => `---- memory ${i + 1} ----\n${t}`).join("\n\n");

/** Texts at the edges of the encoding: blank lines inside, no newline, empty, short, leading newlines. */
const ODD = [
  "",
  "x",
  "no newline at all but long enough to be stored by id",
  "\n\nstarts with blank lines",
  "a\n\n\nb",
];

function freshStore(): RunStore {
  const store = new RunStore(join(mkdtempSync(join(tmpdir(), "mb-texts-")), "run.sqlite"));
  store.plan([{ id: "bm25|e1", system: "bm25", episodeId: "e1" }]);
  return store;
}

describe("run store texts, stored once each", () => {
  it("reads records back exactly as written, whatever their texts", () => {
    const store = freshStore();
    try {
      const records = [
        record("p1", [SESSION, "Miso likes tuna."], numbered([SESSION, "Miso likes tuna."])),
        record("p2", ["Miso likes tuna.", SESSION], numbered(["Miso likes tuna.", SESSION])),
        record("p3", ODD, ODD.join("\n\n")),
        record("p4", [], ""),
        // Items with blank lines of their own under numbered headers, and a context whose items do not match in order.
        record("p6", ODD, numbered(ODD)),
        record("p7", [SESSION, "Miso likes tuna."], numbered([`(2024-01-02) ${SESSION}`, "Miso likes tuna."])),
        record("p8", ["Miso likes tuna."], `${numbered(["Miso likes tuna."])}\n\n\ntrailing note`),
        { ...record("p5", [SESSION], SESSION), status: "skipped" as const, skipReason: "no readback" },
      ];
      store.finish("bm25|e1", records, [1, 2]);
      assert.deepEqual(store.records(), JSON.parse(JSON.stringify(records)));
      // Without texts: every figure and id, texts left empty.
      const light = store.records({ texts: false });
      assert.deepEqual(
        light.map((r) => [r.probeId, r.context.text, r.retrieved.map((i) => i.text).join(""), r.retrieved.length]),
        records.map((r) => [r.probeId, "", "", r.retrieved.length]),
      );
      assert.deepEqual(light[1]!.retrieved[0]!.turnIds, ["t1"]);
      assert.deepEqual(light[1]!.retrieved[1]!.turnIds, TURN_IDS);
      // An answer asked again is stored against the same texts.
      const again = { ...records[0]!, answer: "Miso, the cat" };
      store.updateRecord(again);
      assert.deepEqual(store.record("bm25|e1", "p1", "default"), JSON.parse(JSON.stringify(again)));
    } finally {
      store.close();
    }
  });

  it("stores each text once, however many records and ranks hold it", () => {
    const store = freshStore();
    try {
      const items = [SESSION, "Miso likes tuna.".repeat(3)];
      const records = Array.from({ length: 20 }, (_, i) =>
        record(`p${i}`, i % 2 ? items : [...items].reverse(), numbered(i % 2 ? items : [...items].reverse())),
      );
      store.finish("bm25|e1", records, []);
      const db = new Database(store.path, { readonly: true });
      try {
        const texts = db.prepare("SELECT text FROM texts").pluck().all() as string[];
        assert.equal(new Set(texts).size, texts.length, "no text twice");
        for (const t of [...items, JSON.stringify(TURN_IDS)]) assert.equal(texts.filter((x) => x === t).length, 1, t);
        const raw = db.prepare("SELECT record FROM probes").pluck().all() as string[];
        for (const json of raw) assert.equal(json.includes("Miso likes tuna"), false, "records hold ids, not texts");
      } finally {
        db.close();
      }
    } finally {
      store.close();
    }
  });

  it("reads a store written before the texts table existed, in place and read-only", () => {
    const dir = mkdtempSync(join(tmpdir(), "mb-texts-old-"));
    const path = join(dir, "run.sqlite");
    const records = [record("p1", [SESSION], numbered([SESSION])), record("p2", ODD, "plain")];
    // The tables and rows as membench wrote them before: each record's JSON whole, no `texts` table.
    const db = new Database(path);
    db.exec(`
      CREATE TABLE units (id TEXT PRIMARY KEY, system TEXT NOT NULL, episode TEXT NOT NULL, state TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0, error TEXT, ingest_ms TEXT NOT NULL DEFAULT '[]', started_at TEXT, finished_at TEXT);
      CREATE TABLE probes (unit TEXT NOT NULL, probe TEXT NOT NULL, setting TEXT NOT NULL, record TEXT NOT NULL,
        PRIMARY KEY (unit, probe, setting));
      INSERT INTO units (id, system, episode, state) VALUES ('bm25|e1', 'bm25', 'e1', 'done');
    `);
    for (const r of records) {
      db.prepare("INSERT INTO probes VALUES (?, ?, ?, ?)").run(r.unitId, r.probeId, r.setting, JSON.stringify(r));
    }
    db.close();
    const expected = JSON.parse(JSON.stringify(records));
    const readOnly = RunStore.readOnly(path);
    try {
      assert.deepEqual(readOnly.records(), expected);
      assert.equal(readOnly.records({ texts: false })[0]!.context.text, numbered([SESSION]), "old records keep texts");
    } finally {
      readOnly.close();
    }
    // Opened to write (a resume), old records stay readable beside new ones.
    const store = new RunStore(path);
    try {
      store.updateRecord({ ...records[1]!, answer: "asked again" });
      assert.deepEqual(store.records(), [expected[0], { ...expected[1], answer: "asked again" }]);
    } finally {
      store.close();
    }
  });

  it("a run's summary, read without texts, equals its records' (RealMem fixture)", async () => {
    const dir = await run(fixture("realmem"), ["bm25-session", "bm25"]);
    const records = readRecords(dir);
    const computed = computeSummary(dir);
    assert.equal(computed.records.length, records.length);
    assert.deepEqual(computed.records, records);
    assert.deepEqual(computeSummary(dir, { records: false }).summary, computed.summary);
    assert.ok(
      records.some((r) => r.context.text.length > 0),
      "texts read back",
    );
  });

  const persona = sharedDataset("realmem");
  it("stores a RealMem persona's bm25-session records in a tenth of their bytes", {
    skip: skipUnless(persona),
  }, async () => {
    const dir = await run(persona!, ["bm25-session"]);
    const whole = readRecords(dir).reduce((n, r) => n + JSON.stringify(r).length, 0);
    const db = new Database(join(dir, "run.sqlite"), { readonly: true });
    const stored = (sql: string) => db.prepare(sql).pluck().get() as number;
    const bytes = stored("SELECT sum(length(record)) FROM probes") + stored("SELECT sum(length(text)) FROM texts");
    db.close();
    // Whole, a record weighed about 246 KB (its items' texts and its context).
    assert.ok(bytes < whole / 10, `${bytes} bytes stored for ${whole} bytes of records`);
  });
});

async function run(data: string, systems: string[]): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), "mb-texts-run-"));
  const outcome = await startRun({
    benchmark: "realmem",
    data,
    systems,
    settings: ["default", "oracle"],
    out,
    id: "texts",
    progress: false,
  });
  return outcome.dir;
}
