/**
 * `http:URL`: a memory system that runs as an HTTP server, in any language,
 * driven through the membench HTTP system protocol v1 (docs/http-protocol.md;
 * the bodies in http-protocol.ts). `membench serve` is the reference server
 * (`http:http://127.0.0.1:4180/v1/systems/ledger`); examples/python-http-system
 * is one in a single file of standard-library Python.
 *
 * `create` reads the server's caps and refuses a server this client cannot
 * drive (another major version, caps it does not know) before any work starts.
 * Every call has a timeout; transient failures (429, 5xx but 501, a dropped
 * connection, a timeout) are retried with backoff, waiting as long as
 * Retry-After asks up to a cap; other 4xx are not. A retried ingest carries the
 * same batchId, so the server writes it once. Errors name the URL, the
 * operation and the status.
 */
import PQueue from "p-queue";
import { z } from "zod";
import { ConfigError, SystemError } from "../core/errors.ts";
import { retryAfterFromHeaders } from "../llm/errors.ts";
import { log } from "../util/log.ts";
import type { SystemContext, SystemDefinition, SystemInfo } from "./definition.ts";
import { checkBatch } from "./history.ts";
import {
  AnswerAnswerSchema,
  batchIdOf,
  type CapsAnswer,
  CapsAnswerSchema,
  namespaceSegment,
  OkAnswerSchema,
  PROTOCOL_MAJOR,
  PROTOCOL_VERSION,
  ResultsAnswerSchema,
} from "./http-protocol.ts";
import { resultLimit } from "./query.ts";
import type { IngestBatch, MemorySystem, ProbeView, Retrieved, SearchQuery, SystemCaps } from "./types.ts";

/** Where the bearer token is read from unless `tokenEnv` names another variable. */
export const HTTP_TOKEN_VARIABLE = "MEMBENCH_HTTP_TOKEN";

export const HttpSystemOptionsSchema = z
  .object({
    /** One attempt of one request, in ms. */
    timeoutMs: z.number().int().positive().default(60_000),
    /** Attempts after the first, for transient failures only. */
    retries: z.number().int().min(0).max(20).default(3),
    /** The environment variable holding the bearer token (default MEMBENCH_HTTP_TOKEN, optional). */
    tokenEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "expected the NAME of an environment variable, not a token")
      .optional(),
    /** Requests in flight at once, over all namespaces (the server's rate limit). */
    concurrency: z.number().int().min(1).max(256).default(8),
  })
  .strict();
export type HttpSystemOptions = z.infer<typeof HttpSystemOptionsSchema>;

/** Backoff before retry n (0-based) is up to BASE·2ⁿ ms, at most MAX; Retry-After is honoured up to its own cap. */
const BACKOFF_BASE_MS = 250;
const BACKOFF_MAX_MS = 10_000;
export const MAX_RETRY_AFTER_MS = 30_000;

/** Error codes of a connection that failed on the way, worth another attempt. */
const TRANSIENT_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
  "UND_ERR_CLOSED",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The URL given, checked: http or https, no credentials, without a trailing slash. */
export function httpBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError(`"${url}" is not a URL (expected http:http://host:port/path)`, "system", "--system");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new ConfigError(`"${url}": expected an http:// or https:// URL`, "system", "--system");
  }
  if (parsed.username || parsed.password) {
    throw new ConfigError(`"${url}": put no credentials in the URL; set ${HTTP_TOKEN_VARIABLE} instead`, "system");
  }
  if (parsed.search || parsed.hash) throw new ConfigError(`"${url}": a base URL has no query or fragment`, "system");
  return parsed.href.replace(/\/+$/, "");
}

/** The code of a failed fetch (undici puts it on the cause), if any. */
function errorCode(error: unknown): string | undefined {
  let e: unknown = error;
  for (let depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function isTimeout(error: unknown): boolean {
  return error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
}

/** Why a failed attempt may be retried, or undefined when it may not. */
function transient(error: unknown): string | undefined {
  if (isTimeout(error)) return "timed out";
  const code = errorCode(error);
  return code && TRANSIENT_CODES.has(code) ? code : undefined;
}

function retryableStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status !== 501 && status !== 505);
}

/** One attempt's failure, kept for the final message. */
class AttemptError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** What the server said went wrong, in one line. */
function serverError(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; field?: unknown };
    if (typeof body?.error === "string") {
      return typeof body.field === "string" && !body.error.includes(body.field)
        ? `${body.error} (field ${body.field})`
        : body.error;
    }
  } catch {
    // not JSON: show its start
  }
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line || "(empty body)";
}

/** A problem of a parsed answer as `field: message`. */
function firstProblem(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "invalid";
  const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("");
  return path ? `${path.replace(/^\./, "")}: ${issue.message}` : issue.message;
}

interface ClientSettings {
  timeoutMs: number;
  retries: number;
  token?: string;
  concurrency: number;
  maxRetryAfterMs: number;
}

