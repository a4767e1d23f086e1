/**
 * The MemConflict benchmark definition (Tao et al., 2026, arXiv 2605.20926): what the
 * registry, the CLI and `data pull` need to know about it.
 */
import type { BenchmarkDefinition, Release } from "../types.ts";
import { BENCHMARK_ID, FINAL_FILE, LABEL_KEYS, VARIANTS } from "./format.ts";
import { loadMemconflict } from "./load.ts";
import { memconflictProtocol } from "./protocol.ts";
import { memconflictScorer } from "./score.ts";

const REPO = "TaoZhen1110/MemConflict";
/** The repository HEAD our reading of the release was checked against (2026-05-19). */
const REVISION = "17cbc14";

export const memconflictRelease: Release = {
  home: `https://github.com/${REPO}`,
  revision: REVISION,
  files: [{ url: `https://raw.githubusercontent.com/${REPO}/${REVISION}/Data/${FINAL_FILE}`, path: FINAL_FILE }],
  manual: [
    `Download Data/${FINAL_FILE} from https://github.com/${REPO} at commit ${REVISION} and save it as ${FINAL_FILE}`,
    "in the destination folder. The file is large (several MiB up to tens of MB, one persona of about a megabyte",
    "per line); if the raw URL returns a short text pointer instead of JSON lines, the file is stored with Git LFS:",
    `use the "Download raw file" button on GitHub or \`git lfs pull\` in a clone. Only the final file is needed;`,
    "the Step1_* … Step4_3 files in Data/ are intermediate pipeline outputs and cannot be loaded.",
    "The repository has no licence file; persona seeds come from Persona Hub (CC-BY-NC-SA-4.0).",
  ].join(" "),
};

export const memconflictBenchmark: BenchmarkDefinition = {
  id: BENCHMARK_ID,
  title: "MemConflict: long-term memory under dynamic, static and conditional conflicts",
  variants: [...VARIANTS],
  labels: [...LABEL_KEYS],
  load: loadMemconflict,
  release: memconflictRelease,
  protocol: memconflictProtocol,
  scorer: memconflictScorer,
};
