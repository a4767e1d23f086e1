/**
 * Maps one MemoryAgentBench parquet row (the Hugging Face release's columns `context`, `questions`,
 * `answers`, `metadata`) to one Episode. The context stays whole, as one user
 * turn: chunking depends on the system under test and is the protocol's job.
 */
import { DataError } from "../../core/errors.ts";
import type { EpisodeInput, ProbeInput } from "../../core/model.ts";
import type { LoadContext } from "../shared/context.ts";
import { asArray, describe, type FieldWhere, isRecord, type Rec, reqArray, reqString } from "../shared/fields.ts";
import { COMPETENCY_OF_SPLIT, type Competency, type MabSource, type MabSplit, mabSource } from "./sources.ts";

export const BENCHMARK_ID = "memoryagentbench";
/** The one session of every episode, and its one turn. */
export const CONTEXT_SESSION_ID = "context";
export const CONTEXT_TURN_ID = "context:0";

export interface RowPlace extends FieldWhere {
  /** Split named by the file (`Accurate_Retrieval-00000-of-00001.parquet`), when it follows the official naming. */
  fileSplit?: MabSplit;
  /** The file as reported in episode meta (relative to the folder the user gave). */
  relativeFile: string;
  /** 0-based physical row index in the file. */
  row: number;
  /** 0-based index of this row among the rows of its source in the file: the official context index. */
  ordinal: number;
}

export interface MappedRow {
  source: string;
  /** Undefined for a sub-dataset missing from the registry (kept only in lenient mode). */
  known: MabSource | undefined;
  episode: EpisodeInput;
}

function metadataOf(row: Rec, where: FieldWhere): Rec {
  const meta = row.metadata;
  if (!isRecord(meta)) {
    throw new DataError(meta === undefined ? "missing" : `expected a struct, got ${describe(meta)}`, {
      ...where,
      field: "metadata",
    });
  }
  return meta;
}

/** `metadata.source`: the sub-dataset the row belongs to. */
export function readSource(row: Rec, where: FieldWhere): string {
  const source = metadataOf(row, where).source;
  const field = "metadata.source";
  if (source === undefined || source === null) throw new DataError("missing", { ...where, field });
  if (typeof source !== "string")
    throw new DataError(`expected a string, got ${describe(source)}`, { ...where, field });
  if (!source.trim()) throw new DataError("empty", { ...where, field });
  return source;
}

function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "bigint") return String(value);
  return undefined;
}

/**
 * Gold answers of one question as a flat, de-duplicated list. The release
 * stores a list of aliases per question (recsys: a list of movie ids), but a
 * bare string or number is accepted too. Blank aliases are dropped because an
 * empty gold string would be a substring of every prediction.
 */
export function goldAnswers(value: unknown, where: FieldWhere, field: string): string[] {
  const out: string[] = [];
  const visit = (v: unknown, path: string) => {
    const text = scalarText(v);
    if (text !== undefined) {
      if (text.trim() && !out.includes(text)) out.push(text);
    } else if (Array.isArray(v)) {
      v.forEach((x, j) => {
        visit(x, `${path}[${j}]`);
      });
    } else {
      throw new DataError(`expected a string or a list of strings, got ${describe(v)}`, { ...where, field: path });
    }
  };
  visit(value, field);
  return out;
}

/** An optional list-of-strings metadata field, one entry per question when `count` is given. */
function metaStrings(meta: Rec, key: string, where: FieldWhere, count?: number): string[] | undefined {
  const value = meta[key];
  if (value === undefined || value === null) return undefined;
  const field = `metadata.${key}`;
  const list = asArray(value, where, field);
  if (count !== undefined && list.length !== count) {
    throw new DataError(`${list.length} entries for ${count} questions`, { ...where, field });
  }
  return list.map((v, i) => {
    const text = scalarText(v);
    if (text === undefined)
      throw new DataError(`expected a string, got ${describe(v)}`, { ...where, field: `${field}[${i}]` });
    return text;
  });
}

/** The numeric labels of an in-context-learning context (`<text>\nlabel: <id>` blocks). */
export function labelSet(context: string): string[] {
  const labels = new Set<string>();
  for (const m of context.matchAll(/^[ \t]*label:[ \t]*(\S+)[ \t]*$/gim)) if (m[1]) labels.add(m[1]);
  return [...labels].sort((a, b) => a.localeCompare(b, "en", { numeric: true }));
}

/** Probe ids: the row's `qa_pair_ids`, else LongMemEval's `question_ids`, else positional. */
function probeIds(
  episodeId: string,
  count: number,
  qaPairIds: string[] | undefined,
  questionIds: string[] | undefined,
  where: FieldWhere,
): string[] {
  const [ids, field] = qaPairIds
    ? [qaPairIds, "metadata.qa_pair_ids"]
    : questionIds
      ? [questionIds, "metadata.question_ids"]
      : [Array.from({ length: count }, (_, i) => `${episodeId}:q${i}`), "questions"];
  const seen = new Map<string, number>();
  ids.forEach((id, i) => {
    if (!id.trim()) throw new DataError("empty id", { ...where, field: `${field}[${i}]` });
    const first = seen.get(id);
    if (first !== undefined) {
      throw new DataError(`duplicate id "${id}" (also at index ${first})`, { ...where, field: `${field}[${i}]` });
    }
    seen.set(id, i);
  });
  return ids;
}