/** The transport: one request with timeout, retries and a bound on requests in flight. */
class ProtocolClient {
  private readonly queue: PQueue;

  constructor(
    readonly base: string,
    private readonly systemId: string,
    private readonly settings: ClientSettings,
  ) {
    this.queue = new PQueue({ concurrency: settings.concurrency });
  }

  /** GET or POST `path` (below the base); the parsed answer, checked against `schema`. */
  request<S extends z.ZodType>(operation: string, path: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    return this.queue.add(() => this.withRetries(operation, path, schema, body), { throwOnTimeout: true });
  }

  private async withRetries<S extends z.ZodType>(
    operation: string,
    path: string,
    schema: S,
    body: unknown,
  ): Promise<z.infer<S>> {
    const method = body === undefined ? "GET" : "POST";
    const url = `${this.base}${path}`;
    const fail = (message: string) => new SystemError(`${method} ${url}: ${message}`, this.systemId, operation);
    let last: AttemptError | undefined;
    for (let attempt = 0; attempt <= this.settings.retries; attempt++) {
      if (attempt > 0) {
        const backoff = Math.random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (attempt - 1));
        const wait = Math.round(Math.max(backoff, Math.min(last?.retryAfterMs ?? 0, this.settings.maxRetryAfterMs)));
        log.debug(
          `${this.systemId}: ${operation} ${last?.message}; retry ${attempt} of ${this.settings.retries} in ${wait} ms`,
        );
        await sleep(wait);
      }
      let text: string;
      let status: number;
      let headers: Headers;
      try {
        const res = await fetch(url, {
          method,
          headers: {
            accept: "application/json",
            ...(body === undefined ? {} : { "content-type": "application/json" }),
            ...(this.settings.token ? { authorization: `Bearer ${this.settings.token}` } : {}),
          },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
          signal: AbortSignal.timeout(this.settings.timeoutMs),
        });
        status = res.status;
        headers = res.headers;
        text = await res.text();
      } catch (error) {
        const why = transient(error);
        if (!why) throw fail(`${(error as Error).message}${errorCode(error) ? ` (${errorCode(error)})` : ""}`);
        last = new AttemptError(
          why === "timed out" ? `no answer within ${this.settings.timeoutMs} ms` : `connection failed (${why})`,
          true,
        );
        continue;
      }
      if (status >= 200 && status < 300) return this.parse(text, schema, fail);
      const message = `${status}: ${serverError(text)}`;
      if (!retryableStatus(status)) {
        if (status === 401 || status === 403) {
          const hint = this.settings.token
            ? "the server refused the bearer token"
            : `the server wants a bearer token: set ${HTTP_TOKEN_VARIABLE} (or name another variable with the tokenEnv option)`;
          throw fail(`${message}; ${hint}`);
        }
        throw fail(message);
      }
      last = new AttemptError(message, true, retryAfterFromHeaders(headers));
    }
    const tries = this.settings.retries + 1;
    throw fail(`${last?.message} (${tries} attempt${tries === 1 ? "" : "s"})`);
  }

  private parse<S extends z.ZodType>(text: string, schema: S, fail: (message: string) => SystemError): z.infer<S> {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw fail(`the answer is not JSON: ${serverError(text)}`);
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      throw fail(`the answer does not follow protocol v${PROTOCOL_MAJOR}: ${firstProblem(parsed.error)}`);
    }
    return parsed.data;
  }
}

/** The caps answer checked for what this client needs, or a SystemError saying why the server is unusable. */
export function checkCapsAnswer(value: unknown, url: string, systemId: string): CapsAnswer {
  const fail = (message: string) => new SystemError(`${url}/caps: ${message}`, systemId, "create");
  if (value === null || typeof value !== "object") throw fail("the caps answer is not an object");
  const version = (value as { protocolVersion?: unknown }).protocolVersion;
  if (typeof version !== "string") {
    throw fail(
      "no protocolVersion: not a membench HTTP system (docs/http-protocol.md), or not its base URL (for membench serve: http://host:port/v1/systems/ledger)",
    );
  }
  const major = /^(\d+)\.\d+$/.exec(version)?.[1];
  if (major === undefined) throw fail(`protocolVersion "${version}" is not MAJOR.MINOR`);
  if (Number(major) !== PROTOCOL_MAJOR) {
    throw fail(
      `the server speaks protocol version ${version}; this membench speaks ${PROTOCOL_MAJOR}.x (${PROTOCOL_VERSION}): use a membench and a server of the same major version`,
    );
  }
  const parsed = CapsAnswerSchema.safeParse(value);
  if (!parsed.success) throw fail(`unusable caps: ${firstProblem(parsed.error)}`);
  return parsed.data;
}

/** A memory system behind an HTTP server; made by `HttpSystem.connect` (which reads its caps). */
export class HttpSystem implements MemorySystem {
  readonly caps: SystemCaps;

