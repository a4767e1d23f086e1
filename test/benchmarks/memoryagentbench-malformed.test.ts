import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, it } from "node:test";
import { loadMemoryAgentBench } from "../../src/benchmarks/memoryagentbench/index.ts";
import { ConfigError, DataError } from "../../src/core/errors.ts";
import { rejectsAt } from "../support/data-error.ts";
import { fixture } from "../support/shared-data.ts";
import { mabParquetBytes, type WriteMabOptions, writeMabParquet } from "../support/write-parquet.ts";

const tmp = mkdtempSync(join(tmpdir(), "mab-bad-"));
after(() => rmSync(tmp, { recursive: true, force: true }));

let counter = 0;
/** Writes `rows` to a fresh file named like an official split file. */
function write(rows: unknown[], options: WriteMabOptions = {}, split = "Accurate_Retrieval"): string {
  const dir = join(tmp, `case-${counter++}`);
  mkdirSync(dir);
  const file = join(dir, `${split}-00000-of-00001.parquet`);
  writeMabParquet(file, rows, options);
  return file;
}

const good = (over: Record<string, unknown> = {}, meta: Record<string, unknown> = {}) => ({
  context: "Document 1:\nThe lighthouse of Tessaly is painted green.",
  questions: ["What colour is the lighthouse?", "Where is the lighthouse?"],
  answers: [["green"], ["Tessaly"]],
  ...over,
  metadata: { source: "ruler_qa1_197K", qa_pair_ids: ["q0", "q1"], ...meta },
});

describe("memoryagentbench malformed parquet", () => {
  it("rejects a truncated file, naming it", async () => {
    const file = join(tmp, "truncated.parquet");
    const bytes = mabParquetBytes([good()]);
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length / 2)));
    await rejectsAt(loadMemoryAgentBench(file), { file, message: /truncated/ });
  });

  it("rejects a file that is not parquet at all", async () => {
    const file = join(tmp, "text.parquet");
    writeFileSync(file, "context,questions\nhello,world\n");
    await rejectsAt(loadMemoryAgentBench(file), { file, message: /not a readable parquet file/ });
  });

  it("rejects a file whose data pages are damaged", async () => {
    const file = join(tmp, "damaged.parquet");
    const bytes = mabParquetBytes([good({ context: "x".repeat(4000) })]);
    // Keep the footer intact and scramble the column chunks after the 4-byte magic.
    const damaged = Uint8Array.from(bytes);
    for (let i = 4; i < damaged.length / 2; i++) damaged[i] = 0xff;
    writeFileSync(file, damaged);
    await assert.rejects(loadMemoryAgentBench(file), (e: unknown) => e instanceof DataError && e.file === file);
  });

  for (const column of ["context", "questions", "answers", "metadata"]) {
    it(`rejects a file without the ${column} column`, async () => {
      const file = write([good()], { omitColumns: [column] });
      await rejectsAt(loadMemoryAgentBench(file), {
        file,
        record: "row 0",
        field: column,
        message: /column missing from the file/,
      });
    });
  }

  it("rejects a row with more answers than questions", async () => {
    const file = write([good(), good({ answers: [["green"], ["Tessaly"], ["extra"]] })]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 1",
      field: "answers",
      message: /3 answers for 2 questions/,
    });
  });

  it("rejects qa_pair_ids that do not match the questions", async () => {
    const file = write([good({}, { qa_pair_ids: ["q0"] })]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 0",
      field: "metadata.qa_pair_ids",
      message: /1 entries for 2 questions/,
    });
  });

  it("rejects a null question", async () => {
    const file = write([good({ questions: ["What colour is the lighthouse?", null] })]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 0",
      field: "questions[1]",
      message: /expected a string, got null/,
    });
  });

  it("rejects a row without metadata.source", async () => {
    const file = write([good(), { ...good(), metadata: { qa_pair_ids: ["q0", "q1"] } }]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 1",
      field: "metadata.source",
      message: /missing/,
    });
  });

  it("rejects duplicate question ids inside a row", async () => {
    const file = write([good({}, { qa_pair_ids: ["q0", "q0"] })]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 0",
      field: "metadata.qa_pair_ids[1]",
      message: /duplicate id "q0"/,
    });
  });

  it("rejects the same rows found twice in a folder", async () => {
    const dir = join(tmp, "twice");
    mkdirSync(join(dir, "copy"), { recursive: true });
    const first = join(dir, "Accurate_Retrieval-00000-of-00001.parquet");
    const second = join(dir, "copy", "Accurate_Retrieval-00000-of-00001.parquet");
    writeMabParquet(first, [good()]);
    copyFileSync(first, second);
    await rejectsAt(loadMemoryAgentBench(dir), {
      file: second,
      record: "row 0",
      field: "id",
      message: /duplicate episode id "ruler_qa1_197K:0"/,
    });
  });

  it("rejects an unknown variant", async () => {
    await assert.rejects(
      loadMemoryAgentBench(fixture("memoryagentbench"), { variant: "ablation" }),
      (e: unknown) => e instanceof ConfigError && e.setting === "variant",
    );
  });
});

