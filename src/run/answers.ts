/**
 * Scoring a system run outside membench. Two JSONL files, either or both:
 * answers, `{question_id, hypothesis}` (the LongMemEval convention), and
 * retrievals, `{question_id, items: [{text, sessionIds?, turnIds?, score?, time?, kind?}]}`
 * (the system's ranked items with their provenance). `episode_id` is optional
 * in both, for benchmarks whose question ids repeat across episodes. They
 * become a run directory of their own, one row named `--name`, scored like any
 * run: the answers by the benchmark's scorer, the retrievals by the same
 * provenance metrics a run computes. Ids: docs/external-results.md.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { protocolFor } from "../benchmarks/index.ts";
import { isRecord } from "../benchmarks/shared/fields.ts";
import { readJsonl } from "../benchmarks/shared/files.ts";
import { ConfigError, DataError } from "../core/errors.ts";
import type { Dataset, Episode, Probe } from "../core/model.ts";
import type { ProbeRecord } from "../core/record.ts";
import { loadRunData } from "../data/run-data.ts";
import type { Retrieved } from "../systems/types.ts";
import { log } from "../util/log.ts";
import { probeRetrievalMetrics, retrievedRecords } from "./replay.ts";
import { type ScoreOutcome, type ScoreRunOptions, scoreRun } from "./score-run.ts";
import { RunStore, STORE_FILE } from "./store.ts";

/** The row's name when `--name` is not given. */
export const ANSWERS_SYSTEM = "answers";

/** A row name: it is the run's system id and part of its unit ids (`<name>|<episode>`). */
const NAME = /^[A-Za-z0-9._-]+$/;

/** The fields of one retrieved item (a `Retrieved`); any other is refused, so a misspelt `sessionId` cannot score as no provenance. */
const ITEM_FIELDS = ["text", "sessionIds", "turnIds", "score", "time", "kind"];
const KINDS = ["turn", "session", "memory", "chunk"] as const;

export interface ExternalFiles {
  /** JSONL of `{question_id, hypothesis[, episode_id]}`. */
  answers?: string;
  /** JSONL of `{question_id, items[, episode_id]}`. */
  retrievals?: string;
}

export interface ExternalRunOptions extends ScoreRunOptions {
  /** Parent folder of the run directory (default `runs`). */
  out?: string;
  /** The run directory's name (default `<bench>-<name>-<time>`). */
  id?: string;
  /** The row's name: the system the answers and retrievals came from (default `answers`). */
  name?: string;
}

export interface ExternalOutcome extends ScoreOutcome {
  dir: string;
  /** Questions of the data with no answer in the answers file (0 without one). */
  unanswered: number;
  /** Questions of the data with no line in the retrievals file (0 without one). */
  unretrieved: number;
}

type Where = { file: string; record: string };

/** Finds the probe a line is about, by `question_id` and, where ids repeat, `episode_id`. */
class ProbeIndex {
  private readonly byId = new Map<string, Array<{ episode: Episode; probe: Probe }>>();

  constructor(
    dataset: Dataset,
    private readonly data: string,
  ) {
    for (const episode of dataset.episodes) {
      for (const probe of episode.probes)
        this.byId.set(probe.id, [...(this.byId.get(probe.id) ?? []), { episode, probe }]);
    }
  }

  locate(value: Record<string, unknown>, where: Where): { episode: Episode; probe: Probe } {
    const qid = value.question_id;
    if (typeof qid !== "string" && typeof qid !== "number") {
      throw new DataError("missing", { ...where, field: "question_id" });
    }
    let matches = this.byId.get(String(qid)) ?? [];
    if (value.episode_id !== undefined) {
      if (typeof value.episode_id !== "string")
        throw new DataError("expected a string", { ...where, field: "episode_id" });
      matches = matches.filter((m) => m.episode.id === value.episode_id);
    }
    if (!matches.length) {
      const inEpisode = value.episode_id === undefined ? "" : ` of episode "${value.episode_id}"`;
      throw new DataError(`no question "${qid}"${inEpisode} in ${this.data}`, { ...where, field: "question_id" });
    }
    if (matches.length > 1) {
      throw new DataError(`question id "${qid}" occurs in several episodes; add "episode_id"`, {
        ...where,
        field: "question_id",
      });
    }
    return matches[0]!;
  }
}

const key = (episode: Episode, probe: Probe) => `${episode.id}\u0000${probe.id}`;

