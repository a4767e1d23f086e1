/**
 * RealMem's results files (spec/realmem.md §5.2, §9): per user,
 * `<Person>/generation_results.json` keyed by query id (the query text when the
 * release has none), each entry `{question, id, ranked_items, generated_answer,
 * evidence_used}`. Ranked items are `memory` items (what the system returned,
 * with the session it came from as `chunk_id`) and `chunk` items (each distinct
 * source session in full, score = max and rank = min over its items, sorted by
 * score), which the reference retrieval-metric script ranks.
 */
import { loadDataset } from "../../benchmarks/index.ts";
import { ConfigError } from "../../core/errors.ts";
import type { Episode, Session } from "../../core/model.ts";
import type { ProbeRecord, RetrievedRecord, Setting } from "../../run/record.ts";
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
  ranked_items: RankedItem[];
  generated_answer: string;
  evidence_used: string;
}

/** One file per system × setting × user: the path relative to the export folder, and its content. */
export interface RealMemFile {
  path: string;
  content: Record<string, GenerationEntry>;
}

/** The session as the reference harness adds it: `Speaker <Role>: <content>` lines. */
export function sessionText(session: Session): string {
  return session.turns
    .map((t) => `Speaker ${t.role.charAt(0).toUpperCase()}${t.role.slice(1)}: ${t.content}`)
    .join("\n");
}

function rankedItems(retrieved: readonly RetrievedRecord[], sessions: ReadonlyMap<string, Session>): RankedItem[] {
  const items: RankedItem[] = [];
  const chunks = new Map<string, RankedItem>();
  for (const item of retrieved) {
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
  const sorted = [...chunks.values()].sort((a, b) => b.score - a.score || a.rank - b.rank);
  return [...items, ...sorted];
}

function entry(record: ProbeRecord, episode: Episode | undefined, sessions: ReadonlyMap<string, Session>) {
  const probe = episode?.probes.find((p) => p.id === record.probeId);
  const queryId = typeof probe?.meta?.queryId === "string" ? probe.meta.queryId : undefined;
  const key = queryId ?? record.question;
  return {
    key,
    value: {
      question: record.question,
      id: key,
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

export async function realmemFiles(run: RunData): Promise<RealMemFile[]> {
  if (run.config.benchmark !== "realmem") {
    throw new ConfigError(`run ${run.config.id} is ${run.config.benchmark}, not realmem`, "format", "--format");
  }
  const dataset = await loadDataset("realmem", run.config.data);
  const episodes = new Map(dataset.episodes.map((e) => [e.id, e]));
  const files = new Map<string, RealMemFile>();
  for (const record of run.records) {
    if (record.status !== "done") continue;
    const episode = episodes.get(record.episodeId);
    const sessions = new Map((episode?.sessions ?? []).map((s) => [s.id, s]));
    const path = `${armFolder(record.system, record.setting)}/${record.episodeId}/generation_results.json`;
    const file = files.get(path) ?? { path, content: {} };
    const { key, value } = entry(record, episode, sessions);
    file.content[key] = value;
    files.set(path, file);
  }
  return [...files.values()];
}
