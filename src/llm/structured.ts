/**
 * Structured replies validated with zod. The schema goes to the server as a JSON-schema
 * response format when it supports one, otherwise into the prompt. A reply that does not
 * parse or validate gets exactly one repair attempt; after that the caller gets a typed
 * error with the raw text — never a made-up default.
 */
import { z } from "zod";
import { ModelError } from "../core/errors.ts";
import { log } from "../util/log.ts";
import type { ChatMessage, ChatModel, ChatRequest, ChatResult } from "./types.ts";

export class StructuredOutputError extends Error {
  /** The last reply text, as received. */
  readonly raw: string;
  /** Why it could not be used (parse or validation error). */
  readonly reason: string;
  readonly schemaName: string;
  constructor(schemaName: string, raw: string, reason: string, attempts = 2) {
    const shown = raw.length > 300 ? `${raw.slice(0, 300)}…` : raw;
    const after = attempts > 1 ? "after one repair" : "(no repair asked)";
    super(`structured output "${schemaName}" unusable ${after}: ${reason}; reply was ${JSON.stringify(shown)}`);
    this.name = "StructuredOutputError";
    this.raw = raw;
    this.reason = reason;
    this.schemaName = schemaName;
  }
}

export interface StructuredOptions {
  /** Schema name sent to the server (letters, digits, _ and -). */
  name: string;
  /** Overrides the model's own `supportsJsonSchema`. */
  supportsJsonSchema?: boolean;
  /**
   * false: no repair attempt; an unusable first reply is the error. For callers
   * that reproduce code which reads a single reply (a benchmark's released judge parser).
   */
  repair?: boolean;
}

export interface StructuredResult<T> {
  value: T;
  /** The call whose reply was used. */
  result: ChatResult;
  /** 1, or 2 when the repair was needed. */
  attempts: number;
}

type Parsed = { ok: true; value: unknown } | { ok: false; reason: string };

/** The text of the first complete JSON object (or array, when no object comes first), or undefined. */
function firstJsonValue(text: string): string | undefined {
  const start = text.search(/[{[]/);
  if (start < 0) return undefined;
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") stack.push(c === "{" ? "}" : "]");
    else if (c === "}" || c === "]") {
      if (stack.pop() !== c) return undefined;
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}

/** Parses a model reply that should hold JSON: strips ``` fences and surrounding prose. */
export function parseJsonReply(text: string): Parsed {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text);
  const body = (fenced ? fenced[1]! : text).trim();
  const candidate = firstJsonValue(body);
  if (candidate === undefined) {
    return { ok: false, reason: text.trim() === "" ? "the reply is empty" : "no complete JSON object in the reply" };
  }
  try {
    return { ok: true, value: JSON.parse(candidate) };
  } catch (error) {
    return { ok: false, reason: `invalid JSON: ${(error as Error).message}` };
  }
}

function validate<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; reason: string } {
  const parsed = parseJsonReply(text);
  if (!parsed.ok) return parsed;
  const checked = schema.safeParse(parsed.value);
  if (checked.success) return { ok: true, value: checked.data };
  return {
    ok: false,
    reason: `does not match the schema: ${z.prettifyError(checked.error).replace(/\s*\n\s*/g, "; ")}`,
  };
}

/**
 * The JSON schema for a zod schema, without the `$schema` marker some servers reject.
 * `io: "input"` describes what the schema accepts (unknown fields allowed unless strict).
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "output"): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io }) as Record<string, unknown>;
  return rest;
}

/**
 * The JSON schema sent for a zod schema, made once per schema: zod's conversion
 * took about 0.35 ms a call, on every judge call. Shared by the requests that
 * use it, so neither they nor the model stack may change it.
 */
const requestSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();
function requestSchemaOf(schema: z.ZodType): Record<string, unknown> {
  let json = requestSchemas.get(schema);
  if (!json) {
    json = jsonSchemaOf(schema);
    requestSchemas.set(schema, json);
  }
  return json;
}

function withSchemaInstruction(messages: ChatMessage[], schema: Record<string, unknown>): ChatMessage[] {
  const instruction = `Reply with one JSON object and nothing else, no prose and no code fence. It must conform to this JSON schema:\n${JSON.stringify(schema)}`;
  // Some chat templates accept a system message only in first position, so merge into it.
  const [first, ...rest] = messages;
  if (first?.role === "system") return [{ role: "system", content: `${first.content}\n\n${instruction}` }, ...rest];
  return [{ role: "system", content: instruction }, ...messages];
}

/** Servers that rejected json_schema once are asked in the prompt from then on. */
const noJsonSchema = new Set<string>();

function rejectsResponseFormat(error: unknown): boolean {
  return (
    error instanceof ModelError &&
    (error.status === 400 || error.status === 422) &&
    /response_format|json_schema|response format|structured output/i.test(error.message)
  );
}

export async function structured<T>(
  model: ChatModel,
  req: ChatRequest,
  schema: z.ZodType<T>,
  options: StructuredOptions,
): Promise<StructuredResult<T>> {
  const json = requestSchemaOf(schema);
  let useServerSchema = (options.supportsJsonSchema ?? model.supportsJsonSchema ?? true) && !noJsonSchema.has(model.id);

  const build = (messages: ChatMessage[]): ChatRequest =>
    useServerSchema
      ? { ...req, messages, responseFormat: { name: options.name, schema: json } }
      : { ...req, messages: withSchemaInstruction(messages, json), responseFormat: undefined };

  // The requests whose replies were used, so an unusable outcome can be dropped from the cache.
  const sent: ChatRequest[] = [];
  const send = (messages: ChatMessage[]): Promise<ChatResult> => {
    const built = build(messages);
    sent.push(built);
    return model.chat(built);
  };
  const call = async (messages: ChatMessage[]): Promise<ChatResult> => {
    if (!useServerSchema) return send(messages);
    try {
      return await send(messages);
    } catch (error) {
      if (!rejectsResponseFormat(error)) throw error;
      log.warn("endpoint rejected response_format json_schema; asking for JSON in the prompt instead", {
        model: model.id,
      });
      noJsonSchema.add(model.id);
      useServerSchema = false;
      return send(messages);
    }
  };

  const first = await call(req.messages);
  const firstCheck = validate(first.text, schema);
  if (firstCheck.ok) return { value: firstCheck.value, result: first, attempts: 1 };
  if (options.repair === false) {
    for (const r of sent) model.forget?.(r);
    throw new StructuredOutputError(options.name, first.text, firstCheck.reason, 1);
  }

  const repairMessages: ChatMessage[] = [
    ...req.messages,
    { role: "assistant", content: first.text },
    {
      role: "user",
      content: `That reply could not be used: ${firstCheck.reason}. Reply again with only the corrected JSON object, no other text.`,
    },
  ];
  const second = await call(repairMessages);
  const secondCheck = validate(second.text, schema);
  if (secondCheck.ok) return { value: secondCheck.value, result: second, attempts: 2 };
  // Cached, these replies would fail every retry and every resumed run the same way.
  for (const r of sent) model.forget?.(r);
  throw new StructuredOutputError(options.name, second.text, secondCheck.reason, 2);
}
