/**
 * One work unit (a system × an episode) executed on its own, and its result
 * stored: what the local runner, a shard and a queue worker all go through.
 *
 *   const ctx = await prepareRun(dir);          // or a RunSnapshot, on a worker
 *   const result = await executeUnit(ctx, id);  // replay, answers, the unit's model calls
 *   storeUnitResult(store, result);             // records and usage, once
 *   await ctx.close();
 *
 * The context is built from config.json alone, so any process holding the run's
 * snapshot and data makes the same systems, episodes and prompts. A shard's
 * context (`options.shard`) lists only its units; `planRun` gives every unit of
 * the run. executeUnit asks a unit's answers without holding its replay back,
 * and returns once all are in; `deferAnswer` hands them to the caller instead
 * (the local runner's model stage, which shares one queue across units).
 */
import { resolve } from "node:path";
import { protocolFor } from "../benchmarks/index.ts";
import type { Protocol } from "../benchmarks/shared/protocol.ts";
import { ConfigError } from "../core/errors.ts";
import type { Dataset, Episode, Probe } from "../core/model.ts";
import { unitId as makeUnitId, type ProbeRecord } from "../core/record.ts";
import { loadRunData } from "../data/run-data.ts";
import { type CallUsage, type UsageSink, withUsageSink } from "../llm/accounting.ts";
import { type ManagedChatModel, resolveModelSettings } from "../llm/create.ts";
import type { AnySystemDefinition } from "../systems/options.ts";
import { disposeSystems, type MadeSystem, makeSystems, resolveRecorded } from "../systems/resolve.ts";
import type { MemorySystem } from "../systems/types.ts";
import { askAnswerModel, replayUnit } from "./replay.ts";
import { episodeWeight, type ShardSpec, shardUnits } from "./shard.ts";
import {
  checkUnchanged,
  protocolOptions,
  type RunSnapshot,
  readSnapshot,
  recordedSystems,
  selectEpisodes,
} from "./snapshot.ts";
import type { RunStore } from "./store.ts";
import { configuredChatModel, runSystemContext } from "./system-context.ts";

/** One unit of a run's plan. */
export interface PlannedUnit {
  /** `system|episode` (record.ts `unitId`). */
  id: string;
  /** The system's row label. */
  system: string;
  episodeId: string;
}

/** Everything a process needs to execute the units of one run. */
export interface RunContext {
  /** The run directory, when the context was prepared from one. */
  readonly dir: string | undefined;
  readonly snapshot: RunSnapshot;
  readonly dataset: Dataset;
  readonly protocol: Protocol;
  /** The selected episodes, prepared by the protocol (MemoryAgentBench chunks here), by id. */
  readonly episodes: ReadonlyMap<string, Episode>;
  /**
   * The units this process is to execute, system-major in the order the run
   * lists them: every unit of the run, or those of its shard (`--shard i/n`).
   */
  readonly units: readonly PlannedUnit[];
  /** The run's shard, when it is one (config.json `options.shard`). */
  readonly shard: ShardSpec | undefined;
  /** The answer model (and the model systems get); undefined when none is configured. */
  readonly answerer: ManagedChatModel | undefined;
  /** The run's systems, made on first call (a process with no unit to run makes none). */
  systems(): Promise<readonly MadeSystem[]>;
  /** Disposes the systems made and closes the answerer. */
  close(): Promise<void>;
}

export interface PrepareOptions {
  /** Definitions and MemorySystem instances config.json cannot rebuild (the run was started with them). */
  systems?: Array<AnySystemDefinition | MemorySystem>;
  /** Where a changed data file or prompt is reported from (default: the run directory). */
  where?: string;
}

/** What executing a unit produced. */
export interface UnitResult {
  unitId: string;
  system: string;
  episodeId: string;
  /** Every probe record, in firing order, answered (or with the answer's failure). */
  records: ProbeRecord[];
  /** Wall time of each ingest call, ms. */
  ingestMs: number[];
  /** Every model call the unit made, unless `onUsage` took them as they ended. */
  usage: CallUsage[];
}

