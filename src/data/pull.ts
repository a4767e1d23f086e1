/**
 * `membench data pull`: downloads an official release, records its revision
 * and file hashes in `membench-release.json`, and checks that it loads.
 * Offline, it fails at the first file with what to download by hand and where.
 */
import { createHash } from "node:crypto";
import { createWriteStream, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { BenchmarkDefinition, Release } from "../benchmarks/types.ts";
import { unzip } from "./unzip.ts";

export class PullError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "PullError";
  }
}

export interface PulledFile {
  path: string;
  url: string;
  sha256: string;
  bytes: number;
}

export interface PullResult {
  dest: string;
  manifest: string;
  files: PulledFile[];
}

export interface PullOptions {
  fetch?: typeof fetch;
  /** How long to wait for a server to start answering, per file. */
  connectTimeoutMs?: number;
  onFile?: (url: string, index: number, total: number) => void;
}

export const RELEASE_MANIFEST = "membench-release.json";

function manualHelp(release: Release, dest: string): string {
  return `Download it by hand instead: ${release.manual}\nPut the files under ${dest} (release: ${release.home} at ${release.revision}), then run \`membench data inspect\` on that folder.`;
}

/**
 * Streams `url` into `target` (through a `.partial` file, renamed only when
 * complete), hashing as it goes: LongMemEval_m is 2.7 GB and must never sit
 * in memory whole.
 */
async function download(url: string, target: string, options: PullOptions): Promise<{ sha256: string; bytes: number }> {
  const doFetch = options.fetch ?? fetch;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.connectTimeoutMs ?? 20_000);
  let response: Response;
  try {
    response = await doFetch(url, { signal: controller.signal, redirect: "follow" });
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok || !response.body) throw new Error(`HTTP ${response.status} ${response.statusText}`);
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  const hash = createHash("sha256");
  let bytes = 0;
  const body = Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>);
  body.on("data", (chunk: Buffer) => {
    hash.update(chunk);
    bytes += chunk.length;
  });
  try {
    await pipeline(body, createWriteStream(partial));
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
  return { sha256: hash.digest("hex"), bytes };
}

function writeAtomic(path: string, data: Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(`${path}.partial`, data);
  renameSync(`${path}.partial`, path);
}

export async function pullRelease(
  bench: BenchmarkDefinition,
  dest: string,
  options: PullOptions = {},
): Promise<PullResult> {
  const release = bench.release;
  if (!release) throw new PullError(`${bench.id} has no downloadable release registered`);
  const files: PulledFile[] = [];
  for (const [i, file] of release.files.entries()) {
    options.onFile?.(file.url, i, release.files.length);
    const target = join(dest, file.unzip ? `${file.path}.zip` : file.path);
    let got: { sha256: string; bytes: number };
    try {
      got = await download(file.url, target, options);
    } catch (error) {
      const reason = (error as Error).name === "AbortError" ? "no answer in time" : (error as Error).message;
      throw new PullError(`cannot download ${file.url}: ${reason}\n${manualHelp(release, dest)}`, { cause: error });
    }
    const partial = `${target}.partial`;
    if (file.sha256 && file.sha256 !== got.sha256) {
      rmSync(partial, { force: true });
      throw new PullError(`${file.url}: sha256 ${got.sha256} does not match the pinned ${file.sha256}`);
    }
    if (file.unzip) {
      for (const entry of unzip(readFileSync(partial), file.url)) {
        if (entry.name.startsWith("__MACOSX/") || entry.name.includes("..")) continue;
        writeAtomic(join(dest, file.path, entry.name), entry.data);
      }
      rmSync(partial, { force: true });
    } else {
      renameSync(partial, target);
    }
    files.push({ path: file.path, url: file.url, sha256: got.sha256, bytes: got.bytes });
  }
  const manifest = join(dest, RELEASE_MANIFEST);
  const record = {
    benchmark: bench.id,
    home: release.home,
    revision: release.revision,
    pulledAt: new Date().toISOString(),
    files,
  };
  writeFileSync(manifest, `${JSON.stringify(record, null, 2)}\n`);
  return { dest, manifest, files };
}
