/**
 * API keys come from the environment, named by an option, so a run's snapshot
 * records which variable was used and never the key itself.
 */
import { ConfigError } from "../../core/errors.ts";

export function readApiKey(systemId: string, envName: string, env: NodeJS.ProcessEnv = process.env): string {
  const value = env[envName];
  if (value === undefined || value.trim() === "") {
    throw new ConfigError(
      `no API key: set the environment variable ${envName} (or name another one with ${systemId}#{"apiKeyEnv":"VAR"})`,
      "system",
      systemId,
    );
  }
  return value.trim();
}
