/**
 * What every system of a run (or of `membench conformance`) gets: the embedder
 * of `--embedder` made on first use, the run's chat model and its status, the
 * endpoint, `--token-budget`, `--keep-remote` and a cache folder. Built from
 * flags, environment and config file; keys stay in memory, never on disk.
 */
import { join } from "node:path";
import { resolveSetting } from "../config/settings.ts";
import { createEmbedder, parseEmbedWorkers } from "../embed/create.ts";
import type { Embedder } from "../embed/types.ts";
import {
  type CreateChatModelOptions,
  createChatModel,
  type ManagedChatModel,
  resolveModelSettings,
} from "../llm/create.ts";
import type { ChatModel } from "../llm/types.ts";
import { systemContext } from "../systems/context.ts";
import type { SystemContext } from "../systems/definition.ts";

/** `--embed-workers`, else MEMBENCH_EMBED_WORKERS, else undefined (the embedder's default). */
export function configuredEmbedWorkers(flag: string | number | undefined): number | undefined {
  if (flag !== undefined) return parseEmbedWorkers(flag, "--embed-workers");
  const env = resolveSetting("embedWorkers", {});
  return env.value === undefined ? undefined : parseEmbedWorkers(env.value, env.from);
}

/**
 * The embedder named by `spec`, else MEMBENCH_EMBEDDER, else USE-lite; cached, with the
 * model endpoint's settings and the offline model's worker threads (`workers`, else
 * MEMBENCH_EMBED_WORKERS, else the default).
 */
export function configuredEmbedder(spec: string | undefined, options: { workers?: number } = {}): Promise<Embedder> {
  const s = resolveModelSettings({});
  const workers = configuredEmbedWorkers(options.workers);
  return createEmbedder(spec ?? process.env.MEMBENCH_EMBEDDER ?? "use-lite", {
    cacheDir: s.cacheDir,
    baseUrl: process.env.MEMBENCH_EMBED_BASE_URL ?? s.baseUrl,
    apiKey: s.apiKey,
    ...(workers !== undefined ? { workers } : {}),
  });
}

/** The chat model of `--llm` (or the environment and config file), with its retries, limits and cache. */
export function configuredChatModel(
  llm: string | undefined,
  extra: Pick<CreateChatModelOptions, "prices"> = {},
): ManagedChatModel {
  const s = resolveModelSettings({ flags: { llm } });
  return createChatModel({
    spec: s.spec,
    baseUrl: s.baseUrl,
    apiKey: s.apiKey,
    model: s.model,
    cacheDir: s.cacheDir,
    concurrency: s.concurrency,
    rps: s.rps,
    timeoutMs: s.timeoutMs,
    maxRetries: s.maxRetries,
    ...extra,
  });
}

export interface RunContextInput {
  /** `--embedder`. */
  embedder?: string;
  /** `--embed-workers`: threads of the offline model. */
  embedWorkers?: number;
  /** `--llm`. */
  llm?: string;
  model?: ChatModel;
  modelStatus: { configured: boolean; detail: string };
  tokenBudget?: number;
  keepRemote?: boolean;
}

/** The context of a run's systems, from its settings. */
export function runSystemContext(input: RunContextInput): SystemContext {
  const s = resolveModelSettings({ flags: { llm: input.llm } });
  const embedderSpec = input.embedder ?? process.env.MEMBENCH_EMBEDDER;
  const embedModel = embedderSpec?.startsWith("openai:") ? embedderSpec.slice("openai:".length) : undefined;
  const chatModel = s.spec.kind === "openai" ? (s.spec.model ?? s.model) : undefined;
  return systemContext({
    embedder: () => configuredEmbedder(input.embedder, { workers: input.embedWorkers }),
    ...(input.model ? { model: input.model } : {}),
    modelStatus: input.modelStatus,
    endpoint: {
      ...(s.baseUrl ? { baseUrl: s.baseUrl } : {}),
      ...(s.apiKey ? { apiKey: s.apiKey } : {}),
      ...(chatModel ? { model: chatModel } : {}),
      ...((process.env.MEMBENCH_EMBED_BASE_URL ?? s.baseUrl)
        ? { embedBaseUrl: process.env.MEMBENCH_EMBED_BASE_URL ?? s.baseUrl }
        : {}),
      ...(embedModel ? { embedModel } : {}),
    },
    ...(input.tokenBudget !== undefined ? { tokenBudget: input.tokenBudget } : {}),
    ...(input.keepRemote ? { keepRemote: true } : {}),
    cacheDir: join(s.cacheDir, "systems"),
  });
}
