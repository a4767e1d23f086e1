/**
 * What every loader does with damaged files and odd folders: bytes that are
 * not UTF-8, broken or looping symbolic links, and a folder where a file is
 * expected. Each case goes through the real loader on a copy of its fixture.
 */
import assert from "node:assert/strict";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadDataset } from "../../src/benchmarks/index.ts";
import { utf8Damage } from "../../src/benchmarks/shared/utf8.ts";
import { writeUnified } from "../../src/benchmarks/unified/format.ts";
import type { Dataset } from "../../src/core/model.ts";
import { dataError, rejectsWith } from "../support/data-error.ts";
import { sampleDataset } from "../support/sample-dataset.ts";
import { fixture } from "../support/shared-data.ts";

const temps: string[] = [];
after(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "membench-files-"));
  temps.push(dir);
  return dir;
}

/** Replaces the first byte after `marker` in `file` with 0xE9 (é in Latin-1, not UTF-8 on its own). */
function corrupt(file: string, marker: string): void {
  const bytes = readFileSync(file);
  const at = bytes.indexOf(marker);
  assert.ok(at >= 0, `${marker} in ${file}`);
  bytes[at + Buffer.byteLength(marker)] = 0xe9;
  writeFileSync(file, bytes);
}

interface Case {
  bench: string;
  /** Copied into a temp folder; the load reads `<tmp>/<load>`. */
  fixture: string;
  load: string;
  /** The file damaged, relative to the temp folder, and the text just before the damage. */
  damaged: string;
  marker: string;
  /** The message's position: the record (line) and byte, or the line and byte in a whole-file read. */
  at: RegExp;
}

const CASES: Case[] = [
  {
    bench: "locomo",
    fixture: "locomo/per-conversation",
    load: ".",
    damaged: "7.json",
    marker: '"text": "',
    at: /^file .*7\.json: invalid UTF-8 at line \d+, byte \d+: 1 byte sequence not UTF-8/,
  },
  {
    bench: "memora",
    fixture: "memora",
    load: ".",
    damaged: "weekly/museum_curator/conversations/session_0002.json",
    marker: '"message": "',
    at: /session_0002\.json: invalid UTF-8 at line \d+, byte \d+/,
  },
  {
    bench: "realmem",
    fixture: "realmem",
    load: ".",
    damaged: "Mira_Sato_dialogues_256k.json",
    marker: '"content": "',
    at: /Mira_Sato_dialogues_256k\.json: invalid UTF-8 at line \d+/,
  },
  {
    bench: "subtlememory",
    fixture: "subtlememory/persona_1",
    load: ".",
    damaged: "history_sessions.json",
    marker: '"content": "',
    at: /history_sessions\.json: invalid UTF-8 at line \d+/,
  },
  {
    bench: "memconflict",
    fixture: "memconflict",
    load: "Step4_4.jsonl",
    damaged: "Step4_4.jsonl",
    marker: '"content":"',
    at: /Step4_4\.jsonl, record line 1: invalid UTF-8 at byte \d+/,
  },
  {
    bench: "longmemeval",
    fixture: "longmemeval",
    load: "longmemeval_s_cleaned.json",
    damaged: "longmemeval_s_cleaned.json",
    marker: '"content": "',
    at: /longmemeval_s_cleaned\.json, record element 0: invalid UTF-8 at line \d+/,
  },
  {
    bench: "memoryagentbench",
    fixture: "memoryagentbench",
    load: ".",
    damaged: "Accurate_Retrieval-00000-of-00001.parquet",
    marker: "Bridge spans ",
    at: /Accurate_Retrieval-00000-of-00001\.parquet: invalid UTF-8 in 1 text value .*the first starting/,
  },
];

const text = (dataset: Dataset) => JSON.stringify(dataset.episodes);

