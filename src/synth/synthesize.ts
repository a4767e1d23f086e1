/**
 * Runs one generator: resolves its knobs, picks the realiser (templates, or
 * the configured model through the cached stack), writes the dataset and its
 * manifest into the output folder, then validates the result (the
 * generator's own checks, the manifest's hashes, and a strict load with
 * membench's own loader).
 */
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { loadDataset } from "../benchmarks/index.ts";
import { ConfigError, DataError } from "../core/errors.ts";
import { sha256Hex } from "../core/ids.ts";
import type { Price } from "../llm/accounting.ts";
import { type ManagedChatModel, modelConfigured, resolveModelSettings } from "../llm/create.ts";
import type { ChatModel } from "../llm/types.ts";
import { configuredChatModel } from "../run/ledger-config.ts";
import { PromptSet } from "../score/prompts.ts";
import { log } from "../util/log.ts";
import { assetPath, packageVersion } from "../util/paths.ts";
import { resolveKnobs } from "./knobs.ts";
import {
  checkManifestFiles,
  type ManifestFile,
  readManifest,
  SYNTH_MANIFEST,
  type SynthManifest,
  writeManifest,
} from "./manifest.ts";
import { synthProgress } from "./progress.ts";
import { CostBudget, LlmRealiser, SynthStoppedError, TemplateRealiser } from "./realiser.ts";
import { Rng } from "./rng.ts";
import type { AnyGenerator, Realiser, SynthContext, ValidationIssue } from "./types.ts";

export const DEFAULT_SEED = 1;
/** Sampling temperature of the model realiser unless `--temperature` says otherwise. */
export const DEFAULT_TEMPERATURE = 0.7;

export type RealiserChoice = "auto" | "templates" | "llm";

export interface SynthOptions {
  out: string;
  seed?: number;
  /** `--size N`: the generator's size knob. */
  size?: number;
  /** `--knob key=value` pairs. */
  knobs?: string[];
  /** Knob values already typed (library callers); `knobs` pairs override them. */
  knobValues?: Record<string, unknown>;
  /** `auto` (default): the model when one is configured, else templates. */
  realiser?: RealiserChoice;
  /** Model spec (`openai`, `openai:MODEL`, `scripted:FILE`); default from the environment. */
  llm?: string;
  /** A ready model (library callers and tests); wins over `llm`. */
  model?: ChatModel & { accounting?: ManagedChatModel["accounting"] };
  temperature?: number;
  /** Stop once the model calls have cost more than this (needs `price`, or a priced model). */
  maxCost?: number;
  /** USD per million tokens of the model, for `maxCost` and the manifest's cost. */
  price?: Price;
  /** A folder of the user's own prompt templates, `<dir>/<bench>/<template>.md`. */
  prompts?: string;
  progress?: boolean;
  /** The manifest's time; default now. */
  createdAt?: string;
  /** Validate the result (default true). */
  validate?: boolean;
}

export interface SynthResult {
  out: string;
  manifest: SynthManifest;
  issues: ValidationIssue[];
}

/** The issues that fail validation (not the warnings). */
export function validationErrors(issues: readonly ValidationIssue[]): ValidationIssue[] {
  return issues.filter((i) => (i.severity ?? "error") === "error");
}

/** Refuses a folder holding anything but a previous generation of the same benchmark, whose files it removes. */
function prepareOut(out: string, generator: AnyGenerator): void {
  if (!existsSync(out)) {
    mkdirSync(out, { recursive: true });
    return;
  }
  const previous = readManifest(out);
  if (!previous) {
    if (readdirSync(out).length) {
      throw new ConfigError(
        `${out} is not empty and holds no ${SYNTH_MANIFEST}; give an empty or new folder`,
        "out",
        "--out",
      );
    }
    return;
  }
  if (previous.generator !== generator.benchmark) {
    throw new ConfigError(
      `${out} holds a ${previous.generator} dataset; give another folder for ${generator.benchmark}`,
      "out",
      "--out",
    );
  }
  // Regenerating in place: files of the earlier generation must not linger among the new ones.
  for (const f of previous.files) rmSync(join(out, f.path), { force: true });
}

