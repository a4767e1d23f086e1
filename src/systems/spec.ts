/**
 * The `--system` spec grammar, parsed without touching the disk or the network:
 *
 *     spec := [label "="] base ["#" name] ["#" options-json]
 *     base := registered id | module path | package "#" export | "http:" URL
 *
 * and `--system-option <label>.<key>=<value>`, which sets one option of the
 * system with that label (or id). Loading what a spec names is resolve.ts's job.
 */
import { ConfigError } from "../core/errors.ts";
import { canonicalJson } from "../util/canonical-json.ts";

/** What a spec names, before anything is loaded. */
export type SpecBase =
  | { kind: "registered"; id: string }
  /** A file; `path` as written (relative to the working directory), `exportName` from `#name`. */
  | { kind: "module"; path: string; exportName?: string }
  | { kind: "package"; name: string; exportName: string }
  /** `name` names the row (`http:URL#name`). */
  | { kind: "http"; url: string; name?: string };

export interface SystemSpec {
  /** The spec as written. */
  text: string;
  /** The row label: the system id stored in the run and shown in reports. */
  label: string;
  /** The label without options: the registered id, export name, `#name` or short path/URL. `--system-option` may address it. */
  id: string;
  /** Whether the label was given (`label=…`). */
  labelled: boolean;
  base: SpecBase;
  /** Options from `#{…}`, then `--system-option`; checked later by the system's own schema. */
  options: Record<string, unknown>;
}

const LABEL = /^[A-Za-z0-9._-]+$/;
const EXPORT_NAME = /^[A-Za-z_$][\w$]*$/;
const PACKAGE_NAME = /^(@[a-z0-9~-][a-z0-9._~-]*\/)?[a-z0-9~-][a-z0-9._~-]*(\/[^#]+)?$/i;
const MODULE_EXTENSION = /\.(m|c)?(j|t)s$/i;
const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export const SPEC_FORMS =
  "a registered id, a module path (./my-system.js), package#export, or http:URL (membench systems lists the ids)";

function specError(text: string, message: string): ConfigError {
  return new ConfigError(`${JSON.stringify(text)}: ${message}`, "system", "--system");
}

/** Whether `base` names a file: a relative or absolute path, a file: URL, or a JS/TS file name. */
export function isModulePath(base: string): boolean {
  return (
    base.startsWith("./") ||
    base.startsWith("../") ||
    base.startsWith("/") ||
    base.startsWith("file:") ||
    /^[A-Za-z]:[\\/]/.test(base) ||
    base.startsWith(".\\") ||
    base.startsWith("..\\") ||
    MODULE_EXTENSION.test(base)
  );
}

/**
 * Splits a `--system` value at its top-level commas: a comma inside `{…}`,
 * `[…]` or quotes belongs to an options object, not to the list.
 */
export function splitSpecs(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "{" || c === "[") depth++;
    else if ((c === "}" || c === "]") && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out.map((s) => s.trim()).filter(Boolean);
}

function parseOptionsJson(text: string, json: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw specError(text, `its options ${json} are not JSON (${(error as Error).message})`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw specError(text, `its options must be a JSON object, got ${json}`);
  }
  checkKeys(value, text);
  return value as Record<string, unknown>;
}

function checkKeys(value: unknown, text: string): void {
  if (value === null || typeof value !== "object") return;
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) throw specError(text, `"${key}" cannot be an option name`);
    checkKeys((value as Record<string, unknown>)[key], text);
  }
}

/** The last meaningful part of a path, without its extension: `./lib/my-system.mjs` → `my-system`. */
function shortPath(path: string): string {
  const parts = path.split(/[\\/]/).filter((p) => p && p !== "." && p !== "..");
  const last = parts.at(-1) ?? path;
  const stem = last.replace(MODULE_EXTENSION, "");
  return (stem === "index" && parts.length > 1 ? parts.at(-2)! : stem) || "module";
}

