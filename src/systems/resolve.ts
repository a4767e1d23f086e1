/**
 * From what a user names (spec strings, definitions, instances) to systems a run
 * can make: each spec parsed, `--system-option`s applied, its definition found
 * (the registry, a module, a package, an HTTP server) and its options checked by
 * that definition's schema, before anything is created. What is resolved is
 * recorded in the run snapshot (`SystemRecord`), from which `--resume` resolves
 * the same systems again.
 */
import { ConfigError, SystemError } from "../core/errors.ts";
import { log } from "../util/log.ts";
import type { SystemContext, SystemDefinition, SystemInfo } from "./definition.ts";
import { httpSystemDefinition } from "./http.ts";
import { getSystemDefinition } from "./index.ts";
import { checkMade, isSystemDefinition, loadModuleFile, loadPackage, looksLikeMemorySystem } from "./load-module.ts";
import { type AnySystemDefinition, checkSystemOptions } from "./options.ts";
import { applySystemOptions, checkLabels, parseSystemSpecs, type SpecBase } from "./spec.ts";
import type { MemorySystem, SystemCaps } from "./types.ts";

/** What `startRun` and `createSystem` take for a system: a spec, a definition, or a ready instance. */
export type SystemInput = string | AnySystemDefinition | MemorySystem;

/** Where a system comes from, as recorded in the run snapshot: enough to make it again. */
export type SystemSource =
  | { kind: "registered"; id: string }
  /** An absolute path. */
  | { kind: "module"; path: string; export?: string }
  /** Resolved from the working directory; `path` is the file it resolved to. */
  | { kind: "package"; name: string; export: string; version?: string; path?: string }
  | { kind: "http"; url: string; name?: string }
  /** A definition object given to startRun without registering it. */
  | { kind: "definition"; id: string }
  /** A MemorySystem instance given to startRun: not rebuildable from disk. */
  | { kind: "instance"; id: string };

/** One system of a run, as written in config.json's `systems`. */
export interface SystemRecord {
  label: string;
  /** The spec as written (`--system`); absent for definitions and instances. */
  spec?: string;
  source: SystemSource;
  /** The options it was created with, after its schema (defaults filled in). */
  options: unknown;
  caps?: SystemCaps;
  info?: SystemInfo;
}

export interface ResolvedSystem {
  label: string;
  /** The label without options (registered id, export or row name, short path). */
  id: string;
  spec?: string;
  source: SystemSource;
  definition: AnySystemDefinition;
  /** Checked by the definition's schema. */
  options: unknown;
  /** For an instance: the system itself, used as is. */
  instance?: MemorySystem;
}

export interface ResolveOptions {
  /** `--system-option label.key=value`, applied in order. */
  systemOptions?: readonly string[];
  /** `--system-concurrency N`: `concurrency` for each system whose schema takes one and was not given one. */
  concurrency?: number;
  /** Where module paths and packages resolve from (default: the working directory). */
  cwd?: string;
}

interface Pending {
  text?: string;
  label: string;
  id: string;
  options: Record<string, unknown>;
  base?: SpecBase;
  definition?: AnySystemDefinition;
  instance?: MemorySystem;
}

const registered = (id: string) => getSystemDefinition(id) !== undefined;

function instanceDefinition(system: MemorySystem): SystemDefinition<Record<string, never>> {
  return { id: system.id, summary: "a MemorySystem instance given by the caller", create: () => system };
}

async function load(
  base: SpecBase,
  id: string,
  cwd: string | undefined,
): Promise<{ definition: AnySystemDefinition; source: SystemSource }> {
  switch (base.kind) {
    case "registered": {
      const definition = getSystemDefinition(base.id);
      if (!definition) throw new ConfigError(`unknown system "${base.id}"`, "system", "--system");
      return { definition, source: { kind: "registered", id: base.id } };
    }
    case "module": {
      const loaded = await loadModuleFile(base.path, base.exportName, { id, cwd });
      return {
        definition: loaded.definition,
        source: { kind: "module", path: loaded.path, ...(base.exportName ? { export: base.exportName } : {}) },
      };
    }
    case "package": {
      const loaded = await loadPackage(base.name, base.exportName, { id, cwd });
      return {
        definition: loaded.definition,
        source: {
          kind: "package",
          name: base.name,
          export: base.exportName,
          ...(loaded.package?.version ? { version: loaded.package.version } : {}),
          path: loaded.path,
        },
      };
    }
    case "http":
      return {
        definition: httpSystemDefinition(base.url, base.name),
        source: { kind: "http", url: base.url, ...(base.name ? { name: base.name } : {}) },
      };
  }
}

