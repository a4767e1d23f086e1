/**
 * `membench merge <dirs…> --out dir`: one run directory from the run
 * directories of its shards (`--shard i/n`), whose report is the one a single
 * process would have written, unit for unit.
 *
 * The shards must be one run: the same config.json apart from the shard (and
 * the id, start time, membench build and node of the process). Each unit of
 * the run's plan is taken from the shard that finished it; a unit finished by
 * more than one (a shard run again) is counted once: the later one is taken
 * when their records agree (timings and cache hits apart), and when they
 * differ the merge refuses, unless told to take the later (`preferLater`).
 * Model usage is summed over every directory: every call was made and paid.
 * A unit no directory finished stays pending (or failed, with its error), so
 * `membench run --resume <out>` can finish it.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { isDeepStrictEqual } from "node:util";
import { ConfigError } from "../core/errors.ts";
import { type ProbeRecord, type UnitInfo, unitId } from "../core/record.ts";
import { loadRunData } from "../data/run-data.ts";
import type { ProbeScore } from "../score/types.ts";
import { log } from "../util/log.ts";
import { SCORING_FILE, summarizeRun } from "./score-run.ts";
import { formatShard, type ShardSpec } from "./shard.ts";
import { CONFIG_FILE, checkUnchanged, type RunSnapshot, readSnapshot } from "./snapshot.ts";
import { RunStore, STORE_FILE } from "./store.ts";
import type { Summary } from "./summary.ts";
import { planRun } from "./unit.ts";

export interface MergeOptions {
  /** The merged run's directory (must not hold a run). */
  out: string;
  /** A unit finished with different records by two directories: take the later instead of refusing. */
  preferLater?: boolean;
}

export interface MergeOutcome {
  dir: string;
  summary: Summary;
  /** Units of the run's plan. */
  units: number;
  /** Units finished by more than one directory with the same records: counted once (the later taken). */
  duplicates: Array<{ unit: string; dirs: string[]; took: string }>;
  /** Units finished by more than one directory with different records, the later taken (`preferLater`). */
  conflicts: Array<{ unit: string; dirs: string[]; took: string }>;
  /** Units no directory finished: pending or failed in the merged run. */
  unfinished: string[];
  /** Shards of `n` no directory holds. */
  missingShards: string[];
}

interface Source {
  dir: string;
  snapshot: RunSnapshot;
  store: RunStore;
  units: Map<string, UnitInfo>;
}

/** What two shards of one run may differ in. */
function comparable(s: RunSnapshot): Record<string, unknown> {
  const { shard: _s, id: _i, out: _o, concurrency: _c, data: _d, ...options } = s.options;
  return {
    variant: s.variant ?? null,
    options,
    systems: (s.systems ?? []).map((r) => ({ label: r.label, spec: r.spec, options: r.options })),
    // The same bytes, wherever each machine keeps them.
    dataFiles: s.dataFiles.map((f) => [basename(f.path), f.bytes, f.sha256]),
    protocol: s.protocol,
    model: { configured: s.model.configured, spec: s.model.spec },
    embedder: s.embedder ?? null,
  };
}

function checkOneRun(sources: readonly Source[]): void {
  const [first, ...rest] = sources;
  const base = comparable(first!.snapshot);
  for (const other of rest) {
    const theirs = comparable(other.snapshot);
    const differs = Object.keys(base).filter((k) => !isDeepStrictEqual(base[k], theirs[k]));
    if (differs.length) {
      throw new ConfigError(
        `${other.dir} is not a shard of the same run as ${first!.dir}: ${differs.join(", ")} differ`,
        "merge",
        "merge",
      );
    }
  }
  const counts = new Set(sources.flatMap((s) => (s.snapshot.options.shard ? [s.snapshot.options.shard.count] : [])));
  if (counts.size > 1) {
    throw new ConfigError(
      `the directories split the run in different numbers of shards (${[...counts].join(", ")})`,
      "merge",
      "merge",
    );
  }
  for (const s of sources) {
    if (s.snapshot.membench !== first!.snapshot.membench || s.snapshot.gitCommit !== first!.snapshot.gitCommit) {
      log.warn(
        `${s.dir} was run by membench ${s.snapshot.membench} (${s.snapshot.gitCommit ?? "no commit"}), ${first!.dir} by ${first!.snapshot.membench} (${first!.snapshot.gitCommit ?? "no commit"})`,
      );
    }
  }
}

