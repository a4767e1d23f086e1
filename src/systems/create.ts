/**
 * `createSystem`: one system from a spec (`"bm25"`, `'ledger#{"extractor":"offline"}'`,
 * `"./my-system.js"`, `"pkg#export"`, `"http:…"`), a definition or an instance,
 * made with a context the caller gives. The library's counterpart of `--system`.
 */
import { ConfigError } from "../core/errors.ts";
import { type SystemContextInput, systemContext } from "./context.ts";
import type { SystemContext } from "./definition.ts";
import { checkSystemOptions } from "./options.ts";
import { makeSystem, resolveSystems, type SystemInput } from "./resolve.ts";
import type { MemorySystem } from "./types.ts";

export interface CreateSystemOptions extends SystemContextInput {
  /** Options set over the spec's own `#{…}`, top-level key by key, then checked by the system's schema. */
  options?: Record<string, unknown>;
  /** A whole context instead of the parts above. */
  context?: SystemContext;
  /** Where module paths and packages resolve from (default: the working directory). */
  cwd?: string;
}

export async function createSystem(input: SystemInput, options: CreateSystemOptions = {}): Promise<MemorySystem> {
  const resolved = await resolveSystems([input], { cwd: options.cwd });
  if (resolved.length !== 1) {
    throw new ConfigError(`createSystem makes one system; ${JSON.stringify(input)} names ${resolved.length}`, "system");
  }
  const one = resolved[0]!;
  if (options.options && Object.keys(options.options).length) {
    // Over the spec's own options, key by key; the schema checks the result again.
    const merged = { ...(one.options as Record<string, unknown>), ...options.options };
    if (one.instance) throw new ConfigError(`system ${one.label} is an instance; it takes no options`, one.label);
    one.options = checkSystemOptions(one.definition, merged, one.label);
  }
  return makeSystem(one, options.context ?? systemContext(options));
}
