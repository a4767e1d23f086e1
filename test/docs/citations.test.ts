/**
 * Where the code and the docs say a fact comes from, a reader must be able to
 * open it: a paper (arXiv id, section, table), a released file
 * (owner/repo@commit:path), an issue or a URL. The team's digests under
 * `../shared/spec/` are not part of the repository, so no file under src/ or
 * docs/, nor README.md, may cite them: no `spec/…` path, no "spec §n", no
 * `repos.md` / `anchors.md`, and no path on a developer's machine (`/work/…`).
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** What a citation of a source nobody can open looks like. */
const UNOPENABLE: ReadonlyArray<[string, RegExp]> = [
  ["a spec/ path", /(?<![\w-])spec\//],
  ["a spec section", /\bspec\s+§/i],
  ["a spec digest", /\b(?:repos|anchors)\.md\b/],
  ["a path on a developer's machine", /(?<![\w.])\/work\//],
];

function unopenable(line: string): string | undefined {
  return UNOPENABLE.find(([, pattern]) => pattern.test(line))?.[0];
}

function filesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => relative(ROOT, join(d.parentPath, d.name)))
    .sort();
}

function scan(files: readonly string[]) {
  const found: string[] = [];
  let lines = 0;
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), "utf8");
    if (text.includes("\u0000")) continue;
    text.split("\n").forEach((line, i) => {
      lines++;
      const what = unopenable(line);
      if (what) found.push(`${file}:${i + 1}: ${what}: ${line.trim()}`);
    });
  }
  return { found, lines };
}

describe("sources named in src/, docs/ and README.md", () => {
  it("recognises a citation nobody can open, and leaves real citations and other uses of 'spec' alone", () => {
    const bad = [
      " * MemConflict scoring (spec/memconflict.md §6). One judge call",
      "The facts come from `/work/shared/spec/memora.md` (§ numbers refer to it)",
      "`Dynamic Updating` counts (see ../shared/spec/realmem.md)",
      "top 5, as in the released scorer (spec §6.2, §11.10)",
      "mentioned (see repos.md §7)",
      "(anchors.md C.2)",
    ];
    const good = [
      " * MemConflict scoring (arXiv 2605.20926 §3.6; TaoZhen1110/MemConflict@17cbc14:Evaluation/eval_scoring.py)",
      "Renders a vega-lite spec to an SVG string",
      '.option("--llm <spec>", "answer model")',
      "/** Model name when the spec does not carry one. */",
      "the repos listed in https://github.com/geniesinc/Memora/blob/a6493188/README.md",
      "skipped with a message when `../shared/spec` is absent",
    ];
    for (const line of bad) assert.ok(unopenable(line), `not flagged: ${line}`);
    for (const line of good) assert.equal(unopenable(line), undefined, `flagged: ${line}`);
  });

  it("cites only sources a reader can open", () => {
    const src = filesUnder("src");
    const docs = filesUnder("docs");
    // Not vacuous: the whole tree is read, code, prompts and pages alike.
    assert.ok(src.length >= 200, `only ${src.length} files under src/`);
    assert.ok(src.filter((f) => f.endsWith(".md")).length >= 20, "the prompt templates under src/ are scanned");
    assert.ok(docs.length >= 20, `only ${docs.length} files under docs/`);
    assert.ok(docs.includes(join("docs", "scoring", "memora.md")), "docs/scoring/ is scanned");
    const { found, lines } = scan([...src, ...docs, "README.md"]);
    assert.ok(lines > 20_000, `only ${lines} lines read`);
    assert.deepEqual(found, [], `cite the paper or the released file instead:\n${found.join("\n")}`);
  });
});
