/**
 * A throwaway Redis for the worker-pool tests: Debian's `redis-server` on a free
 * loopback port, in a temp folder, with persistence off (`--save ""`,
 * `--appendonly no`), stopped and removed by `close()`. Never the system's Redis
 * on the default port.
 *
 * Found like Chromium (test/support/chromium.ts): REDIS_SERVER_PATH when set,
 * else `redis-server` on PATH. Without one a test skips with a message saying
 * where it looked, except under CI=true, where it runs and fails (.ci/run
 * installs Debian's redis-server).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { UNDER_CI } from "./chromium.ts";

export interface RedisLookup {
  path?: string;
  looked: string;
}

const executable = (path: string) => {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

export function findRedisServer(env: NodeJS.ProcessEnv = process.env): RedisLookup {
  if (env.REDIS_SERVER_PATH) {
    const path = env.REDIS_SERVER_PATH;
    return { path: executable(path) ? path : undefined, looked: `REDIS_SERVER_PATH=${path}` };
  }
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    if (executable(join(dir, "redis-server")))
      return { path: join(dir, "redis-server"), looked: "redis-server on PATH" };
  }
  return { looked: "REDIS_SERVER_PATH (unset), then redis-server on PATH" };
}

/** The `skip` option of a Redis test: false when redis-server is there or under CI=true, else why it skips. */
export function redisSkip(lookup: RedisLookup, what: string, underCi = UNDER_CI): string | false {
  if (lookup.path || underCi) return false;
  return `no redis-server (looked at ${lookup.looked}): ${what} skipped; apt-get install redis-server or set REDIS_SERVER_PATH (under CI=true it fails instead)`;
}

/** The executable, or the failure a Redis test reports under CI=true when there is none. */
export function requireRedisServer(lookup: RedisLookup): string {
  if (!lookup.path) {
    throw new Error(
      `CI=true but no redis-server (looked at ${lookup.looked}): .ci/run installs Debian's redis-server, or set REDIS_SERVER_PATH`,
    );
  }
  return lookup.path;
}

export interface TestRedis {
  /** `redis://127.0.0.1:PORT`. */
  url: string;
  port: number;
  /** Stops the server and removes its folder. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function startOn(path: string, port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(
    path,
    [
      "--bind",
      "127.0.0.1",
      "--port",
      String(port),
      "--dir",
      dir,
      "--save",
      "",
      "--appendonly",
      "no",
      "--daemonize",
      "no",
      "--protected-mode",
      "yes",
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`redis-server did not start within 10 s: ${output}`));
    }, 10_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (/Ready to accept connections/.test(output)) {
        clearTimeout(timer);
        child.stdout?.off("data", onData);
        resolve(child);
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${signal ?? code}) before it was ready: ${output.trim()}`));
    });
  });
}

/** Starts a private redis-server; retries on another port if the chosen one was taken meanwhile. */
export async function startRedis(lookup = findRedisServer()): Promise<TestRedis> {
  const path = requireRedisServer(lookup);
  const dir = mkdtempSync(join(tmpdir(), "mb-redis-"));
  let lastError: unknown;
  for (let attempt = 0; attempt < 5; attempt++) {
    const port = await freePort();
    try {
      const child = await startOn(path, port, dir);
      child.removeAllListeners("exit");
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        close: async () => {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill("SIGTERM");
            await exited;
          }
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      lastError = error;
    }
  }
  rmSync(dir, { recursive: true, force: true });
  throw lastError;
}
