/**
 * Realisers turn a generator's structured items into text. Templates are our
 * own deterministic wording, written in each generator's code; the model
 * realiser fills our own prompt files (`src/synth/<bench>/prompts/*.md`) and
 * asks the configured chat model with role "generator". Every model call goes
 * through the cached model stack, so a generation killed half-way and run
 * again with the same seed and knobs replays the calls it had made and
 * continues where it stopped; `CostBudget` stops it cleanly at `--max-cost`.
 */
import { ModelError } from "../core/errors.ts";
import type { Accounting } from "../llm/accounting.ts";
import { StructuredOutputError, structured } from "../llm/structured.ts";
import type { ChatMessage, ChatModel, ChatRequest } from "../llm/types.ts";
import type { PromptSet } from "../score/prompts.ts";
import type { JsonRequest, Realiser, TextRequest } from "./types.ts";

/** Attempts per item: each re-ask is its own cache key (`sample`), so a replay makes the same choices. */
export const REALISE_ATTEMPTS = 3;

const SYSTEM_PROMPT =
  "You write synthetic data for a benchmark that tests the long-term memory of AI assistants. " +
  "Follow the instructions exactly, keep every fact you are given unchanged, invent no other facts " +
  "about the people involved, and reply with only what is asked: no preamble, no notes, no code fence " +
  "unless JSON is asked for.";

function problemOf(item: string | undefined, prompt: string): string {
  return item ? `${prompt} (${item})` : prompt;
}

/** Deterministic realisation from our own templates; no model. */
export class TemplateRealiser implements Realiser {
  readonly kind = "templates" as const;
  readonly id = "templates";

  async text(req: TextRequest): Promise<string> {
    const text = req.template();
    const problem = req.check?.(text);
    // A template that fails its own check is a generator bug, not bad luck: say so loudly.
    if (problem) throw new Error(`template for ${problemOf(req.item, req.prompt)} fails its check: ${problem}`);
    return text;
  }

  async json<T>(req: JsonRequest<T>): Promise<T> {
    const value = req.schema.parse(req.template());
    const problem = req.check?.(value);
    if (problem) throw new Error(`template for ${problemOf(req.item, req.prompt)} fails its check: ${problem}`);
    return value;
  }

  promptHashes(): Record<string, string> {
    return {};
  }
}

/** Raised when the spend passes `--max-cost`: the generation stops before its next model call. */
export class SynthStoppedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SynthStopped";
  }
}

/** Spend so far against `--max-cost`, from the model stack's accounting (calls actually made; cache hits are free). */
export class CostBudget {
  constructor(
    readonly accounting: Accounting,
    readonly maxCost?: number,
  ) {}

  spent(): { usd: number; known: boolean } {
    const total = this.accounting.snapshot().total;
    return { usd: total.costUsd ?? 0, known: total.costKnown };
  }

  /** Throws SynthStoppedError once the known spend exceeds the limit. */
  check(): void {
    if (this.maxCost === undefined) return;
    const { usd, known } = this.spent();
    if (known && usd > this.maxCost) {
      throw new SynthStoppedError(
        `spent $${usd.toFixed(4)} > --max-cost $${this.maxCost}: stopped. Run the same command again (same seed and knobs) to continue: the calls made so far are cached and replayed at no cost; raise --max-cost to go further.`,
      );
    }
  }

  /** For the progress bar. */
  label(): string {
    const { usd, known } = this.spent();
    return known ? `$${usd.toFixed(4)}` : "n/a";
  }
}

export interface LlmRealiserOptions {
  model: ChatModel;
  prompts: PromptSet;
  /** Sent as the request seed, and part of every cache key. */
  seed: number;
  temperature: number;
  budget?: CostBudget;
}

/** A reply with any wrapping fence removed. */
function cleanText(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[a-zA-Z]*\n([\s\S]*?)\n```$/.exec(trimmed);
  return (fenced ? (fenced[1] as string) : trimmed).trim();
}

export class LlmRealiser implements Realiser {
  readonly kind = "llm" as const;
  readonly id: string;
  readonly #hashes = new Map<string, string>();

  constructor(private readonly options: LlmRealiserOptions) {
    this.id = options.model.id;
  }

  #messages(prompt: string, vars: Record<string, string | number>): ChatMessage[] {
    const slash = prompt.indexOf("/");
    if (slash <= 0) throw new Error(`prompt "${prompt}" is not <bench>/<template>`);
    const rendered = this.options.prompts.render(prompt.slice(0, slash), prompt.slice(slash + 1), vars);
    this.#hashes.set(prompt, rendered.templateHash);
    return [
      { role: "system", content: SYSTEM_PROMPT },
      { role: "user", content: rendered.text },
    ];
  }

  #request(messages: ChatMessage[], sample: number, maxTokens?: number): ChatRequest {
    return {
      role: "generator",
      messages,
      temperature: this.options.temperature,
      seed: this.options.seed,
      ...(maxTokens !== undefined ? { maxTokens } : {}),
      ...(sample ? { sample } : {}),
    };
  }

  async text(req: TextRequest): Promise<string> {
    const messages = this.#messages(req.prompt, req.vars);
    const sent: ChatRequest[] = [];
    let problem = "";
    for (let sample = 0; sample < REALISE_ATTEMPTS; sample++) {
      this.options.budget?.check();
      const request = this.#request(messages, sample, req.maxTokens);
      sent.push(request);
      const reply = await this.options.model.chat(request);
      const text = cleanText(reply.text);
      problem = text ? (req.check?.(text) ?? "") : "the reply is empty";
      if (!problem) return text;
    }
    // Cached, these replies would fail every resumed run the same way.
    for (const r of sent) this.options.model.forget?.(r);
    throw new ModelError(
      `${problemOf(req.item, req.prompt)}: no usable reply in ${REALISE_ATTEMPTS} attempts; last: ${problem}`,
      { endpoint: this.id, retryable: true },
    );
  }

  async json<T>(req: JsonRequest<T>): Promise<T> {
    const messages = this.#messages(req.prompt, req.vars);
    let problem = "";
    for (let sample = 0; sample < REALISE_ATTEMPTS; sample++) {
      this.options.budget?.check();
      let value: T;
      try {
        ({ value } = await structured(this.options.model, this.#request(messages, sample, req.maxTokens), req.schema, {
          name: req.prompt.replace(/[^A-Za-z0-9_-]/g, "_"),
        }));
      } catch (error) {
        // Unparsable even after its repair: one failed attempt, like a reply that fails the check.
        if (!(error instanceof StructuredOutputError)) throw error;
        problem = error.reason;
        continue;
      }
      problem = req.check?.(value) ?? "";
      if (!problem) return value;
    }
    throw new ModelError(
      `${problemOf(req.item, req.prompt)}: no usable reply in ${REALISE_ATTEMPTS} attempts; last: ${problem}`,
      { endpoint: this.id, retryable: true },
    );
  }

  promptHashes(): Record<string, string> {
    return Object.fromEntries([...this.#hashes.entries()].sort(([a], [b]) => (a < b ? -1 : 1)));
  }
}
