/**
 * Removes model and embedder settings from the environment, so a test never
 * reaches a developer's real endpoint, and gives the test process (and the
 * bins it spawns) a cache folder of its own instead of the user's
 * (~/.cache/membench): no test sees another's cached answers. Import it first
 * in tests that run stages.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

for (const key of Object.keys(process.env)) {
  if (/^(MEMBENCH_|OPENAI_)/.test(key)) delete process.env[key];
}
const cache = mkdtempSync(join(tmpdir(), "mb-test-cache-"));
process.env.XDG_CACHE_HOME = cache;
process.on("exit", () => rmSync(cache, { recursive: true, force: true }));
export const cleanEnv = true;
