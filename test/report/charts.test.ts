import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { placeLabels, sectionCharts, shortRunNames } from "../../src/report/charts.ts";
import type { BenchmarkSection } from "../../src/report/model.ts";
import type { RunData } from "../../src/report/run-data.ts";
import { renderSvg } from "../../src/report/svg.ts";

describe("MemConflict failure split chart", () => {
  it("keeps its share axis at 0–100% when the three shares add up to a hair over 100", async () => {
    // 15 right, 3 retrieval and 4 utilisation failures of 22: 68.18… + 13.63… + 18.18… = 100.00000000000001.
    const run = {
      config: { id: "r", benchmark: "memconflict", systems: ["full-context"] },
      summary: {
        results: [
          {
            system: "full-context",
            setting: "default",
            n: 22,
            metrics: { rf_over_all: 3 / 22, uf_over_all: 4 / 22 },
            byLabel: {},
            skipped: [],
            skipReasons: {},
          },
        ],
      },
      records: [],
      units: [],
      scores: [],
    } as unknown as RunData;
    const section = {
      benchmark: "memconflict",
      title: "MemConflict",
      runs: [],
      tables: [],
      retrieval: [],
      cost: [],
      usage: [],
      skipped: [],
    } as BenchmarkSection;
    const split = sectionCharts(section, [run]).find((c) => c.id === "memconflict-split");
    assert.ok(split?.spec, "the split is drawn");
    const svg = await renderSvg(split.spec);
    assert.match(svg, />100<\/text>/);
    assert.doesNotMatch(svg, />110<\/text>/);
  });
});

describe("charts: scatter labels and run names", () => {
  it("places labels of points at the same spot apart, inside the plot, or leaves them off", () => {
    const size = { width: 420, height: 260, fontSize: 10 };
    const same = ["r1/bm25", "r2/bm25", "r1/none", "r2/none"].map((text) => ({ x: 50, y: 50, text }));
    const places = placeLabels(same, 100, size);
    const placed = places.filter((p) => p !== undefined);
    assert.equal(placed.length, 4, "four free places around one point");
    const keys = new Set(placed.map((p) => `${p.lx.toFixed(2)},${p.ly.toFixed(2)}`));
    assert.equal(keys.size, 4, "no two labels at the same place");
    // Near the right edge a label goes to the left of its point, not over the legend.
    const [edge] = placeLabels([{ x: 99, y: 50, text: "a-long-system-name" }], 100, size);
    assert.ok(edge && edge.lx < 99, `label left of the point (lx ${edge?.lx})`);
    // A crowd: every label placed or left off, none overlapping (checked in pixels).
    const crowd = Array.from({ length: 30 }, (_, i) => ({ x: 50 + (i % 3), y: 50 + (i % 2), text: `system-${i}` }));
    const boxes = placeLabels(crowd, 100, size)
      .map((p, i) => p && { x0: (p.lx / 100) * 420, y: 260 - (p.ly / 100) * 260, w: crowd[i]!.text.length * 6.2 })
      .filter((b) => b !== undefined);
    assert.ok(boxes.length < 30, "some left off");
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const apart = a.x0 + a.w <= b.x0 || b.x0 + b.w <= a.x0 || Math.abs(a.y - b.y) >= 12;
        assert.ok(apart, "labels overlap");
      }
    }
  });

  it("shortens run ids to the part that differs, or r1, r2, …", () => {
    assert.deepEqual(
      [...shortRunNames(["2026-11-26-locomo-scored", "2026-11-26-locomo-offline"])],
      [
        ["2026-11-26-locomo-scored", "scored"],
        ["2026-11-26-locomo-offline", "offline"],
      ],
    );
    assert.deepEqual([...shortRunNames(["a-run", "b-run"]).values()], ["a", "b"]);
    // Nothing short that differs: numbered in order.
    assert.deepEqual([...shortRunNames(["x", "x-with-a-very-long-distinct-suffix"]).values()], ["r1", "r2"]);
    assert.deepEqual([...shortRunNames([]).values()], []);
  });
});
