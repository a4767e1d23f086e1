import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sectionCharts } from "../../src/report/charts.ts";
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
