/** What the synth generator tests share: temporary folders, JSON files, a dataset's files, the stub's chat model. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createChatModel } from "../../src/llm/create.ts";
import { SYNTH_MANIFEST } from "../../src/synth/manifest.ts";

/** A fresh temporary folder named for the test (`mb-synth-<name>-<prefix>-…`). */
export const synthTmp = (name: string, prefix: string) => mkdtempSync(join(tmpdir(), `mb-synth-${name}-${prefix}-`));

export const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8"));
export const writeJson = (path: string, value: unknown) => writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);

/** Every file a generator wrote below `dir` (the manifest apart, which records the time), by relative path. */
export function datasetFiles(dir: string, base = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(dir, base), { withFileTypes: true })) {
    const rel = base ? `${base}/${e.name}` : e.name;
    if (e.isDirectory()) Object.assign(out, datasetFiles(dir, rel));
    else if (rel !== SYNTH_MANIFEST) out[rel] = readFileSync(join(dir, rel), "utf8");
  }
  return out;
}

/** How often each value occurs. */
export function count(values: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/** The model a generator's realiser calls: the OpenAI stub at `url`, cached in `cacheDir`, no retries. */
export const stubChatModel = (url: string, cacheDir: string) =>
  createChatModel({ spec: "openai:stub-model", baseUrl: url, apiKey: "test", cacheDir, maxRetries: 0 });
