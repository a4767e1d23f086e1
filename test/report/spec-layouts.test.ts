/**
 * Every paper table the markdown report prints, checked against the header the
 * spec (/work/shared/spec/*.md) gives for it: the column part of our header
 * (after source / group / system / n, before note) must equal the spec's header
 * after its row-label columns. The only normalisations are cosmetic, each named
 * and justified where it is applied. One reported row per table is also
 * compared with the spec's row of the same system, value by value, which
 * catches a unit or a column slip that equal headers would not, and every table
 * must hold our rows beside the reported ones.
 *
 * Printed, but the spec gives no header to check against:
 * - SubtleMemory's by-source and by-topic breakdowns: the reference
 *   post-processing computes them, the paper prints no such table
 *   (spec/subtlememory.md §6.1); they reuse Table 1's columns.
 * - LongMemEval and LoCoMo: repos.md describes the repositories but gives no
 *   results table. Their reported rows are anchors from anchors.md C.1 / C.2
 *   (one score per system), not a paper layout.
 * - The retrieval and cost tables, which are ours; only RealMem's Table 3,
 *   printed inside the retrieval table, is checked here.
 */
import "../support/clean-env.ts";
import assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { renderReport } from "../../src/report/report.ts";
import { type ParsedTable, tableAfter } from "./markdown-table.ts";
import {
  memconflictRun,
  memoraRun,
  memoryagentbenchRun,
  realmemOfflineRun,
  subtleMemoryRun,
  tempDir,
} from "./sample-runs.ts";

const SPEC = resolve(dirname(fileURLToPath(import.meta.url)), "../../../shared/spec");
const skipNoSpec = existsSync(SPEC) ? false : `${SPEC} is absent: the spec layout checks are skipped`;
const specText = (file: string) => readFileSync(resolve(SPEC, file), "utf8");
const specTable = (file: string, heading: string) => tableAfter(specText(file), heading);

/**
 * Markdown markup, not content: bold / italic markers (the spec bolds a
 * headline column such as **All** or **AR**, the papers bold best values) and
 * backslash escapes (`LME(S\*)` is the text `LME(S*)`, escaped so it is not
 * read as emphasis).
 */
const unescapeMd = (c: string) => c.replace(/\\(.)/g, "$1");
const plain = (c: string) => unescapeMd(c.replace(/(?<!\\)\*/g, ""));

/** The column part of one of our layout tables: after source / group / system / n, without the note. */
function ourColumns(t: ParsedTable): string[] {
  const start = t.header.indexOf("n") + 1;
  assert.ok(start > 0, `no n column in ${t.header.join(" | ")}`);
  const cols = t.header.slice(start);
  // Our renderer escapes only `\\`, `|`, `[` and `]` (escapeMarkdown), never `*`.
  return (cols.at(-1) === "note" ? cols.slice(0, -1) : cols).map(unescapeMd);
}

/** The spec's column labels after its `skip` row-label columns (System, Category, …). */
const specColumns = (t: ParsedTable, skip: number) => t.header.slice(skip).map(plain);

/**
 * `abbr` abbreviates `full` word by word: each part of it (split at spaces and
 * dots) starts with the first letter of the matching word of the full name
 * (split at spaces, hyphens and underscores) and its other letters occur in that
 * word in order, e.g. Stat.Ret → Static Retrieval, Single → Single-session,
 * Avg → Average.
 */
function abbreviates(abbr: string, full: string): boolean {
  const a = abbr.split(/[\s.]+/).filter(Boolean);
  const f = full.split(/[\s_-]+/).filter(Boolean);
  const within = (part: string, word: string) => {
    let at = 0;
    for (const ch of part.toLowerCase()) {
      at = word.toLowerCase().indexOf(ch, at) + 1;
      if (at === 0) return false;
    }
    return part[0]!.toLowerCase() === word[0]!.toLowerCase();
  };
  return a.length <= f.length && a.every((p, i) => within(p, f[i]!));
}

/**
 * Expands the abbreviations a spec header uses, after checking that each one
 * really abbreviates its expansion and that the expansion is the spec's own
 * name for the thing (it occurs in the same spec file, with `-`, `_` and space
 * treated alike). Only whole leading words of a label are replaced.
 */
