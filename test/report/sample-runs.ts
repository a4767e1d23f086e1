/**
 * Real runs for the report tests, made with the runner on the project's
 * fixtures: offline (retrieval only) or with a scripted answerer and judge,
 * so scored rows with CIs exist. Import test/support/clean-env.ts before this.
 *
 * SubtleMemory (test/fixtures/subtlememory, 8 questions): the copy used here
 * carries a `<script>` in one topic label and in one dataset turn. The
 * scripted answerer says "I do not remember." when its context is empty and
 * answers otherwise; the judge marks "I do not remember." WRONG, the
 * complementary and nuanced questions (6) CORRECT and the contradictory ones
 * (2) WRONG. System `none` retrieves nothing and reads back nothing, so only
 * its oracle setting has memories; bm25 has memories in every setting.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRun } from "../../src/run/runner.ts";
import { fixture } from "../support/shared-data.ts";

export const INJECTED = "<script>window.__pwned=1</script>";
export const INJECTED_TOPIC = `${INJECTED}Gardening`;

export function tempDir(prefix = "mb-report-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

function writeScript(dir: string, name: string, rules: object[]): string {
  const file = join(dir, name);
  writeFileSync(file, `${rules.map((r) => JSON.stringify(r)).join("\n")}\n`);
  return file;
}

/** A copy of the SubtleMemory fixture with `<script>` in a topic label and in a user turn. */
export function injectedSubtleMemory(dir: string): string {
  const data = join(dir, "subtlememory-data");
  cpSync(fixture("subtlememory"), data, { recursive: true });
  const instances = join(data, "persona_1", "bench_instances.json");
  const list = JSON.parse(readFileSync(instances, "utf8")) as Array<{ topic: string }>;
  for (const item of list) if (item.topic === "Gardening") item.topic = INJECTED_TOPIC;
  writeFileSync(instances, JSON.stringify(list, null, 2));
  const sessions = join(data, "persona_1", "history_sessions.json");
  const history = JSON.parse(readFileSync(sessions, "utf8")) as Array<{ history: Array<{ content: string }> }>;
  history[0]!.history[0]!.content = `${INJECTED} ${history[0]!.history[0]!.content}`;
  writeFileSync(sessions, JSON.stringify(history, null, 2));
  return data;
}

export const SUBTLE_RULES: object[] = [
  { role: "answerer", match: "^Memories:\\n\\(none\\)", reply: "I do not remember." },
  { role: "answerer", reply: "From memory: here is what I found." },
  { role: "judge", match: "Answer to grade:\\nI do not remember", reply: { label: "WRONG", reason: "no answer" } },
  {
    role: "judge",
    match: "Question:\\n(How much|What kind|Fill the (seed|home|allotment))",
    reply: { label: "CORRECT", reason: "matches an accepted answer" },
  },
  { role: "judge", reply: { label: "WRONG", reason: "misses the point" } },
];

/** SubtleMemory, bm25 and none, all three settings, scripted answers and judge. */
export async function subtleMemoryRun(
  out: string,
  options: { id?: string; systems?: string[]; data?: string } = {},
): Promise<string> {
  const script = writeScript(out, "subtle.jsonl", SUBTLE_RULES);
  const outcome = await startRun({
    benchmark: "subtlememory",
    data: options.data ?? injectedSubtleMemory(out),
    systems: options.systems ?? ["bm25", "none"],
    settings: ["default", "oracle", "perfect"],
    out,
    id: options.id ?? "subtle",
    llm: `scripted:${script}`,
    progress: false,
  });
  return outcome.dir;
}

/** RealMem (4 queries, one user), bm25-session and none, offline: retrieval only. */
export async function realmemOfflineRun(out: string, id = "realmem"): Promise<string> {
  const outcome = await startRun({
    benchmark: "realmem",
    data: fixture("realmem/Mira_Sato_dialogues_256k.json"),
    systems: ["bm25-session", "none"],
    out,
    id,
    progress: false,
  });
  return outcome.dir;
}

/**
 * Memora (5 weekly questions), bm25, a scripted answer and one judge that says
 * "yes" to every criterion: every presence criterion is met and every
 * forgetting criterion broken, so FAMA falls below MPA wherever a question has
 * forgetting criteria.
 */
