import { ConfigError, DataError, ModelError, SystemError } from "../core/errors.ts";
import { log } from "../util/log.ts";

/** Prints an expected error as one clear line (stack only with --verbose) and picks the exit code. */
export function reportError(error: unknown): number {
  const known =
    error instanceof DataError ||
    error instanceof ConfigError ||
    error instanceof ModelError ||
    error instanceof SystemError ||
    (error instanceof Error && error.name === "PullError");
  if (known) {
    log.error((error as Error).message);
    if (log.level === "debug") log.debug((error as Error).stack ?? "");
    return error instanceof ConfigError ? 2 : 1;
  }
  log.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  return 1;
}