function expandAbbreviations(file: string, labels: string[], abbreviations: Record<string, string>): string[] {
  const loose = (s: string) => s.toLowerCase().replace(/[\s_-]+/g, " ");
  const text = loose(specText(file));
  for (const [abbr, full] of Object.entries(abbreviations)) {
    assert.ok(abbreviates(abbr, full), `${abbr} does not abbreviate ${full}`);
    assert.ok(text.includes(loose(full)), `${file} never names "${full}"`);
  }
  return labels.map((label) => {
    for (const [abbr, full] of Object.entries(abbreviations)) {
      if (label === abbr || label.startsWith(`${abbr} `)) return full + label.slice(abbr.length);
    }
    return label;
  });
}

/** Numbers in a spec cell, in order: `173.0 (−23.0)` gives [173, −23]; `–` gives [null]. */
function specNumbers(cell: string): Array<number | null> {
  const c = plain(cell).trim();
  if (c === "–" || c === "") return [null];
  const found = c.replace(/−/g, "-").match(/-?\d+(?:\.\d+)?/g);
  assert.ok(found, `no number in spec cell "${cell}"`);
  return found.map(Number);
}

const label = (row: string[], skip: number) => plain(row[skip - 1] ?? "").trim();

/**
 * Our reported row of `system` (with the source tag `reported (<tag>)` when
 * given) carries the spec row's numbers in the same columns, equal up to our
 * printed rounding. `expected` adjusts the spec row's numbers where the layout
 * note says so.
 */
function sameReportedRow(
  ours: ParsedTable,
  spec: ParsedTable,
  skip: number,
  system: string,
  options: { tag?: string; expected?: (n: Array<number | null>) => Array<number | null> } = {},
) {
  const specRow = spec.rows.find((r) => label(r, skip) === system);
  assert.ok(specRow, `spec row ${system}`);
  const numbers = specRow.slice(skip).flatMap(specNumbers);
  const expected = options.expected ? options.expected(numbers) : numbers;
  const source = options.tag ? `reported (${options.tag})` : "reported";
  const sys = ours.header.indexOf("system");
  const row = ours.rows.find((r) => r[0] === source && r[sys] === system);
  assert.ok(row, `our ${source} row ${system}`);
  const start = ours.header.indexOf("n") + 1;
  const cells = row.slice(start, start + expected.length);
  assert.equal(cells.length, expected.length);
  cells.forEach((text, i) => {
    const want = expected[i];
    if (want === null) {
      assert.equal(text, "–", `${system}, ${ours.header[start + i]}: nothing reported`);
      return;
    }
    const got = Number(text);
    const decimals = text.split(".")[1]?.length ?? 0;
    assert.ok(
      Math.abs(got - want!) <= 0.5 * 10 ** -decimals + 1e-9,
      `${system}, ${ours.header[start + i]}: we print ${text}, the spec has ${want}`,
    );
  });
}

/** Our rows are printed beside the reported ones. */
function hasBoth(t: ParsedTable) {
  assert.ok(
    t.rows.some((r) => r[0]?.startsWith("reported")),
    "reported rows",
  );
  assert.ok(
    t.rows.some((r) => r[0] === "membench"),
    "our rows",
  );
}

/** The markdown of one benchmark's section of the report. */
function section(md: string, bench: string): string {
  const start = md.indexOf(`(\`${bench}\`)`);
  assert.ok(start >= 0, `no ${bench} section`);
  const end = md.indexOf("\n## ", start);
  return md.slice(start, end < 0 ? undefined : end);
}