function schemaTakes(definition: AnySystemDefinition, key: string): boolean {
  const shape = (definition.options as { shape?: Record<string, unknown> } | undefined)?.shape;
  return Boolean(shape && key in shape);
}

/** Parses, loads and checks every system a run names; nothing is created yet. */
export async function resolveSystems(
  inputs: readonly SystemInput[],
  options: ResolveOptions = {},
): Promise<ResolvedSystem[]> {
  const pending: Pending[] = [];
  for (const input of inputs) {
    if (typeof input === "string") {
      for (const spec of parseSystemSpecs([input], registered)) {
        pending.push({ text: spec.text, label: spec.label, id: spec.id, options: spec.options, base: spec.base });
      }
    } else if (isSystemDefinition(input)) {
      pending.push({ label: input.id, id: input.id, options: {}, definition: input });
    } else if (looksLikeMemorySystem(input)) {
      pending.push({ label: input.id, id: input.id, options: {}, instance: input });
    } else {
      throw new ConfigError(
        `expected a system spec, a SystemDefinition or a MemorySystem, got ${input === null ? "null" : typeof input}`,
        "system",
      );
    }
  }
  checkLabels(pending.map((p) => ({ label: p.label, text: p.text ?? p.label })));
  const assigned = applySystemOptions(pending, options.systemOptions ?? []);
  const out: ResolvedSystem[] = [];
  for (const p of assigned) {
    if (p.instance) {
      if (Object.keys(p.options).length) {
        throw new ConfigError(
          `system ${p.label} is an instance, made already; it takes no options (${JSON.stringify(p.options)})`,
          p.label,
        );
      }
      out.push({
        label: p.label,
        id: p.id,
        source: { kind: "instance", id: p.instance.id },
        definition: instanceDefinition(p.instance),
        options: {},
        instance: p.instance,
      });
      continue;
    }
    const { definition, source } = p.definition
      ? { definition: p.definition, source: { kind: "definition", id: p.definition.id } as SystemSource }
      : await load(p.base!, p.id, options.cwd);
    const given = { ...p.options };
    if (
      options.concurrency !== undefined &&
      given.concurrency === undefined &&
      schemaTakes(definition, "concurrency")
    ) {
      given.concurrency = options.concurrency;
    }
    out.push({
      label: p.label,
      id: p.id,
      ...(p.text ? { spec: p.text } : {}),
      source,
      definition,
      options: checkSystemOptions(definition, given, p.label),
    });
  }
  return out;
}