  private constructor(
    readonly id: string,
    private readonly client: ProtocolClient,
    private readonly served: CapsAnswer,
    /** `--keep-remote`: close leaves the server's namespace in place, to inspect it. */
    private readonly keepRemote: boolean,
  ) {
    this.caps = { ...served.caps };
  }

  /** Reads the server's caps and checks them; the token from `tokenEnv` (or MEMBENCH_HTTP_TOKEN). */
  static async connect(
    url: string,
    options: Partial<HttpSystemOptions> = {},
    more: {
      /** The system's id (the row name); default `http:URL`. */
      name?: string;
      keepRemote?: boolean;
      /** Longest Retry-After waited for (default MAX_RETRY_AFTER_MS); a longer one waits this long. */
      maxRetryAfterMs?: number;
    } = {},
  ): Promise<HttpSystem> {
    const base = httpBaseUrl(url);
    const id = more.name ?? `http:${base}`;
    const checked = HttpSystemOptionsSchema.safeParse(options);
    if (!checked.success) throw new ConfigError(firstProblem(checked.error), `${id} options`);
    const settings = checked.data;
    const variable = settings.tokenEnv ?? HTTP_TOKEN_VARIABLE;
    const token = process.env[variable] || undefined;
    if (settings.tokenEnv && !token) {
      throw new SystemError(`tokenEnv names ${settings.tokenEnv}, which is not set`, id, "create");
    }
    const client = new ProtocolClient(base, id, {
      ...settings,
      ...(token ? { token } : {}),
      maxRetryAfterMs: more.maxRetryAfterMs ?? MAX_RETRY_AFTER_MS,
    });
    const served = checkCapsAnswer(await client.request("caps", "/caps", z.unknown()), base, id);
    return new HttpSystem(id, client, served, more.keepRemote ?? false);
  }

  private post<S extends z.ZodType>(ns: string, operation: string, schema: S, body: unknown = {}) {
    if (typeof ns !== "string" || ns === "") {
      return Promise.reject(new SystemError("a namespace must be a non-empty string", this.id, operation));
    }
    return this.client.request(operation, `/ns/${namespaceSegment(ns)}/${operation}`, schema, body);
  }

  async open(ns: string): Promise<void> {
    await this.post(ns, "open", OkAnswerSchema);
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    checkBatch(batch, this.id);
    await this.post(ns, "ingest", OkAnswerSchema, { batchId: batchIdOf(batch), batch });
  }

  async flush(ns: string): Promise<void> {
    await this.post(ns, "flush", OkAnswerSchema);
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const limit = resultLimit(q, this.id);
    // JSON has no Infinity: "everything" is the largest whole number it carries exactly.
    const k = Number.isFinite(limit) ? limit : Number.MAX_SAFE_INTEGER;
    const body = { text: q.text, k, ...(q.time !== undefined ? { time: q.time } : {}) };
    const { results } = await this.post(ns, "search", ResultsAnswerSchema, body);
    if (results.length > k) {
      throw new SystemError(`${this.client.base}: ${results.length} results for k = ${k}`, this.id, "search");
    }
    return results;
  }

  async readback(ns: string, sessionIds: string[]): Promise<Retrieved[]> {
    if (!this.caps.readback) throw new SystemError("the server's caps say it has no readback", this.id, "readback");
    return (await this.post(ns, "readback", ResultsAnswerSchema, { sessionIds })).results;
  }

  async answer(ns: string, probe: ProbeView): Promise<string> {
    if (!this.caps.nativeAnswer) throw new SystemError("the server's caps say it does not answer", this.id, "answer");
    const view = { id: probe.id, question: probe.question, ...(probe.time !== undefined ? { time: probe.time } : {}) };
    return (await this.post(ns, "answer", AnswerAnswerSchema, { probe: view })).answer;
  }

  async close(ns: string): Promise<void> {
    if (this.keepRemote) {
      log.info(`${this.id}: namespace "${ns}" kept on ${this.client.base} (--keep-remote)`);
      return;
    }
    await this.post(ns, "close", OkAnswerSchema);
  }

  info(): SystemInfo {
    return {
      ...this.served.info,
      name: this.served.name,
      version: this.served.version,
      protocolVersion: this.served.protocolVersion,
      url: this.client.base,
    };
  }
}

/**
 * The system behind `--system http:URL#name`: `name` names the row (default
 * `http:URL`). Options: timeoutMs, retries, tokenEnv, concurrency.
 */
export function httpSystemDefinition(url: string, name?: string): SystemDefinition<HttpSystemOptions> {
  const base = httpBaseUrl(url);
  return {
    id: name ?? `http:${base}`,
    summary: `a memory system over the membench HTTP system protocol v${PROTOCOL_MAJOR} at ${base}`,
    options: HttpSystemOptionsSchema,
    create: (options: HttpSystemOptions, context: SystemContext) =>
      HttpSystem.connect(base, options, { ...(name ? { name } : {}), keepRemote: context.keepRemote ?? false }),
    needsEmbedder: () => false,
  };
}
