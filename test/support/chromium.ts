/**
 * Finds Chromium for the browser tests: CHROMIUM_PATH when set, else the first
 * of chromium, chromium-browser or google-chrome on PATH. Without one a test
 * skips with a message saying where it looked, except under CI=true, where the
 * test runs and fails (.ci/run installs Debian's chromium).
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_NAMES = ["chromium", "chromium-browser", "google-chrome"];

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

export interface ChromiumLookup {
  /** The executable found, if any. */
  path?: string;
  /** Where it was looked for, for messages. */
  looked: string;
}

export function findChromium(env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  if (env.CHROMIUM_PATH) {
    const path = env.CHROMIUM_PATH;
    return { path: executable(path) ? path : undefined, looked: `CHROMIUM_PATH=${path}` };
  }
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      if (executable(join(dir, name))) return { path: join(dir, name), looked: `${name} on PATH` };
    }
  }
  return { looked: `CHROMIUM_PATH (unset), then ${CHROMIUM_NAMES.join(", ")} on PATH` };
}

export const UNDER_CI = process.env.CI === "true";

/** The `skip` option of a browser test: false when Chromium is there or under CI=true, else why it skips. */
export function chromiumSkip(lookup: ChromiumLookup, what: string, underCi = UNDER_CI): string | false {
  if (lookup.path || underCi) return false;
  return `no Chromium (looked at ${lookup.looked}): ${what} skipped; apt-get install chromium or set CHROMIUM_PATH (under CI=true it fails instead)`;
}

/** The executable, or the failure a browser test reports under CI=true when there is none. */
export function requireChromium(lookup: ChromiumLookup): string {
  if (!lookup.path) {
    throw new Error(
      `CI=true but no Chromium (looked at ${lookup.looked}): .ci/run installs Debian's chromium, or set CHROMIUM_PATH`,
    );
  }
  return lookup.path;
}

/** Flags of a headless Chromium that reaches nothing but the pages under test. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** The Chromium at `executablePath`, driven by playwright-core, headless and offline. */
export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: CHROMIUM_ARGS });
}

/** Polls `check` every 50 ms until it holds; fails naming `what` after `timeoutMs`. */
export async function until(what: string, check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