/** A record as two executions of a unit must agree on: timings and whether a call was a cache hit apart. */
function outcome(r: ProbeRecord): unknown {
  const { timings: _t, usage, ...rest } = r;
  return { ...rest, usage: usage ? { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens } : undefined };
}

function sameRecords(a: readonly ProbeRecord[], b: readonly ProbeRecord[]): boolean {
  return a.length === b.length && a.every((r, i) => isDeepStrictEqual(outcome(r), outcome(b[i]!)));
}

/** Which record a stored score is of. */
function scoreKey(x: { system: string; episodeId: string; probeId: string; setting: string }): string {
  return `${unitId(x.system, x.episodeId)}\u0000${x.probeId}\u0000${x.setting}`;
}

function scoringOf(dir: string): string | undefined {
  const path = join(dir, SCORING_FILE);
  return existsSync(path) ? readFileSync(path, "utf8") : undefined;
}

/** The merged run's config: the shards' run, unsharded, with where it came from. */
function mergedSnapshot(sources: readonly Source[], out: string): RunSnapshot {
  const first = sources[0]!.snapshot;
  const { shard: _s, ...options } = first.options;
  return {
    ...first,
    id: basename(out),
    createdAt: new Date().toISOString(),
    options: { ...options, out: dirname(out) },
    merged: {
      at: new Date().toISOString(),
      from: sources.map((s) => ({
        dir: s.dir,
        id: s.snapshot.id,
        ...(s.snapshot.options.shard ? { shard: s.snapshot.options.shard as ShardSpec } : {}),
      })),
    },
  };
}

