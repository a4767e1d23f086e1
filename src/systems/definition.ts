/**
 * How a memory system is made: a definition the registry holds (built in, a
 * user's module, an HTTP server, a vendor adapter). The runner and the CLI only
 * see definitions and the options a user gave, never a system by name: every
 * system takes its options through one channel, checked by its own schema and
 * recorded in the run snapshot.
 */
import type { z } from "zod";
import type { Embedder } from "../embed/types.ts";
import type { ChatModel } from "../llm/types.ts";
import type { MemorySystem } from "./types.ts";

/** The model endpoint as configured for the run (never written to disk with its key). */
export interface ModelEndpoint {
  baseUrl?: string;
  apiKey?: string;
  /** Chat model name. */
  model?: string;
  /** Embeddings endpoint and model, for systems that embed through their own client (mem0's OSS engine). */
  embedBaseUrl?: string;
  embedModel?: string;
}

/** What the run gives every system it makes. Everything costly is made on first use. */
export interface SystemContext {
  /** The run's embedder (`--embedder`); created on first call, shared by every system of the run. */
  embedder(): Promise<Embedder>;
  /** The run's chat model, when one is configured (answers, and systems that call a model themselves). */
  model?: ChatModel;
  /** Whether a model is configured, and if not why: for a system whose option needs one to refuse early. */
  modelStatus: { configured: boolean; detail: string };
  /** The endpoint behind `model`, for systems that call it through their own SDK. */
  endpoint?: ModelEndpoint;
  /** `--token-budget`: how many o200k tokens an unranked system returns at most. */
  tokenBudget?: number;
  /** `--keep-remote`: leave remote users/containers in place at close, to inspect them. */
  keepRemote?: boolean;
  /** Folder a system may keep files in (caches, local stores); made by the system when it needs it. */
  cacheDir: string;
}

/** Versions and names a system reports, recorded in the run snapshot. */
export interface SystemInfo {
  /** The system's own name and version (e.g. a server's, an SDK's). */
  name?: string;
  version?: string;
  /** Anything else worth recording: SDK package and version, protocol version, endpoint (no secrets). */
  [key: string]: unknown;
}

export interface SystemDefinition<O = Record<string, unknown>> {
  /** The id users name in `--system` (`bm25`, `ledger`, `mem0`, …). */
  id: string;
  /** One line for `--help` and `membench systems`. */
  summary: string;
  /**
   * The options it takes (`--system id#{json}` or `--system-option id.key=value`),
   * checked before any work starts; unknown keys are refused. None when absent.
   */
  options?: z.ZodType<O>;
  /** Makes one instance with checked options; may reach a server (caps, auth) and fail with a SystemError. */
  create(options: O, context: SystemContext): MemorySystem | Promise<MemorySystem>;
  /** Whether this configuration needs the run's embedder (so a run without one never loads the model). */
  needsEmbedder?(options: O): boolean;
}
