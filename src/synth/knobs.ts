/**
 * Reading a generator's knobs: what `--list` prints (name, type, default,
 * description, from the zod object itself, so the help cannot drift from the
 * code) and how `--knob key=value` text becomes a typed value.
 */
import { z } from "zod";
import { ConfigError } from "../core/errors.ts";
import type { AnyGenerator } from "./types.ts";

export interface KnobInfo {
  name: string;
  /** `number`, `integer`, `boolean`, `string`, `a | b | c`, `list of string`, `object`… */
  type: string;
  /** The default value, undefined when the knob is optional without one. */
  default?: unknown;
  description: string;
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  defaultValue?: unknown;
  element?: z.ZodType;
  entries?: Record<string, string | number>;
  options?: z.ZodType[];
  values?: unknown[];
}

function defOf(schema: z.ZodType): Def {
  return (schema as unknown as { def: Def }).def;
}

/** The schema under default / optional / nullable wrappers. */
function unwrap(schema: z.ZodType): z.ZodType {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (
      (def.type === "default" || def.type === "optional" || def.type === "nullable" || def.type === "prefault") &&
      def.innerType
    ) {
      s = def.innerType;
    } else return s;
  }
}

function defaultOf(schema: z.ZodType): unknown {
  let s = schema;
  for (;;) {
    const def = defOf(s);
    if (def.type === "default") return def.defaultValue;
    if ((def.type === "optional" || def.type === "nullable") && def.innerType) s = def.innerType;
    else return undefined;
  }
}

function typeName(schema: z.ZodType): string {
  const s = unwrap(schema);
  const def = defOf(s);
  switch (def.type) {
    case "number":
      return /int/.test((s as unknown as { format?: string }).format ?? "") ? "integer" : "number";
    case "enum":
      return Object.values(def.entries ?? {}).join(" | ");
    case "literal":
      return (def.values ?? []).map((v) => JSON.stringify(v)).join(" | ");
    case "array":
      return `list of ${def.element ? typeName(def.element) : "values"}`;
    case "record":
    case "object":
      return "object (JSON)";
    case "union":
      return (def.options ?? []).map(typeName).join(" | ");
    default:
      return def.type;
  }
}

/** The zod object of a generator's knobs. */
export function knobShape(generator: AnyGenerator): Record<string, z.ZodType> {
  const shape = (generator.knobs as unknown as { shape?: Record<string, z.ZodType> }).shape;
  if (!shape) throw new Error(`generator ${generator.benchmark}: knobs must be a zod object`);
  return shape;
}

export function describeKnobs(generator: AnyGenerator): KnobInfo[] {
  return Object.entries(knobShape(generator)).map(([name, schema]) => ({
    name,
    type: typeName(schema),
    default: defaultOf(schema),
    description: schema.description ?? "",
  }));
}

/** `--knob` text as the knob's type: numbers, booleans, JSON lists and objects; a list may be comma-separated. */
function coerce(schema: z.ZodType, raw: string): unknown {
  const s = unwrap(schema);
  const type = defOf(s).type;
  const text = raw.trim();
  if (type === "number") return text === "" ? Number.NaN : Number(text);
  if (type === "boolean")
    return text === "true" || text === "1" || text === "yes"
      ? true
      : text === "false" || text === "0" || text === "no"
        ? false
        : text;
  if (type === "array") {
    if (text.startsWith("[")) return jsonOrText(text);
    const element = defOf(s).element;
    const items = text === "" ? [] : text.split(",").map((x) => x.trim());
    return element ? items.map((x) => coerce(element, x)) : items;
  }
  if (type === "object" || type === "record") return jsonOrText(text);
  if (type === "union" || type === "literal") {
    const parsed = jsonOrText(text);
    return s.safeParse(parsed).success ? parsed : raw;
  }
  return raw;
}

function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export interface KnobInput {
  /** `--knob key=value` pairs, as typed. */
  pairs?: string[];
  /** Knob values already typed (library callers). */
  values?: Record<string, unknown>;
  /** `--size N`: sets the generator's size knob. */
  size?: number;
}

/** The resolved knobs: defaults, then `values`, then `--size`, then `--knob` pairs; checked by the schema. */
export function resolveKnobs<K>(generator: AnyGenerator, input: KnobInput = {}): K {
  const shape = knobShape(generator);
  const raw: Record<string, unknown> = { ...input.values };
  for (const name of Object.keys(raw)) {
    if (!(name in shape)) throw unknownKnob(generator, name, "knobs");
  }
  if (input.size !== undefined) {
    if (!generator.sizeKnob) {
      throw new ConfigError(`${generator.benchmark} has no size knob; use --knob`, "size", "--size");
    }
    raw[generator.sizeKnob] = input.size;
  }
  for (const pair of input.pairs ?? []) {
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new ConfigError(`expected key=value, got "${pair}"`, "knob", "--knob");
    const name = pair.slice(0, eq).trim();
    const schema = shape[name];
    if (!schema) throw unknownKnob(generator, name, "--knob");
    raw[name] = coerce(schema, pair.slice(eq + 1));
  }
  const parsed = (generator.knobs as z.ZodType<K>).safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0] as z.core.$ZodIssue;
    const name = issue.path.map(String).join(".") || "knobs";
    throw new ConfigError(
      `${generator.benchmark} knob ${name}: ${issue.message} (${z.prettifyError(parsed.error).replace(/\s*\n\s*/g, "; ")})`,
      `knob ${name}`,
      "--knob",
    );
  }
  return parsed.data;
}

function unknownKnob(generator: AnyGenerator, name: string, from: string): ConfigError {
  return new ConfigError(
    `${generator.benchmark} has no knob "${name}" (knobs: ${Object.keys(knobShape(generator)).join(", ")})`,
    "knob",
    from,
  );
}
