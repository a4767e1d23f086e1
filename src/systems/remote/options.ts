/**
 * The options every hosted adapter takes, checked by its schema before any work
 * starts. Keys are named by environment variable, never given.
 */
import { z } from "zod";

const name = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "an environment variable name");

export function remoteOptionShape(defaultKeyEnv: string) {
  return {
    /** Environment variable holding the API key. */
    apiKeyEnv: name.default(defaultKeyEnv),
    /** The service's base URL (a local server in tests, a self-hosted deployment). */
    baseUrl: z.url().optional(),
    /** Calls in flight at once against the service (its rate limit). */
    concurrency: z.number().int().min(1).max(64).default(4),
    /** Retries of a transient failure (429, 5xx, dropped connection). */
    retries: z.number().int().min(0).max(10).default(4),
    /** How long `flush` waits for the service to finish processing. */
    flushTimeoutMs: z.number().int().positive().default(600_000),
    /** How often `flush` asks. */
    pollIntervalMs: z.number().int().positive().default(1000),
    /** First part of every remote user/container name (then a random tag, then the namespace). */
    namePrefix: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/)
      .max(40)
      .default("membench"),
  };
}

export interface RemoteOptions {
  apiKeyEnv: string;
  baseUrl?: string;
  concurrency: number;
  retries: number;
  flushTimeoutMs: number;
  pollIntervalMs: number;
  namePrefix: string;
}