interface RealiserSetup {
  realiser: Realiser;
  budget?: CostBudget;
  close(): void;
  temperature?: number;
}

function setupRealiser(options: SynthOptions, seed: number): RealiserSetup {
  const choice = options.realiser ?? "auto";
  if (!["auto", "templates", "llm"].includes(choice)) {
    throw new ConfigError(`expected auto, templates or llm, got "${choice}"`, "realiser", "--realiser");
  }
  const templates: RealiserSetup = { realiser: new TemplateRealiser(), close() {} };
  if (choice === "templates") return templates;
  if (!options.model) {
    const status = modelConfigured({ flags: { llm: options.llm } });
    if (!status.configured) {
      if (choice === "llm") throw new ConfigError(`no model configured: ${status.reason}`, "llm", "--realiser llm");
      log.info(`no model configured (${status.reason}): realising with templates`);
      return templates;
    }
  }
  let model: ChatModel;
  let accounting: ManagedChatModel["accounting"] | undefined;
  let close = () => {};
  if (options.model) {
    model = options.model;
    accounting = options.model.accounting;
  } else {
    const s = resolveModelSettings({ flags: { llm: options.llm } });
    const name = s.spec.kind === "openai" ? (s.spec.model ?? s.model ?? "") : (s.spec.name ?? "scripted");
    const managed = configuredChatModel(options.llm, options.price ? { prices: { [name]: options.price } } : {});
    model = managed;
    accounting = managed.accounting;
    close = () => managed.close();
  }
  // A model handed in carries its own prices; one built here is priced only by --price-in/--price-out.
  if (options.maxCost !== undefined && !options.price && !options.model) {
    close();
    throw new ConfigError(
      "needs the model's price to count spend: give --price-in and --price-out (USD per million tokens)",
      "max-cost",
      "--max-cost",
    );
  }
  const budget = accounting ? new CostBudget(accounting, options.maxCost) : undefined;
  const temperature = options.temperature ?? DEFAULT_TEMPERATURE;
  const prompts = new PromptSet(options.prompts, assetPath("synth"));
  return {
    realiser: new LlmRealiser({ model, prompts, seed, temperature, budget }),
    budget,
    temperature,
    close,
  };
}

function checkSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new ConfigError(`expected an integer from 0 to 4294967295, got ${seed}`, "seed", "--seed");
  }
  return seed;
}

