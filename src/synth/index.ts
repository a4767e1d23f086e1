/**
 * The generator registry: the one place the CLI and the library look dataset
 * generators up (`membench synth <bench>`), keyed by the benchmark id their
 * output loads as.
 */
import { ConfigError } from "../core/errors.ts";
import { memconflictGenerator } from "./memconflict/index.ts";
import { memoraGenerator } from "./memora/index.ts";
import { memoryagentbenchGenerator } from "./memoryagentbench/index.ts";
import { realMemGenerator } from "./realmem/index.ts";
import { subtleMemoryGenerator } from "./subtlememory/index.ts";
import { runGenerator, type SynthOptions, type SynthResult, validateWith } from "./synthesize.ts";
import type { AnyGenerator, ValidationIssue } from "./types.ts";

export const GENERATORS: Readonly<Record<string, AnyGenerator>> = {
  memconflict: memconflictGenerator,
  memora: memoraGenerator,
  memoryagentbench: memoryagentbenchGenerator,
  realmem: realMemGenerator,
  subtlememory: subtleMemoryGenerator,
};

const ALIASES: Record<string, string> = { mab: "memoryagentbench" };

export function generatorIds(): string[] {
  return Object.keys(GENERATORS);
}

export function getGenerator(id: string): AnyGenerator {
  const key = ALIASES[id.toLowerCase()] ?? id.toLowerCase();
  const found = GENERATORS[key];
  if (!found) {
    const known = generatorIds();
    throw new ConfigError(
      `no generator for "${id}"; generators: ${known.length ? known.join(", ") : "none"}`,
      "benchmark",
    );
  }
  return found;
}

/** Generates a dataset for `benchmark` (its loader reads the result) into `options.out`. */
export function synthesize(benchmark: string, options: SynthOptions): Promise<SynthResult> {
  return runGenerator(getGenerator(benchmark), options);
}

/** Validates a folder of `benchmark` data made by its generator (or edited since). */
export function validateSynth(benchmark: string, dir: string): Promise<ValidationIssue[]> {
  return validateWith(getGenerator(benchmark), dir);
}

export { describeKnobs, type KnobInfo, resolveKnobs } from "./knobs.ts";
export {
  checkManifestFiles,
  readManifest,
  SYNTH_MANIFEST,
  type SynthManifest,
} from "./manifest.ts";
export { jsonLine, jsonLines, jsonText } from "./output.ts";
export { SILENT_PROGRESS, synthProgress } from "./progress.ts";
export { CostBudget, LlmRealiser, REALISE_ATTEMPTS, SynthStoppedError, TemplateRealiser } from "./realiser.ts";
export { Rng } from "./rng.ts";
export {
  DEFAULT_SEED,
  DEFAULT_TEMPERATURE,
  formatIssue,
  type RealiserChoice,
  runGenerator,
  type SynthOptions,
  type SynthResult,
  validateWith,
  validationErrors,
} from "./synthesize.ts";
export type * from "./types.ts";
