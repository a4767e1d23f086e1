/**
 * The ledger's settings as `membench run` and `membench serve` take them:
 * `--ledger-extractor`, `--ledger-retrieval`, `--ledger-query-rewrite`, and the embedder and chat model
 * resolved from flags, environment and config file. Checked before any work
 * starts, with errors that name the flag.
 */
import { ConfigError } from "../core/errors.ts";
import { createEmbedder } from "../embed/create.ts";
import type { Embedder } from "../embed/types.ts";
import { parseRetrievalOverrides, type RetrievalOverrides } from "../ledger/retrieval-overrides.ts";
import {
  type CreateChatModelOptions,
  createChatModel,
  type ManagedChatModel,
  resolveModelSettings,
} from "../llm/create.ts";

export type LedgerExtractorMode = "auto" | "offline" | "llm";
export const LEDGER_EXTRACTOR_MODES: readonly LedgerExtractorMode[] = ["auto", "offline", "llm"];

/** The extractor mode, checked: known, and `llm` only with a model configured. */
export function checkLedgerExtractorMode(
  mode: string | undefined,
  model: { configured: boolean; detail: string },
): LedgerExtractorMode {
  const m = (mode ?? "auto") as LedgerExtractorMode;
  if (!LEDGER_EXTRACTOR_MODES.includes(m)) {
    throw new ConfigError(
      `unknown ledger extractor "${mode}"; known: ${LEDGER_EXTRACTOR_MODES.join(", ")}`,
      "ledger-extractor",
      "--ledger-extractor",
    );
  }
  if (m === "llm" && !model.configured) {
    throw new ConfigError(
      `--ledger-extractor llm needs a model (${model.detail})`,
      "ledger-extractor",
      "--ledger-extractor",
    );
  }
  return m;
}

/** `--ledger-query-rewrite` needs a model to rewrite with. */
export function checkLedgerQueryRewrite(on: boolean | undefined, model: { configured: boolean; detail: string }): void {
  if (on && !model.configured) {
    throw new ConfigError(
      `--ledger-query-rewrite needs a model (${model.detail})`,
      "ledger-query-rewrite",
      "--ledger-query-rewrite",
    );
  }
}

/** `--ledger-retrieval`, checked: keys and types of the ledger's retrieval parameters. */
export function checkLedgerRetrieval(value: unknown): RetrievalOverrides | undefined {
  if (value === undefined) return undefined;
  try {
    return parseRetrievalOverrides(value);
  } catch (error) {
    throw new ConfigError(`--ledger-retrieval ${(error as Error).message}`, "ledger-retrieval", "--ledger-retrieval");
  }
}

/** The embedder named by `spec`, else MEMBENCH_EMBEDDER, else USE-lite; cached, with the model endpoint's settings. */
export function configuredEmbedder(spec: string | undefined): Promise<Embedder> {
  const s = resolveModelSettings({});
  return createEmbedder(spec ?? process.env.MEMBENCH_EMBEDDER ?? "use-lite", {
    cacheDir: s.cacheDir,
    baseUrl: process.env.MEMBENCH_EMBED_BASE_URL ?? s.baseUrl,
    apiKey: s.apiKey,
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
