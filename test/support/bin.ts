/**
 * The real bin for tests and benches that spawn it. It runs the compiled code
 * in dist/ (`npm test` builds it first); run on its own, a test file would
 * otherwise exercise whatever dist/ held, so this refuses a dist/ older than
 * src/ and says how to rebuild.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

export const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "bin/membench.js");
/** tsc -b writes (or touches) it on every build that is up to date with src/. */
const BUILD_INFO = join(ROOT, "dist/.tsbuildinfo");

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /\.m?ts$/.test(entry.name)) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

let checked = false;

/** `bin/membench.js`, once dist/ is known to be built from the current src/. */
export function membenchBin(): string {
  if (checked) return BIN;
  const built = statSync(BUILD_INFO, { throwIfNoEntry: false })?.mtimeMs;
  if (built === undefined) throw new Error("dist/ is not built: run `npm run build` (npm test does it first)");
  if (newestMtime(join(ROOT, "src")) > built) {
    throw new Error("dist/ is older than src/: run `npm run build` (npm test does it first)");
  }
  checked = true;
  return BIN;
}

export interface BinResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built bin with `args` and waits for it; `env` is added to this process's environment. */
export function runBin(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeout?: number } = {},
): BinResult {
  const r = spawnSync(process.execPath, [membenchBin(), ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    encoding: "utf8",
    ...(options.timeout ? { timeout: options.timeout } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}
