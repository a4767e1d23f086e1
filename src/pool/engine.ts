/**
 * What a worker does before it executes a run's units: check that this machine
 * would make the run the coordinator recorded (same data bytes, a model when the
 * run has one), then prepare it through the run's unit API (src/run/unit.ts).
 */
import { existsSync } from "node:fs";
import { ConfigError } from "../core/errors.ts";
import { modelConfigured } from "../llm/create.ts";
import { hashDataFiles, type RunSnapshot } from "../run/snapshot.ts";
import { prepareRun, type RunContext } from "../run/unit.ts";

/**
 * The data must be the coordinator's, byte for byte: a file missing or different
 * here would give other records than a local run, so the worker refuses the run.
 */
async function checkDataFiles(config: RunSnapshot, worker: string): Promise<void> {
  const missing = config.dataFiles.find((f) => !existsSync(f.path));
  if (missing) {
    throw new ConfigError(`data file ${missing.path} of run ${config.id} is not readable on worker ${worker}`, "data");
  }
  // Remembered by path, size and mtime: a worker hashes each file once while it stays as it is.
  const hashes = await hashDataFiles(config.dataFiles.map((f) => f.path));
  config.dataFiles.forEach((f, i) => {
    if (hashes[i] !== f.sha256) {
      throw new ConfigError(
        `data file ${f.path} on worker ${worker} differs from the coordinator's (sha256 mismatch); run ${config.id} refused here`,
        "data",
      );
    }
  });
}

/** Whether this worker has a model exactly when the run has one: otherwise its answers would differ silently. */
function checkModel(config: RunSnapshot, worker: string): void {
  const here = modelConfigured({ flags: { llm: config.options.llm } });
  if (here.configured === config.model.configured) return;
  throw new ConfigError(
    here.configured
      ? `worker ${worker} has a model configured (${here.reason}) but run ${config.id} has none (${config.model.detail})`
      : `run ${config.id} answers with ${config.model.detail}, but worker ${worker} has no model: ${here.reason}`,
    "llm",
  );
}

export async function prepareWorkerRun(config: RunSnapshot, worker: string): Promise<RunContext> {
  await checkDataFiles(config, worker);
  checkModel(config, worker);
  return prepareRun(config, { where: `worker ${worker}` });
}