export function rowToEpisode(row: Rec, source: string, place: RowPlace, ctx: LoadContext): MappedRow {
  const where: FieldWhere = { file: place.file, record: place.record };
  const known = mabSource(source);
  let competency: Competency | "unknown" = known?.competency ?? "unknown";
  if (!known) {
    if (place.fileSplit) competency = COMPETENCY_OF_SPLIT[place.fileSplit];
    ctx.issue(
      `unknown sub-dataset "${source}" (not in the MemoryAgentBench source table; loaded only with variant all)`,
      {
        ...where,
        field: "metadata.source",
      },
    );
  } else if (place.fileSplit && place.fileSplit !== known.split) {
    // The sub-dataset fixes the split, competency and metric; the file name only repeats it.
    ctx.warn(`sub-dataset "${source}" belongs to split ${known.split}, but the file is named for ${place.fileSplit}`, {
      ...where,
      field: "metadata.source",
    });
  }

  const context = reqString(row, "context", where);
  if (!context.trim()) ctx.issue("empty context", { ...where, field: "context" });
  const questions = reqArray(row, "questions", where);
  const answers = reqArray(row, "answers", where);
  if (answers.length !== questions.length) {
    throw new DataError(`${answers.length} answers for ${questions.length} questions`, { ...where, field: "answers" });
  }
  if (!questions.length) ctx.issue("no questions", { ...where, field: "questions" });

  const meta = metadataOf(row, where);
  const n = questions.length;
  const qaPairIds = metaStrings(meta, "qa_pair_ids", where, n);
  const questionIds = metaStrings(meta, "question_ids", where, n);
  const questionTypes = metaStrings(meta, "question_types", where, n);
  const questionDates = metaStrings(meta, "question_dates", where, n);
  const keypoints = metaStrings(meta, "keypoints", where);
  const previous = meta.previous_events;
  const previousPerQuestion = Array.isArray(previous) && previous.length === n;

  const episodeId = `${source}:${place.ordinal}`;
  const ids = probeIds(episodeId, n, qaPairIds, questionIds, where);
  const labels = { sub_dataset: source, competency, metric: known?.metric ?? "unknown" };

  const probes: ProbeInput[] = questions.map((q, i) => {
    if (typeof q !== "string" || !q.trim()) {
      throw new DataError(typeof q === "string" ? "empty question" : `expected a string, got ${describe(q)}`, {
        ...where,
        field: `questions[${i}]`,
      });
    }
    const gold = goldAnswers(answers[i], where, `answers[${i}]`);
    if (!gold.length) ctx.issue(`question ${i} has no gold answer`, { ...where, field: `answers[${i}]` });
    const type = questionTypes?.[i];
    return {
      id: ids[i]!,
      question: q,
      position: { at: "end" },
      labels: type ? { ...labels, question_type: type } : labels,
      gold: { answers: gold },
      meta: {
        index: i,
        ...(qaPairIds ? { qaPairId: qaPairIds[i] } : {}),
        ...(questionIds ? { questionId: questionIds[i] } : {}),
        ...(questionDates ? { questionDate: questionDates[i] } : {}),
        ...(previousPerQuestion ? { previousEvents: previous[i] } : {}),
        // Summary judge (HELMET protocol, arXiv 2507.05257 App. B.3.2): recall over these key points, precision against answers[0].
        ...(keypoints ? { keypoints } : {}),
      },
    };
  });

  const demo = meta.demo;
  const haystack = meta.haystack_sessions;
  const episode: EpisodeInput = {
    id: episodeId,
    benchmark: BENCHMARK_ID,
    sessions: [
      {
        id: CONTEXT_SESSION_ID,
        index: 0,
        turns: [{ id: CONTEXT_TURN_ID, index: 0, role: "user", content: context }],
      },
    ],
    probes,
    labels: { sub_dataset: source, competency },
    meta: {
      split: known?.split ?? place.fileSplit ?? "unknown",
      file: place.relativeFile,
      row: place.row,
      ...(typeof demo === "string" && demo ? { demo } : {}),
      ...(known?.family === "in_context_learning" ? { labelSet: labelSet(context) } : {}),
      ...(previous != null && !previousPerQuestion ? { previousEvents: previous } : {}),
      // The structured LongMemEval sessions repeat the context; only their count is kept.
      ...(Array.isArray(haystack) ? { haystackSessions: haystack.length } : {}),
    },
  };
  return { source, known, episode };
}
