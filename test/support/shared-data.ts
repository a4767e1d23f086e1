/**
 * Locates the optional real-data samples in ../shared/datasets. Tests that use
 * them pass `skip: skipUnless(path)` so they skip cleanly when it is absent.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Absolute path of `rel` under ../shared/datasets, or undefined when absent. */
export function sharedDataset(rel: string): string | undefined {
  const path = resolve(root, "../shared/datasets", rel);
  return existsSync(path) ? path : undefined;
}

/** For `it(name, { skip: skipUnless(path) }, fn)`. */
export function skipUnless(path: string | undefined): string | false {
  return path ? false : "../shared/datasets is absent: sample-data test skipped";
}

/** Absolute path of a fixture the project owns, under test/fixtures. */
export function fixture(rel: string): string {
  return resolve(root, "test/fixtures", rel);
}