/** The same systems again, from a run snapshot; instances and unregistered definitions are passed again. */
export async function resolveRecorded(
  records: readonly SystemRecord[],
  given: readonly (AnySystemDefinition | MemorySystem)[] = [],
  cwd?: string,
): Promise<ResolvedSystem[]> {
  const out: ResolvedSystem[] = [];
  for (const record of records) {
    const { label, source } = record;
    let definition: AnySystemDefinition;
    let instance: MemorySystem | undefined;
    let resolvedSource = source;
    switch (source.kind) {
      case "instance": {
        instance = given.find((g): g is MemorySystem => looksLikeMemorySystem(g) && g.id === source.id);
        if (!instance) {
          throw new ConfigError(
            `system ${label} was a MemorySystem instance handed to startRun, which config.json cannot hold; resume it from the library with the same instance: resumeRun(dir, { systems: [instance] })`,
            "resume",
          );
        }
        definition = instanceDefinition(instance);
        break;
      }
      case "definition": {
        const found =
          given.find((g): g is AnySystemDefinition => isSystemDefinition(g) && g.id === source.id) ??
          getSystemDefinition(source.id);
        if (!found) {
          throw new ConfigError(
            `system ${label} was a SystemDefinition handed to startRun; pass it again (resumeRun(dir, { systems: [definition] })) or registerSystem() it first`,
            "resume",
          );
        }
        definition = found;
        break;
      }
      case "registered": {
        const found = getSystemDefinition(source.id);
        if (!found) {
          throw new ConfigError(
            `system "${source.id}" is not registered in this process; a system registered with registerSystem() must be registered again before resuming`,
            "resume",
          );
        }
        definition = found;
        break;
      }
      case "module":
        definition = (await load({ kind: "module", path: source.path, exportName: source.export }, label, cwd))
          .definition;
        break;
      case "package": {
        const loaded = await load({ kind: "package", name: source.name, exportName: source.export }, label, cwd);
        definition = loaded.definition;
        resolvedSource = loaded.source;
        const now = (loaded.source as { version?: string }).version;
        if (source.version && now !== source.version) {
          log.warn(
            `system ${label}: package ${source.name} is ${now ?? "of unknown version"} now, ${source.version} when the run started`,
          );
        }
        break;
      }
      case "http":
        definition = httpSystemDefinition(source.url, source.name);
        break;
    }
    out.push({
      label,
      id: label,
      ...(record.spec ? { spec: record.spec } : {}),
      source: resolvedSource,
      definition,
      options: instance ? {} : checkSystemOptions(definition, record.options, label),
      ...(instance ? { instance } : {}),
    });
  }
  return out;
}

export interface MadeSystem {
  resolved: ResolvedSystem;
  system: MemorySystem;
  /** Made here (disposed after the run); an instance the caller gave is the caller's to dispose. */
  owned: boolean;
  record: SystemRecord;
}

/** Makes one resolved system (or hands back its instance). */
export async function makeSystem(resolved: ResolvedSystem, context: SystemContext): Promise<MemorySystem> {
  if (resolved.instance) return resolved.instance;
  return checkMade(
    await resolved.definition.create(resolved.options, context),
    resolved.label,
    `system ${resolved.label}'s create`,
  );
}

async function infoOf(system: MemorySystem, label: string): Promise<SystemInfo | undefined> {
  if (typeof system.info !== "function") return undefined;
  try {
    return await system.info();
  } catch (error) {
    throw new SystemError(`info() failed: ${(error as Error).message}`, label, "info", { cause: error });
  }
}

/** Releases what the systems hold; a failure is logged, never thrown over the run's own result. */
export async function disposeSystems(made: readonly Pick<MadeSystem, "system" | "owned">[]): Promise<void> {
  for (const { system, owned } of made) {
    if (!owned || typeof system.dispose !== "function") continue;
    try {
      await system.dispose();
    } catch (error) {
      log.warn(`system ${system.id}: dispose failed: ${(error as Error).message}`);
    }
  }
}

/**
 * Makes every system, each with its record for the run snapshot. The embedder is
 * made first when any system needs it, so its failure is reported as such; if
 * one system fails, those made before it are disposed.
 */
export async function makeSystems(resolved: readonly ResolvedSystem[], context: SystemContext): Promise<MadeSystem[]> {
  if (resolved.some((r) => !r.instance && r.definition.needsEmbedder?.(r.options))) await context.embedder();
  const made: MadeSystem[] = [];
  try {
    for (const r of resolved) {
      const system = await makeSystem(r, context);
      const info = await infoOf(system, r.label);
      made.push({
        resolved: r,
        system,
        owned: !r.instance,
        record: {
          label: r.label,
          ...(r.spec ? { spec: r.spec } : {}),
          source: r.source,
          options: r.options,
          caps: { ...system.caps },
          ...(info && Object.keys(info).length ? { info } : {}),
        },
      });
    }
  } catch (error) {
    await disposeSystems(made);
    throw error;
  }
  return made;
}
