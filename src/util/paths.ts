import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The membench package root (where package.json lives). */
export const PACKAGE_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(resolve(PACKAGE_ROOT, "package.json"), "utf8")) as { version: string };
  return pkg.version;
}

/** The small datasets the project ships in every official format (used by `demo` and the tests). */
export function shippedFixture(benchmark: string): string {
  return resolve(PACKAGE_ROOT, "test/fixtures", benchmark);
}