export async function mergeRuns(dirs: readonly string[], options: MergeOptions): Promise<MergeOutcome> {
  if (!dirs.length) throw new ConfigError("name the run directories to merge", "merge", "merge");
  const out = resolve(options.out);
  if (existsSync(join(out, CONFIG_FILE))) {
    throw new ConfigError(`${out} already holds a run; merge into a new directory`, "out", "--out");
  }
  const unique = [...new Set(dirs.map((d) => resolve(d)))];
  const sources: Source[] = [];
  try {
    for (const dir of unique) {
      const snapshot = readSnapshot(dir, "merge", "merge");
      if (!existsSync(join(dir, STORE_FILE))) throw new ConfigError(`no ${STORE_FILE} in ${dir}`, "merge", "merge");
      const store = RunStore.readOnly(join(dir, STORE_FILE));
      sources.push({ dir, snapshot, store, units: new Map(store.units().map((u) => [u.id, u])) });
    }
    checkOneRun(sources);
    const snapshot = mergedSnapshot(sources, out);
    // The data gives the plan, in the order a single process runs it; it must be the data the shards ran on.
    const dataset = await loadRunData(snapshot.options.benchmark, snapshot.options.data, {
      lenient: snapshot.options.lenient,
      variant: snapshot.options.variant,
    });
    const { protocol, units } = planRun(snapshot, dataset);
    await checkUnchanged(snapshot, protocol, sources[0]!.dir, "its shards cannot be merged");
    const count = sources.find((s) => s.snapshot.options.shard)?.snapshot.options.shard?.count;
    const seen = new Set(sources.flatMap((s) => (s.snapshot.options.shard ? [s.snapshot.options.shard.index] : [])));
    const unsharded = sources.some((s) => !s.snapshot.options.shard);
    const missingShards =
      count && !unsharded
        ? Array.from({ length: count }, (_, i) => i + 1)
            .filter((i) => !seen.has(i))
            .map((i) => formatShard({ index: i, count }))
        : [];

    const scorings = new Set(sources.flatMap((s) => scoringOf(s.dir) ?? []));
    if (scorings.size > 1) {
      throw new ConfigError(
        "the shards were scored differently (their scoring.json differ); score each with the same judges and options first",
        "merge",
        "merge",
      );
    }

    // First decide where each unit comes from, refusing before anything is written.
    const duplicates: MergeOutcome["duplicates"] = [];
    const conflicts: MergeOutcome["conflicts"] = [];
    const unfinished: string[] = [];
    const choice = new Map<string, Source | UnitInfo | undefined>();
    for (const planned of units) {
      const done = sources.filter((s) => s.units.get(planned.id)?.state === "done");
      if (!done.length) {
        unfinished.push(planned.id);
        // A failure is kept with its error, so the merged run says why; otherwise the unit is pending.
        choice.set(
          planned.id,
          sources.map((s) => s.units.get(planned.id)).find((u) => u?.state === "failed"),
        );
        continue;
      }
      const byTime = [...done].sort((a, b) =>
        (a.units.get(planned.id)!.finishedAt ?? "").localeCompare(b.units.get(planned.id)!.finishedAt ?? ""),
      );
      const chosen = byTime.at(-1)!;
      choice.set(planned.id, chosen);
      if (done.length === 1) continue;
      const entry = { unit: planned.id, dirs: done.map((s) => s.dir), took: chosen.dir };
      const records = chosen.store.unitRecords(planned.id);
      if (byTime.slice(0, -1).every((s) => sameRecords(s.store.unitRecords(planned.id), records))) {
        duplicates.push(entry);
      } else if (options.preferLater) conflicts.push(entry);
      else {
        throw new ConfigError(
          `unit ${planned.id} was finished by ${entry.dirs.join(" and ")} with different records; ` +
            "merge only one of them, or take the later with --prefer-later",
          "merge",
          "merge",
        );
      }
    }

    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, CONFIG_FILE), `${JSON.stringify(snapshot, null, 2)}\n`);
    const merged = new RunStore(join(out, STORE_FILE));
    try {
      merged.plan(units);
      const scores: Array<{ unitId: string; probeId: string; setting: string; record: unknown }> = [];
      const scoresOf = new Map<Source, Map<string, ProbeScore>>();
      for (const planned of units) {
        const from = choice.get(planned.id);
        if (!from) continue;
        if (!("store" in from)) {
          merged.importUnit(from, []);
          continue;
        }
        const records = from.store.unitRecords(planned.id);
        merged.importUnit(from.units.get(planned.id)!, records);
        let theirs = scoresOf.get(from);
        if (!theirs) {
          theirs = new Map(from.store.scores<ProbeScore>().map((x) => [scoreKey(x), x]));
          scoresOf.set(from, theirs);
        }
        // In record order, as a single process stores them: the bootstrap intervals depend on it.
        for (const r of records) {
          const score = theirs.get(scoreKey(r));
          if (score) scores.push({ unitId: r.unitId, probeId: r.probeId, setting: r.setting, record: score });
        }
        for (const o of from.store.overrides()) if (o.unitId === planned.id) merged.setOverride(o);
      }
      // Every call of every directory was made: usage is summed, duplicates included.
      for (const s of sources) merged.addUsageRows(s.store.usageRows());
      if (scores.length) merged.replaceScores(scores);
    } finally {
      merged.close();
    }
    const scoring = [...scorings][0];
    if (scoring !== undefined) writeFileSync(join(out, SCORING_FILE), scoring);
    const { summary } = summarizeRun(out);
    return { dir: out, summary, units: units.length, duplicates, conflicts, unfinished, missingShards };
  } finally {
    for (const s of sources) s.store.close();
  }
}
