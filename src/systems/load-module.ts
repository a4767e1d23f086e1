/**
 * Systems from a user's module: `--system ./my-system.js[#export]` or
 * `--system some-package#export`. The export may be a SystemDefinition, a
 * MemorySystem class (`new Cls(options, context)`) or a factory
 * (`(options, context) => MemorySystem | Promise<MemorySystem>`). A `.ts` file
 * loads when a TypeScript loader (tsx) is active; otherwise the error says how
 * to get one. A package is resolved from the working directory, as the user's
 * own code would resolve it.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, extname, isAbsolute, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ConfigError, SystemError } from "../core/errors.ts";
import { ANY_OPTIONS, type AnySystemDefinition } from "./options.ts";
import type { MemorySystem } from "./types.ts";

export type ModuleImporter = (url: string) => Promise<Record<string, unknown>>;

export interface LoadModuleOptions {
  /** Where relative paths and packages are resolved from (default: the working directory). */
  cwd?: string;
  /** The id a class or factory export gets (the spec's id). */
  id: string;
  /** Test seam: how a module URL is imported (default: `import()`). */
  importer?: ModuleImporter;
}

export interface LoadedModuleSystem {
  definition: AnySystemDefinition;
  /** Absolute path of the file imported. */
  path: string;
  /** Package name and version, for a package spec. */
  package?: { name: string; version?: string };
}

const TYPESCRIPT = new Set([".ts", ".mts", ".cts"]);

const defaultImporter: ModuleImporter = (url) => import(url) as Promise<Record<string, unknown>>;

function moduleError(message: string): ConfigError {
  return new ConfigError(message, "system", "--system");
}

/** Something with the methods and caps of a MemorySystem. */
export function looksLikeMemorySystem(value: unknown): value is MemorySystem {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.caps === "object" &&
    v.caps !== null &&
    ["open", "ingest", "search", "close"].every((m) => typeof v[m] === "function")
  );
}

export function isSystemDefinition(value: unknown): value is AnySystemDefinition {
  if (value === null || typeof value !== "object") return false;
  const v = value as Record<string, unknown>;
  return typeof v.id === "string" && typeof v.create === "function";
}

function isSystemClass(value: unknown): value is new (options: unknown, context: unknown) => MemorySystem {
  if (typeof value !== "function") return false;
  const proto = (value as { prototype?: Record<string, unknown> }).prototype;
  return Boolean(proto) && typeof proto?.search === "function" && typeof proto?.ingest === "function";
}

function usable(value: unknown): boolean {
  return isSystemDefinition(value) || typeof value === "function";
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (looksLikeMemorySystem(value)) return "a MemorySystem instance";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Checks what a class or factory made, so a wrong return is named where it happened. */
export function checkMade(value: unknown, id: string, what: string): MemorySystem {
  if (!looksLikeMemorySystem(value)) {
    throw new SystemError(
      `${what} returned ${describe(value)}, not a MemorySystem (caps, open, ingest, search, close)`,
      id,
      "create",
    );
  }
  return value;
}

/** The definition an export stands for. */
export function definitionOf(value: unknown, id: string, where: string): AnySystemDefinition {
  if (isSystemDefinition(value)) return value;
  if (isSystemClass(value)) {
    const Cls = value;
    return {
      id,
      summary: `class ${Cls.name || "(anonymous)"} of ${where}`,
      options: ANY_OPTIONS,
      create: (options, context) => checkMade(new Cls(options, context), id, `new ${Cls.name || "class"}()`),
    };
  }
  if (typeof value === "function") {
    const factory = value as (options: unknown, context: unknown) => unknown;
    return {
      id,
      summary: `factory ${factory.name || "(anonymous)"} of ${where}`,
      options: ANY_OPTIONS,
      create: async (options, context) =>
        checkMade(await factory(options, context), id, `factory ${factory.name || "(anonymous)"}`),
    };
  }
  const hint = looksLikeMemorySystem(value) ? "; export its class or a factory, so each run gets a fresh one" : "";
  throw moduleError(
    `${where} is ${describe(value)}; expected a SystemDefinition, a MemorySystem class or a factory function${hint}`,
  );
}

/** The export a spec names: `#name`, else the default one, else the only usable export. */
function pick(mod: Record<string, unknown>, exportName: string | undefined, path: string): [string, unknown] {
  const names = Object.keys(mod).filter((k) => k !== "__esModule");
  if (exportName !== undefined) {
    if (!(exportName in mod)) {
      throw moduleError(`${path} has no export "${exportName}" (its exports: ${names.join(", ") || "none"})`);
    }
    return [exportName, mod[exportName]];
  }
  if (usable(mod.default)) return ["default", mod.default];
  const candidates = names.filter((k) => k !== "default" && usable(mod[k]));
  if (candidates.length === 1) return [candidates[0]!, mod[candidates[0]!]];
  throw moduleError(
    candidates.length
      ? `${path} exports several candidates (${candidates.join(", ")}); name one: ${path}#${candidates[0]}`
      : `${path} exports no SystemDefinition, MemorySystem class or factory (its exports: ${names.join(", ") || "none"})`,
  );
}

async function importFile(path: string, id: string, importer: ModuleImporter): Promise<Record<string, unknown>> {
  try {
    return await importer(pathToFileURL(path).href);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === "ERR_UNKNOWN_FILE_EXTENSION" && TYPESCRIPT.has(extname(path).toLowerCase())) {
      throw moduleError(
        `${path} is TypeScript and no TypeScript loader is active: compile it to .js, or run membench under tsx (npx tsx node_modules/.bin/membench …, or node --import tsx …)`,
      );
    }
    throw new SystemError(`cannot load ${path}: ${(error as Error).message}`, id, "load", { cause: error });
  }
}