export interface ExecuteOptions {
  /** Called after each probe fires, with the records it produced (progress, the kill test hook). */
  onProbe?: (records: ProbeRecord[]) => void;
  /** Ingest progress of the unit: turns ingested of the episode's total (progress). */
  onIngest?: (done: number, total: number) => void;
  /**
   * Takes each model call as it ends (the local runner stores it at once, so a
   * killed process's spend still counts); then `UnitResult.usage` stays empty.
   */
  onUsage?: UsageSink;
  /**
   * Takes each record the answer model is to answer as soon as the replay froze
   * its context (marked `answerPending`); then executeUnit returns once the replay
   * ends and the caller asks them (the local runner's model stage). Without it,
   * executeUnit asks them itself, without holding the replay back, and returns
   * once all are answered.
   */
  deferAnswer?: (record: ProbeRecord, probe: Probe) => void;
}

/** The answer model of a snapshot, with its retries, limits, cache and prices; none without a model. */
export function createAnswerer(snapshot: RunSnapshot): ManagedChatModel | undefined {
  if (!snapshot.model.configured) return undefined;
  const s = resolveModelSettings({ flags: { llm: snapshot.options.llm } });
  const price = snapshot.options.price;
  return configuredChatModel(snapshot.options.llm, {
    prices: price ? { [s.spec.kind === "openai" ? (s.spec.model ?? s.model ?? "") : "scripted"]: price } : undefined,
  });
}

/** The context every system of the run gets. */
export function systemContextOf(snapshot: RunSnapshot, answerer: ManagedChatModel | undefined) {
  return runSystemContext({
    embedder: snapshot.options.embedder,
    embedWorkers: snapshot.options.embedWorkers,
    llm: snapshot.options.llm,
    ...(answerer ? { model: answerer } : {}),
    modelStatus: snapshot.model,
    tokenBudget: snapshot.options.tokenBudget,
    keepRemote: snapshot.options.keepRemote,
  });
}

/** Every unit of the run: each system over each selected episode. */
export function planUnits(snapshot: RunSnapshot, episodes: readonly Episode[]): PlannedUnit[] {
  return snapshot.options.systems.flatMap((system) =>
    episodes.map((e) => ({ id: makeUnitId(system, e.id), system, episodeId: e.id })),
  );
}

/**
 * What a run replays, derived from its snapshot and data the same way in every
 * process: the protocol, the selected episodes (prepared by the protocol), and
 * every unit of the run, whatever its shard.
 */
export function planRun(
  snapshot: RunSnapshot,
  dataset: Dataset,
): { protocol: Protocol; episodes: Episode[]; units: PlannedUnit[] } {
  const protocol = protocolFor(dataset.benchmark)(protocolOptions(snapshot.options));
  const episodes = selectEpisodes(dataset, snapshot.options).map((e) => protocol.prepare(e));
  if (!episodes.length) throw new ConfigError("no episodes selected", "episodes");
  return { protocol, episodes, units: planUnits(snapshot, episodes) };
}

/** The units of the run's shard (all of them when it is not sharded). */
export function unitsOfShard(
  units: readonly PlannedUnit[],
  episodes: ReadonlyMap<string, Episode>,
  shard: ShardSpec | undefined,
): PlannedUnit[] {
  if (!shard) return [...units];
  return shardUnits(units, (u) => (episodes.has(u.episodeId) ? episodeWeight(episodes.get(u.episodeId)!) : 0), shard);
}

/**
 * A context from parts already at hand: the runner's start made the answerer
 * and systems before the run directory existed. `made`, when given, is used as
 * is; otherwise the systems are made from the snapshot on first use.
 */
export function runContext(
  parts: {
    dir: string | undefined;
    snapshot: RunSnapshot;
    dataset: Dataset;
    answerer: ManagedChatModel | undefined;
    made?: MadeSystem[];
  },
  given: Array<AnySystemDefinition | MemorySystem> = [],
): RunContext {
  const { snapshot, dataset, answerer } = parts;
  const { protocol, episodes, units } = planRun(snapshot, dataset);
  const byId = new Map(episodes.map((e) => [e.id, e]));
  const shard = snapshot.options.shard;
  let made: Promise<MadeSystem[]> | undefined = parts.made ? Promise.resolve(parts.made) : undefined;
  let closed = false;
  return {
    dir: parts.dir,
    snapshot,
    dataset,
    protocol,
    episodes: byId,
    units: unitsOfShard(units, byId, shard),
    shard,
    answerer,
    systems() {
      if (closed) throw new Error("the run context is closed");
      made ??= resolveRecorded(recordedSystems(snapshot), given).then((resolved) =>
        makeSystems(resolved, systemContextOf(snapshot, answerer)),
      );
      return made;
    },
    async close() {
      if (closed) return;
      closed = true;
      answerer?.close();
      const systems = made ? await made.catch(() => []) : [];
      await disposeSystems(systems);
    },
  };
}

