/**
 * Tuning and checking halves of the bench's samples. A retrieval parameter is
 * chosen on the tuning half only; the checking half says whether the choice
 * carries over to data it was not chosen on, and a change that helps the one
 * and not the other is reverted (docs/ledger.md, "Tuning and checking halves").
 *
 * The split is of probes, after a replay of the whole sample: a probe's
 * ranking depends only on the sessions before it, never on other probes, so
 * one replay scores both halves. Every rule is deterministic and needs no
 * random state; where the order of items matters it is the order of the SHA-1
 * of their id, which no one chose.
 *
 * - SubtleMemory: by instance (every probe of one instance in one half), within
 *   each relation type: the instances of a type in SHA-1 order of their
 *   `instance_id`, alternately tuning and checking (the first tuning), so both
 *   halves hold every relation type.
 * - RealMem: by project (`meta.project`, the release's own label: every query of
 *   one project in one half): projects in descending number of queries (ties by
 *   name), each to the half with fewer queries so far (ties: tuning).
 * - LoCoMo: by question, within each category: the questions of a category in
 *   SHA-1 order of their probe id, alternately tuning and checking.
 * - Memora: a whole sample per half: the weekly one tunes, the monthly one checks.
 */
import { createHash } from "node:crypto";
import type { Episode, Probe } from "../src/core/model.ts";

export type Half = "tune" | "check";
export const HALVES: readonly Half[] = ["tune", "check"];

export type SplitRule =
  | { kind: "whole"; half: Half }
  | { kind: "instance" }
  | { kind: "project" }
  | { kind: "question" };

/** What each rule says, for the bench's heading. */
export const SPLIT_TEXT: Record<SplitRule["kind"], string> = {
  whole: "the whole sample",
  instance: "by instance, alternating within each relation type in SHA-1 order of the instance id",
  project: "by project, greedily balanced by query count",
  question: "by question, alternating within each category in SHA-1 order of the probe id",
};

/** Key of a probe in a split: its episode and its id. */
export function probeKey(episodeId: string, probeId: string): string {
  return `${episodeId}\u0000${probeId}`;
}

function sha1(text: string): string {
  return createHash("sha1").update(text).digest("hex");
}

/** Groups within each stratum, in SHA-1 order, alternately tuning and checking. */
function alternate(groups: ReadonlyMap<string, string>): Map<string, Half> {
  const byStratum = new Map<string, string[]>();
  for (const [group, stratum] of groups) {
    const list = byStratum.get(stratum);
    if (list) list.push(group);
    else byStratum.set(stratum, [group]);
  }
  const out = new Map<string, Half>();
  for (const list of byStratum.values()) {
    list.sort((a, b) => sha1(a).localeCompare(sha1(b)) || a.localeCompare(b));
    list.forEach((group, i) => {
      out.set(group, i % 2 ? "check" : "tune");
    });
  }
  return out;
}

/** Groups by descending size (ties by name), each to the half with fewer probes so far. */
function balance(sizes: ReadonlyMap<string, number>): Map<string, Half> {
  const totals = { tune: 0, check: 0 };
  const out = new Map<string, Half>();
  const order = [...sizes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  for (const [group, n] of order) {
    const half: Half = totals.check < totals.tune ? "check" : "tune";
    totals[half] += n;
    out.set(group, half);
  }
  return out;
}

const instanceOf = (p: Probe) => String(p.meta?.instanceId ?? p.id);
const projectOf = (p: Probe) => String(p.meta?.project ?? "");

/** The half of every probe of the episodes, by `probeKey`. */
export function splitProbes(rule: SplitRule, episodes: readonly Episode[]): Map<string, Half> {
  const probes = episodes.flatMap((e) => e.probes.map((p) => ({ episode: e.id, probe: p })));
  let halfOf: (p: Probe, episode: string) => Half;
  if (rule.kind === "whole") halfOf = () => rule.half;
  else if (rule.kind === "instance") {
    const groups = new Map(probes.map(({ probe }) => [instanceOf(probe), probe.labels.relation_type ?? ""]));
    const halves = alternate(groups);
    halfOf = (p) => halves.get(instanceOf(p))!;
  } else if (rule.kind === "project") {
    const sizes = new Map<string, number>();
    for (const { probe } of probes) sizes.set(projectOf(probe), (sizes.get(projectOf(probe)) ?? 0) + 1);
    const halves = balance(sizes);
    halfOf = (p) => halves.get(projectOf(p))!;
  } else {
    const groups = new Map(
      probes.map(({ episode, probe }) => [probeKey(episode, probe.id), probe.labels.category ?? ""]),
    );
    const halves = alternate(groups);
    halfOf = (p, episode) => halves.get(probeKey(episode, p.id))!;
  }
  return new Map(probes.map(({ episode, probe }) => [probeKey(episode, probe.id), halfOf(probe, episode)]));
}
