/**
 * `membench-synth.json`, written into every generated dataset folder: which
 * generator (and version) made it, from which seed and knobs, realised how
 * (templates or which model, with the hash of every prompt template), and
 * every file with its size and SHA-256, so a file changed afterwards is
 * noticed. It is the only place a wall-clock time appears: the dataset files
 * themselves are byte-identical for the same seed and knobs.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { DataError } from "../core/errors.ts";
import { sha256Hex } from "../core/ids.ts";
import type { ValidationIssue } from "./types.ts";

export const SYNTH_MANIFEST = "membench-synth.json";
export const MANIFEST_FORMAT = "membench-synth/1";

const fileEntry = z.object({ path: z.string(), bytes: z.number(), sha256: z.string() });

const manifestSchema = z.object({
  format: z.literal(MANIFEST_FORMAT),
  /** `in progress` while generating (and after a crash), `stopped` at --max-cost, `complete` when done. */
  status: z.enum(["in progress", "stopped", "complete"]),
  generator: z.string(),
  generatorVersion: z.string(),
  membenchVersion: z.string(),
  seed: z.number(),
  knobs: z.record(z.string(), z.unknown()),
  realiser: z.object({
    kind: z.enum(["templates", "llm"]),
    id: z.string(),
    temperature: z.number().optional(),
  }),
  prompts: z.record(z.string(), z.string()),
  files: z.array(fileEntry),
  usage: z
    .object({
      calls: z.number(),
      cachedCalls: z.number(),
      inputTokens: z.number(),
      outputTokens: z.number(),
      costUsd: z.number().nullable(),
    })
    .optional(),
  createdAt: z.string(),
});

export type SynthManifest = z.infer<typeof manifestSchema>;
export type ManifestFile = z.infer<typeof fileEntry>;

export function manifestPath(dir: string): string {
  return join(dir, SYNTH_MANIFEST);
}

/** The manifest of `dir`, undefined when it has none; a DataError when it is not ours. */
export function readManifest(dir: string): SynthManifest | undefined {
  const path = manifestPath(dir);
  if (!existsSync(path)) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new DataError(`not valid JSON: ${(error as Error).message}`, { file: path });
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DataError(`not a membench-synth manifest: ${issue?.message}`, {
      file: path,
      field: issue?.path.join(".") || undefined,
    });
  }
  return parsed.data;
}

export function writeManifest(dir: string, manifest: SynthManifest): void {
  writeFileSync(manifestPath(dir), `${JSON.stringify(manifest, null, 2)}\n`);
}

export function describeFile(dir: string, path: string): ManifestFile {
  const bytes = readFileSync(join(dir, path));
  return { path, bytes: bytes.length, sha256: sha256Hex(bytes) };
}

/** Files listed in the manifest that are missing or changed since generation (warnings: edits may be deliberate). */
export function checkManifestFiles(dir: string, manifest: SynthManifest): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (manifest.status !== "complete") {
    issues.push({
      file: SYNTH_MANIFEST,
      field: "status",
      problem: `the generation is ${manifest.status}: run the same synth command again to finish it`,
    });
  }
  for (const f of manifest.files) {
    const path = join(dir, f.path);
    if (!existsSync(path) || !statSync(path).isFile()) {
      issues.push({ file: f.path, problem: "listed in the manifest but missing" });
      continue;
    }
    const now = describeFile(dir, f.path);
    if (now.sha256 !== f.sha256) {
      issues.push({
        file: f.path,
        problem: `changed since it was generated (sha256 ${now.sha256.slice(0, 12)}…, manifest ${f.sha256.slice(0, 12)}…, ${now.bytes} vs ${f.bytes} bytes)`,
        severity: "warning",
      });
    }
  }
  return issues;
}
