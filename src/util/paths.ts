import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The membench package root (where package.json lives), from src/util or its compiled twin dist/util. */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Where the files read at run time live (prompt templates, the viewer's static
 * files): in src/, next to the code that reads them, and shipped there in the
 * package (package.json `files`), so the compiled code in dist/ reads the same
 * files and there is one copy to edit.
 */
export function assetPath(...parts: string[]): string {
  return resolve(PACKAGE_ROOT, "src", ...parts);
}

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** The small datasets the project ships in every official format (used by `demo` and the tests). */
export function shippedFixture(benchmark: string): string {
  return resolve(PACKAGE_ROOT, "test/fixtures", benchmark);
}