/** `./x.js`, `/abs/x.ts` or `file:///…` → an absolute path that exists. */
export function modulePath(path: string, cwd = process.cwd()): string {
  const abs = path.startsWith("file:") ? fileURLToPath(path) : isAbsolute(path) ? path : resolve(cwd, path);
  if (!existsSync(abs)) throw moduleError(`module ${abs} does not exist`);
  if (statSync(abs).isDirectory()) throw moduleError(`${abs} is a folder; name the module file in it`);
  return abs;
}

/** `@scope/pkg/sub` → `@scope/pkg` and `./sub`. */
function splitPackage(spec: string): { name: string; subpath: string } {
  const parts = spec.split("/");
  const n = spec.startsWith("@") ? 2 : 1;
  const rest = parts.slice(n).join("/");
  return { name: parts.slice(0, n).join("/"), subpath: rest ? `./${rest}` : "." };
}

function readJson(path: string): Record<string, unknown> {
  return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
}

const CONDITIONS = ["import", "node", "default", "module"];

/** The target of a package's `exports` for a subpath and the ESM conditions, exact subpaths only. */
function exportTarget(exports: unknown, subpath: string): string | undefined {
  const condition = (value: unknown): string | undefined => {
    if (typeof value === "string") return value;
    if (Array.isArray(value)) {
      for (const v of value) {
        const found = condition(v);
        if (found) return found;
      }
      return undefined;
    }
    if (value && typeof value === "object") {
      for (const c of CONDITIONS) {
        if (c in value) {
          const found = condition((value as Record<string, unknown>)[c]);
          if (found) return found;
        }
      }
    }
    return undefined;
  };
  if (typeof exports === "string" || Array.isArray(exports)) return subpath === "." ? condition(exports) : undefined;
  if (!exports || typeof exports !== "object") return undefined;
  const keys = Object.keys(exports);
  if (keys.some((k) => k.startsWith("."))) return condition((exports as Record<string, unknown>)[subpath]);
  return subpath === "." ? condition(exports) : undefined;
}

/** The package's folder, looked for in node_modules from `cwd` upwards. */
function packageDir(name: string, cwd: string): string | undefined {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Resolves a package specifier from `cwd` as an ESM import there would: Node's
 * own resolution first, then the package's `exports` read for the import
 * conditions (an ESM-only package refuses `require.resolve`).
 */
export function resolvePackage(spec: string, cwd = process.cwd()): { path: string; name: string; version?: string } {
  const { name, subpath } = splitPackage(spec);
  const dir = packageDir(name, cwd);
  const manifest = dir ? readJson(join(dir, "package.json")) : undefined;
  const version = typeof manifest?.version === "string" ? manifest.version : undefined;
  let path: string | undefined;
  if (dir && manifest) {
    if (manifest.exports !== undefined) {
      const target = exportTarget(manifest.exports, subpath);
      if (target) path = resolve(dir, target);
    } else if (subpath === ".") {
      const main = typeof manifest.module === "string" ? manifest.module : manifest.main;
      path = resolve(dir, typeof main === "string" ? main : "index.js");
    }
  }
  if (!path || !existsSync(path)) {
    try {
      path = createRequire(join(resolve(cwd), "noop.js")).resolve(spec);
    } catch {
      path = undefined;
    }
  }
  if (!path || !existsSync(path)) {
    throw moduleError(
      dir
        ? `package "${name}" (${dir}) exports nothing at "${subpath}" for import`
        : `package "${name}" is not installed where membench runs (${resolve(cwd)}); install it there (npm install ${name})`,
    );
  }
  return { path, name, ...(version ? { version } : {}) };
}

export async function loadModuleFile(
  path: string,
  exportName: string | undefined,
  options: LoadModuleOptions,
): Promise<LoadedModuleSystem> {
  const abs = modulePath(path, options.cwd);
  const mod = await importFile(abs, options.id, options.importer ?? defaultImporter);
  const [name, value] = pick(mod, exportName, abs);
  return { definition: definitionOf(value, options.id, `export "${name}" of ${abs}`), path: abs };
}

export async function loadPackage(
  spec: string,
  exportName: string,
  options: LoadModuleOptions,
): Promise<LoadedModuleSystem> {
  const pkg = resolvePackage(spec, options.cwd);
  const mod = await importFile(pkg.path, options.id, options.importer ?? defaultImporter);
  const [name, value] = pick(mod, exportName, spec);
  return {
    definition: definitionOf(value, options.id, `export "${name}" of ${spec}`),
    path: pkg.path,
    package: { name: pkg.name, ...(pkg.version ? { version: pkg.version } : {}) },
  };
}
