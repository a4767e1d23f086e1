import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { mergeSkipLines, skipLines } from "../../src/report/build.ts";
import { skipLineText } from "../../src/report/markdown.ts";
import type { RunData } from "../../src/report/run-data.ts";

describe("skipped section: failed judge verdicts", () => {
  it("counts verdicts as verdicts and probes as probes, and names the probes", () => {
    // Three judges per criterion: 5 failed verdicts spread over 2 probes.
    const failure = (probeId: string, cause: "endpoint" | "unparsable" = "unparsable") => ({
      episodeId: "weekly/curator",
      probeId,
      judge: "judge-c",
      reason: cause === "endpoint" ? "http://127.0.0.1:1/v1 [503]: chat completion failed" : "no JSON",
      cause,
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
            judgeFailureList: [
              failure("q1"),
              failure("q1", "endpoint"),
              failure("q1", "endpoint"),
              failure("q2"),
              failure("q2", "endpoint"),
            ],
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
      "bm25/default: judge verdicts — 5 verdicts failed (3 endpoint failures, 2 unparsable replies) " +
        "and were scored as the worst outcome: " +
        "weekly/curator/q1, weekly/curator/q2 (2 probes)",
    );
  });
});

describe("skipped section: one line for a stage skipped alike in several rows", () => {
  it("names the rows and their number once, adds up probe counts, keeps different reasons apart", () => {
    const line = (system: string, setting: "default" | "oracle", stage: string, reason: string, count?: number) => ({
      run: "r",
      system,
      setting,
      stage,
      reason,
      ...(count !== undefined ? { count } : {}),
    });
    const merged = mergeSkipLines([
      ...["bm25", "none", "dense", "ledger", "mem0"].flatMap((s) => [
        line(s, "default", "answer", "no model configured"),
        line(s, "oracle", "answer", "no model configured"),
      ]),
      line("bm25", "default", "metric faa", "no forgetting criteria", 2),
      line("none", "default", "metric faa", "no forgetting criteria", 3),
      line("bm25", "default", "judge", "no answers to judge"),
    ]);
    assert.deepEqual(
      merged.map((m) => skipLineText(m, false)),
      [
        "answer — no model configured (10 rows: bm25/default, bm25/oracle, none/default, none/oracle and 6 more)",
        "metric faa — no forgetting criteria (5 probes; 2 rows: bm25/default, none/default)",
        "bm25/default: judge — no answers to judge",
      ],
    );
  });
});