/** Generates one dataset with `generator` into `options.out`. */
export async function runGenerator(generator: AnyGenerator, options: SynthOptions): Promise<SynthResult> {
  const seed = checkSeed(options.seed ?? DEFAULT_SEED);
  const knobs = resolveKnobs<Record<string, unknown>>(generator, {
    pairs: options.knobs,
    values: options.knobValues,
    size: options.size,
  });
  const out = resolve(options.out);
  prepareOut(out, generator);
  const setup = setupRealiser(options, seed);
  const files = new Map<string, ManifestFile>();
  const manifest = (status: SynthManifest["status"]): SynthManifest => {
    const usage = setup.budget ? usageOf(setup.budget) : undefined;
    return {
      format: "membench-synth/1",
      status,
      generator: generator.benchmark,
      generatorVersion: generator.version,
      membenchVersion: packageVersion(),
      seed,
      knobs,
      realiser: {
        kind: setup.realiser.kind,
        id: setup.realiser.id,
        ...(setup.temperature !== undefined ? { temperature: setup.temperature } : {}),
      },
      prompts: setup.realiser.promptHashes(),
      files: [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
      ...(usage ? { usage } : {}),
      createdAt: options.createdAt ?? new Date().toISOString(),
    };
  };
  writeManifest(out, manifest("in progress"));
  const progress = synthProgress(options.progress ?? true, () => setup.budget?.label() ?? "-");
  const ctx: SynthContext = {
    out,
    seed,
    rng: new Rng(seed).fork(generator.benchmark),
    realiser: setup.realiser,
    progress,
    log: { info: (m) => log.info(m), warn: (m) => log.warn(m), debug: (m) => log.debug(m) },
    write(path, data) {
      const full = resolve(out, path);
      const rel = relative(out, full);
      if (!rel || rel.startsWith("..") || isAbsolute(rel)) {
        throw new Error(`generator ${generator.benchmark} wrote outside its folder: ${path}`);
      }
      if (rel === SYNTH_MANIFEST) throw new Error(`generator ${generator.benchmark} may not write ${SYNTH_MANIFEST}`);
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, data);
      const bytes = typeof data === "string" ? Buffer.from(data) : data;
      const path_ = rel.split(sep).join("/");
      files.set(path_, { path: path_, bytes: bytes.length, sha256: sha256Hex(bytes) });
      // Kept current, so a rerun after a crash knows which files to replace.
      writeManifest(out, manifest("in progress"));
    },
  };
  log.info(
    `${generator.benchmark}: generating with seed ${seed}, realised by ${setup.realiser.id}${setup.budget?.maxCost !== undefined ? `, at most $${setup.budget.maxCost}` : ""} → ${out}`,
  );
  try {
    await generator.generate(knobs, ctx);
  } catch (error) {
    if (error instanceof SynthStoppedError) writeManifest(out, manifest("stopped"));
    throw error;
  } finally {
    progress.done();
    setup.close();
  }
  const done = manifest("complete");
  writeManifest(out, done);
  const issues = options.validate === false ? [] : await validateWith(generator, out);
  return { out, manifest: done, issues };
}

function usageOf(budget: CostBudget): SynthManifest["usage"] {
  const total = budget.accounting.snapshot().total;
  return {
    calls: total.calls,
    cachedCalls: total.cachedCalls,
    inputTokens: total.inputTokens,
    outputTokens: total.outputTokens,
    costUsd: total.costUsd,
  };
}

function loadIssue(error: unknown, dir: string): ValidationIssue {
  if (error instanceof DataError) {
    const message = error.message.replace(/^(file [^,:]+(, )?)?(record [^,:]+(, )?)?(field [^:]+)?: /, "");
    return {
      file: error.file ? relative(dir, error.file) || error.file : ".",
      ...(error.record ? { record: error.record } : {}),
      ...(error.field ? { field: error.field } : {}),
      problem: `membench's loader refuses it: ${message}`,
    };
  }
  return { file: ".", problem: `membench's loader failed: ${(error as Error).message}` };
}

/**
 * Validates a folder as `generator`'s output: its manifest (when present),
 * the generator's own checks, and a strict load with membench's loader.
 */
export async function validateWith(generator: AnyGenerator, dir: string): Promise<ValidationIssue[]> {
  const root = resolve(dir);
  if (!existsSync(root)) throw new ConfigError(`no such folder: ${dir}`, "dir");
  const issues: ValidationIssue[] = [];
  const manifest = readManifest(root);
  if (manifest) {
    if (manifest.generator !== generator.benchmark) {
      issues.push({
        file: SYNTH_MANIFEST,
        field: "generator",
        problem: `made by the ${manifest.generator} generator, validated as ${generator.benchmark}`,
      });
    }
    issues.push(...checkManifestFiles(root, manifest));
  }
  issues.push(...(await generator.validate(root)));
  try {
    await loadDataset(generator.benchmark, root, {
      strict: true,
      ...(generator.loadVariant ? { variant: generator.loadVariant } : {}),
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    issues.push(loadIssue(error, root));
  }
  return issues;
}

/** `file, record, field: problem` for one issue. */
export function formatIssue(issue: ValidationIssue): string {
  const where = [issue.file, issue.record, issue.field].filter(Boolean).join(", ");
  return `${issue.severity === "warning" ? "warning" : "error"}: ${where}: ${issue.problem}`;
}
