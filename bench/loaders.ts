/**
 * Loading speed per loader, in MB/s, on the shared samples when present and on
 * the project's own fixtures otherwise. The baseline is a bare JSON.parse of
 * the same bytes in the same run, so the ratio says what the loader adds.
 */
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { BENCHMARKS } from "../src/benchmarks/index.ts";
import { fileExists, findFiles } from "../src/benchmarks/shared/files.ts";
import { shippedFixture } from "../src/util/paths.ts";

const SHARED = resolve(import.meta.dirname, "../../shared/datasets");
const SAMPLES: Record<string, string> = {
  subtlememory: "subtlememory",
  realmem: "realmem",
  memora: "memora",
  locomo: "locomo",
};

async function timeIt(fn: () => Promise<unknown> | unknown, repeat: number): Promise<number> {
  await fn();
  const start = performance.now();
  for (let i = 0; i < repeat; i++) await fn();
  return (performance.now() - start) / repeat;
}

export async function runLoaderBench(): Promise<void> {
  console.log("loader speed (MB/s; baseline = JSON.parse of the same .json/.jsonl bytes)");
  console.log("| benchmark | data | MB | loader MB/s | JSON.parse MB/s | loader / parse time |");
  console.log("|---|---|---:|---:|---:|---:|");
  for (const bench of BENCHMARKS) {
    const sample = SAMPLES[bench.id];
    const path = sample && fileExists(resolve(SHARED, sample)) ? resolve(SHARED, sample) : shippedFixture(bench.id);
    if (!fileExists(path)) continue;
    const dataset = await bench.load(path, { strict: false });
    const bytes = dataset.source.files.reduce((n, f) => n + f.bytes, 0);
    const mb = bytes / 1e6;
    const repeat = mb > 1 ? 3 : 20;
    const loadMs = await timeIt(() => bench.load(path, { strict: false }), repeat);
    const jsonFiles = (await findFiles(path, (p) => p.endsWith(".json") || p.endsWith(".jsonl"))).filter(
      (f) => statSync(f).size > 0,
    );
    const parseMs = jsonFiles.length
      ? await timeIt(() => {
          for (const f of jsonFiles) {
            const text = readFileSync(f, "utf8");
            if (f.endsWith(".jsonl")) for (const l of text.split("\n")) l.trim() && JSON.parse(l);
            else JSON.parse(text);
          }
        }, repeat)
      : Number.NaN;
    const label = path.startsWith(SHARED) ? "sample" : "fixture";
    const rate = (ms: number) => (Number.isFinite(ms) ? (mb / (ms / 1000)).toFixed(1) : "n/a");
    const ratio = Number.isFinite(parseMs) ? (loadMs / parseMs).toFixed(2) : "n/a";
    console.log(`| ${bench.id} | ${label} | ${mb.toFixed(2)} | ${rate(loadMs)} | ${rate(parseMs)} | ${ratio} |`);
  }
}
