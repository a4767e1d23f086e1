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
