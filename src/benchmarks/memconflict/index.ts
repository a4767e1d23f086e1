export { memconflictBenchmark, memconflictRelease } from "./benchmark.ts";
export { loadMemconflict } from "./load.ts";