async function readAnswers(file: string, index: ProbeIndex): Promise<Map<string, string>> {
  const answers = new Map<string, string>();
  for await (const { line, value } of readJsonl(file)) {
    const where = { file, record: `line ${line}` };
    if (!isRecord(value)) throw new DataError("expected an object", where);
    const { episode, probe } = index.locate(value, where);
    if (typeof value.hypothesis !== "string")
      throw new DataError("expected a string", { ...where, field: "hypothesis" });
    if (answers.has(key(episode, probe))) throw new DataError(`a second answer for "${probe.id}"`, where);
    answers.set(key(episode, probe), value.hypothesis);
  }
  return answers;
}

/** Ids an item names, each checked against the episode (a system run elsewhere must use the data's own ids). */
function idList(
  value: unknown,
  known: ReadonlySet<string>,
  what: string,
  episode: Episode,
  where: Where & { field: string },
) {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.some((id) => typeof id !== "string")) {
    throw new DataError("expected an array of strings", where);
  }
  for (const id of value as string[]) {
    if (!known.has(id)) {
      throw new DataError(
        `no ${what} "${id}" in episode "${episode.id}" (use the data's own ids, as \`membench data convert\` writes them)`,
        where,
      );
    }
  }
  return value as string[];
}

function parseItems(value: unknown, episode: Episode, where: Where): Retrieved[] {
  if (!Array.isArray(value)) throw new DataError("expected an array", { ...where, field: "items" });
  const sessions = new Set(episode.sessions.map((s) => s.id));
  const turns = new Set(episode.sessions.flatMap((s) => s.turns.map((t) => t.id)));
  return value.map((item: unknown, i) => {
    const field = `items[${i}]`;
    if (!isRecord(item)) throw new DataError("expected an object", { ...where, field });
    for (const name of Object.keys(item)) {
      if (!ITEM_FIELDS.includes(name)) {
        throw new DataError(`unknown field (an item has ${ITEM_FIELDS.join(", ")})`, {
          ...where,
          field: `${field}.${name}`,
        });
      }
    }
    if (typeof item.text !== "string") throw new DataError("expected a string", { ...where, field: `${field}.text` });
    if (item.score !== undefined && (typeof item.score !== "number" || !Number.isFinite(item.score))) {
      throw new DataError("expected a number", { ...where, field: `${field}.score` });
    }
    if (item.time !== undefined && typeof item.time !== "string") {
      throw new DataError("expected a string", { ...where, field: `${field}.time` });
    }
    if (item.kind !== undefined && !KINDS.includes(item.kind as (typeof KINDS)[number])) {
      throw new DataError(`expected one of ${KINDS.join(", ")}`, { ...where, field: `${field}.kind` });
    }
    const sessionIds = idList(item.sessionIds, sessions, "session", episode, {
      ...where,
      field: `${field}.sessionIds`,
    });
    const turnIds = idList(item.turnIds, turns, "turn", episode, { ...where, field: `${field}.turnIds` });
    if (!sessionIds?.length && !turnIds?.length) {
      throw new DataError("names no session or turn: the provenance metrics need sessionIds or turnIds", {
        ...where,
        field,
      });
    }
    return {
      text: item.text,
      // Only shown beside the item; the rank is the order of the list.
      score: item.score ?? 0,
      ...(item.time !== undefined ? { time: item.time } : {}),
      ...(sessionIds ? { sessionIds } : {}),
      ...(turnIds ? { turnIds } : {}),
      ...(item.kind !== undefined ? { kind: item.kind as (typeof KINDS)[number] } : {}),
    };
  });
}

async function readRetrievals(file: string, index: ProbeIndex): Promise<Map<string, Retrieved[]>> {
  const retrievals = new Map<string, Retrieved[]>();
  for await (const { line, value } of readJsonl(file)) {
    const where = { file, record: `line ${line}` };
    if (!isRecord(value)) throw new DataError("expected an object", where);
    const { episode, probe } = index.locate(value, where);
    const items = parseItems(value.items, episode, where);
    if (retrievals.has(key(episode, probe))) throw new DataError(`a second retrieval for "${probe.id}"`, where);
    retrievals.set(key(episode, probe), items);
  }
  return retrievals;
}

