/**
 * Real runs for the viewer tests: the LongMemEval fixture (with markup planted
 * in a question and a turn), answered and judged by a scripted model so that
 * some probes are right, some wrong and one verdict is unusable.
 *
 * Run "alpha" (bm25 and none, default setting), per probe:
 *   e47b1c01          "Lisbon"                judged correct
 *   9c3d7a22          "<script>… two"         judged wrong ("<b>wrong</b> count")
 *   gpt4_5f1e8b33_abs "I don't know"          judged correct (abstention)
 *   71aa0d44          "25 minutes"            judge reply unparseable → wrong, judge failure
 * so each system's accuracy is 0.5; `none` retrieves nothing, so its wrong answers are retrieval misses.
 * Run "beta" (bm25 only) answers 9c3d7a22 with "3", judged correct: accuracy 0.75.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startRun } from "../../src/run/runner.ts";
import { fixture } from "../support/shared-data.ts";

export const XSS_QUESTION = "How many houseplants have I bought in total? <script>window.__pwned = 1</script>";
export const XSS_ANSWER = '<script>window.__pwned = 2</script><img src="x" onerror="window.__pwned = 3"> two';
export const XSS_TURN = "<b>bold</b> I bought a fern <script>window.__pwned = 4</script>";

/** A copy of the LongMemEval fixture whose second question and one of its evidence turns carry markup. */
function writeData(dir: string): string {
  const source = fixture("longmemeval/longmemeval_s_cleaned.json");
  const data = JSON.parse(readFileSync(source, "utf8")) as Array<Record<string, unknown>>;
  const plants = data.find((q) => q.question_id === "9c3d7a22")!;
  plants.question = XSS_QUESTION;
  const sessions = plants.haystack_sessions as Array<Array<{ role: string; content: string; has_answer?: boolean }>>;
  const ids = plants.haystack_session_ids as string[];
  const evidence = sessions[ids.indexOf((plants.answer_session_ids as string[])[0]!)]!;
  evidence.push({ role: "user", content: XSS_TURN, has_answer: true });
  const file = join(dir, "data", "longmemeval_s_cleaned.json");
  mkdirSync(join(dir, "data"), { recursive: true });
  writeFileSync(file, JSON.stringify(data));
  return file;
}

function writeScript(dir: string, name: string, plantsAnswer: string, plantsCorrect: boolean): string {
  const rules = [
    { role: "answerer", match: "Question: Which city", reply: "Lisbon" },
    { role: "answerer", match: "Question: How many houseplants", reply: plantsAnswer },
    { role: "answerer", match: "Question: How many days", reply: "I don't know" },
    { role: "answerer", match: "Question: What is my current personal best", reply: "25 minutes" },
    { role: "judge", match: "could not be used", reply: "still not JSON" },
    { role: "judge", match: "Reply to grade: Lisbon", reply: { correct: true, reason: "names Lisbon" } },
    { role: "judge", match: "I don't know", reply: { correct: true, reason: "abstains as it should" } },
    { role: "judge", match: "25 minutes", reply: "not JSON at all" },
    {
      role: "judge",
      match: "Question: How many houseplants",
      reply: plantsCorrect
        ? { correct: true, reason: "three plants" }
        : { correct: false, reason: "<b>wrong</b> count <script>window.__pwned = 5</script>" },
    },
  ];
  const file = join(dir, `${name}.jsonl`);
  writeFileSync(file, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

/** Creates runs "alpha" and "beta" under `dir`/runs; returns that folder. */
export async function makeViewerRuns(dir: string): Promise<string> {
  const data = writeData(dir);
  const runs = join(dir, "runs");
  const base = { benchmark: "longmemeval", data, settings: ["default" as const], out: runs, progress: false };
  await startRun({
    ...base,
    systems: ["bm25", "none"],
    id: "alpha",
    llm: `scripted:${writeScript(dir, "alpha", XSS_ANSWER, false)}`,
  });
  await startRun({ ...base, systems: ["bm25"], id: "beta", llm: `scripted:${writeScript(dir, "beta", "3", true)}` });
  return runs;
}