describe("memoryagentbench suspicious rows: strict error, lenient warning", () => {
  it("an unknown sub-dataset", async () => {
    const file = write([good(), good({}, { source: "ruler_niah_mq_448K" })]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 1",
      field: "metadata.source",
      message: /unknown sub-dataset "ruler_niah_mq_448K"/,
    });

    const main = await loadMemoryAgentBench(file, { strict: false });
    assert.deepEqual(
      main.episodes.map((e) => e.id),
      ["ruler_qa1_197K:0"],
    );
    assert.equal(main.warnings.length, 1);
    assert.match(
      main.warnings[0] ?? "",
      /record row 1, field metadata\.source: unknown sub-dataset "ruler_niah_mq_448K"/,
    );

    const all = await loadMemoryAgentBench(file, { strict: false, variant: "all" });
    const unknown = all.episodes.find((e) => e.id === "ruler_niah_mq_448K:0");
    // The split comes from the file name when the registry does not know the source.
    assert.deepEqual(unknown?.labels, { sub_dataset: "ruler_niah_mq_448K", competency: "AR" });
    assert.equal(unknown?.probes[0]?.labels.metric, "unknown");
  });

  it("a sub-dataset in the wrong split file is a warning in both modes: the sub-dataset fixes the split", async () => {
    const file = write([good()], {}, "Conflict_Resolution");
    for (const strict of [true, false]) {
      const ds = await loadMemoryAgentBench(file, { strict });
      assert.equal(ds.episodes[0]?.labels.competency, "AR");
      assert.equal(ds.warnings.length, 1);
      assert.match(
        ds.warnings[0]!,
        /record row 0, field metadata\.source: sub-dataset "\w+" belongs to split Accurate_Retrieval, but the file is named for Conflict_Resolution/,
      );
    }
  });

  it("a question without any gold answer", async () => {
    const file = write([good({ answers: [["green"], [" "]] })]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 0",
      field: "answers[1]",
      message: /question 1 has no gold answer/,
    });
    const ds = await loadMemoryAgentBench(file, { strict: false });
    assert.deepEqual(ds.episodes[0]?.probes[1]?.gold.answers, []);
    assert.ok(ds.warnings.some((w) => /field answers\[1\]: question 1 has no gold answer/.test(w)));
  });

  it("an empty context", async () => {
    const file = write([good({ context: "" })]);
    await rejectsAt(loadMemoryAgentBench(file), { file, record: "row 0", field: "context", message: /empty context/ });
    const ds = await loadMemoryAgentBench(file, { strict: false });
    assert.equal(ds.episodes[0]?.sessions[0]?.turns[0]?.content, "");
  });

  it("checks rows the variant leaves out too", async () => {
    const file = write([good(), good({ answers: [["x"]] }, { source: "eventqa_65536", qa_pair_ids: null })]);
    await rejectsAt(loadMemoryAgentBench(file), {
      file,
      record: "row 1",
      field: "answers",
      message: /1 answers for 2 questions/,
    });
  });
});
