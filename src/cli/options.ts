/** Option parsers shared by commands; each error names the flag. */
import { ConfigError } from "../core/errors.ts";

export function jsonOption(v: string, flag: string): Record<string, unknown> {
  try {
    return JSON.parse(v) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`expected JSON, got ${JSON.stringify(v)} (${(error as Error).message})`, flag, `--${flag}`);
  }
}

export function portOption(v: string | number): number {
  const port = Number(v);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`expected a port number from 0 to 65535, got "${v}"`, "port", "--port");
  }
  return port;
}

/** Resolves at the first SIGINT (Ctrl-C) or SIGTERM: how a long-running command waits to be stopped. */
export function untilStopped(): Promise<void> {
  return new Promise((done) => {
    const stop = () => {
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      done();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}

/** Commander's collector of a repeatable flag. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** `--system` and `--system-option`, as `run` and `conformance` take them (docs/systems.md). */
export const SYSTEM_HELP =
  "a system spec, repeatable or comma-separated: a registered id (bm25, ledger, …; `membench systems` lists them and their options), id#{json options}, label=spec, a module ./my-system.js[#export], package#export, or http:URL[#name] (docs/systems.md)";
export const SYSTEM_OPTION_HELP =
  "one option of a system: <label or id>.<key>=<value> (value JSON when it parses, else text; dotted keys nest), repeatable";

/** `--variant`, as `run` and `data inspect` take it. */
export const VARIANT_HELP =
  "a variant of the release to load: MemoryAgentBench main (default) or all (adds the context-length ablation rows); Memora weekly, monthly, quarterly; LongMemEval s, m, oracle (picks the file in a folder)";

/** `--embed-workers`, as `run`, `serve` and `conformance` take it (docs/embeddings.md). */
export const EMBED_WORKERS_HELP =
  "threads running the offline embedder (use-lite); 0 runs it on the main thread (default: MEMBENCH_EMBED_WORKERS, else 1)";

/**
 * Commander's parser for a numeric flag the command checks itself (its error
 * names the flag): the text as given. With it the default can be a number, so
 * `--help` prints `(default: 2)`, not `(default: "2")`.
 */
export const asText = (value: string, _default?: string | number): string | number => value;
