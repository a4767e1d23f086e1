/**
 * `--shard i/n`: which work units of a run one of n processes executes. Every
 * shard computes the same partition from the run's whole plan, so shards need
 * no coordination and may start in any order, on any machine: units are taken
 * heaviest first (ties broken by the hash of their id), each given to the shard
 * with the least work so far (ties to the lowest index). A unit's weight is
 * what its replay does: the episode's turns ingested, plus each probe's search
 * over its sessions (turns + probes × sessions).
 */
import { createHash } from "node:crypto";
import { ConfigError } from "../core/errors.ts";
import type { Episode } from "../core/model.ts";

export interface ShardSpec {
  /** 1-based. */
  index: number;
  count: number;
}

/** Parses `i/n` (1 ≤ i ≤ n). */
export function parseShard(text: string): ShardSpec {
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count) {
    throw new ConfigError(`expected i/n with 1 ≤ i ≤ n (e.g. 2/4), got "${text}"`, "shard", "--shard");
  }
  return { index, count };
}

export function formatShard(shard: ShardSpec): string {
  return `${shard.index}/${shard.count}`;
}

/** The work a unit's replay does, in the partition's units. */
export function episodeWeight(episode: Episode): number {
  const turns = episode.sessions.reduce((n, s) => n + s.turns.length, 0);
  return turns + episode.probes.length * episode.sessions.length;
}

const idHash = (id: string) => createHash("sha256").update(id).digest("hex");

/**
 * The shard (1-based) of every unit: deterministic for the same units and
 * weights, whatever order they are given in.
 */
export function assignShards<U extends { id: string }>(
  units: readonly U[],
  weight: (unit: U) => number,
  count: number,
): Map<string, number> {
  const keyed = units.map((u) => ({ id: u.id, weight: weight(u), hash: idHash(u.id) }));
  keyed.sort((a, b) => b.weight - a.weight || (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  const loads = new Array<number>(count).fill(0);
  const out = new Map<string, number>();
  for (const u of keyed) {
    let best = 0;
    for (let k = 1; k < count; k++) if (loads[k]! < loads[best]!) best = k;
    loads[best]! += u.weight;
    out.set(u.id, best + 1);
  }
  return out;
}

/** The units of `shard`, in the order given. */
export function shardUnits<U extends { id: string }>(
  units: readonly U[],
  weight: (unit: U) => number,
  shard: ShardSpec,
): U[] {
  const of = assignShards(units, weight, shard.count);
  return units.filter((u) => of.get(u.id) === shard.index);
}
