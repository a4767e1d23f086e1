/**
 * Dataset statistics for `membench data inspect`: sizes, tokens, probes by every
 * category label, evidence coverage, and the loader's warnings.
 */
import type { Dataset, Probe } from "../core/model.ts";
import { countTokens } from "../tokens/count.ts";

export interface InspectReport {
  benchmark: string;
  episodes: number;
  sessions: number;
  turns: number;
  tokens: number;
  probes: number;
  byLabel: Record<string, Record<string, number>>;
  /** Share of probes that carry evidence (sessions, turns or memory texts). */
  evidenceCoverage: number;
  warnings: string[];
}

export function hasEvidence(probe: Probe): boolean {
  const g = probe.gold;
  return g.evidenceSessionIds.length > 0 || g.evidenceTurnIds.length > 0 || g.evidenceMemories.length > 0;
}

export function inspectDataset(dataset: Dataset, options: { tokens?: boolean } = {}): InspectReport {
  let sessions = 0;
  let turns = 0;
  let tokens = 0;
  let probes = 0;
  let withEvidence = 0;
  const byLabel: Record<string, Record<string, number>> = {};
  for (const episode of dataset.episodes) {
    sessions += episode.sessions.length;
    for (const session of episode.sessions) {
      turns += session.turns.length;
      if (options.tokens !== false) for (const turn of session.turns) tokens += countTokens(turn.content);
    }
    for (const probe of episode.probes) {
      probes++;
      if (hasEvidence(probe)) withEvidence++;
      for (const [key, value] of Object.entries(probe.labels)) {
        const counts = byLabel[key] ?? {};
        byLabel[key] = counts;
        counts[value] = (counts[value] ?? 0) + 1;
      }
    }
  }
  return {
    benchmark: dataset.benchmark,
    episodes: dataset.episodes.length,
    sessions,
    turns,
    tokens,
    probes,
    byLabel,
    evidenceCoverage: probes ? withEvidence / probes : 0,
    warnings: dataset.warnings,
  };
}

/**
 * Facts some releases carry per session, shown in the text form only (the JSON
 * form keeps its documented keys): RealMem marks the sessions whose assistant
 * turns cite no extracted memory.
 */
export function sessionNotes(dataset: Dataset): string[] {
  let marked = 0;
  let without = 0;
  for (const episode of dataset.episodes) {
    for (const session of episode.sessions) {
      const has = session.meta?.hasMemory;
      if (typeof has !== "boolean") continue;
      marked++;
      if (!has) without++;
    }
  }
  return marked
    ? [`sessions without extracted memory: ${without.toLocaleString("en-US")} of ${marked.toLocaleString("en-US")}`]
    : [];
}

/** Human-readable rendering of an InspectReport. */
export function formatInspect(report: InspectReport, notes: readonly string[] = []): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const lines = [
    `${report.benchmark}: ${n(report.episodes)} episodes, ${n(report.sessions)} sessions, ${n(report.turns)} turns, ${n(report.tokens)} tokens (o200k)`,
    ...notes,
    `probes: ${n(report.probes)}, evidence coverage ${(report.evidenceCoverage * 100).toFixed(1)}%`,
  ];
  for (const [label, counts] of Object.entries(report.byLabel)) {
    lines.push(`  by ${label}:`);
    const entries = Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    for (const [value, count] of entries) lines.push(`    ${value.padEnd(32)} ${String(count).padStart(6)}`);
  }
  if (report.warnings.length) {
    lines.push(`warnings (${report.warnings.length}):`);
    const shown = report.warnings.slice(0, 50);
    for (const w of shown) lines.push(`  - ${w}`);
    if (report.warnings.length > shown.length)
      lines.push(`  … and ${report.warnings.length - shown.length} more (use --json)`);
  } else {
    lines.push("warnings: none");
  }
  return lines.join("\n");
}
