/**
 * Waiting for a service's background processing: poll a check at an interval
 * until it says done, fail at once when it says failed, and give up with a clear
 * error after a bound, never wait forever and never report "done" early.
 */
import { SystemError } from "../../core/errors.ts";

export type PollState = { done: true } | { done: false; pending: string } | { failed: string };

export interface PollOptions {
  systemId: string;
  intervalMs: number;
  timeoutMs: number;
  /** The option a user raises when the bound is too tight, named in the timeout error. */
  timeoutOption?: string;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Resolves when `check` reports done; throws a SystemError on failure or after `timeoutMs`. */
export async function pollUntilDone(
  what: string,
  check: () => Promise<PollState>,
  options: PollOptions,
): Promise<void> {
  const sleep = options.sleep ?? defaultSleep;
  const now = options.now ?? Date.now;
  const start = now();
  for (;;) {
    const state = await check();
    if ("failed" in state) {
      throw new SystemError(`${what} failed on the service: ${state.failed}`, options.systemId, "flush");
    }
    if (state.done) return;
    const elapsed = now() - start;
    if (elapsed >= options.timeoutMs) {
      throw new SystemError(
        `${what} still not processed after ${Math.round(elapsed / 1000)} s (${state.pending}); ` +
          `raise ${options.timeoutOption ?? "flushTimeoutMs"} if the service is just slow`,
        options.systemId,
        "flush",
      );
    }
    await sleep(Math.min(options.intervalMs, Math.max(1, options.timeoutMs - elapsed)));
  }
}
