/**
 * Gold answers and evidence for the drill-down, from the run's own data file
 * (config.json names the benchmark and path). Loaded once per run; a data file
 * that moved or no longer loads leaves the drill-down without gold, saying why.
 */
import { loadDataset } from "../../benchmarks/index.ts";
import type { Episode, Gold, Probe } from "../../core/model.ts";
import type { RetrievedRecord } from "../../core/record.ts";
import type { RunData } from "./runs.ts";

export interface EvidenceTurn {
  id: string;
  sessionId: string;
  role: string;
  speaker?: string;
  content: string;
}

export interface MarkedItem extends RetrievedRecord {
  /** The item comes from a gold evidence session or turn. */
  evidence: boolean;
  /** [start, end) character ranges of gold evidence turns inside the item's text. */
  highlights: Array<[number, number]>;
}

type Episodes = Map<string, Episode>;

const datasets = new Map<string, Promise<Episodes>>();

function episodesOf(run: RunData): Promise<Episodes> {
  const { benchmark, data } = run.config.options;
  const key = `${benchmark}\u0000${data}`;
  let pending = datasets.get(key);
  if (!pending) {
    pending = loadDataset(benchmark, data, { strict: false }).then((d) => new Map(d.episodes.map((e) => [e.id, e])));
    // A failed load is not remembered: the file may be back on the next look.
    pending.catch(() => datasets.delete(key));
    datasets.set(key, pending);
  }
  return pending;
}

export interface GoldView {
  gold?: Gold;
  goldError?: string;
  evidenceTurns: EvidenceTurn[];
}

export async function goldFor(run: RunData, episodeId: string, probeId: string): Promise<GoldView & { probe?: Probe }> {
  let episodes: Episodes;
  try {
    episodes = await episodesOf(run);
  } catch (error) {
    return { goldError: `the run's data could not be loaded: ${(error as Error).message}`, evidenceTurns: [] };
  }
  const episode = episodes.get(episodeId);
  const probe = episode?.probes.find((p) => p.id === probeId);
  if (!episode || !probe) {
    return { goldError: `no probe ${episodeId}/${probeId} in ${run.config.options.data} any more`, evidenceTurns: [] };
  }
  const wanted = new Set(probe.gold.evidenceTurnIds);
  const evidenceTurns = episode.sessions.flatMap((s) =>
    s.turns
      .filter((t) => wanted.has(t.id))
      .map((t) => ({ id: t.id, sessionId: s.id, role: t.role, speaker: t.speaker, content: t.content })),
  );
  return { gold: probe.gold, probe, evidenceTurns };
}

/** Flags retrieved items that come from gold evidence, and where the evidence turns sit in their text. */
export function markEvidence(
  items: readonly RetrievedRecord[],
  gold: Gold | undefined,
  turns: readonly EvidenceTurn[],
): MarkedItem[] {
  const sessions = new Set(gold?.evidenceSessionIds ?? []);
  const turnIds = new Set(gold?.evidenceTurnIds ?? []);
  return items.map((item) => {
    const evidence =
      (item.sessionIds ?? []).some((id) => sessions.has(id)) || (item.turnIds ?? []).some((id) => turnIds.has(id));
    const highlights: Array<[number, number]> = [];
    for (const turn of turns) {
      const text = turn.content.trim();
      if (!text) continue;
      for (let at = item.text.indexOf(text); at >= 0; at = item.text.indexOf(text, at + text.length)) {
        highlights.push([at, at + text.length]);
      }
    }
    highlights.sort((a, b) => a[0] - b[0]);
    return { ...item, evidence: evidence || highlights.length > 0, highlights: disjoint(highlights) };
  });
}

/** Overlapping ranges merged, so the front end can cut the text in one pass. */
function disjoint(ranges: Array<[number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const [start, end] of ranges) {
    const last = out[out.length - 1];
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else out.push([start, end]);
  }
  return out;
}
