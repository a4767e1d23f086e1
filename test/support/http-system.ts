/**
 * What the HTTP system tests share: a SystemContext for `create`, and servers
 * started as child processes on a free loopback port (`membench serve`, the
 * Python example), stopped at the end of the test.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { SystemContext } from "../../src/systems/definition.ts";

const root = resolve(import.meta.dirname, "../..");

/** A run's context without a model or an embedder (an HTTP system needs neither). */
export function systemContext(overrides: Partial<SystemContext> = {}): SystemContext {
  return {
    embedder: () => Promise.reject(new Error("no embedder in this test")),
    modelStatus: { configured: false, detail: "no model in this test" },
    cacheDir: mkdtempSync(join(tmpdir(), "mb-http-cache-")),
    ...overrides,
  };
}

export interface ChildServer {
  /** The URL the server printed, without a trailing slash. */
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `command args` and resolves once its output shows `pattern` (whose first group is the URL). */
export async function startChildServer(
  command: string,
  args: string[],
  pattern: RegExp,
  env: NodeJS.ProcessEnv = process.env,
): Promise<ChildServer> {
  const child = spawn(command, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL in 30 s; output: ${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const m = pattern.exec(output);
      if (m) {
        clearTimeout(timer);
        resolveUrl(m[1]!.replace(/\/+$/, ""));
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} exited with ${code}: ${output}`));
    });
  });
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `membench serve --port 0 …`; `url` is the server root (its protocol base is `${url}/v1/systems/ledger`). */
export function startServe(args: string[], env?: NodeJS.ProcessEnv): Promise<ChildServer> {
  return startChildServer(
    process.execPath,
    [join(root, "bin/membench.js"), "serve", "--port", "0", ...args],
    /membench serve: (http:\/\/\S+?)v1 /,
    env,
  );
}

export const PYTHON_EXAMPLE = join(root, "examples/python-http-system/server.py");

/** The Python example server on a free port. */
export function startPythonExample(args: string[] = [], env?: NodeJS.ProcessEnv): Promise<ChildServer> {
  return startChildServer("python3", [PYTHON_EXAMPLE, "--port", "0", ...args], /listening on (http:\/\/\S+)/, env);
}
