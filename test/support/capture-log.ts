/** Runs `fn` with console.log captured: what a bench prints, as one string, beside its result. */
import { mock } from "node:test";

export async function captureLog<T>(fn: () => Promise<T>): Promise<{ value: T; printed: string }> {
  const log = mock.method(console, "log", () => undefined);
  try {
    const value = await fn();
    return { value, printed: log.mock.calls.map((c) => c.arguments.map(String).join(" ")).join("\n") };
  } finally {
    log.mock.restore();
  }
}