/** `http://127.0.0.1:4180/v1/systems/ledger` → `ledger`; a URL with no path → its host and port. */
function shortUrl(url: URL): string {
  const last = url.pathname.split("/").filter(Boolean).at(-1);
  const short = last ? decodeURIComponent(last) : url.port ? `${url.hostname}-${url.port}` : url.hostname;
  return short.replace(/[^A-Za-z0-9._-]+/g, "-");
}

function parseHttpUrl(text: string, base: string): URL {
  // `http:` + `//host…` is the URL itself; `http:https://…` wraps an https URL.
  const raw = /^http:https?:/i.test(base) ? base.slice("http:".length) : base;
  if (!/^https?:\/\//i.test(raw)) {
    throw specError(text, `${raw} is not an http(s) URL (http:URL, e.g. http://127.0.0.1:4180/v1/systems/ledger)`);
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw specError(text, `${raw} is not a URL (http:URL, e.g. http://127.0.0.1:4180/v1/systems/ledger)`);
  }
  if (!url.hostname) throw specError(text, `${raw} has no host`);
  return url;
}

/**
 * Parses one spec. `registered` tells whether a word is a registered system id,
 * so the parse needs no registry of its own.
 */
export function parseSystemSpec(input: string, registered: (id: string) => boolean): SystemSpec {
  const text = input.trim();
  if (!text) throw specError(input, `an empty system spec; expected ${SPEC_FORMS}`);
  let rest = text;
  let label: string | undefined;
  const labelled = /^([A-Za-z0-9._-]+)=/.exec(rest);
  if (labelled) {
    label = labelled[1]!;
    rest = rest.slice(labelled[0].length);
    if (!rest) throw specError(text, `label "${label}" names no system; write ${label}=<spec>`);
  }
  let options: Record<string, unknown> = {};
  const at = rest.indexOf("#{");
  if (at >= 0) {
    options = parseOptionsJson(text, rest.slice(at + 1));
    rest = rest.slice(0, at);
  }
  let name: string | undefined;
  const isHttp = /^https?:/i.test(rest);
  const hash = rest.indexOf("#");
  if (hash >= 0) {
    name = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
    if (!name) throw specError(text, "nothing follows # (expected an export name, a row name or {options})");
  }
  if (!rest) throw specError(text, `no system before #; expected ${SPEC_FORMS}`);

  let base: SpecBase;
  let id: string;
  if (isHttp) {
    const url = parseHttpUrl(text, rest);
    if (name !== undefined && !LABEL.test(name)) {
      throw specError(text, `row name "${name}" may only hold letters, digits, ".", "_" and "-"`);
    }
    base = { kind: "http", url: url.href, ...(name !== undefined ? { name } : {}) };
    id = name ?? shortUrl(url);
  } else if (isModulePath(rest)) {
    if (name !== undefined && !EXPORT_NAME.test(name)) {
      throw specError(text, `"${name}" is not an export name`);
    }
    base = { kind: "module", path: rest, ...(name !== undefined ? { exportName: name } : {}) };
    id = name && name !== "default" ? name : shortPath(rest);
  } else if (registered(rest)) {
    if (name !== undefined) {
      throw specError(text, `"${rest}" is a registered system and takes no #${name}; its options go in #{…}`);
    }
    base = { kind: "registered", id: rest };
    id = rest;
  } else if (name !== undefined && PACKAGE_NAME.test(rest)) {
    if (!EXPORT_NAME.test(name)) throw specError(text, `"${name}" is not an export name`);
    base = { kind: "package", name: rest, exportName: name };
    id = name === "default" ? shortPath(rest) : name;
  } else {
    throw specError(text, `unknown system "${rest}"; expected ${SPEC_FORMS}`);
  }
  const hasOptions = Object.keys(options).length > 0;
  return {
    text,
    label: label ?? (hasOptions ? `${id}#${canonicalJson(options)}` : id),
    id,
    labelled: label !== undefined,
    base,
    options,
  };
}

/** Refuses two systems with one label: their rows and records would mix. */
export function checkLabels(specs: readonly Pick<SystemSpec, "label" | "text">[]): void {
  const seen = new Map<string, string>();
  for (const spec of specs) {
    const earlier = seen.get(spec.label);
    if (earlier !== undefined) {
      const same = earlier === spec.text ? `"${spec.text}" is given twice` : `"${earlier}" and "${spec.text}"`;
      throw new ConfigError(
        `two systems would both be labelled "${spec.label}" (${same}); label each row, e.g. --system a=${spec.text} --system b=…`,
        "system",
        "--system",
      );
    }
    seen.set(spec.label, spec.text);
  }
}

