/**
 * Checks the loader against the real release. Set MEMBENCH_FULL_MAB to a
 * folder holding the four split parquet files of ai-hyz/MemoryAgentBench
 * (see `memoryagentbenchRelease`); without it these tests skip.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { loadMemoryAgentBench, MAB_SOURCES } from "../../src/benchmarks/memoryagentbench/index.ts";
import type { Dataset } from "../../src/core/model.ts";
import { releaseSkip, releaseTitle, releaseUnderTest } from "../support/shared-data.ts";

const RELEASE = releaseUnderTest("MEMBENCH_FULL_MAB");
const root = RELEASE?.path;
// The release is on Hugging Face only; ../shared/datasets holds no sample of it.
const skip = releaseSkip(
  RELEASE,
  "MEMBENCH_FULL_MAB",
  "a folder of the four split parquet files; ../shared/datasets holds no MemoryAgentBench sample",
);

describe(releaseTitle("memoryagentbench full release", RELEASE), { skip }, () => {
  let all: Dataset;
  before(async () => {
    all = await loadMemoryAgentBench(root!, { variant: "all" });
  });

  it("has the rows and questions of every sub-dataset (spec §2.2, §3.2)", () => {
    const counts = new Map<string, { rows: number; questions: number }>();
    for (const e of all.episodes) {
      const c = counts.get(e.labels.sub_dataset ?? "") ?? { rows: 0, questions: 0 };
      c.rows++;
      c.questions += e.probes.length;
      counts.set(e.labels.sub_dataset ?? "", c);
    }
    assert.deepEqual(
      Object.fromEntries([...counts].sort(([a], [b]) => a.localeCompare(b))),
      Object.fromEntries(
        [...MAB_SOURCES]
          .sort((a, b) => a.id.localeCompare(b.id))
          .map((s) => [s.id, { rows: s.rows, questions: s.questions }]),
      ),
    );
    assert.equal(all.episodes.length, 146);
    assert.equal(
      all.episodes.reduce((n, e) => n + e.probes.length, 0),
      3671,
    );
  });

  it("keeps 2,071 questions in the paper's main variant", async () => {
    const main = await loadMemoryAgentBench(root!);
    assert.equal(main.episodes.length, 130);
    assert.equal(
      main.episodes.reduce((n, e) => n + e.probes.length, 0),
      2071,
    );
  });

  it("carries question ids, judge inputs and ICL label sets", () => {
    for (const e of all.episodes) {
      assert.ok(e.sessions[0]?.turns[0]?.content.length, `${e.id}: empty context`);
      for (const p of e.probes) {
        assert.equal(typeof p.meta?.qaPairId, "string", `${e.id}/${p.id}: no qa_pair_id`);
        assert.ok(p.gold.answers.length, `${e.id}/${p.id}: no gold`);
      }
      const sub = e.labels.sub_dataset;
      if (sub === "longmemeval_s*") {
        for (const p of e.probes) assert.ok(p.labels.question_type && p.meta?.questionId, `${e.id}/${p.id}`);
      }
      if (sub === "infbench_sum_eng_shots2") {
        for (const p of e.probes) assert.ok(Array.isArray(p.meta?.keypoints), `${e.id}/${p.id}: no keypoints`);
      }
      if (sub?.startsWith("icl_")) {
        const labels = e.meta?.labelSet;
        assert.ok(Array.isArray(labels) && labels.length >= 6, `${e.id}: label set ${JSON.stringify(labels)}`);
      }
    }
  });
});
