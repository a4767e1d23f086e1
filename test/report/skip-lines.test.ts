import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { skipLines } from "../../src/report/build.ts";
import { skipLineText } from "../../src/report/markdown.ts";
import type { RunData } from "../../src/report/run-data.ts";

describe("skipped section: unparseable judge verdicts", () => {
  it("counts verdicts as verdicts and probes as probes, and names the probes", () => {
    // Three judges per criterion: 5 failed verdicts spread over 2 probes.
    const failure = (probeId: string) => ({
      episodeId: "weekly/curator",
      probeId,
      judge: "judge-c",
      reason: "no JSON",
    });
    const run = {
      config: { id: "r" },
      summary: {
        results: [
          {
            system: "bm25",
            setting: "default",
            n: 5,
            metrics: {},
            byLabel: {},
            skipped: [],
            skipReasons: {},
            judge_failures: 5,
            judgeFailureList: [failure("q1"), failure("q1"), failure("q1"), failure("q2"), failure("q2")],
          },
        ],
      },
      records: [],
      units: [],
      scores: [],
    } as unknown as RunData;
    const [line] = skipLines(run);
    assert.ok(line);
    assert.equal(
      skipLineText(line, false),
      "bm25/default: judge verdicts — 5 verdicts could not be parsed and were scored as the worst outcome: " +
        "weekly/curator/q1, weekly/curator/q2 (2 probes)",
    );
  });
});
