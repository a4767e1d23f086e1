/**
 * A run's config.json: what a run was started with (options, systems, data
 * files with their hashes, protocol, model), and what every process that works
 * on the run (a resume, a shard, a worker) derives from it the same way: the
 * selected episodes, the answer prompt's hash, the systems to make again.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Protocol, ProtocolOptions } from "../benchmarks/shared/protocol.ts";
import { ConfigError } from "../core/errors.ts";
import { type Dataset, type Episode, Gold } from "../core/model.ts";
import type { Setting } from "../core/record.ts";
import { resolveModelSettings } from "../llm/create.ts";
import type { QueueOptions } from "../pool/coordinator.ts";
import type { SystemInput, SystemRecord } from "../systems/resolve.ts";
import { applySystemOptions } from "../systems/spec.ts";
import { hashFiles } from "../util/file-hash.ts";
import { type LedgerFlags, legacyLedgerOptions } from "./ledger-config.ts";
import type { ScoreRunOptions } from "./score-run.ts";
import type { ShardSpec } from "./shard.ts";

export interface RunOptions {
  benchmark: string;
  data: string;
  /**
   * The systems: `--system` specs (`bm25`, `ledger#{"extractor":"offline"}`,
   * `./my-system.js`, `pkg#export`, `http:URL`; docs/systems.md), SystemDefinitions,
   * or MemorySystem instances (an instance cannot be rebuilt from config.json:
   * resuming its run needs the same instance passed to resumeRun again).
   */
  systems: SystemInput[];
  /** `--system-option label.key=value`, applied in order over the specs' own options. */
  systemOptions?: string[];
  /** `--system-concurrency N`: `concurrency` for every system whose schema takes one. */
  systemConcurrency?: number;
  /** `--keep-remote`: remote systems leave their users/containers in place at close. */
  keepRemote?: boolean;
  settings?: Setting[];
  /** At most this many episodes (the first ones, in load order). */
  limit?: number;
  /** Only these episode ids. */
  episodes?: string[];
  /** Parent folder of run directories (default `runs`). */
  out?: string;
  /** Run id (default: benchmark and a timestamp to the second, then `-2`, `-3`… when that folder exists). */
  id?: string;
  concurrency?: number;
  maxCost?: number;
  protocol?: ProtocolOptions;
  embedder?: string;
  /** `--embed-workers`: threads running the offline embedder (default MEMBENCH_EMBED_WORKERS, else 1); vectors do not depend on it. */
  embedWorkers?: number;
  /** `openai`, `openai:MODEL` or `scripted:FILE`; default from settings. */
  llm?: string;
  /** USD per million tokens, for the cost estimate and `--max-cost`. */
  price?: { inputPerMTok: number; outputPerMTok: number };
  /** `--token-budget`: given to every system's context (full-context's budget unless its own option says). */
  tokenBudget?: number;
  progress?: boolean;
  /** Judges, prompts and benchmark options for the scoring that follows the answers. */
  scoring?: ScoreRunOptions;
  /** `--variant`: the benchmark variant to load (e.g. MemoryAgentBench `all`); kept for resume and score. */
  variant?: string;
  /** Load the data leniently (`--lenient`): suspicious records are warnings, not errors. Kept for resume and score. */
  lenient?: boolean;
  /**
   * `--queue redis://…`: the units go to a worker pool (`membench worker`) instead of
   * running here; recorded without the URL's password (docs/architecture.md).
   */
  queue?: QueueOptions;
  /** Resolves when a `--queue` run should stop waiting for its workers (default: Ctrl-C); not recorded. */
  stop?: Promise<void>;
  /** `--shard i/n`: execute only the units of shard i of n (src/run/shard.ts); `membench merge` joins the shards. */
  shard?: ShardSpec;
  /** Called once the run directory holds its config.json (from then on `--resume <dir>` finishes it); not recorded. */
  onStart?: (dir: string) => void;
  /** Takes the "retrieval depth reaches the whole haystack" notices instead of the log (the demo counts them); not recorded. */
  onHaystackWarning?: (message: string) => void;
}

/** How a run's options are recorded: `systems` holds the row labels; each system's spec, options and info are in `RunSnapshot.systems`. */
export type RecordedRunOptions = Required<Pick<RunOptions, "benchmark" | "data" | "settings">> & {
  systems: string[];
} & Omit<
    RunOptions,
    "progress" | "systems" | "systemOptions" | "systemConcurrency" | "stop" | "onStart" | "onHaystackWarning"
  > &
  LedgerFlags;