/**
 * Prepares a run for executing its units: from its directory (config.json) or
 * from its snapshot (a worker elsewhere, with the same data at the same path).
 * Loads the data and refuses to go on when a data file or the answer prompt
 * changed since the run started.
 */
export async function prepareRun(source: string | RunSnapshot, options: PrepareOptions = {}): Promise<RunContext> {
  const dir = typeof source === "string" ? resolve(source) : undefined;
  const snapshot = typeof source === "string" ? readSnapshot(source) : source;
  const { benchmark, data, lenient, variant } = snapshot.options;
  const dataset = await loadRunData(benchmark, data, { lenient, variant });
  const protocol = protocolFor(dataset.benchmark)(protocolOptions(snapshot.options));
  await checkUnchanged(snapshot, protocol, options.where ?? dir ?? snapshot.id);
  return runContext({ dir, snapshot, dataset, answerer: createAnswerer(snapshot) }, options.systems);
}

function plannedUnit(ctx: RunContext, id: string): PlannedUnit {
  const unit = ctx.units.find((u) => u.id === id);
  if (!unit) throw new ConfigError(`no unit "${id}" in run ${ctx.snapshot.id}`, "unit");
  return unit;
}

/**
 * Executes one unit: replays its episode into its system, answers every probe,
 * and returns the records with the unit's model calls. A system failure is
 * thrown (a SystemError); a failed answer is recorded in its probe record.
 */
export async function executeUnit(ctx: RunContext, id: string, options: ExecuteOptions = {}): Promise<UnitResult> {
  const unit = plannedUnit(ctx, id);
  const episode = ctx.episodes.get(unit.episodeId);
  const made = (await ctx.systems()).find((m) => m.record.label === unit.system);
  if (!episode || !made) throw new ConfigError(`unit "${id}" names no episode or system of this run`, "unit");
  const usage: CallUsage[] = [];
  const sink: UsageSink = options.onUsage ?? ((call) => usage.push(call));
  const asked: Promise<void>[] = [];
  const { answerer, protocol } = ctx;
  const deferAnswer =
    options.deferAnswer ??
    (answerer
      ? (record: ProbeRecord, probe: Probe) => asked.push(askAnswerModel(answerer, protocol, probe, record))
      : undefined);
  const replayed = withUsageSink(sink, () =>
    replayUnit({
      unitId: unit.id,
      systemId: unit.system,
      system: made.system,
      episode,
      protocol,
      settings: ctx.snapshot.options.settings,
      answerer,
      ...(deferAnswer ? { deferAnswer } : {}),
      onProbe: options.onProbe,
      onIngest: options.onIngest,
    }),
  );
  let records: ProbeRecord[];
  let ingestMs: number[];
  try {
    ({ records, ingestMs } = await replayed);
  } finally {
    // Answers are never left running behind a result (or a failure) handed back.
    await Promise.allSettled(asked);
  }
  return { unitId: unit.id, system: unit.system, episodeId: unit.episodeId, records, ingestMs, usage };
}

/**
 * Stores a unit's result: its records and ingest times atomically with the
 * unit marked done, and its model calls. A unit already done (the same unit
 * finished twice, e.g. by a worker thought lost) keeps its stored records: the
 * result is counted once, and `"duplicate"` is returned. Its model calls are
 * added all the same, since they were spent.
 */
export function storeUnitResult(store: RunStore, result: UnitResult): "stored" | "duplicate" {
  const unit = store.unit(result.unitId);
  if (!unit) throw new ConfigError(`no unit "${result.unitId}" planned in ${store.path}`, "unit");
  for (const call of result.usage) store.addUsage(result.unitId, "run", call);
  if (unit.state === "done") return "duplicate";
  store.finish(result.unitId, result.records, result.ingestMs);
  return "stored";
}
