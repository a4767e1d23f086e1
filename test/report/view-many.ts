/**
 * A run with many probe records for the viewer's paging and drill-down tests:
 * the LongMemEval fixture's four questions copied `copies` times (ids
 * `c07-<id>`, question text ending in "(copy 7)"), replayed by bm25 and none
 * in the default setting, so 2 × 4 × copies records. A scripted model answers
 * "Lisbon" every time; the judge passes it only for "Which city…", so each
 * system is right on a quarter of the probes.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRun } from "../../src/run/runner.ts";
import { fixture } from "../support/shared-data.ts";

export const copyId = (copy: number, questionId: string) => `c${String(copy).padStart(2, "0")}-${questionId}`;

export async function makeManyProbesRun(dir: string, copies: number, id = "many"): Promise<string> {
  const source = JSON.parse(readFileSync(fixture("longmemeval/longmemeval_s_cleaned.json"), "utf8")) as Array<
    Record<string, unknown>
  >;
  const data = [];
  for (let copy = 1; copy <= copies; copy++) {
    for (const q of source) {
      data.push({ ...q, question_id: copyId(copy, String(q.question_id)), question: `${q.question} (copy ${copy})` });
    }
  }
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "many-longmemeval.json");
  writeFileSync(file, JSON.stringify(data));
  const script = join(dir, "many.jsonl");
  const rules = [
    { role: "answerer", reply: "Lisbon" },
    { role: "judge", match: "Question: Which city", reply: { correct: true, reason: "names Lisbon" } },
    { role: "judge", reply: { correct: false, reason: "not what was asked" } },
  ];
  writeFileSync(script, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
  const runs = join(dir, "runs");
  await startRun({
    benchmark: "longmemeval",
    data: file,
    systems: ["bm25", "none"],
    settings: ["default"],
    out: runs,
    id,
    progress: false,
    llm: `scripted:${script}`,
  });
  return runs;
}
