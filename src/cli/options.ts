/** Option parsers shared by commands; each error names the flag. */
import { ConfigError } from "../core/errors.ts";

export function jsonOption(v: string, flag: string): Record<string, unknown> {
  try {
    return JSON.parse(v) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`expected JSON, got ${JSON.stringify(v)} (${(error as Error).message})`, flag, `--${flag}`);
  }
}

export function portOption(v: string): number {
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
