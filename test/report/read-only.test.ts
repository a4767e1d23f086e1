/**
 * Reading a run never writes it: `report`, `compare`, `export`,
 * `judge-agreement` and the viewer on a run folder made read-only (chmod, and
 * as root the immutable attribute where it can be set; see
 * test/support/read-only.ts), and on the WAL states a run can be left in. Every
 * case compares a snapshot of every file (size, mtime, SHA-256) and folder
 * before and after, so even where nothing can lock the folder the test still
 * proves that nothing was written, created or removed.
 *
 * The run: SubtleMemory, bm25 and none, scripted answers, scored by two
 * scripted judges (so judge-agreement has pairs).
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import { compareRuns } from "../../src/report/compare.ts";
import { exportOfficial } from "../../src/report/official/export.ts";
import { renderReport } from "../../src/report/report.ts";
import { loadRun } from "../../src/report/run-data.ts";
import { handleApi } from "../../src/report/view/api.ts";
import type { ProbeRow } from "../../src/report/view/probes.ts";
import { runJudgeAgreement } from "../../src/run/run-labels.ts";
import { scoreRun } from "../../src/run/score-run.ts";
import { RunStore, STORE_FILE } from "../../src/run/store.ts";
import { configureLogger } from "../../src/util/log.ts";
import { type DirLock, lockDir, snapshotDir } from "../support/read-only.ts";
import { subtleMemoryRun, tempDir } from "./sample-runs.ts";

const SHM = `${STORE_FILE}-shm`;
const WAL = `${STORE_FILE}-wal`;
const RUN_FILES = ["config.json", "summary.json", "scoring.json"];

const without = (snapshot: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(snapshot).filter(([k]) => !names.includes(k)));

const storeCopies = () => readdirSync(tmpdir()).filter((f) => f.startsWith("membench-store-")).length;

const api = (runsDir: string, method: string, path: string, body?: unknown) =>
  handleApi(runsDir, method, new URL(path, "http://viewer.invalid"), body);

describe("reading a run never writes it", () => {
  const out = tempDir("mb-read-only-");
  const locks: DirLock[] = [];
  let run: string;
  /** A copy of the run being written right now: a store connection open, an unit planned in its WAL only. */
  let live: string;
  let writer: RunStore;

  before(async () => {
    configureLogger({ level: "error" });
    run = await subtleMemoryRun(out);
    await scoreRun(run, { judgeLlm: `scripted:${join(out, "subtle.jsonl")}`, judges: ["judge-a", "judge-b"] });
    live = join(out, "live");
    cpSync(run, live, { recursive: true });
    writer = new RunStore(join(live, STORE_FILE));
    writer.plan([{ id: "late-unit", system: "bm25", episodeId: "late-episode" }]);
  });
  after(() => {
    writer.close();
    for (const lock of locks) lock.unlock();
    configureLogger({ level: "info" });
    rmSync(out, { recursive: true, force: true });
  });

  const lock = (dir: string) => {
    const l = lockDir(dir);
    locks.push(l);
    return l;
  };

  it("starts from a store closed cleanly: no WAL or shared index beside it", () => {
    assert.deepEqual(readdirSync(run).sort(), [...RUN_FILES, STORE_FILE].sort());
    assert.ok(existsSync(join(live, WAL)) && existsSync(join(live, SHM)), "the live copy has its writer's files");
  });

  it("report, compare, export, judge-agreement and the viewer work on a read-only run and write nothing", async (t) => {
    const { kind } = lock(run);
    t.diagnostic(`run folder made read-only by: ${kind}`);
    const before = snapshotDir(run);
    const copies = storeCopies();

    const md = await renderReport([run], "md", { iterations: 50 });
    assert.match(md, /^# membench report/);
    const summary = JSON.parse(await renderReport([run], "json"));
    assert.deepEqual(
      summary.results.map((r: { system: string; setting: string }) => `${r.system}/${r.setting}`).sort(),
      ["bm25/default", "bm25/oracle", "bm25/perfect", "none/default", "none/oracle", "none/perfect"],
    );
    assert.match(await renderReport([run], "html", { iterations: 50 }), /^<!doctype html>/);
    const [comparison] = compareRuns(run, run, { systemA: "bm25", systemB: "none", iterations: 50 });
    assert.equal(comparison?.aligned, 8);
    const exported = join(out, "export", "leaderboard.json");
    assert.deepEqual(await exportOfficial(run, "subtlememory", exported), [exported]);
    const agreement = runJudgeAgreement(run);
    assert.deepEqual(agreement.table.raters, ["judge-a", "judge-b"]);
    assert.ok(agreement.rows.length > 0);

    const id = basename(run);
    const overview = await api(run, "GET", `/api/runs/${id}`);
    assert.equal(overview.status, 200);
    const probes = await api(run, "GET", `/api/runs/${id}/probes`);
    const rows = (probes.body as { rows: ProbeRow[] }).rows;
    assert.equal(rows.length, 48, "8 questions × 2 systems × 3 settings");
    const judged = rows.find((r) => r.metric !== undefined)!;
    assert.equal((await api(run, "GET", `/api/runs/${id}/probes/${judged.key}`)).status, 200);
    if (kind !== "none") {
      // The viewer's one write, refused with the reason instead of a crash.
      const reason = (overview.body as { readOnly?: string }).readOnly;
      assert.match(reason ?? "", /^overrides are unavailable: this run is read-only \(/);
      const refused = await api(run, "POST", `/api/runs/${id}/overrides`, {
        key: judged.key,
        value: 1,
        comment: "a person's verdict",
      });
      assert.equal(refused.status, 409);
      assert.deepEqual(refused.body, { error: reason });
      const clear = await api(run, "DELETE", `/api/runs/${id}/overrides?key=${judged.key}`);
      assert.equal(clear.status, 409);
    } else {
      assert.equal((overview.body as { readOnly?: string }).readOnly, undefined);
    }

    assert.deepEqual(snapshotDir(run), before, `nothing in the run changed (folder locked by: ${kind})`);
    assert.equal(storeCopies(), copies, "no temporary copy is left behind");
  });

  it("reads a run being written in place, seeing its committed units, and leaves its database and WAL as they were", async () => {
    const before = snapshotDir(live);
    const loaded = loadRun(live);
    assert.ok(
      loaded.units.some((u) => u.id === "late-unit"),
      "the unit only the WAL holds is read",
    );
    assert.match(await renderReport([live], "md", { iterations: 50 }), /^# membench report/);
    // The shared index is SQLite's coordination with the writer: a reader may update it.
    assert.deepEqual(without(snapshotDir(live), SHM), without(before, SHM));
  });

  it("reads a killed run archived with its WAL but no shared index from a private copy, on a read-only folder", async () => {
    const killed = join(out, "killed");
    mkdirSync(killed);
    for (const f of [...RUN_FILES, STORE_FILE, WAL]) copyFileSync(join(live, f), join(killed, f));
    const { kind } = lock(killed);
    const before = snapshotDir(killed);
    const copies = storeCopies();
    assert.ok(
      loadRun(killed).units.some((u) => u.id === "late-unit"),
      "the WAL's unit is applied",
    );
    assert.match(await renderReport([killed], "md", { iterations: 50 }), /^# membench report/);
    assert.deepEqual(snapshotDir(killed), before, `nothing created or changed (locked by: ${kind})`);
    assert.equal(storeCopies(), copies, "the private copy is removed");
  });

  it("reads a run archived with its WAL and shared index, on a read-only folder", async () => {
    const archived = join(out, "archived");
    mkdirSync(archived);
    for (const f of [...RUN_FILES, STORE_FILE, WAL, SHM]) copyFileSync(join(live, f), join(archived, f));
    const { kind } = lock(archived);
    const before = snapshotDir(archived);
    assert.ok(loadRun(archived).units.some((u) => u.id === "late-unit"));
    const after = snapshotDir(archived);
    // Locked, nothing at all changes; unlocked (root without chattr), SQLite may rebuild its shared index.
    if (kind === "none") assert.deepEqual(without(after, SHM), without(before, SHM));
    else assert.deepEqual(after, before);
  });

  it("reads an older run whose store lacks a table as having no rows there", () => {
    const old = join(out, "old");
    mkdirSync(old);
    copyFileSync(join(run, STORE_FILE), join(old, STORE_FILE));
    chmodSync(join(old, STORE_FILE), 0o644);
    const rw = new RunStore(join(old, STORE_FILE));
    const overrides = rw.overrides().length;
    rw.close();
    // What a store written before overrides existed looks like.
    const db = new Database(join(old, STORE_FILE));
    db.exec("DROP TABLE overrides");
    db.close();
    assert.equal(overrides, 0);
    const before = snapshotDir(old);
    const store = RunStore.readOnly(join(old, STORE_FILE));
    try {
      assert.deepEqual(store.overrides(), []);
      assert.equal(store.records().length, 48);
    } finally {
      store.close();
    }
    assert.deepEqual(snapshotDir(old), before);
  });

  it("names the file when the store is not a database", () => {
    const bad = join(out, "bad");
    mkdirSync(bad);
    const path = join(bad, STORE_FILE);
    copyFileSync(join(run, "config.json"), path);
    assert.throws(() => RunStore.readOnly(path), new RegExp(`file ${path}: not a SQLite database`));
    assert.equal(readFileSync(path, "utf8"), readFileSync(join(run, "config.json"), "utf8"));
  });
});
