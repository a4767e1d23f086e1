/**
 * RealMem's results files, in the shape the release's harness
 * (`eval/eval_mem0.py`) writes and its two scoring scripts read
 * (`eval/compute_auto_metrics_for_realmem.py`,
 * `eval/compute_llm_metrics_for_realmem.py`; RealMemBench README and
 * arXiv 2601.06966 §5): per user, `<Person>/generation_results.json`, an object
 * keyed by the query's text with surrounding whitespace removed, because the
 * scripts look every entry up by that text. Each entry is `{question, id,
 * session_identifier, ranked_items, generated_answer, evidence_used}`:
 * - `id` is the release's query id (`Q-0001`), else our probe id;
 * - `session_identifier` is the session the query sits in (what the harness
 *   itself stores as `id`);
 * - `ranked_items` are the `memory` items the system returned, each with the
 *   session it came from as `chunk_id`, then one `chunk` item per distinct
 *   source session in full (score = max, rank = min over its items), in order
 *   of first appearance: the session ranking our retrieval metrics use, and
 *   the harness's score order whenever scores fall with rank.
 */
import { loadDataset } from "../../benchmarks/index.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Episode, Session } from "../../core/model.ts";
import type { ProbeRecord, RetrievedRecord, Setting } from "../../core/record.ts";
import type { RunData } from "../run-data.ts";

export interface RankedItem {
  res_type: "memory" | "chunk";
  chunk_id: string;
  content: string;
  score: number;
  rank: number;
}

export interface GenerationEntry {
  question: string;
  id: string;
  session_identifier: string | null;
  ranked_items: RankedItem[];
  generated_answer: string;
  evidence_used: string;
}

/** One file per system × setting × user: the path relative to the export folder, and its content. */
export interface RealMemFile {
  path: string;
  content: Record<string, GenerationEntry>;
}

export interface RealMemExport {
  files: RealMemFile[];
  /** Queries left out because a later query of the same file has the same text. */
  warnings: string[];
}

/** The session as the reference harness adds it: `Speaker <Role>: <content>` lines. */
export function sessionText(session: Session): string {
  return session.turns
    .map((t) => `Speaker ${t.role.charAt(0).toUpperCase()}${t.role.slice(1)}: ${t.content}`)
    .join("\n");
}

/** The harness's key: the query text without surrounding whitespace (Python's `str.strip()`). */
export function questionKey(question: string): string {
  return question.trim();
}

export function rankedItems(
  retrieved: readonly RetrievedRecord[],
  sessions: ReadonlyMap<string, Session>,
): RankedItem[] {
  const items: RankedItem[] = [];
  // Insertion order is first appearance, since items are walked in rank order.
  const chunks = new Map<string, RankedItem>();
  const byRank = [...retrieved].sort((a, b) => a.rank - b.rank);
  for (const item of byRank) {
    const sid = item.sessionIds?.[0];
    const wholeSession = item.kind === "session";
    if (!wholeSession) {
      items.push({ res_type: "memory", chunk_id: sid ?? "", content: item.text, score: item.score, rank: item.rank });
    }
    for (const id of item.sessionIds ?? []) {
      const known = chunks.get(id);
      if (known) {
        known.score = Math.max(known.score, item.score);
        known.rank = Math.min(known.rank, item.rank);
        continue;
      }
      const session = sessions.get(id);
      chunks.set(id, {
        res_type: "chunk",
        chunk_id: id,
        content: session ? sessionText(session) : wholeSession ? item.text : "",
        score: item.score,
        rank: item.rank,
      });
    }
  }
  return [...items, ...chunks.values()];
}

function entry(record: ProbeRecord, episode: Episode | undefined, sessions: ReadonlyMap<string, Session>) {
  const probe = episode?.probes.find((p) => p.id === record.probeId);
  const queryId = typeof probe?.meta?.queryId === "string" ? probe.meta.queryId : undefined;
  const sessionId = probe?.position.at === "before" ? probe.position.sessionId : undefined;
  const question = questionKey(record.question);
  return {
    key: question,
    value: {
      question,
      id: queryId ?? record.probeId,
      session_identifier: sessionId ?? null,
      ranked_items: rankedItems(record.retrieved, sessions),
      generated_answer: record.answer ?? "",
      evidence_used: record.context.text,
    } satisfies GenerationEntry,
  };
}

/** Folder of a system × setting inside the export: the system id, with the setting when not default. */
export function armFolder(system: string, setting: Setting): string {
  return setting === "default" ? system : `${system}-${setting}`;
}

/**
 * The files of a RealMem run. Two queries of one user with the same text would
 * share a key; as in the harness, whose dictionary keeps the last assignment,
 * and in the scoring scripts, whose gold answer for that text is the last
 * query's, the later query (in timeline order) is kept and the earlier one is
 * reported in `warnings`.
 */
export async function realmemFiles(run: RunData): Promise<RealMemExport> {
  if (run.config.benchmark !== "realmem") {
    throw new ConfigError(`run ${run.config.id} is ${run.config.benchmark}, not realmem`, "format", "--format");
  }
  const dataset = await loadDataset("realmem", run.config.data);
  const episodes = new Map(dataset.episodes.map((e) => [e.id, e]));
  const order = new Map(dataset.episodes.flatMap((e) => e.probes.map((p, i) => [`${e.id}\u0000${p.id}`, i] as const)));
  const position = (r: ProbeRecord) => order.get(`${r.episodeId}\u0000${r.probeId}`) ?? Number.MAX_SAFE_INTEGER;
  const records = run.records.filter((r) => r.status === "done").sort((a, b) => position(a) - position(b));
  const files = new Map<string, RealMemFile>();
  const warnings: string[] = [];
  for (const record of records) {
    const episode = episodes.get(record.episodeId);
    const sessions = new Map((episode?.sessions ?? []).map((s) => [s.id, s]));
    const path = `${armFolder(record.system, record.setting)}/${record.episodeId}/generation_results.json`;
    const file = files.get(path) ?? { path, content: {} };
    const { key, value } = entry(record, episode, sessions);
    const earlier = file.content[key];
    if (earlier) {
      warnings.push(
        `${path}: queries ${earlier.id} and ${value.id} have the same text; the official scripts look entries up ` +
          `by text, so only ${value.id} (the later one) is written`,
      );
    }
    file.content[key] = value;
    files.set(path, file);
  }
  return { files: [...files.values()], warnings };
}
