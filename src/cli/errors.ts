import { ConfigError, DataError, ModelError, SystemError } from "../core/errors.ts";
import { log } from "../util/log.ts";

/**
 * Exit codes of every command (documented in the README, docs/cli.md and `--help`):
 * 0 done; 1 failed (bad data, a model or system failure, failed units, an
 * unexpected error); 2 a configuration or usage error (a wrong flag or setting);
 * 130 interrupted (Ctrl-C; a run says how to resume it).
 */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERRUPTED = 130;

let stacks = false;

/** With --debug (or --verbose), errors are printed with their stack. */
export function showErrorStacks(on: boolean): void {
  stacks = on;
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim();

/** `SqliteError (SQLITE_ERROR): no such table: units`, and its cause if it has one. */
function describe(error: unknown): string {
  if (!(error instanceof Error)) return oneLine(String(error));
  const code = (error as { code?: unknown }).code;
  const cause = error.cause instanceof Error ? `; cause: ${error.cause.message}` : "";
  return oneLine(`${error.name}${typeof code === "string" ? ` (${code})` : ""}: ${error.message}${cause}`);
}

/**
 * Prints an error as one line and picks the exit code. An expected error says
 * what to fix; an unexpected one names its type and cause. The stack only with
 * --debug or --verbose.
 */
export function reportError(error: unknown): number {
  const known =
    error instanceof DataError ||
    error instanceof ConfigError ||
    error instanceof ModelError ||
    error instanceof SystemError ||
    (error instanceof Error && error.name === "PullError");
  const debug = stacks || log.level === "debug";
  if (known) log.error((error as Error).message);
  else log.error(`unexpected ${describe(error)}${debug ? "" : " (--debug prints the stack)"}`);
  if (debug && error instanceof Error && error.stack) log.error(error.stack);
  return error instanceof ConfigError ? EXIT_USAGE : EXIT_FAILURE;
}
