/**
 * A throwaway Redis for the worker-pool rows of bench/shards.ts: Debian's
 * `redis-server` (REDIS_SERVER_PATH, else on PATH) on a free loopback port, no
 * persistence, stopped by the bench.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createServer } from "node:net";
import { delimiter, join } from "node:path";

export function redisServerPath(): string | undefined {
  const candidates = [
    process.env.REDIS_SERVER_PATH,
    ...(process.env.PATH ?? "").split(delimiter).map((d) => join(d, "redis-server")),
  ];
  for (const path of candidates) {
    if (!path) continue;
    try {
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      // not here
    }
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => done(port));
    });
  });
}

export interface BenchRedis {
  url: string;
  stop(): Promise<void>;
}

export async function startRedis(path: string): Promise<BenchRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    path,
    ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  await new Promise<void>((done, fail) => {
    let out = "";
    const timer = setTimeout(() => fail(new Error(`redis-server did not start: ${out.slice(-500)}`)), 10_000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("Ready to accept connections")) {
        clearTimeout(timer);
        done();
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`redis-server exited ${code}: ${out.slice(-500)}`));
    });
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", () => done());
        child.kill("SIGTERM");
      }),
  };
}