export interface RunSnapshot {
  id: string;
  variant?: string;
  createdAt: string;
  membench: string;
  gitCommit?: string;
  node: string;
  /** `options.systems` is the row labels; runs before systems took options also hold `ledgerExtractor`, `ledgerRetrieval`, `ledgerQueryRewrite`. */
  options: RecordedRunOptions;
  /** Every system as made: spec, source (absolute module path, package version), options, caps, info(). Absent in older runs. */
  systems?: SystemRecord[];
  dataFiles: Array<{ path: string; bytes: number; sha256: string }>;
  protocol: Omit<Protocol, "prepare" | "oracle" | "buildContext" | "answerMessages"> & { answerPromptHash: string };
  model: { configured: boolean; detail: string; spec?: string };
  embedder?: string;
  /** A run merged from shards (`membench merge`): when, and from which run directories. */
  merged?: { at: string; from: Array<{ dir: string; id: string; shard?: ShardSpec }> };
}

export const CONFIG_FILE = "config.json";

/** Reads a run directory's config.json; a missing or unreadable one is a ConfigError naming `setting` and `flag`. */
export function readSnapshot(dir: string, setting = "resume", flag = "--resume"): RunSnapshot {
  const path = join(dir, CONFIG_FILE);
  if (!existsSync(path)) throw new ConfigError(`no ${CONFIG_FILE} in ${dir}: not a run directory`, setting, flag);
  try {
    return JSON.parse(readFileSync(path, "utf8")) as RunSnapshot;
  } catch (error) {
    throw new ConfigError(`cannot read ${path}: ${(error as Error).message}`, setting, flag);
  }
}

/** The SHA-256 of each data file, remembered in the cache folder by path, size and mtime (util/file-hash.ts). */
export function hashDataFiles(paths: readonly string[]): Promise<string[]> {
  return hashFiles(paths, resolveModelSettings({}).cacheDir);
}

/** The episodes a run replays: `--episodes`, then `--limit`, in load order. */
export function selectEpisodes(dataset: Dataset, options: Pick<RunOptions, "episodes" | "limit">): Episode[] {
  let episodes = dataset.episodes;
  if (options.episodes?.length) {
    const wanted = new Set(options.episodes);
    const unknown = options.episodes.filter((id) => !episodes.some((e) => e.id === id));
    if (unknown.length) throw new ConfigError(`no such episode: ${unknown.join(", ")}`, "episodes", "--episodes");
    episodes = episodes.filter((e) => wanted.has(e.id));
  }
  if (options.limit !== undefined) episodes = episodes.slice(0, options.limit);
  return episodes;
}

/** Hash of the answer prompt as rendered for a placeholder probe: changes whenever the wording does. */
export function answerPromptHash(protocol: Protocol): string {
  const probe = {
    id: "p",
    question: "{question}",
    time: "{time}",
    position: { at: "end" as const },
    labels: {},
    gold: Gold.parse({}),
  };
  const messages = protocol.answerMessages(probe, { text: "{context}", tokens: 0, used: 0 });
  return createHash("sha256").update(JSON.stringify(messages)).digest("hex").slice(0, 16);
}

/** The protocol's options, with the benchmark options that shape answers (`stage: "answer"`). */
export function protocolOptions(options: Pick<RunOptions, "protocol" | "scoring">): ProtocolOptions {
  return { ...options.protocol, benchmark: options.scoring?.options ?? {} };
}

/** The systems a snapshot records; a run started before systems took options recorded only ids and the ledger's flags. */
export function recordedSystems(snapshot: Pick<RunSnapshot, "options" | "systems">): SystemRecord[] {
  if (snapshot.systems) return snapshot.systems;
  const ids = snapshot.options.systems;
  const specs = ids.map((id) => ({ label: id, id, options: {} as Record<string, unknown> }));
  return applySystemOptions(specs, legacyLedgerOptions(ids, snapshot.options)).map((s) => ({
    label: s.label,
    spec: s.label,
    source: { kind: "registered", id: s.id },
    options: s.options,
  }));
}

/**
 * Refuses to go on with a run whose data files or answer prompt changed since
 * it started: answers asked now must see what the stored ones saw.
 */
export async function checkUnchanged(
  snapshot: RunSnapshot,
  protocol: Protocol,
  where: string,
  instead = "start a new run instead of resuming",
): Promise<void> {
  const present = snapshot.dataFiles.filter((f) => existsSync(f.path));
  const hashes = new Map(
    (await hashDataFiles(present.map((f) => f.path))).map((sha, i) => [present[i]!.path, sha] as const),
  );
  for (const f of snapshot.dataFiles) {
    if (hashes.get(f.path) !== f.sha256) {
      throw new ConfigError(`data file ${f.path} changed since the run started; ${instead}`, "resume", where);
    }
  }
  const hash = answerPromptHash(protocol);
  if (snapshot.protocol?.answerPromptHash && snapshot.protocol.answerPromptHash !== hash) {
    throw new ConfigError(
      `the answer prompt changed since the run started (${snapshot.protocol.answerPromptHash} → ${hash}, a newer membench?); ${instead}`,
      "resume",
      where,
    );
  }
}
