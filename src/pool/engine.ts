/**
 * What a worker does with one job: build the run's systems and model from its
 * config as a local run would, and execute one unit. The seam between the queue
 * and the run engine.
 */
import { createHash } from "node:crypto";
import { createReadStream, existsSync } from "node:fs";
import { ConfigError } from "../core/errors.ts";
import type { Episode } from "../core/model.ts";
import { loadRunData } from "../data/run-data.ts";
import { type ManagedChatModel, modelConfigured } from "../llm/create.ts";
import type { Protocol } from "../run/protocol.ts";
import { protocolFor } from "../run/protocols.ts";
import type { ProbeRecord } from "../run/record.ts";
import { replayUnit } from "../run/replay.ts";
import { type RunSnapshot, recordedSystems } from "../run/runner.ts";
import { configuredChatModel, runSystemContext } from "../run/system-context.ts";
import { disposeSystems, type MadeSystem, makeSystems, resolveRecorded } from "../systems/resolve.ts";

export interface UnitOutcome {
  unitId: string;
  records: ProbeRecord[];
  ingestMs: number[];
}

export interface PreparedRun {
  config: RunSnapshot;
  protocol: Protocol;
  episodes: Map<string, Episode>;
  made: MadeSystem[];
  answerer?: ManagedChatModel;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/**
 * The data must be the coordinator's, byte for byte: a file missing or different
 * here would give other records than a local run, so the unit is refused.
 */
async function checkDataFiles(config: RunSnapshot): Promise<void> {
  for (const f of config.dataFiles) {
    if (!existsSync(f.path)) {
      throw new ConfigError(`data file ${f.path} of run ${config.id} is not readable on this worker`, "data");
    }
    if ((await sha256File(f.path)) !== f.sha256) {
      throw new ConfigError(
        `data file ${f.path} on this worker differs from the coordinator's (sha256 mismatch); refusing run ${config.id}`,
        "data",
      );
    }
  }
}

/** The model this worker would answer with must be the one the run recorded. */
function checkModel(config: RunSnapshot): void {
  const here = modelConfigured({ flags: { llm: config.options.llm } });
  if (here.configured !== config.model.configured) {
    throw new ConfigError(
      here.configured
        ? `this worker has a model configured (${here.reason}) but run ${config.id} has none (${config.model.detail})`
        : `run ${config.id} answers with ${config.model.detail}, but this worker has no model: ${here.reason}`,
      "llm",
    );
  }
}

export async function prepareRun(config: RunSnapshot): Promise<PreparedRun> {
  const { benchmark, data, lenient } = config.options;
  await checkDataFiles(config);
  checkModel(config);
  const dataset = await loadRunData(benchmark, data, { lenient });
  const protocol = protocolFor(dataset.benchmark)({
    ...config.options.protocol,
    benchmark: config.options.scoring?.options ?? {},
  });
  const episodes = new Map(dataset.episodes.map((e) => [e.id, protocol.prepare(e)]));
  const answerer = config.model.configured ? configuredChatModel(config.options.llm) : undefined;
  const context = runSystemContext({
    embedder: config.options.embedder,
    llm: config.options.llm,
    ...(answerer ? { model: answerer } : {}),
    modelStatus: config.model,
    tokenBudget: config.options.tokenBudget,
    keepRemote: config.options.keepRemote,
  });
  try {
    const made = await makeSystems(await resolveRecorded(recordedSystems(config), []), context);
    return { config, protocol, episodes, made, ...(answerer ? { answerer } : {}) };
  } catch (error) {
    answerer?.close();
    throw error;
  }
}

export async function executeUnit(
  run: PreparedRun,
  unit: { id: string; system: string; episodeId: string },
  hooks: { onProbe?: () => void } = {},
): Promise<UnitOutcome> {
  const episode = run.episodes.get(unit.episodeId);
  const made = run.made.find((m) => m.record.label === unit.system);
  if (!episode) throw new ConfigError(`no episode ${unit.episodeId} in the data of run ${run.config.id}`, "episodes");
  if (!made) throw new ConfigError(`no system ${unit.system} in run ${run.config.id}`, "system");
  const result = await replayUnit({
    unitId: unit.id,
    systemId: unit.system,
    system: made.system,
    episode,
    protocol: run.protocol,
    settings: run.config.options.settings,
    ...(run.answerer ? { answerer: run.answerer } : {}),
    onProbe: () => hooks.onProbe?.(),
  });
  return { unitId: unit.id, records: result.records, ingestMs: result.ingestMs };
}

export async function disposeRun(run: PreparedRun): Promise<void> {
  run.answerer?.close();
  await disposeSystems(run.made);
}
