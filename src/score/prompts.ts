/**
 * Prompt sets. Our own templates ship with each benchmark as data files
 * (`src/benchmarks/<bench>/prompts/<template>.md`); `--prompts DIR` points at a
 * user's own copy (e.g. the official wording), laid out as
 * `DIR/<bench>/<template>.md`. A template missing there falls back to ours.
 *
 * Templates use `{{name}}` variables; an unknown variable is an error, so a
 * typo in a user's template cannot silently send an empty field to a judge.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { ConfigError } from "../core/errors.ts";
import { sha256Hex } from "../core/ids.ts";
import { assetPath } from "../util/paths.ts";

export interface RenderedPrompt {
  text: string;
  /** Hash of the template (not the filled text), stored with every verdict. */
  templateHash: string;
  /** `membench` or the name of the user's prompt folder. */
  promptSet: string;
  template: string;
}

export const DEFAULT_PROMPT_SET = "membench";

export class PromptSet {
  readonly name: string;
  private readonly cache = new Map<string, { text: string; hash: string }>();

  /**
   * `dir` undefined: our own prompts only. `root` is where ours live, as
   * `<root>/<bench>/prompts/<template>.md` (the benchmarks' by default; the
   * dataset generators keep theirs under src/synth).
   */
  constructor(
    readonly dir?: string,
    private readonly root = assetPath("benchmarks"),
  ) {
    if (dir && !existsSync(dir)) throw new ConfigError(`no such folder: ${dir}`, "prompts", "--prompts");
    this.name = dir ? basename(resolve(dir)) : DEFAULT_PROMPT_SET;
  }

  /** Where a template comes from: the user's folder if it has it, else ours. */
  private locate(bench: string, template: string): { path: string; own: boolean } {
    if (this.dir) {
      const path = join(this.dir, bench, `${template}.md`);
      if (existsSync(path)) return { path, own: false };
    }
    return { path: join(this.root, bench, "prompts", `${template}.md`), own: true };
  }

  load(bench: string, template: string): { text: string; hash: string; promptSet: string } {
    const { path, own } = this.locate(bench, template);
    let entry = this.cache.get(path);
    if (!entry) {
      if (!existsSync(path)) throw new ConfigError(`missing prompt template ${path}`, "prompts");
      const text = readFileSync(path, "utf8");
      entry = { text, hash: sha256Hex(text).slice(0, 16) };
      this.cache.set(path, entry);
    }
    return { ...entry, promptSet: own ? DEFAULT_PROMPT_SET : this.name };
  }

  render(bench: string, template: string, vars: Record<string, string | number>): RenderedPrompt {
    const { text, hash, promptSet } = this.load(bench, template);
    const filled = text.replace(/\{\{\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*\}\}/g, (_, name: string) => {
      if (!(name in vars)) {
        throw new ConfigError(
          `template ${bench}/${template} uses {{${name}}}, which is not provided (available: ${Object.keys(vars).join(", ")})`,
          "prompts",
        );
      }
      return String(vars[name]);
    });
    return { text: filled.trim(), templateHash: hash, promptSet, template: `${bench}/${template}` };
  }
}
