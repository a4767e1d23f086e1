/**
 * Scoring answers produced elsewhere: a JSONL file of `{question_id, hypothesis}`
 * (the LongMemEval convention; `episode_id` optional, for benchmarks whose
 * question ids repeat across episodes) becomes a run directory of its own,
 * scored like any run, so reports and comparisons work on it too.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { isRecord } from "../benchmarks/shared/fields.ts";
import { readJsonl } from "../benchmarks/shared/files.ts";
import { ConfigError, DataError } from "../core/errors.ts";
import type { Probe } from "../core/model.ts";
import { loadRunData } from "../data/run-data.ts";
import type { ProbeRecord } from "../run/record.ts";
import { RunStore, STORE_FILE } from "../run/store.ts";
import { log } from "../util/log.ts";
import { type ScoreOutcome, type ScoreRunOptions, scoreRun } from "./score-run.ts";

export const ANSWERS_SYSTEM = "answers";

export async function scoreAnswersFile(
  bench: string,
  data: string,
  answersFile: string,
  options: ScoreRunOptions & { out?: string; id?: string } = {},
): Promise<ScoreOutcome & { dir: string; unanswered: number }> {
  const dataset = await loadRunData(bench, data, { lenient: options.lenient });
  const byProbe = new Map<string, Array<{ episodeId: string; probe: Probe }>>();
  for (const e of dataset.episodes) {
    for (const p of e.probes) byProbe.set(p.id, [...(byProbe.get(p.id) ?? []), { episodeId: e.id, probe: p }]);
  }
  const records = new Map<string, ProbeRecord[]>();
  let count = 0;
  for await (const { line, value } of readJsonl(answersFile)) {
    const where = { file: answersFile, record: `line ${line}` };
    if (!isRecord(value)) throw new DataError("expected an object", where);
    const qid = value.question_id;
    const hypothesis = value.hypothesis;
    if (typeof qid !== "string" && typeof qid !== "number")
      throw new DataError("missing", { ...where, field: "question_id" });
    if (typeof hypothesis !== "string") throw new DataError("expected a string", { ...where, field: "hypothesis" });
    let matches = byProbe.get(String(qid)) ?? [];
    if (typeof value.episode_id === "string") matches = matches.filter((m) => m.episodeId === value.episode_id);
    if (!matches.length) throw new DataError(`no question "${qid}" in ${data}`, { ...where, field: "question_id" });
    if (matches.length > 1) {
      throw new DataError(`question id "${qid}" occurs in several episodes; add "episode_id"`, {
        ...where,
        field: "question_id",
      });
    }
    const { episodeId, probe } = matches[0]!;
    const unitId = `${ANSWERS_SYSTEM}|${episodeId}`;
    const list = records.get(unitId) ?? [];
    if (list.some((r) => r.probeId === probe.id)) throw new DataError(`a second answer for "${qid}"`, where);
    list.push({
      unitId,
      system: ANSWERS_SYSTEM,
      episodeId,
      probeId: probe.id,
      setting: "default",
      question: probe.question,
      time: probe.time,
      labels: probe.labels,
      status: "done",
      retrieved: [],
      context: { text: "", tokens: 0, used: 0 },
      answer: hypothesis,
      timings: { flushMs: 0, searchMs: 0 },
    });
    records.set(unitId, list);
    count++;
  }
  if (!count) throw new ConfigError(`no answers in ${answersFile}`, "answers", "--answers");
  const total = dataset.episodes.reduce((n, e) => n + e.probes.length, 0);
  const unanswered = total - count;
  if (unanswered) log.warn(`${unanswered} of ${total} questions have no answer in ${answersFile}; they are not scored`);
  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
  const dir = resolve(options.out ?? "runs", options.id ?? `${dataset.benchmark}-answers-${stamp}`);
  mkdirSync(dir, { recursive: true });
  const config = {
    id: dir,
    variant: dataset.variant,
    createdAt: new Date().toISOString(),
    options: {
      benchmark: dataset.benchmark,
      data: resolve(data),
      systems: [ANSWERS_SYSTEM],
      settings: ["default"],
      answers: resolve(answersFile),
      ...(options.lenient ? { lenient: true } : {}),
    },
  };
  writeFileSync(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  const store = new RunStore(join(dir, STORE_FILE));
  try {
    store.plan([...records.keys()].map((id) => ({ id, system: ANSWERS_SYSTEM, episodeId: id.split("|")[1]! })));
    for (const [id, list] of records) store.finish(id, list, []);
  } finally {
    store.close();
  }
  const outcome = await scoreRun(dir, options);
  return { ...outcome, dir, unanswered };
}