/** Every spec of the given `--system` values (repeated and comma-separated), labels checked. */
export function parseSystemSpecs(values: readonly string[], registered: (id: string) => boolean): SystemSpec[] {
  const specs = values.flatMap(splitSpecs).map((text) => parseSystemSpec(text, registered));
  checkLabels(specs);
  return specs;
}

/** One `--system-option` assignment: `label.key.sub=value`, value JSON when it parses, else the text. */
export interface SystemOptionAssignment {
  text: string;
  /** Everything left of the first `=`: the target label (or id) and the key path. */
  path: string;
  value: unknown;
}

export function parseSystemOption(text: string): SystemOptionAssignment {
  const eq = text.indexOf("=");
  if (eq <= 0) {
    throw new ConfigError(
      `expected <label>.<key>=<value>, got ${JSON.stringify(text)}`,
      "system-option",
      "--system-option",
    );
  }
  const raw = text.slice(eq + 1);
  let value: unknown = raw;
  try {
    value = JSON.parse(raw);
  } catch {
    // Not JSON: the text itself is the value (`ledger.extractor=llm`).
  }
  return { text, path: text.slice(0, eq).trim(), value };
}

function assignmentError(a: SystemOptionAssignment, message: string): ConfigError {
  return new ConfigError(`${JSON.stringify(a.text)}: ${message}`, "system-option", "--system-option");
}

function setPath(
  target: Record<string, unknown>,
  keys: readonly string[],
  value: unknown,
  a: SystemOptionAssignment,
): void {
  let node = target;
  for (let i = 0; i < keys.length - 1; i++) {
    const key = keys[i]!;
    const next = node[key];
    if (next === undefined) node[key] = {};
    else if (next === null || typeof next !== "object" || Array.isArray(next)) {
      throw assignmentError(
        a,
        `${keys.slice(0, i + 1).join(".")} is already ${JSON.stringify(next)}, not an object to set ${keys[i + 1]} in`,
      );
    }
    node = node[key] as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
}

function deepCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}

/**
 * Applies `--system-option` assignments, in order, to copies of the specs'
 * options. The target is the longest label the path starts with; failing that,
 * every system with that id (the `--ledger-*` aliases set `ledger.…` for each
 * ledger of the run). Labels do not change: they come from the spec alone.
 */
export function applySystemOptions<S extends Pick<SystemSpec, "label" | "id" | "options">>(
  specs: readonly S[],
  assignments: readonly (string | SystemOptionAssignment)[],
): S[] {
  const out = specs.map((s) => ({ ...s, options: deepCopy(s.options) }));
  for (const item of assignments) {
    const a = typeof item === "string" ? parseSystemOption(item) : item;
    const prefixOf = (name: string) => a.path.startsWith(`${name}.`);
    const longest = (names: string[]) => names.filter(prefixOf).sort((x, y) => y.length - x.length)[0];
    const label = longest(out.map((s) => s.label));
    const id = label === undefined ? longest(out.map((s) => s.id)) : undefined;
    const targets = label !== undefined ? out.filter((s) => s.label === label) : out.filter((s) => s.id === id);
    if (!targets.length) {
      throw assignmentError(
        a,
        `no system of this run is labelled by the start of ${a.path} (systems: ${out.map((s) => s.label).join(", ") || "none"})`,
      );
    }
    const name = (label ?? id)!;
    const keys = a.path.slice(name.length + 1).split(".");
    if (keys.some((k) => !k)) throw assignmentError(a, `"${a.path}" has an empty key`);
    const bad = keys.find((k) => FORBIDDEN_KEYS.has(k));
    if (bad) throw assignmentError(a, `"${bad}" cannot be an option name`);
    for (const target of targets) setPath(target.options, keys, deepCopy(a.value), a);
  }
  return out;
}
