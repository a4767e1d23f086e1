/**
 * Settings, resolved with the precedence flags > environment > membench.config.json > defaults.
 * Each resolved value remembers where it came from, so a ConfigError can say so.
 * Secrets are resolved like anything else but never printed: use `redact`.
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { isAbsolute, join, resolve } from "node:path";
import { ConfigError } from "../core/errors.ts";

export type Source = "flag" | "env" | "config file" | "default";

export interface Resolved<T> {
  value: T;
  source: Source;
  /** The variable or key it came from, e.g. `MEMBENCH_BASE_URL`. */
  from?: string;
}

/** Every setting with the environment variables that feed it, first match wins. */
export const SETTINGS = {
  baseUrl: { env: ["MEMBENCH_BASE_URL", "OPENAI_BASE_URL"], key: "baseUrl", help: "OpenAI-compatible endpoint" },
  apiKey: { env: ["MEMBENCH_API_KEY", "OPENAI_API_KEY"], key: "apiKey", help: "API key (never stored)", secret: true },
  model: { env: ["MEMBENCH_MODEL", "OPENAI_MODEL"], key: "model", help: "chat model name" },
  judgeModel: { env: ["MEMBENCH_JUDGE_MODEL"], key: "judgeModel", help: "judge model (defaults to model)" },
  llm: { env: ["MEMBENCH_LLM"], key: "llm", help: "model spec: `openai` or `scripted:FILE`" },
  embedder: { env: ["MEMBENCH_EMBEDDER"], key: "embedder", help: "use-lite | hashing[:dim] | openai:MODEL | onnx:DIR" },
  embedBaseUrl: {
    env: ["MEMBENCH_EMBED_BASE_URL"],
    key: "embedBaseUrl",
    help: "embeddings endpoint (defaults to baseUrl)",
  },
  embedWorkers: {
    env: ["MEMBENCH_EMBED_WORKERS"],
    key: "embedWorkers",
    help: "threads running the offline embedder; 0: the main thread (default 1)",
  },
  cacheDir: {
    env: ["MEMBENCH_CACHE_DIR"],
    key: "cacheDir",
    help: "cache folder (default $XDG_CACHE_HOME/membench, else ~/.cache/membench)",
  },
  concurrency: { env: ["MEMBENCH_CONCURRENCY"], key: "concurrency", help: "parallel model calls (default 8)" },
  rps: { env: ["MEMBENCH_RPS"], key: "rps", help: "model requests per second (default unlimited)" },
  timeoutMs: { env: ["MEMBENCH_TIMEOUT_MS"], key: "timeoutMs", help: "model call timeout in ms (default 120000)" },
  maxRetries: { env: ["MEMBENCH_MAX_RETRIES"], key: "maxRetries", help: "retries on 429/5xx/timeouts (default 5)" },
} as const;

export type SettingName = keyof typeof SETTINGS;

/**
 * The per-user cache folder (model answers, embeddings, file hashes, systems'
 * stores): `$XDG_CACHE_HOME/membench`, else `~/.cache/membench`; on Windows
 * `%LOCALAPPDATA%\membench\cache`. One per user, not one per folder a command
 * ran in. MEMBENCH_CACHE_DIR (config key `cacheDir`) overrides it.
 */
export function defaultCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  // The XDG spec ignores a relative path.
  if (xdg && isAbsolute(xdg)) return join(xdg, "membench");
  if (process.platform === "win32" && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, "membench", "cache");
  return join(env.HOME || homedir(), ".cache", "membench");
}

export const CONFIG_FILE = "membench.config.json";

export function readConfigFile(cwd = process.cwd()): { path?: string; values: Record<string, unknown> } {
  const path = resolve(cwd, CONFIG_FILE);
  if (!existsSync(path)) return { values: {} };
  try {
    const values = JSON.parse(readFileSync(path, "utf8")) as unknown;
    if (!values || typeof values !== "object" || Array.isArray(values)) {
      throw new Error("expected a JSON object");
    }
    return { path, values: values as Record<string, unknown> };
  } catch (error) {
    throw new ConfigError(`cannot read: ${(error as Error).message}`, CONFIG_FILE, path);
  }
}

export interface ResolveInput {
  flags?: Partial<Record<SettingName, string | number | undefined>>;
  env?: NodeJS.ProcessEnv;
  file?: Record<string, unknown>;
}

export function resolveSetting(name: SettingName, input: ResolveInput): Resolved<string | undefined> {
  const spec = SETTINGS[name];
  const flag = input.flags?.[name];
  if (flag !== undefined && flag !== "") return { value: String(flag), source: "flag", from: `--${name}` };
  const env = input.env ?? process.env;
  for (const variable of spec.env) {
    const v = env[variable];
    if (v !== undefined && v !== "") return { value: v, source: "env", from: variable };
  }
  if ("secret" in spec && spec.secret && input.file?.[spec.key] !== undefined) {
    throw new ConfigError(
      "secrets are not read from the config file; set an environment variable instead",
      spec.key,
      CONFIG_FILE,
    );
  }
  const fromFile = input.file?.[spec.key];
  if (fromFile !== undefined && fromFile !== null) {
    return { value: String(fromFile), source: "config file", from: spec.key };
  }
  return { value: undefined, source: "default" };
}

export function resolveNumber(name: SettingName, input: ResolveInput, fallback: number): Resolved<number> {
  const r = resolveSetting(name, input);
  if (r.value === undefined) return { value: fallback, source: "default" };
  const n = Number(r.value);
  if (!Number.isFinite(n) || n < 0)
    throw new ConfigError(`expected a non-negative number, got "${r.value}"`, name, r.from);
  return { value: n, source: r.source, from: r.from };
}

/** Redacted marker for secrets in logs, snapshots and cache keys. */
export function redact(secret: string | undefined): string {
  return secret ? "<redacted>" : "<unset>";
}

/** Lines for `--help`: every setting with its variables. */
export function settingsHelp(): string {
  return Object.values(SETTINGS)
    .map((s) => `  ${s.env.join(" | ").padEnd(42)} ${s.help} (config key "${s.key}")`)
    .join("\n");
}