/** Scores answers and/or retrievals of a system run elsewhere as a run directory of its own. */
export async function scoreExternalRun(
  bench: string,
  data: string,
  files: ExternalFiles,
  options: ExternalRunOptions = {},
): Promise<ExternalOutcome> {
  if (!files.answers && !files.retrievals) {
    throw new ConfigError("give --answers, --retrievals or both", "answers", "--answers");
  }
  const name = options.name ?? ANSWERS_SYSTEM;
  if (!NAME.test(name)) {
    throw new ConfigError(`expected letters, digits, ".", "_" or "-", got "${name}"`, "name", "--name");
  }
  const dataset = await loadRunData(bench, data, { lenient: options.lenient });
  const index = new ProbeIndex(dataset, data);
  const answers = files.answers ? await readAnswers(files.answers, index) : undefined;
  const retrievals = files.retrievals ? await readRetrievals(files.retrievals, index) : undefined;
  if (files.answers && !answers?.size) throw new ConfigError(`no answers in ${files.answers}`, "answers", "--answers");
  if (files.retrievals && !retrievals?.size) {
    throw new ConfigError(`no retrievals in ${files.retrievals}`, "retrievals", "--retrievals");
  }

  const protocol = protocolFor(dataset.benchmark)({ benchmark: options.options ?? {} });
  const records = new Map<string, ProbeRecord[]>();
  let withMetrics = 0;
  for (const episode of dataset.episodes) {
    for (const probe of episode.probes) {
      const answer = answers?.get(key(episode, probe));
      const items = retrievals?.get(key(episode, probe));
      if (answer === undefined && items === undefined) continue;
      const unitId = `${name}|${episode.id}`;
      const retrieval = items && probeRetrievalMetrics(probe, items, protocol);
      if (retrieval) withMetrics++;
      const record: ProbeRecord = {
        unitId,
        system: name,
        episodeId: episode.id,
        probeId: probe.id,
        setting: "default",
        question: probe.question,
        time: probe.time,
        labels: probe.labels,
        status: "done",
        retrieved: retrievedRecords(items ?? []),
        // What the system gave its answerer is not known here.
        context: { text: "", tokens: 0, used: 0 },
        ...(retrieval ? { retrieval } : {}),
        ...(answer !== undefined
          ? { answer }
          : { answerSkipped: files.answers ? `no answer in ${files.answers}` : "no answers file (--answers)" }),
        timings: { flushMs: 0, searchMs: 0 },
      };
      records.set(unitId, [...(records.get(unitId) ?? []), record]);
    }
  }

  const total = dataset.episodes.reduce((n, e) => n + e.probes.length, 0);
  const unanswered = answers ? total - answers.size : 0;
  const unretrieved = retrievals ? total - retrievals.size : 0;
  if (unanswered) {
    log.warn(`${unanswered} of ${total} questions have no answer in ${files.answers}; they are not scored`);
  }
  if (unretrieved) {
    log.warn(`${unretrieved} of ${total} questions have no line in ${files.retrievals}; no retrieval metric for them`);
  }
  if (retrievals && !withMetrics) {
    log.warn(`no question in ${files.retrievals} has gold evidence in this data: no retrieval metric is reported`);
  }

  const stamp = new Date().toISOString().replace(/[-:]/g, "").replace(/\..*/, "").replace("T", "-");
  const dir = resolve(options.out ?? "runs", options.id ?? `${dataset.benchmark}-${name}-${stamp}`);
  mkdirSync(dir, { recursive: true });
  const config = {
    id: dir,
    variant: dataset.variant,
    createdAt: new Date().toISOString(),
    options: {
      benchmark: dataset.benchmark,
      data: resolve(data),
      systems: [name],
      settings: ["default"],
      ...(files.answers ? { answers: resolve(files.answers) } : {}),
      ...(files.retrievals ? { retrievals: resolve(files.retrievals) } : {}),
      ...(options.lenient ? { lenient: true } : {}),
    },
    // What the retrieval metrics were measured with (as a run records it).
    protocol: { evidenceUnit: protocol.evidenceUnit, ks: protocol.ks, supportKs: protocol.supportKs },
  };
  writeFileSync(join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  const store = new RunStore(join(dir, STORE_FILE));
  try {
    store.plan([...records.keys()].map((id) => ({ id, system: name, episodeId: id.slice(name.length + 1) })));
    for (const [id, list] of records) store.finish(id, list, []);
  } finally {
    store.close();
  }
  const outcome = await scoreRun(dir, options);
  return { ...outcome, dir, unanswered, unretrieved };
}

/** Scores an answers file alone (`membench score <bench> --data … --answers …`). */
export async function scoreAnswersFile(
  bench: string,
  data: string,
  answersFile: string,
  options: ExternalRunOptions = {},
): Promise<ExternalOutcome> {
  return scoreExternalRun(bench, data, { answers: answersFile }, options);
}
