/**
 * A model that answers from a JSONL script instead of a network endpoint, so the whole
 * pipeline (answer, judge, extract, generate) runs in tests and demos with no LLM.
 */
import { readFileSync } from "node:fs";
import { z } from "zod";
import { DataError } from "../core/errors.ts";
import { countTokens } from "../tokens/count.ts";
import { ModelCallError } from "./errors.ts";
import { type ChatModel, type ChatRequest, type ChatResult, MODEL_ROLES, type ModelRole } from "./types.ts";

export { SCRIPTED_HELP } from "./scripted-help.ts";

export interface ScriptRule {
  role?: ModelRole;
  model?: string;
  match?: RegExp;
  /** Already serialised: object replies become JSON text. */
  reply: string;
  /** 1-based line in the script file. */
  line: number;
}

const ruleSchema = z
  .object({
    role: z.enum(MODEL_ROLES as [ModelRole, ...ModelRole[]]).optional(),
    model: z.string().min(1).optional(),
    match: z.string().optional(),
    flags: z.string().optional(),
    reply: z.union([z.string(), z.record(z.string(), z.unknown()), z.array(z.unknown())]),
  })
  .strict();

/** Parses script text; `file` names the source in errors. */
export function parseScript(text: string, file: string): ScriptRule[] {
  const rules: ScriptRule[] = [];
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = i + 1;
    const trimmed = raw.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    const where = { file, record: `line ${line}` };
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch (error) {
      throw new DataError(`not valid JSON (${(error as Error).message})`, where);
    }
    const parsed = ruleSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.path.length ? issue.path.join(".") : undefined;
      const message = issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message;
      throw new DataError(message, { ...where, field });
    }
    const r = parsed.data;
    let match: RegExp | undefined;
    if (r.match !== undefined) {
      try {
        // g and y make test() stateful across calls, which would make matching depend on history.
        match = new RegExp(r.match, r.flags?.replace(/[gy]/g, ""));
      } catch (error) {
        throw new DataError(`bad regular expression: ${(error as Error).message}`, { ...where, field: "match" });
      }
    } else if (r.flags !== undefined) {
      throw new DataError("flags given without match", { ...where, field: "flags" });
    }
    rules.push({
      role: r.role,
      model: r.model,
      match,
      reply: typeof r.reply === "string" ? r.reply : JSON.stringify(r.reply),
      line,
    });
  }
  return rules;
}

export function loadScript(file: string): ScriptRule[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new DataError(`cannot read scripted model file: ${(error as Error).message}`, { file });
  }
  return parseScript(text, file);
}

export interface ScriptedModelOptions {
  /** The script file (for messages), read unless `rules` is given. */
  file: string;
  rules?: ScriptRule[];
  /** Model name rules select with `"model"`; default "scripted". */
  name?: string;
}

export class ScriptedChatModel implements ChatModel {
  readonly id: string;
  readonly model: string;
  readonly baseUrl = undefined;
  // The reply is fixed by the script, so a schema request changes nothing; keep prompts unaltered.
  readonly supportsJsonSchema = true;
  readonly file: string;
  readonly #rules: ScriptRule[];

  constructor(options: ScriptedModelOptions) {
    this.file = options.file;
    this.model = options.name ?? "scripted";
    this.id = `scripted:${this.model}`;
    this.#rules = options.rules ?? loadScript(options.file);
  }

  async chat(req: ChatRequest): Promise<ChatResult> {
    const started = performance.now();
    const lastUser = [...req.messages].reverse().find((m) => m.role === "user")?.content ?? "";
    const rule = this.#rules.find(
      (r) =>
        (r.role === undefined || r.role === req.role) &&
        (r.model === undefined || r.model === this.model) &&
        (r.match === undefined || r.match.test(lastUser)),
    );
    if (!rule) {
      const shown = lastUser.length > 200 ? `${lastUser.slice(0, 200)}…` : lastUser;
      throw new ModelCallError(
        `no rule in ${this.file} matches role "${req.role}", model "${this.model}", last user message ${JSON.stringify(shown)}`,
        { endpoint: this.id, retryable: false },
      );
    }
    return {
      text: rule.reply,
      usage: {
        inputTokens: req.messages.reduce((sum, m) => sum + countTokens(m.content), 0),
        outputTokens: countTokens(rule.reply),
      },
      latencyMs: performance.now() - started,
      cached: false,
      model: this.model,
    };
  }
}
