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

/** The data a full-release test runs on, and how its name says so. */
export interface ReleaseUnderTest {
  path: string;
  /** `full` when a MEMBENCH_FULL_* variable points at it, `sample` for the partial release in ../shared/datasets. */
  kind: "full" | "sample";
  /** Which data, for the test's name. */
  label: string;
}

/**
 * What a full-release test runs on: the release `variable` points at, else
 * the sample `sampleRel` under ../shared/datasets (a partial release: the test
 * asserts the sample's own counts), else nothing.
 */
export function releaseUnderTest(variable: string, sampleRel?: string): ReleaseUnderTest | undefined {
  const full = process.env[variable];
  if (full) return { path: full, kind: "full", label: `full release ${full} from ${variable}` };
  const sample = sampleRel ? sharedDataset(sampleRel) : undefined;
  if (sample) return { path: sample, kind: "sample", label: `sample ../shared/datasets/${sampleRel}` };
  return undefined;
}

/** `name [on <data>]`, so the test output says which data each test ran on. */
export function releaseTitle(name: string, data: ReleaseUnderTest | undefined): string {
  return `${name} [on ${data ? data.label : "no data"}]`;
}

/** For `it(name, { skip })`: why a full-release test has nothing to run on. */
export function releaseSkip(data: ReleaseUnderTest | undefined, variable: string, why: string): string | false {
  return data ? false : `no data: set ${variable} to the full release (${why})`;
}
