/**
 * Where a system's retrieval misses come from. For every probe whose evidence
 * sessions are not all in the top k, each missed evidence session is put in the
 * first class that fits:
 *
 * - `no lexical cue`: the session contains none of the query's selective words
 *   (words found in at most 10% of the sessions visible at that point);
 * - `filler session`: the release marks the session as filler (RealMem's
 *   `Enhanced:*` sessions, `meta.filler`);
 * - `other project`: the session belongs to another project than the one the
 *   query is asked in (RealMem `meta.project`; a label used here for analysis,
 *   never shown to a system);
 * - `ranked k+1..2k` / `ranked below 2k`: a cue exists but the ranking put it
 *   just below the cut, or far below it.
 *
 * Probes are also split by how many evidence sessions they need, since
 * recall_all punishes multi-session evidence hardest.
 */
import type { Episode } from "../src/core/model.ts";
import type { ProbeRecord } from "../src/core/record.ts";
import { lexicalTokens } from "../src/text/tokenize.ts";

export interface MissReport {
  probes: number;
  missed: number;
  bySize: Array<{ evidence: string; probes: number; missed: number }>;
  /**
   * Missed probes needing two or more sessions, split by what the top k did
   * hold: some of the evidence (the rest was not brought along), and evidence
   * at rank 1 in particular. The rest found none of it.
   */
  multi: { missed: number; someInTop: number; firstIsEvidence: number };
  causes: Array<{ cause: string; sessions: number }>;
}

const SELECTIVE_SHARE = 0.1;

function sessionOf(episode: Episode, id: string) {
  return episode.sessions.find((s) => s.id === id);
}

export function analyseMisses(episodes: readonly Episode[], records: readonly ProbeRecord[], k: number): MissReport {
  const byEpisode = new Map(episodes.map((e) => [e.id, e]));
  const sizes = new Map<string, { probes: number; missed: number }>();
  const causes = new Map<string, number>();
  let probes = 0;
  let missed = 0;
  const multi = { missed: 0, someInTop: 0, firstIsEvidence: 0 };
  const termCache = new Map<string, Set<string>>();
  const termsOf = (episode: Episode, id: string) => {
    const key = `${episode.id}\u0000${id}`;
    let terms = termCache.get(key);
    if (!terms) {
      const s = sessionOf(episode, id);
      terms = new Set(lexicalTokens(s?.turns.map((t) => t.content).join("\n") ?? ""));
      termCache.set(key, terms);
    }
    return terms;
  };
  for (const r of records) {
    const episode = byEpisode.get(r.episodeId);
    const probe = episode?.probes.find((p) => p.id === r.probeId);
    const evidence = probe?.gold.evidenceSessionIds ?? [];
    if (!episode || !probe || !evidence.length || r.setting !== "default" || r.status !== "done") continue;
    probes++;
    const size = evidence.length === 1 ? "1 session" : evidence.length === 2 ? "2 sessions" : "3+ sessions";
    const bucket = sizes.get(size) ?? { probes: 0, missed: 0 };
    bucket.probes++;
    sizes.set(size, bucket);
    const ranked = [...new Set(r.retrieved.flatMap((h) => h.sessionIds ?? []))];
    const top = new Set(ranked.slice(0, k));
    const lost = evidence.filter((e) => !top.has(e));
    if (!lost.length) continue;
    missed++;
    bucket.missed++;
    if (evidence.length > 1) {
      multi.missed++;
      if (lost.length < evidence.length) multi.someInTop++;
      if (ranked[0] !== undefined && evidence.includes(ranked[0])) multi.firstIsEvidence++;
    }
    // Sessions visible when the probe fired: those before its position in the timeline.
    const at = probe.position;
    const limit =
      at.at === "before"
        ? episode.sessions.findIndex((s) => s.id === at.sessionId)
        : at.at === "after"
          ? episode.sessions.findIndex((s) => s.id === at.sessionId) + 1
          : episode.sessions.length;
    const visible = episode.sessions.slice(0, limit < 0 ? episode.sessions.length : limit);
    const df = new Map<string, number>();
    const queryTerms = [...new Set(lexicalTokens(probe.question))];
    for (const s of visible) {
      const terms = termsOf(episode, s.id);
      for (const t of queryTerms) if (terms.has(t)) df.set(t, (df.get(t) ?? 0) + 1);
    }
    const selective = queryTerms.filter((t) => (df.get(t) ?? 0) > 0 && df.get(t)! <= visible.length * SELECTIVE_SHARE);
    const queryProject = probe.meta?.project;
    for (const id of lost) {
      const session = sessionOf(episode, id);
      const rank = ranked.indexOf(id);
      const terms = termsOf(episode, id);
      let cause: string;
      if (!selective.some((t) => terms.has(t))) cause = "no lexical cue";
      else if (session?.meta?.filler) cause = "filler session";
      else if (queryProject !== undefined && session?.meta?.project !== queryProject) cause = "other project";
      else if (rank >= 0 && rank < 2 * k) cause = `ranked ${k + 1}..${2 * k}`;
      else cause = `ranked below ${2 * k}`;
      causes.set(cause, (causes.get(cause) ?? 0) + 1);
    }
  }
  return {
    probes,
    missed,
    bySize: [...sizes.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([evidence, v]) => ({ evidence, ...v })),
    multi,
    causes: [...causes.entries()].sort((a, b) => b[1] - a[1]).map(([cause, sessions]) => ({ cause, sessions })),
  };
}

export function printMisses(title: string, report: MissReport): void {
  console.log(`#### ${title}: ${report.missed} of ${report.probes} probes miss some evidence\n`);
  console.log("| evidence needed | probes | missed |");
  console.log("|---|---:|---:|");
  for (const s of report.bySize) console.log(`| ${s.evidence} | ${s.probes} | ${s.missed} |`);
  const m = report.multi;
  if (m.missed) {
    console.log(
      `\nOf the ${m.missed} missed probes needing 2+ sessions, ${m.someInTop} had part of the evidence in the top k` +
        ` (${m.firstIsEvidence} of them at rank 1); ${m.missed - m.someInTop} had none of it.`,
    );
  }
  console.log("\n| why a missed evidence session was missed | sessions |");
  console.log("|---|---:|");
  for (const c of report.causes) console.log(`| ${c.cause} | ${c.sessions} |`);
  console.log("");
}