describe("markdown report tables against the spec's headers", { skip: skipNoSpec }, () => {
  const out = tempDir("mb-spec-layouts-");
  let md = "";
  const ours = (bench: string, heading: string) => tableAfter(section(md, bench), heading);

  before(async () => {
    const dirs = [
      await subtleMemoryRun(out),
      await realmemOfflineRun(out),
      await memconflictRun(out),
      await memoraRun(out),
      await memoryagentbenchRun(out),
    ];
    md = await renderReport(dirs, "md", { generatedAt: new Date("2026-01-02T03:04:05Z") });
  });
  after(() => rmSync(out, { recursive: true, force: true }));

  describe("SubtleMemory", () => {
    const file = "subtlememory.md";

    it("Table 1 has Table 1a's and Table 1b's columns, with both answer models' rows", () => {
      const t = ours("subtlememory", "SubtleMemory Table 1");
      hasBoth(t);
      for (const [heading, tag] of [
        ["Table 1a", "gpt-5.4, default"],
        ["Table 1b", "gpt-oss-120b, default"],
      ] as const) {
        const spec = specTable(file, heading);
        assert.deepEqual(ourColumns(t), specColumns(spec, 2), heading);
        sameReportedRow(t, spec, 2, "Mem0", { tag });
        sameReportedRow(t, spec, 2, "Oracle", { tag });
      }
    });

    it("Table 13 (perfect retrieval) is printed in Table 1, in Table 13's columns", () => {
      const t = ours("subtlememory", "SubtleMemory Table 1");
      const spec = specTable(file, "Table 13");
      // Table 13's last column, "(Default All)", repeats Table 1a's All for the
      // same system; our Table 1 prints Table 13's rows beside Table 1a's, so that
      // number is the All of the system's `reported (gpt-5.4, default)` row.
      const columns = specColumns(spec, 1);
      assert.equal(columns.at(-1), "(Default All)");
      assert.deepEqual(ourColumns(t), columns.slice(0, -1));
      const dropDefaultAll = (n: Array<number | null>) => n.slice(0, -1);
      sameReportedRow(t, spec, 1, "A-Mem", { tag: "gpt-5.4, perfect", expected: dropDefaultAll });
      const a1 = specTable(file, "Table 1a");
      const defaultAll = spec.rows.find((r) => r[0] === "A-Mem")!.at(-1);
      assert.equal(a1.rows.find((r) => r[1] === "A-Mem")!.at(-1), defaultAll, "(Default All) is Table 1a's All");
    });

    it("the diagnostic waterfall has Figure 3's columns", () => {
      const t = ours("subtlememory", "Diagnostic waterfall");
      hasBoth(t);
      const spec = specTable(file, "Figure 3");
      // The spec flattens Figure 3's two-level header: "P_preserve" spans Comp,
      // Nu, Contr and Overall, so the prefix is carried over to the cells after it.
      let prefix = "";
      const spanned = specColumns(spec, 1).map((c) => {
        const m = /^(P_\w+) (.+)$/.exec(c);
        if (m) prefix = m[1]!;
        return m ? ([m[1]!, m[2]!] as const) : ([prefix, c] as const);
      });
      // Our columns are named like the crossSetting metrics (docs/scoring/subtlememory.md):
      // p_preserve_<relation type>, and p_preserve for Overall. The relation types are
      // the spec's documented abbreviations (its §7 legend, asserted here); P/p is case.
      const legend = specText(file);
      for (const def of ["Comp = Complementary", "Nu = Nuanced", "Contr = Contradictory"]) {
        assert.ok(legend.includes(def), `spec legend: ${def}`);
      }
      const relation: Record<string, string> = {
        Comp: "_complementary",
        Nu: "_nuanced",
        Contr: "_contradictory",
        Overall: "",
      };
      const expected = spanned.map(([p, c]) => {
        assert.ok(c in relation, `unexpected Figure 3 column ${p} ${c}`);
        return `${p.toLowerCase()}${relation[c]}`;
      });
      assert.deepEqual(ourColumns(t), expected);
      sameReportedRow(t, spec, 1, "MemoBase", { tag: "gpt-5.4, default" });
    });
  });

  describe("RealMem", () => {
    const file = "realmem.md";

    it("Table 2 has the paper's columns", () => {
      const t = ours("realmem", "RealMem Table 2");
      hasBoth(t);
      const spec = specTable(file, "Table 2: generation");
      // The spec abbreviates the context setting ("Mem:", "Sess:", the names the
      // paper's two column blocks carry in full) and capitalises "Mini" (case only).
      const expected = specColumns(spec, 1).map((c) =>
        c
          .replace(/^Mem: /, "Memory ")
          .replace(/^Sess: /, "Session ")
          .replace("Mini", "mini"),
      );
      assert.deepEqual(ourColumns(t), expected);
      sameReportedRow(t, spec, 1, "Graph Mem");
      sameReportedRow(t, spec, 1, "MemoryOS");
    });

    it("Table 4 has the paper's columns", () => {
      const t = ours("realmem", "RealMem Table 4");
      hasBoth(t);
      const spec = specTable(file, "Table 4: by category");
      // The spec flattens a two-level header: each group's "<group> QA" is followed
      // by a bare "Rec" of the same group. It writes "Rec" for the table title's
      // "Rec." (punctuation only).
      let group = "";
      const flat = specColumns(spec, 1).map((c) => {
        const m = /^(.+) QA$/.exec(c);
        if (m) group = m[1]!;
        return m ? c : `${group} ${c === "Rec" ? "Rec." : c}`;
      });
      // Query categories (spec §2.3) and session types (§2.4) are abbreviated.
      const expected = expandAbbreviations(file, flat, {
        "Stat.Ret": "Static Retrieval",
        "Dyn.Upd": "Dynamic Updating",
        "Proac.Align": "Proactive Alignment",
        "Temp.Reas": "Temporal Reasoning",
        Single: "Single-session",
        Multi: "Multi-session",
      });
      assert.deepEqual(ourColumns(t), expected);
      sameReportedRow(t, spec, 1, "MemoryOS");
    });

    it("Table 12 is printed as the paper prints it: one row per topic, a QA/Rec. pair per system", () => {
      const t = ours("realmem", "RealMem Table 12");
      const spec = specTable(file, "Table 12: by topic");
      // Our pivoted columns are "reported: <system> <metric>"; system names differ in
      // spacing, hyphens and case (GraphMem / Graph Mem, A-Mem / A-mem) and "Rec" in
      // its period, so compare with those ignored.
      const key = (c: string) =>
        c
          .replace(/^reported: /, "")
          .replace(/[\s.-]/g, "")
          .toLowerCase();
      const byTopic = spec.header.map(plain);
      assert.deepEqual(t.header.slice(0, byTopic.length).map(key), byTopic.map(key));
      assert.ok(
        t.header.some((h) => h.startsWith("membench: ")),
        "our columns beside the paper's",
      );
      assert.deepEqual(
        t.rows.map((r) => r[0]),
        spec.rows.map((r) => plain(r[0]!)),
      );
      const academic = spec.rows
        .find((r) => r[0] === "Academic Writing")!
        .slice(1)
        .flatMap(specNumbers);
      assert.deepEqual(
        t.rows
          .find((r) => r[0] === "Academic Writing")!
          .slice(1, 1 + academic.length)
          .map(Number),
        academic,
      );
    });

    it("Table 3 sits in the retrieval table under the documented metric names", () => {
      // Split by family: recall, then nDCG; Table 3's columns read in that order across the two.
      const recall = ours("realmem", "Retrieval from provenance: recall");
      const ndcg = ours("realmem", "Retrieval from provenance: nDCG");
      hasBoth(recall);
      hasBoth(ndcg);
      const recallWidth = recall.header.length;
      const t = {
        header: [...recall.header, ...ourColumns(ndcg)],
        rows: recall.rows.map((r) => {
          const other = ndcg.rows.find((x) => x[0] === r[0] && x[1] === r[1]) ?? [];
          return [...r.slice(0, recallWidth), ...other.slice(ndcg.header.indexOf("n") + 1)];
        }),
      };
      const spec = specTable(file, "Table 3: retrieval");
      // docs/reports.md §3: the paper's session-level R@k is our recall_all@k (all gold
      // sessions in the top k) and its NDCG@k our ndcg_realmem@k. The retrieval table
      // has more metrics than Table 3; Table 3's must be there in its order.
      const renamed = specColumns(spec, 1).map((c) =>
        c.replace(/^R@(\d+)$/, "recall_all@$1").replace(/^NDCG@(\d+)$/, "ndcg_realmem@$1"),
      );
      const cols = ourColumns(t);
      const at = renamed.map((c) => cols.indexOf(c));
      assert.ok(
        at.every((i) => i >= 0),
        `${renamed.join(", ")} in ${cols.join(", ")}`,
      );
      assert.deepEqual(
        at,
        [...at].sort((a, b) => a - b),
        "in Table 3's order",
      );
      const start = t.header.indexOf("n") + 1;
      for (const system of ["Graph Mem", "A-mem"]) {
        const row = t.rows.find((r) => r[0] === "reported" && r[1] === system)!;
        const want = spec.rows
          .find((r) => r[0] === system)!
          .slice(1)
          .flatMap(specNumbers);
        at.forEach((i, j) => {
          assert.ok(Math.abs(Number(row[start + i]) - want[j]!) <= 0.0005 + 1e-9, `${system} ${renamed[j]}`);
        });
      }
    });
  });

  describe("MemConflict", () => {
    const file = "memconflict.md";

    it("Table 4 has the paper's columns", () => {
      const t = ours("memconflict", "Table 4: white-box");
      hasBoth(t);
      const spec = specTable(file, "7.4 Table 4");
      // Table 4 abbreviates the conflict types and "Average" that Tables 3 and 7 of
      // the same spec spell out; our headers use the long forms throughout.
      const expected = expandAbbreviations(file, specColumns(spec, 1), {
        Dyn: "Dynamic",
        Stat: "Static",
        Cond: "Conditional",
        Avg: "Average",
      });
      assert.deepEqual(ourColumns(t), expected);
      sameReportedRow(t, spec, 1, "MemOS");
      sameReportedRow(t, spec, 1, "LangMem");
    });

    it("Table 5 (implicit queries) is printed in the layouts of Tables 3 and 4, tagged", () => {
      const spec = specTable(file, "7.5 Table 5");
      // Table 5's columns: AA, SEH@3, SRS per type (Dyn, Stat, Cond), then Avg AA, SEH@3, SRS.
      const [dynAa, dynSeh, dynSrs, statAa, statSeh, statSrs, condAa, condSeh, condSrs, aa, seh, srs] = [
        ...Array(12).keys(),
      ];
      const pick = (idx: Array<number | null>) => (n: Array<number | null>) =>
        idx.map((i) => (i === null ? null : n[i]!));
      const options = { tag: "implicit queries" };
      // Table 3's layout: Dynamic AA, Dynamic UOCS, Static AA, Static CRS, Conditional AA, Average AA.
      const t3 = ours("memconflict", "Table 3: black-box");
      for (const system of ["MemOS", "Mem0"]) {
        sameReportedRow(t3, spec, 1, system, {
          ...options,
          expected: pick([dynAa!, null, statAa!, null, condAa!, aa!]),
        });
      }
      // Table 4's layout: SEH@3 and SRS per type, then the averages.
      const t4 = ours("memconflict", "Table 4: white-box");
      for (const system of ["LangMem", "Memobase"]) {
        sameReportedRow(t4, spec, 1, system, {
          ...options,
          expected: pick([dynSeh!, dynSrs!, statSeh!, statSrs!, condSeh!, condSrs!, seh!, srs!]),
        });
      }
    });
  });

  describe("Memora", () => {
    const file = "memora.md";

    it("Table 5 has the paper's columns, each cell's MPA and reduction side by side", () => {
      const t = ours("memora", "Memora Table 5");
      hasBoth(t);
      const spec = specTable(file, "7.4 Table 5");
      // Each paper cell holds two numbers, "MPA (−reduction)" (every system row of
      // the spec has that form, asserted below). We print the two numbers of a
      // duration in two adjacent columns, "<Duration>" and "<Duration> (reduction)",
      // so that each has its own n and CI; durations, order and units are the paper's.
      for (const row of spec.rows.filter((r) => !r[0]!.startsWith("*"))) {
        for (const cell of row.slice(1)) assert.match(cell, /^[\d.]+ \(−[\d.]+\)$/, `${row[0]}: ${cell}`);
      }
      const expected = specColumns(spec, 1).flatMap((c) => [c, `${c} (reduction)`]);
      assert.deepEqual(ourColumns(t), expected);
      sameReportedRow(t, spec, 1, "LangMem");
    });
  });

  // Tables whose header is the spec's as it stands: the columns after the first.
  const PLAIN: Array<[bench: string, heading: string, file: string, specHeading: string, systems: string[]]> = [
    ["memconflict", "Table 3: black-box", "memconflict.md", "7.3 Table 3", ["MemOS"]],
    ["memconflict", "Table 7: Evidence Utilization Gap", "memconflict.md", "7.7 Table 7", ["LangMem"]],
    ["memora", "Memora Table 3", "memora.md", "7.2 Table 3", ["A-Mem"]],
    ["memora", "Memora Table 4", "memora.md", "7.3 Table 4", ["LangMem"]],
    [
      "memoryagentbench",
      "MemoryAgentBench Table 3",
      "memoryagentbench.md",
      "6.1 Main results",
      ["BM25", "GPT-4o (128K)"],
    ],
    ["memoryagentbench", "MemoryAgentBench Table 7", "memoryagentbench.md", "6.2 TTL breakdown", ["BM25", "MemGPT"]],
  ];
  for (const [bench, heading, file, specHeading, systems] of PLAIN) {
    it(`${heading} has the paper's columns (${file} ${specHeading})`, () => {
      const t = ours(bench, heading);
      hasBoth(t);
      const spec = specTable(file, specHeading);
      assert.deepEqual(ourColumns(t), specColumns(spec, 1));
      for (const system of systems) sameReportedRow(t, spec, 1, system);
    });
  }
});
