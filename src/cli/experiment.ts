/**
 * The experiment file of `membench run -c experiment.yaml`: benchmarks × data ×
 * systems × settings × models × judges in one place, kept with the results.
 * Each benchmark × data path × model is one run (a run already crosses its
 * systems and settings); the judges score every run. The file is YAML (JSON is
 * YAML too); its keys are the `run` flags in camelCase, lists where a flag
 * takes a comma-separated list. docs/experiments.md has the format.
 *
 * Loaded only by `run -c` (the YAML parser and zod stay out of start-up).
 */
import { readFileSync } from "node:fs";
import { dirname, isAbsolute, resolve } from "node:path";
import { parse } from "yaml";
import { z } from "zod";
import { ConfigError } from "../core/errors.ts";

const list = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));
const count = z.number().nonnegative();

const benchmark = z
  .object({
    id: z.string().min(1),
    data: list,
    /** Scoring options of this benchmark, e.g. LoCoMo's `{ j: "on" }`. */
    scoreOptions: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    episodes: list.optional(),
    limit: count.optional(),
    /** A variant of the benchmark's release (MemoryAgentBench `all`, a Memora duration, a LongMemEval file). */
    variant: z.string().min(1).optional(),
  })
  .strict();

/** Keys shared by every run of the experiment (each a `run` flag). */
const experimentSchema = z
  .object({
    /** A description, kept in the file only. */
    description: z.string().optional(),
    benchmarks: z.array(benchmark).min(1),
    systems: list.optional(),
    systemOptions: list.optional(),
    settings: list.optional(),
    /** One answer model spec, or several: one run each. */
    model: z.string().optional(),
    models: z.array(z.string()).min(1).optional(),
    judges: list.optional(),
    judgeLlm: z.string().optional(),
    judgeRuns: z.number().int().min(1).optional(),
    prompts: z.string().optional(),
    embedder: z.string().optional(),
    out: z.string().optional(),
    limit: count.optional(),
    parallelUnits: z.number().int().min(1).optional(),
    maxCost: count.optional(),
    priceIn: count.optional(),
    priceOut: count.optional(),
    depth: count.optional(),
    chunkSize: count.optional(),
    contextTokens: count.optional(),
    context: z.enum(["memory", "session"]).optional(),
    tokenBudget: count.optional(),
    lenient: z.boolean().optional(),
  })
  .strict()
  .refine((e) => !(e.model && e.models), { message: "give model or models, not both", path: ["models"] });

export type Experiment = z.infer<typeof experimentSchema>;

/** One run of an experiment, as `run` flags (strings, as commander gives them). */
export interface ExperimentRun {
  bench: string;
  flags: Record<string, string | string[] | boolean>;
}

/** Paths in the file are relative to the file, as a config file's should be. */
const from = (file: string, path: string) => (isAbsolute(path) ? path : resolve(dirname(file), path));

/** The first problem in words: an unknown key (likely a typo) before anything else, a missing key as such. */
function zodProblem(error: z.ZodError, raw: unknown): string {
  const issues = [...error.issues].sort(
    (a, b) => Number(b.code === "unrecognized_keys") - Number(a.code === "unrecognized_keys"),
  );
  const issue = issues[0]!;
  const where = issue.path.length ? issue.path.join(".") : "(top level)";
  const keys = (issue as { keys?: string[] }).keys;
  if (keys?.length) return `${where}: unknown key${keys.length > 1 ? "s" : ""} ${keys.join(", ")}`;
  let value: unknown = raw;
  for (const k of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[k as PropertyKey];
  return `${where}: ${value === undefined ? "required" : issue.message}`;
}

/** Reads and checks an experiment file; a problem is a ConfigError naming the file and key. */
export function readExperiment(file: string): Experiment {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`, "config", "--config");
  }
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new ConfigError(`${file}: not YAML: ${(error as Error).message.split("\n")[0]}`, "config", "--config");
  }
  const checked = experimentSchema.safeParse(raw);
  if (!checked.success) throw new ConfigError(`${file}: ${zodProblem(checked.error, raw)}`, "config", "--config");
  return checked.data;
}

/** The runs of an experiment: benchmarks × data paths × models, each with the shared flags. */
export function experimentRuns(file: string, e: Experiment): ExperimentRun[] {
  const shared: ExperimentRun["flags"] = {};
  const text = (key: string, v: string | number | undefined) => {
    if (v !== undefined) shared[key] = String(v);
  };
  if (e.systems) shared.system = e.systems;
  if (e.systemOptions) shared.systemOption = e.systemOptions;
  if (e.settings) shared.setting = e.settings.join(",");
  if (e.judges) shared.judges = e.judges.join(",");
  text("judgeLlm", e.judgeLlm);
  text("judgeRuns", e.judgeRuns);
  if (e.prompts) shared.prompts = from(file, e.prompts);
  text("embedder", e.embedder);
  shared.out = from(file, e.out ?? "runs");
  text("limit", e.limit);
  text("parallelUnits", e.parallelUnits);
  text("maxCost", e.maxCost);
  text("priceIn", e.priceIn);
  text("priceOut", e.priceOut);
  text("depth", e.depth);
  text("chunkSize", e.chunkSize);
  text("contextTokens", e.contextTokens);
  text("context", e.context);
  text("tokenBudget", e.tokenBudget);
  if (e.lenient) shared.lenient = true;
  const models: Array<string | undefined> = e.models ?? [e.model];
  const runs: ExperimentRun[] = [];
  for (const b of e.benchmarks) {
    for (const data of b.data) {
      for (const model of models) {
        const flags: ExperimentRun["flags"] = { ...shared, data: from(file, data) };
        if (model) flags.llm = model.startsWith("scripted:") ? `scripted:${from(file, model.slice(9))}` : model;
        if (b.limit !== undefined) flags.limit = String(b.limit);
        if (b.episodes) flags.episodes = b.episodes.join(",");
        if (b.variant) flags.variant = b.variant;
        if (b.scoreOptions) flags.scoreOption = Object.entries(b.scoreOptions).map(([k, v]) => `${k}=${v}`);
        runs.push({ bench: b.id, flags });
      }
    }
  }
  return runs;
}
