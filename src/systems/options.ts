/**
 * A system's options, checked by its own schema before any work starts, and
 * described for `membench systems`. An error names the option as the user would
 * write it (`ledger.retrieval.pullComplement`) and, for an unknown key, the known ones.
 */
import { z } from "zod";
import { ConfigError } from "../core/errors.ts";
import type { SystemDefinition } from "./definition.ts";

/** A definition whatever its options' type: what the registry and the resolver hold. */
// biome-ignore lint/suspicious/noExplicitAny: each definition has its own options type
export type AnySystemDefinition = SystemDefinition<any>;

/** The options of a module's class or factory export: any JSON object, checked by the module itself. */
export const ANY_OPTIONS = z.record(z.string(), z.unknown());

type Def = { type: string; innerType?: z.ZodType; in?: z.ZodType; shape?: Record<string, z.ZodType> };

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { _zod: { def: Def } })._zod.def;
}

/** The object schema under wrappers (optional, default, nullable, readonly, pipe input). */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (let i = 0; i < 20; i++) {
    const def = defOf(current);
    const inner = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
    if (!inner) return current;
    current = inner;
  }
  return current;
}

/** The keys an object option takes at `path`, where the schema says. */
export function knownOptionKeys(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = unwrap(schema);
  for (const key of path) {
    const shape: Record<string, z.ZodType> | undefined =
      current instanceof z.ZodObject ? (current.shape as Record<string, z.ZodType>) : undefined;
    current = shape?.[String(key)] ? unwrap(shape[String(key)]!) : undefined;
    if (!current) return [];
  }
  return current instanceof z.ZodObject ? Object.keys(current.shape) : [];
}

function isEmpty(value: unknown): boolean {
  return value === undefined || (typeof value === "object" && value !== null && Object.keys(value).length === 0);
}

/** The options `definition` will be created with: checked, defaults filled in; a ConfigError naming the option otherwise. */
export function checkSystemOptions<O>(definition: SystemDefinition<O>, options: unknown, label: string): O {
  const given = options ?? {};
  if (!definition.options) {
    if (isEmpty(given)) return {} as O;
    throw new ConfigError(`system ${definition.id} takes no options, got ${JSON.stringify(given)}`, label);
  }
  const parsed = definition.options.safeParse(given);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues;
  const issue = issues[0]!;
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  if (issue.code === "unrecognized_keys") {
    const known = knownOptionKeys(definition.options, issue.path);
    const where = [label, ...issue.path.map(String), issue.keys.join(", ")].join(".");
    throw new ConfigError(
      `unknown option of system ${definition.id}; known: ${known.length ? known.join(", ") : "none"}${more}`,
      where,
    );
  }
  const where = [label, ...issue.path.map(String)].join(".");
  throw new ConfigError(`${issue.message}${more}`, where);
}

export interface OptionDoc {
  /** Dotted, as `--system-option <label>.<key>=…` takes it. */
  key: string;
  type: string;
  default?: unknown;
  description?: string;
}

type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  properties?: Record<string, JsonSchema>;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
};

function typeOf(s: JsonSchema): string {
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (s.const !== undefined) return JSON.stringify(s.const);
  const union = s.anyOf ?? s.oneOf;
  if (union) return union.map(typeOf).join(" | ");
  const type = Array.isArray(s.type) ? s.type.join(" | ") : (s.type ?? "any");
  const bounds: string[] = [];
  if (s.exclusiveMinimum !== undefined) bounds.push(`> ${s.exclusiveMinimum}`);
  if (s.minimum !== undefined) bounds.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined && s.maximum < Number.MAX_SAFE_INTEGER) bounds.push(`≤ ${s.maximum}`);
  if (type === "array" && s.items) return `array of ${typeOf(s.items)}`;
  return bounds.length ? `${type} ${bounds.join(", ")}` : type;
}

function collect(properties: Record<string, JsonSchema>, prefix: string, out: OptionDoc[]): void {
  for (const [key, s] of Object.entries(properties)) {
    const name = prefix + key;
    out.push({
      key: name,
      type: typeOf(s),
      ...(s.default !== undefined ? { default: s.default } : {}),
      ...(s.description ? { description: s.description } : {}),
    });
    if (s.properties) collect(s.properties, `${name}.`, out);
  }
}

/** Every option of a schema, nested ones as dotted keys; empty when it takes none. */
export function describeOptions(schema: z.ZodType | undefined): OptionDoc[] {
  if (!schema) return [];
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  } catch {
    return [{ key: "*", type: "any", description: "options this schema cannot describe; see the system's docs" }];
  }
  if (!json.properties) return json.type === "object" ? [] : [{ key: "*", type: typeOf(json) }];
  const out: OptionDoc[] = [];
  collect(json.properties, "", out);
  return out;
}
