/**
 * The local OpenAI stub (test/support/openai-stub.ts) as the model of a bench:
 * a fixed latency per call, answers as short text, and every structured call
 * (a judge's verdict, an extraction) answered with the smallest object its JSON
 * schema accepts, so any benchmark's scoring runs through without a rule per
 * judge. Nothing is scored for quality here; only calls and time are.
 */
import { type OpenAIStub, type StubChatBody, type StubReply, startOpenAIStub } from "../test/support/openai-stub.ts";

type Schema = Record<string, unknown>;

/** A value the JSON schema accepts: consts and enums by their first option, objects with every property. */
export function valueFor(schema: Schema | undefined): unknown {
  if (!schema) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const options = schema[key];
    if (Array.isArray(options) && options.length) return valueFor(options[0] as Schema);
  }
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case "object": {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(Object.entries(props).map(([k, s]) => [k, valueFor(s)]));
    }
    case "array": {
      const n = typeof schema.minItems === "number" ? schema.minItems : 0;
      return Array.from({ length: n }, () => valueFor(schema.items as Schema | undefined));
    }
    case "string":
      return "ok";
    case "integer":
    case "number":
      return typeof schema.minimum === "number" ? schema.minimum : 0;
    case "boolean":
      return true;
    default:
      return null;
  }
}

/** The stub's reply: a schema-valid object for a structured call, a short answer otherwise. */
export function benchReply(body: StubChatBody): StubReply {
  const format = body.response_format as { json_schema?: { schema?: Schema } } | undefined;
  const schema = format?.json_schema?.schema;
  if (schema) return valueFor(schema) as Record<string, unknown>;
  return "I don't know.";
}

/** A stub answering every call after `latencyMs`, as a model endpoint at that latency would. */
export function startBenchStub(latencyMs: number): Promise<OpenAIStub> {
  return startOpenAIStub({ latencyMs, reply: benchReply });
}

/** The environment a membench child needs to call the stub with `concurrency` calls in flight at most. */
export function stubEnv(stub: OpenAIStub, concurrency: number, cacheDir: string): Record<string, string> {
  return {
    MEMBENCH_BASE_URL: stub.url,
    MEMBENCH_MODEL: "stub-model",
    MEMBENCH_CONCURRENCY: String(concurrency),
    MEMBENCH_CACHE_DIR: cacheDir,
  };
}
