import type { Command } from "commander";
import { ConfigError } from "../../core/errors.ts";
import type { RealiserChoice, ValidationIssue } from "../../synth/index.ts";
import { log } from "../../util/log.ts";
import { asText } from "../options.ts";

interface SynthFlags {
  list?: boolean;
  json?: boolean;
  seed?: string | number;
  out?: string;
  size?: string;
  knob?: string[];
  llm?: string;
  realiser?: string;
  temperature?: string | number;
  maxCost?: string;
  priceIn?: string;
  priceOut?: string;
  prompts?: string;
  progress?: boolean;
}

function num(v: string | number | undefined, flag: string, integer = false): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || (integer && !Number.isInteger(n))) {
    throw new ConfigError(`expected a non-negative ${integer ? "integer" : "number"}, got "${v}"`, flag, `--${flag}`);
  }
  return n;
}

const show = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));

/** The generators and their helpers, loaded when the command runs so `--help` stays light (see main.ts). */
const synthModule = () => import("../../synth/index.ts");

async function listText(): Promise<string> {
  const { GENERATORS, describeKnobs } = await synthModule();
  const out: string[] = [];
  for (const g of Object.values(GENERATORS)) {
    out.push(`${g.benchmark} (generator ${g.version}): ${g.summary}`);
    if (g.sizeKnob) out.push(`  --size sets ${g.sizeKnob}`);
    for (const k of describeKnobs(g)) {
      out.push(`  ${k.name}  [${k.type}]  default ${show(k.default)}`);
      if (k.description) out.push(`      ${k.description}`);
    }
    out.push("");
  }
  if (!out.length) out.push("no generators registered");
  return `${out.join("\n").trimEnd()}\n`;
}

async function listJson(): Promise<string> {
  const { GENERATORS, describeKnobs } = await synthModule();
  const list = Object.values(GENERATORS).map((g) => ({
    benchmark: g.benchmark,
    version: g.version,
    summary: g.summary,
    sizeKnob: g.sizeKnob ?? null,
    knobs: describeKnobs(g),
  }));
  return `${JSON.stringify(list, null, 2)}\n`;
}

/** Prints the issues; exit code 1 when any is an error. */
async function reportIssues(issues: ValidationIssue[], what: string): Promise<void> {
  const { formatIssue, validationErrors } = await synthModule();
  for (const issue of issues) process.stdout.write(`${formatIssue(issue)}\n`);
  const errors = validationErrors(issues).length;
  const warnings = issues.length - errors;
  const counts = `${errors} error${errors === 1 ? "" : "s"}, ${warnings} warning${warnings === 1 ? "" : "s"}`;
  if (errors) {
    log.error(`${what}: validation failed (${counts})`);
    process.exitCode = 1;
  } else process.stdout.write(`${what}: valid (${counts})\n`);
}

export function registerSynthCommand(program: Command): void {
  const synth = program
    .command("synth")
    .description("generate a new dataset in a benchmark's own release format (seeded; templates or a model)")
    .argument("[bench]", "benchmark to generate for (see --list)")
    .option("--list", "list the generators and their knobs (name, type, default, description)")
    .option("--json", "with --list: as JSON")
    .option("--seed <n>", "seed of the generator's PRNG: same seed and knobs, same files", asText, 1)
    .option("--out <dir>", "output folder (new, empty, or an earlier generation of the same benchmark)")
    .option("--size <n>", "shorthand for the generator's size knob (personas, instances…)")
    .option("--knob <key=value...>", "set a knob (repeatable); lists as a,b,c or JSON")
    .option("--realiser <kind>", "auto (a model when one is configured), templates or llm", "auto")
    .option("--llm <spec>", "model that writes the text: openai, openai:MODEL or scripted:FILE")
    .option("--temperature <t>", "sampling temperature of the model realiser", asText, 0.7)
    .option("--max-cost <usd>", "stop once the model calls cost more than this; rerun the same command to continue")
    .option("--price-in <usd>", "USD per million input tokens of the model (for --max-cost and the manifest)")
    .option("--price-out <usd>", "USD per million output tokens of the model")
    .option("--prompts <dir>", "your own prompt templates: <dir>/<bench>/<template>.md (ours fill the gaps)")
    .option("--no-progress", "no progress bar")
    .addHelpText(
      "after",
      `
Writes the dataset files and membench-synth.json (generator, version, seed, knobs,
realiser, prompt hashes, file hashes) into --out, then validates the folder: the
generator's own checks (no fact used before it is told, evidence present in the
dialogue, only labels the benchmark defines) and a strict load with membench's
loader. A generation stopped by --max-cost or killed is continued by running the
same command again: model calls are cached, so the calls already made are replayed
at no cost. Exit code 1 when validation finds an error.

Examples:
  membench synth --list
  membench synth memconflict --seed 7 --size 2 --out datasets/memconflict-synth
  membench synth validate memconflict datasets/memconflict-synth`,
    )
    .action(async (bench: string | undefined, flags: SynthFlags) => {
      if (flags.list) {
        process.stdout.write(flags.json ? await listJson() : await listText());
        return;
      }
      const { generatorIds, getGenerator, SynthStoppedError, synthesize } = await synthModule();
      if (!bench) throw new ConfigError(`name a generator (${generatorIds().join(", ") || "none"}) or --list`, "bench");
      if (!flags.out) throw new ConfigError("--out <dir> is required", "out", "--out");
      getGenerator(bench);
      const priceIn = num(flags.priceIn, "price-in");
      const priceOut = num(flags.priceOut, "price-out");
      try {
        const result = await synthesize(bench, {
          out: flags.out,
          seed: num(flags.seed, "seed", true),
          size: num(flags.size, "size", true),
          knobs: flags.knob ?? [],
          realiser: flags.realiser as RealiserChoice,
          llm: flags.llm,
          temperature: num(flags.temperature, "temperature"),
          maxCost: num(flags.maxCost, "max-cost"),
          price:
            priceIn !== undefined || priceOut !== undefined
              ? { inputPerMTok: priceIn ?? 0, outputPerMTok: priceOut ?? 0 }
              : undefined,
          prompts: flags.prompts,
          progress: flags.progress,
        });
        const m = result.manifest;
        process.stdout.write(
          `${m.generator}: ${m.files.length} file${m.files.length === 1 ? "" : "s"} in ${result.out} (seed ${m.seed}, realised by ${m.realiser.id})\n`,
        );
        for (const f of m.files) process.stdout.write(`  ${f.path}  ${f.bytes} bytes\n`);
        await reportIssues(result.issues, m.generator);
      } catch (error) {
        if (!(error instanceof SynthStoppedError)) throw error;
        log.error(error.message);
        process.exitCode = 1;
      }
    });

  synth
    .command("validate")
    .description("check a generated (or edited) dataset folder: generator checks, manifest hashes, strict load")
    .argument("<bench>", "benchmark the folder holds")
    .argument("<dir>", "the dataset folder")
    .addHelpText(
      "after",
      `
Examples:
  membench synth validate memconflict datasets/memconflict-synth`,
    )
    .action(async (bench: string, dir: string) => {
      const { getGenerator, validateSynth } = await synthModule();
      await reportIssues(await validateSynth(bench, dir), `${getGenerator(bench).benchmark} ${dir}`);
    });
}
