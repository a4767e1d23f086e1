/**
 * The SystemContext a library caller gets when it makes a system itself
 * (`createSystem`, the conformance kit): what it passes, with the costly parts
 * made on first use. The runner and the CLI build theirs from the run's settings
 * (src/run/system-context.ts).
 */
import { join } from "node:path";
import { defaultCacheDir } from "../config/settings.ts";
import { ConfigError } from "../core/errors.ts";
import type { Embedder } from "../embed/types.ts";
import type { ChatModel } from "../llm/types.ts";
import type { ModelEndpoint, SystemContext } from "./definition.ts";

export interface SystemContextInput {
  /** An embedder, or how to make one on first use. Without it a system that embeds is refused. */
  embedder?: Embedder | (() => Promise<Embedder>);
  model?: ChatModel;
  /** Default: configured when `model` is given. */
  modelStatus?: { configured: boolean; detail: string };
  endpoint?: ModelEndpoint;
  tokenBudget?: number;
  keepRemote?: boolean;
  /** Default `systems` in the per-user cache folder (`defaultCacheDir()`). */
  cacheDir?: string;
}

/** One promise for the lifetime of the context: every system of a run shares one embedder. */
function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => {
    made ??= make();
    return made;
  };
}

export function systemContext(input: SystemContextInput = {}): SystemContext {
  const given = input.embedder;
  const embedder = once(async (): Promise<Embedder> => {
    if (typeof given === "function") return given();
    if (given) return given;
    throw new ConfigError(
      'this system needs an embedder; pass one (e.g. { embedder: await createEmbedder("hashing:256") })',
      "embedder",
    );
  });
  return {
    embedder,
    ...(input.model ? { model: input.model } : {}),
    modelStatus:
      input.modelStatus ??
      (input.model
        ? { configured: true, detail: `model ${input.model.id}` }
        : { configured: false, detail: "no model was given" }),
    ...(input.endpoint ? { endpoint: input.endpoint } : {}),
    ...(input.tokenBudget !== undefined ? { tokenBudget: input.tokenBudget } : {}),
    ...(input.keepRemote !== undefined ? { keepRemote: input.keepRemote } : {}),
    cacheDir: input.cacheDir ?? join(defaultCacheDir(), "systems"),
  };
}