describe("bytes that are not UTF-8", () => {
  for (const c of CASES) {
    it(`${c.bench}: refused in strict mode, a warning and U+FFFD in lenient mode`, async () => {
      const dir = tempDir();
      cpSync(fixture(c.fixture), dir, { recursive: true });
      const clean = await loadDataset(c.bench, join(dir, c.load), { strict: false });
      assert.ok(!text(clean).includes("\uFFFD"));
      const damaged = join(dir, c.damaged);
      corrupt(damaged, c.marker);

      const error = await dataError(loadDataset(c.bench, join(dir, c.load)));
      assert.equal(error.file, damaged);
      assert.match(error.message, c.at);

      const lenient = await loadDataset(c.bench, join(dir, c.load), { strict: false });
      const warnings = lenient.warnings.filter((w) => /invalid UTF-8/.test(w));
      assert.equal(warnings.length, 1, lenient.warnings.join("\n"));
      assert.match(warnings[0]!, c.at);
      assert.equal(lenient.warnings.length, clean.warnings.length + 1);
      assert.ok(text(lenient).includes("\uFFFD"));
    });
  }

  it("unified JSONL: refused in strict mode, a warning naming the line otherwise", async () => {
    const file = join(tempDir(), "ds.jsonl");
    await writeUnified(sampleDataset(), file);
    corrupt(file, '"content":"');
    await rejectsWith(loadDataset("unified", file), {
      file,
      record: "line 1",
      message: /invalid UTF-8 at byte \d+: 1 byte sequence not UTF-8/,
    });
    const lenient = await loadDataset("unified", file, { strict: false });
    assert.equal(lenient.warnings.length, 1);
    assert.ok(text(lenient).includes("\uFFFD"));
  });

  it("counts the replaced sequences as Node's decoder makes them", () => {
    const samples = [
      [0x61, 0xe9, 0x62], // a lone Latin-1 é
      [0xe2, 0x82], // a cut three-byte character at the end
      [0xf0, 0x9f, 0x98], // a cut four-byte character
      [0xc0, 0xaf], // an overlong slash: two replacements
      [0xed, 0xa0, 0x80], // an encoded surrogate: three
      [0xf4, 0x90, 0x80, 0x80], // past U+10FFFF: four
      [0xe2, 0x82, 0xac, 0xff, 0x80], // € then two stray bytes
    ];
    for (const bytes of samples) {
      const buf = Buffer.from(bytes);
      const expected = [...buf.toString("utf8")].filter((ch) => ch === "\uFFFD").length;
      assert.equal(utf8Damage(buf)?.replaced, expected, Buffer.from(bytes).toString("hex"));
    }
    assert.equal(utf8Damage(Buffer.from("naïve € 😀", "utf8")), undefined);
    assert.equal(utf8Damage(Buffer.from([0x61, 0x0a, 0x62, 0xe9]))?.first, 3);
  });
});

describe("symbolic links and folders", () => {
  it("follows links to files and folders", async () => {
    const dir = tempDir();
    symlinkSync(fixture("locomo/per-conversation/7.json"), join(dir, "7.json"));
    assert.deepEqual(
      (await loadDataset("locomo", dir)).episodes.map((e) => e.id),
      ["conv-7"],
    );
    // A persona folder whose conversations/ and one session file are links.
    const persona = join(tempDir(), "weekly", "museum_curator");
    mkdirSync(join(persona, "conversations"), { recursive: true });
    const source = fixture("memora/weekly/museum_curator");
    symlinkSync(
      join(source, "evaluation_questions_museum_curator.json"),
      join(persona, "evaluation_questions_museum_curator.json"),
    );
    for (const n of [1, 2, 3, 4, 5]) {
      const name = `session_000${n}.json`;
      symlinkSync(join(source, "conversations", name), join(persona, "conversations", name));
    }
    const memora = await loadDataset("memora", persona);
    assert.deepEqual(memora.warnings, []);
    assert.equal(memora.episodes[0]!.sessions.length, 5);
    const linkedFolder = join(tempDir(), "weekly");
    mkdirSync(linkedFolder);
    symlinkSync(source, join(linkedFolder, "museum_curator"));
    assert.equal((await loadDataset("memora", linkedFolder)).episodes[0]!.sessions.length, 5);
  });

  it("names a broken link and where it points", async () => {
    const dir = tempDir();
    cpSync(fixture("locomo/per-conversation/7.json"), join(dir, "7.json"));
    const link = join(dir, "8.json");
    symlinkSync(join(dir, "gone.json"), link);
    await rejectsWith(loadDataset("locomo", dir), {
      file: link,
      message: /broken symbolic link \(points to .*gone\.json/,
    });
    await rejectsWith(loadDataset("locomo", link), { file: link, message: /broken symbolic link/ });
  });

  it("names a link that loops, given directly or met in a folder", async () => {
    const dir = tempDir();
    const a = join(dir, "a.json");
    symlinkSync(join(dir, "b.json"), a);
    symlinkSync(a, join(dir, "b.json"));
    for (const bench of [
      "locomo",
      "realmem",
      "memora",
      "subtlememory",
      "memconflict",
      "longmemeval",
      "mab",
      "unified",
    ]) {
      await rejectsWith(loadDataset(bench, a), { file: a, message: /symbolic link loop/ });
    }
    const error = await dataError(loadDataset("locomo", dir));
    assert.match(error.message, /symbolic link loop/);
    assert.match(error.file ?? "", /[ab]\.json$/);
  });

  it("names a folder link that leads back to a folder already read", async () => {
    const dir = tempDir();
    mkdirSync(join(dir, "data"));
    cpSync(fixture("locomo/per-conversation/7.json"), join(dir, "data", "7.json"));
    symlinkSync(dir, join(dir, "data", "up"));
    await rejectsWith(loadDataset("locomo", dir), {
      file: join(dir, "data", "up"),
      message: /symbolic link loop: this folder is .*, already read/,
    });
    const memora = await dataError(loadDataset("memora", join(dir, "data")));
    assert.equal(memora.file, join(dir, "data", "up", "data"));
    assert.match(memora.message, /symbolic link loop/);
  });

  it("refuses a folder given as unified data, naming it", async () => {
    const dir = tempDir();
    await rejectsWith(loadDataset("unified", dir), {
      file: dir,
      message: /is a folder; unified data is one \.jsonl file/,
    });
  });
});
