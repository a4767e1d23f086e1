/**
 * Loads a vendor SDK only when its system is chosen. Each SDK is an optional peer
 * dependency, so a missing one is a setup problem with one fix: the message says
 * exactly what to install.
 */
import { ConfigError } from "../../core/errors.ts";

/** How a module is imported; tests replace it to simulate a missing package. */
export type Importer = (specifier: string) => Promise<unknown>;

export const defaultImporter: Importer = (specifier) => import(specifier);

function isModuleNotFound(error: unknown, pkg: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const missing = code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND";
  // A missing dependency *of* the SDK is a different problem; only the SDK itself is named here.
  return missing && (message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`) || message.includes(`${pkg}/`));
}

/**
 * Imports `specifier` (a package or one of its subpaths) for system `systemId`.
 * `install` is the exact command to suggest, e.g. `npm install mem0ai@3`.
 */
export async function loadSdk<T>(
  systemId: string,
  specifier: string,
  install: string,
  importer: Importer = defaultImporter,
): Promise<T> {
  const pkg = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!;
  try {
    return (await importer(specifier)) as T;
  } catch (error) {
    if (isModuleNotFound(error, pkg)) {
      throw new ConfigError(
        `the ${systemId} system needs the package ${pkg}, which is not installed; run \`${install}\``,
        "system",
        systemId,
      );
    }
    throw error;
  }
}

/** The version in an installed package's package.json, or undefined when it cannot be read. */
export async function sdkVersion(pkg: string): Promise<string | undefined> {
  try {
    const { createRequire } = await import("node:module");
    const require = createRequire(import.meta.url);
    const { readFileSync } = await import("node:fs");
    const { dirname, join } = await import("node:path");
    // Resolve the entry point (always exported), then walk up to the package's own package.json.
    let dir = dirname(require.resolve(pkg));
    for (let i = 0; i < 6; i++) {
      try {
        const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
        if (json.name === pkg) return json.version;
      } catch {
        // no package.json at this level
      }
      dir = dirname(dir);
    }
  } catch {
    // not resolvable from here
  }
  return undefined;
}
