/**
 * The contract every dataset generator implements. A generator builds a
 * deterministic skeleton from `ctx.rng`, has `ctx.realiser` turn its
 * structured items into text (templates, or the configured model), writes
 * the dataset in the benchmark's own release format with `ctx.write`, and
 * can check a folder of such files with `validate`.
 */
import type { z } from "zod";
import type { Rng } from "./rng.ts";

/** One problem a validator found. `severity` defaults to "error"; warnings do not fail validation. */
export interface ValidationIssue {
  /** Path of the file, relative to the dataset folder. */
  file: string;
  /** The record inside it (`line 3 (persona …)`, `row 0`), when one is concerned. */
  record?: string;
  field?: string;
  problem: string;
  severity?: "error" | "warning";
}

/**
 * A structured item to be written as text. The template realiser returns
 * `template()`; the model realiser fills `src/synth/<prompt>.md` (bench/name,
 * e.g. `memconflict/dialogue` → `src/synth/memconflict/prompts/dialogue.md`)
 * with `vars` and asks the model.
 */
export interface TextRequest {
  /** `<bench>/<template>`: which prompt file. */
  prompt: string;
  /** Values for the prompt's `{{name}}` variables. */
  vars: Record<string, string | number>;
  /** The deterministic text of our own templates. */
  template: () => string;
  /** A check of a model's reply: undefined when usable, else what is wrong (one repair is asked). */
  check?: (text: string) => string | undefined;
  maxTokens?: number;
  /** Names the item in errors (`persona 2, session 14`). */
  item?: string;
}

/** Like TextRequest, for a reply that is JSON validated by `schema`. */
export interface JsonRequest<T> {
  prompt: string;
  vars: Record<string, string | number>;
  schema: z.ZodType<T>;
  template: () => T;
  check?: (value: T) => string | undefined;
  maxTokens?: number;
  item?: string;
}

export interface Realiser {
  /** `templates`, or `llm` when a model writes the text. */
  readonly kind: "templates" | "llm";
  /** `templates`, or the model's id (`openai:gpt-4o-mini@…`, `scripted:scripted`). */
  readonly id: string;
  text(req: TextRequest): Promise<string>;
  json<T>(req: JsonRequest<T>): Promise<T>;
  /** Hash of every prompt template used so far, by `<bench>/<template>` (empty for templates). */
  promptHashes(): Record<string, string>;
}

/** Progress of a long generation, on stderr. One stage at a time. */
export interface SynthProgress {
  /** Starts a stage of `total` steps of `unit` (ends the previous one). */
  stage(label: string, total: number, unit?: string): void;
  tick(n?: number): void;
  done(): void;
}

export interface SynthLog {
  info(message: string): void;
  warn(message: string): void;
  debug(message: string): void;
}

export interface SynthContext {
  /** The output folder (absolute). */
  out: string;
  seed: number;
  /** The root stream of this generation; fork it per stage and per item. */
  rng: Rng;
  realiser: Realiser;
  progress: SynthProgress;
  log: SynthLog;
  /**
   * Writes one dataset file, `path` relative to `out` (folders are made), and
   * records it for the manifest. Write every byte of the dataset through this.
   */
  write(path: string, data: string | Uint8Array): void;
}

/** Knobs are a zod object: every field with a default and a `.describe()` text (`membench synth --list`). */
export type KnobSchema<K> = z.ZodType<K>;

export interface Generator<K = Record<string, unknown>> {
  /** The benchmark id the output loads as (`membench data inspect <benchmark> <out>`). */
  benchmark: string;
  /** One line: what it builds. */
  summary: string;
  /** Bumped when the same seed and knobs would give different files. */
  version: string;
  knobs: KnobSchema<K>;
  /** The knob `--size N` sets (number of personas, instances…). */
  sizeKnob?: string;
  /** The loader variant validation loads the output with (default: the benchmark's default variant). */
  loadVariant?: string;
  /** Writes the dataset into `ctx.out`. */
  generate(knobs: K, ctx: SynthContext): Promise<void>;
  /** Checks a folder of this generator's output (leaked future facts, missing evidence, unknown labels…). */
  validate(dir: string): Promise<ValidationIssue[]>;
}

/** A generator of any knob type, as the registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds generators of different knob types
export type AnyGenerator = Generator<any>;
