/**
 * Reported rows a reader can cite and check: every row of every benchmark's
 * paper.ts names a source that opens (an arXiv id or a URL) and the place in
 * it, and the per-category numbers added from the sources are checked against
 * the sources' own arithmetic (a weighted or macro mean that must give the
 * printed overall), which catches a transposed column.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { locomoJAnchors } from "../../src/benchmarks/locomo/paper.ts";
import { memconflictTable5Answers, memconflictTable5Retrieval } from "../../src/benchmarks/memconflict/paper.ts";
import { citationText } from "../../src/benchmarks/shared/citation.ts";
import { allReported } from "../../src/report/reported.ts";

const BENCHMARKS = ["subtlememory", "realmem", "memconflict", "memora", "memoryagentbench", "longmemeval", "locomo"];

describe("reported rows name their sources", () => {
  for (const bench of BENCHMARKS) {
    it(`${bench}: every row cites a work a reader can open, and where in it`, () => {
      const tables = allReported(bench);
      assert.ok(tables.length > 0);
      for (const t of tables) {
        assert.doesNotMatch(t.source, /spec\//, `${bench}/${t.id}: a path outside the repository`);
        for (const row of t.rows) {
          const where = `${bench}/${t.id}/${row.system}`;
          assert.match(row.source.url, /^https:\/\/\S+$/, where);
          assert.ok(row.source.where.length > 0, `${where}: no table or place`);
          if (row.source.arxiv) {
            assert.match(row.source.arxiv, /^\d{4}\.\d{5}$/, where);
            assert.equal(row.source.url, `https://arxiv.org/abs/${row.source.arxiv}`, where);
          }
          assert.doesNotMatch(citationText(row.source), /spec\//, where);
        }
      }
    });
  }

  it("names the paper and table of each benchmark's own numbers", () => {
    const text = (bench: string, id: string) => allReported(bench).find((t) => t.id === id)!.source;
    assert.equal(
      text("realmem", "realmem-table2"),
      "RealMem (Bian et al., 2026), arXiv 2601.06966, Table 2 (generation, judge GPT-4o)",
    );
    assert.match(text("realmem", "retrieval"), /arXiv 2601\.06966, Table 3/);
    assert.match(text("memora", "memora-table3"), /^Memora \(Uddin et al\., 2026\), arXiv 2604\.20006, Table 3$/);
    assert.match(text("memconflict", "table7"), /arXiv 2605\.20926, Table 7$/);
    assert.match(text("memoryagentbench", "table7"), /arXiv 2507\.05257, Table 7$/);
    assert.match(text("subtlememory", "subtlememory-waterfall"), /arXiv 2606\.05761, Figure 3/);
  });

  it("gives rows collected from several places each its own source", () => {
    for (const bench of ["locomo", "longmemeval"]) {
      const [t] = allReported(bench);
      assert.equal(t!.citation, undefined, `${bench}: no single source for the table`);
      assert.ok(t!.rows.every((r) => r.ownSource));
    }
    const zep = allReported("longmemeval")[0]!.rows.find((r) => r.system === "Zep (paper, gpt-4o)")!;
    assert.equal(zep.source.arxiv, "2501.13956");
    const realmem = allReported("realmem").find((t) => t.id === "realmem-table4")!;
    assert.ok(
      realmem.rows.every((r) => !r.ownSource),
      "rows of a paper table cite the table",
    );
  });
});

describe("per-category numbers taken from the sources", () => {
  it("LoCoMo, mem0 paper Table 1: the four categories give each printed overall, weighted by the release's counts", () => {
    // Questions per category in locomo10 (ids 1–4: multi-hop, temporal, open-domain, single-hop).
    const counts: Record<string, number> = { "multi-hop": 282, temporal: 321, "open-domain": 96, "single-hop": 841 };
    const total = Object.values(counts).reduce((a, b) => a + b, 0);
    assert.equal(total, 1540);
    const rows = locomoJAnchors.rows.filter((r) => r.source.arxiv === "2504.19413");
    assert.deepEqual(
      rows.map((r) => r.system),
      [
        "Mem0ᵍ (paper)",
        "Mem0 (paper)",
        "Zep (as run in the mem0 paper)",
        "LangMem (mem0 paper)",
        "OpenAI Memory (mem0 paper)",
      ],
    );
    for (const row of rows) {
      const weighted = Object.entries(counts).reduce((acc, [c, n]) => acc + n * row.cells[c]!, 0) / total;
      assert.ok(Math.abs(weighted - row.cells.overall!) < 0.01, `${row.system}: ${weighted} vs ${row.cells.overall}`);
      // Taken at their printed labels instead, the columns would not give the overall.
      const literal =
        (counts["single-hop"]! * row.cells["multi-hop"]! +
          counts["multi-hop"]! * row.cells["open-domain"]! +
          counts["open-domain"]! * row.cells["single-hop"]! +
          counts.temporal! * row.cells.temporal!) /
        total;
      assert.ok(Math.abs(literal - row.cells.overall!) > 1, `${row.system}: the label reading also fits`);
    }
    assert.deepEqual(rows[1]!.cells, {
      "single-hop": 72.93,
      "multi-hop": 67.13,
      temporal: 55.51,
      "open-domain": 51.15,
      overall: 66.88,
    });
  });

  it("MemConflict Table 5 (implicit queries): each average is the macro mean of the three conflict types", () => {
    for (const row of memconflictTable5Retrieval.rows) {
      for (const metric of ["seh@3", "srs@3"]) {
        const mean =
          (row.cells[`dynamic_${metric}`]! + row.cells[`static_${metric}`]! + row.cells[`conditional_${metric}`]!) / 3;
        assert.ok(Math.abs(mean - row.cells[metric]!) <= 0.00011, `${row.system} ${metric}: ${mean}`);
      }
    }
    for (const row of memconflictTable5Answers.rows) {
      const mean = (row.cells.dynamic_aa! + row.cells.static_aa! + row.cells.conditional_aa!) / 3;
      assert.ok(Math.abs(mean - row.cells.aa!) <= 0.00011, `${row.system} aa: ${mean}`);
      assert.equal(row.cells.dynamic_uocs, null, "Table 5 has no UOCS");
      assert.equal(row.cells.static_crs, null, "Table 5 has no CRS");
    }
    const tagged = allReported("memconflict").filter((t) => t.tag === "implicit queries");
    assert.deepEqual(
      tagged.map((t) => t.id),
      ["table3", "table4"],
    );
  });
});