export async function memoraRun(out: string, id = "memora"): Promise<string> {
  const script = writeScript(out, "memora.jsonl", [
    { role: "answerer", reply: "Here is everything I remember about it." },
    { role: "judge", reply: { answer: "yes", reason: "it is mentioned" } },
  ]);
  const outcome = await startRun({
    benchmark: "memora",
    data: fixture("memora"),
    systems: ["bm25"],
    out,
    id,
    llm: `scripted:${script}`,
    progress: false,
  });
  return outcome.dir;
}

/**
 * MemConflict (22 questions), bm25, scripted judge: one question right with
 * support at rank 1, one wrong with support at rank 2 (a utilisation failure),
 * every other one wrong with no support (retrieval failures).
 */
export async function memconflictRun(out: string, id = "memconflict"): Promise<string> {
  const verdict = (aa: number, rank: number) => ({
    aa,
    first_support_rank: rank,
    uocs: aa,
    crs: aa,
    reason: "scripted",
  });
  const script = writeScript(out, "memconflict.jsonl", [
    { role: "answerer", reply: "That changed recently." },
    { role: "judge", match: "Question: Has the user moved recently\\?", reply: verdict(1, 1) },
    { role: "judge", match: "Question: How has the user's work rhythm changed\\?", reply: verdict(0, 2) },
    { role: "judge", reply: verdict(0, 0) },
  ]);
  const outcome = await startRun({
    benchmark: "memconflict",
    data: fixture("memconflict/Step4_4.jsonl"),
    systems: ["bm25"],
    out,
    id,
    llm: `scripted:${script}`,
    progress: false,
  });
  return outcome.dir;
}

/**
 * MemoryAgentBench (the project's fixture, 11 questions), system `none`, a
 * scripted answerer and scripted judges, as in
 * test/benchmarks/memoryagentbench-score-e2e.test.ts but shorter: the RULER
 * arches question, the cat question (judged right), FactConsolidation,
 * DetectiveQA and one BANKING77 question are answered right, the summary gets
 * fluency 1 and 2 of 3 key points, everything else is answered "I do not know."
 * Enough for scored rows in Tables 3 and 7 beside the paper's.
 */
export async function memoryagentbenchRun(out: string, id = "memoryagentbench"): Promise<string> {
  const answer = (match: string, reply: string) => ({ role: "answerer", match, reply });
  const script = writeScript(out, "memoryagentbench.jsonl", [
    answer("In what year were the arches", "Answer: The arches were finished in 1911."),
    answer("name the cat I adopted", "Pistachio"),
    answer("What is the capital of Norlund", "Orrin"),
    answer("Write a summary of about 1000", "Mara Quell leaves her mill town with a map. She burns it and goes home."),
    answer("Who most likely locked", "Answer: B"),
    answer("is topping up by cheque possible", "3"),
    { role: "answerer", reply: "I do not know." },
    { role: "judge", match: "reads as proper prose", reply: { fluency: 1, reason: "fluent" } },
    { role: "judge", match: "numbered key points", reply: { supported_key_points: [1, 3], reason: "2 of 3" } },
    { role: "judge", match: "Summary to check:", reply: { sentence_count: 2, supported_sentences: 2, reason: "" } },
    { role: "judge", match: "answer:\\nPistachio", reply: { correct: true, reason: "names the cat" } },
    { role: "judge", reply: { correct: false, reason: "does not answer" } },
  ]);
  const outcome = await startRun({
    benchmark: "memoryagentbench",
    data: fixture("memoryagentbench"),
    systems: ["none"],
    out,
    id,
    llm: `scripted:${script}`,
    progress: false,
  });
  return outcome.dir;
}

/** Charts with data in the sample set, and the ones that must say why they have none. */
export const DRAWN = [
  "competency-profile",
  "accuracy-latency",
  "accuracy-tokens",
  "categories-subtlememory",
  "waterfall-subtlememory",
  "categories-realmem",
  "categories-memconflict",
  "memconflict-split",
  "categories-memora",
  "memora-fama",
];
export const EMPTY = ["waterfall-realmem", "waterfall-memconflict", "waterfall-memora"];

/** Runs every chart of the report has data for (plus runs whose waterfall cannot be drawn). */
export async function sampleRunSet(out: string): Promise<string[]> {
  return [await subtleMemoryRun(out), await realmemOfflineRun(out), await memconflictRun(out), await memoraRun(out)];
}
