/**
 * What a benchmark exports. Adding a benchmark is adding a folder that
 * implements this and registering it in `benchmarks/index.ts`.
 */
import type { Dataset } from "../core/model.ts";
import type { BenchmarkScorer } from "../score/types.ts";
import type { ProtocolFactory } from "./shared/protocol.ts";

export interface LoadOptions {
  /**
   * Strict (the default) turns anything suspicious, such as an unknown category
   * label, into a DataError. Lenient records it in `Dataset.warnings` instead,
   * which is what `data inspect` uses to list every problem at once.
   * Structural problems (unparseable JSON, a missing required field, a
   * duplicate id) are errors in both modes.
   */
  strict?: boolean;
  /** A variant the benchmark defines (e.g. MemoryAgentBench `all` adds the length-ablation rows). */
  variant?: string;
  /** Reports progress while a large file is read (bytes so far, total). */
  onProgress?: (done: number, total: number) => void;
}

/** One file of an official release, for `membench data pull`. */
export interface ReleaseFile {
  url: string;
  /** Path relative to the destination folder. */
  path: string;
  /** Expected content hash where the release is pinned. */
  sha256?: string;
  /** A zip whose contents are extracted into `path` (a folder). */
  unzip?: boolean;
}

export interface Release {
  /** Where the release lives, for people: a repository or dataset page. */
  home: string;
  /** The revision the URLs point at (commit or dataset revision). */
  revision: string;
  files: ReleaseFile[];
  /** Shown when the download fails: what to fetch by hand and where to put it. */
  manual: string;
}

export interface BenchmarkDefinition {
  id: string;
  title: string;
  /** Variants a user can name (e.g. `s`, `m`, `oracle`), with the default first. */
  variants: string[];
  /** Category label keys that the paper's tables break results down by. */
  labels: string[];
  load(path: string, options?: LoadOptions): Promise<Dataset>;
  release?: Release;
  /**
   * How a probe's context is built and asked (the paper's answer prompt and
   * retrieval depth); without one, the default protocol (`protocolFor`).
   */
  protocol?: ProtocolFactory;
  /** How its records are scored (`membench score`); without one, a run of it is not scored. */
  scorer?: BenchmarkScorer;
}
