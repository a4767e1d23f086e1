/**
 * Harness overhead: the sample set (or the project's fixtures) replayed into
 * the `none` system with a scripted zero-latency answerer, one unit at a time.
 * Reports probes per second and the share of wall time spent outside system
 * and model calls. Baseline in the same run: the same replay with no answerer,
 * so the ratio shows what the answer stage's plumbing costs.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { loadDataset } from "../src/benchmarks/index.ts";
import { fileExists } from "../src/benchmarks/shared/files.ts";
import { readRecords, startRun } from "../src/run/runner.ts";
import { RunStore } from "../src/run/store.ts";
import { shippedFixture } from "../src/util/paths.ts";

const SHARED = resolve(import.meta.dirname, "../../shared/datasets");
const CASES: Array<[string, string]> = [
  ["realmem", "realmem"],
  ["locomo", "locomo"],
  ["subtlememory", "subtlememory"],
  ["memora", "memora/weekly"],
];

/** Below this a phase is too short for a rate: timer resolution and scheduling noise dominate. */
const MIN_PHASE_MS = 20;
const TOO_SHORT = `— (< ${MIN_PHASE_MS} ms)`;
const rate = (perSecond: number | undefined) => (perSecond === undefined ? TOO_SHORT : perSecond.toFixed(0));

async function measure(bench: string, data: string, llm: string | undefined) {
  const loadStart = performance.now();
  await loadDataset(bench, data);
  const loadMs = performance.now() - loadStart;
  const out = mkdtempSync(join(tmpdir(), "mb-bench-"));
  const started = performance.now();
  const outcome = await startRun({
    benchmark: bench,
    data,
    systems: ["none"],
    out,
    llm,
    concurrency: 1,
    progress: false,
  });
  const wall = performance.now() - started;
  const records = readRecords(outcome.dir);
  const store = new RunStore(join(outcome.dir, "run.sqlite"));
  const ingest = store.units().reduce((n, u) => n + u.ingestMs.reduce((a, b) => a + b, 0), 0);
  store.close();
  const inside =
    ingest + records.reduce((n, r) => n + r.timings.searchMs + r.timings.flushMs + (r.timings.answerMs ?? 0), 0);
  // The run loads the data itself once; that load is measured apart and left out of the replay's wall time.
  // A replay shorter than MIN_PHASE_MS (or a load measured longer than the run) gives no rate: dividing by a
  // phase that rounds to a millisecond printed rates like 64,000 probes/s.
  const replay = wall - loadMs;
  const rated = replay >= MIN_PHASE_MS;
  return {
    probes: records.length,
    wall,
    perSecond: rated ? records.length / (replay / 1000) : undefined,
    outside: rated ? 1 - inside / replay : undefined,
  };
}

export async function runHarnessBench(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "mb-script-"));
  const script = join(dir, "zero.jsonl");
  writeFileSync(script, `${JSON.stringify({ reply: "ok" })}\n`);
  console.log(
    "\nharness overhead (system `none`, concurrency 1; data loading excluded; per-run setup, hashing and the store included)",
  );
  console.log(
    "| benchmark | data | probes | probes/s no model | probes/s scripted | outside calls (scripted) | scripted / none time |",
  );
  console.log("|---|---|---:|---:|---:|---:|---:|");
  for (const [bench, rel] of CASES) {
    const sample = resolve(SHARED, rel);
    const data = fileExists(sample) ? sample : shippedFixture(bench);
    const baseline = await measure(bench, data, undefined);
    const scripted = await measure(bench, data, `scripted:${script}`);
    console.log(
      `| ${bench} | ${data.startsWith(SHARED) ? "sample" : "fixture"} | ${scripted.probes} | ${rate(baseline.perSecond)} | ${rate(scripted.perSecond)} | ${scripted.outside === undefined ? TOO_SHORT : `${(scripted.outside * 100).toFixed(1)}%`} | ${(scripted.wall / baseline.wall).toFixed(2)} |`,
    );
  }
}
