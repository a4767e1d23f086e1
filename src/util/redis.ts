/**
 * Redis URLs and connections for the worker pool and the shared model limits.
 * ioredis is imported when a connection is made, never at start-up, so commands
 * that do not use a queue never load it (test/cli/startup.test.ts).
 */
import type { Redis, RedisOptions } from "ioredis";
import { ConfigError } from "../core/errors.ts";
import { log } from "./log.ts";

/** Checks a `redis://` or `rediss://` URL; `from` names the flag or setting for the error. */
export function checkRedisUrl(url: string, from = "--queue"): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`expected a redis://host:port URL, got "${url}"`, "queue", from);
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new ConfigError(`expected a redis:// or rediss:// URL, got "${redactRedisUrl(url)}"`, "queue", from);
  }
  if (!parsed.hostname) throw new ConfigError(`no host in "${redactRedisUrl(url)}"`, "queue", from);
  return url;
}

/** The URL without its password, for logs, config.json and errors. */
export function redactRedisUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url;
    parsed.password = "";
    return parsed.toString().replace(/\/$/, "").replace(/:@/, "@");
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//<redacted>@");
  }
}

/**
 * A new ioredis connection. `blocking` is for BullMQ workers and queue events,
 * which need `maxRetriesPerRequest: null`; other clients fail a command after a
 * few reconnection attempts instead of waiting forever on a Redis that is gone.
 */
export async function connectRedis(
  url: string,
  options: { blocking?: boolean; name?: string } & RedisOptions = {},
): Promise<Redis> {
  const { Redis } = await import("ioredis");
  const { blocking, name, ...rest } = options;
  const client = new Redis(url, {
    maxRetriesPerRequest: blocking ? null : 3,
    ...(name ? { connectionName: name } : {}),
    ...rest,
  });
  // Connection errors reach the commands that wait on them; the event itself is only worth a debug line.
  client.on("error", (error: Error) => log.debug(`redis ${redactRedisUrl(url)}: ${error.message}`));
  return client;
}

/**
 * Connects once and pings, failing fast with a ConfigError naming the URL (without
 * its password) when the Redis cannot be reached or refuses us: BullMQ's own
 * connections would otherwise retry forever, silently.
 */
export async function checkRedisReachable(url: string, from = "--queue"): Promise<void> {
  const client = await connectRedis(url, {
    lazyConnect: true,
    connectTimeout: 5000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  // The socket's own error (ECONNREFUSED, a DNS failure) says more than "Connection is closed".
  let cause: Error | undefined;
  client.on("error", (error: Error) => {
    cause ??= error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    const why = (cause ?? (error as Error)).message;
    throw new ConfigError(`cannot reach the Redis at ${redactRedisUrl(url)}: ${why}`, "queue", from);
  } finally {
    client.disconnect();
  }
}
