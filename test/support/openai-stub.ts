/**
 * A real HTTP server speaking the subset of the OpenAI API membench uses, so model and
 * embedder code is tested over the wire (SDK, headers, status codes, timeouts) rather
 * than against mocks. Binds 127.0.0.1 on a free port.
 *
 *   const stub = await startOpenAIStub({ latencyMs: 20 });
 *   // stub.url === "http://127.0.0.1:PORT/v1"
 *   stub.enqueueFailure({ status: 429, retryAfter: 1 });
 *   ...
 *   await stub.close();
 *
 * Failures are consumed by the next POST (chat or embeddings), in order, before the API key
 * check and before any reply; `failWhen` picks failures by request content instead.
 */
import { createHash } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, beforeEach } from "node:test";

/** An injected failure for the next POST request. */
export type StubFailure =
  /** An HTTP error with an OpenAI-style error body; `retryAfter` is sent as the Retry-After header (seconds or an HTTP date). */
  | { status: number; retryAfter?: number | string; message?: string }
  /** Never answer: the connection is held open until the client gives up or the stub closes. */
  | { timeout: true }
  /** A 200 chat completion whose message content is not valid JSON; on /v1/embeddings, a 200 whose body is cut short. */
  | { malformedJson: true }
  /** Destroy the socket without any response (a connection reset). */
  | { reset: true }
  /**
   * A 200 whose JSON body is cut short but whose HTTP response is complete (a proxy or
   * server that gave up mid-body): the client's JSON parse fails.
   */
  | { truncatedBody: true }
  /** A 200 whose headers and the start of the body arrive, then the socket is destroyed. */
  | { resetMidBody: true }
  /** A 200 whose headers and the start of the body arrive, then nothing more until the client gives up. */
  | { hangMidBody: true };

/** What a scripted chat reply may be: text, or an object sent as JSON text. */
export type StubReply = string | Record<string, unknown> | unknown[];

export interface StubRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/chat/completions`. */
  path: string;
  /** Parsed JSON body (undefined for GET or an unparsable body). */
  body: unknown;
  headers: IncomingHttpHeaders;
  /** `performance.now()` when the request arrived, in ms. */
  time: number;
}

/** The fields of a chat completion request the stub looks at. */
export interface StubChatBody {
  model?: string;
  messages?: { role: string; content: unknown }[];
  response_format?: unknown;
  [key: string]: unknown;
}

export interface OpenAIStubOptions {
  /** Delay before every answer, in ms. */
  latencyMs?: number;
  /** Chat replies as a function of the request body; used when the reply queue is empty. */
  reply?: (body: StubChatBody, index: number) => StubReply;
  /** Chat replies consumed in order, before `reply`. */
  replies?: StubReply[];
  /** Failures consumed in order by the next POST requests. */
  failures?: StubFailure[];
  /** Asked for every POST the failure queue leaves alone: a failure to inject for this request, or none. */
  failWhen?: (body: StubChatBody, path: string) => StubFailure | undefined;
  /** Embedding dimension when the request does not ask for `dimensions` (default 8). */
  embeddingDim?: number;
  /** Model ids listed by GET /v1/models (default ["stub-model"]). */
  models?: string[];
  /** When set, requests without `Authorization: Bearer <apiKey>` get a 401. */
  apiKey?: string;
}

export interface OpenAIStub {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:41234/v1`. */
  readonly url: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: StubRequest[];
  /** Only the POST /v1/chat/completions requests. */
  readonly chatRequests: StubRequest[];
  /** Only the POST /v1/embeddings requests. */
  readonly embeddingRequests: StubRequest[];
  /** Requests being handled right now. */
  readonly inFlight: number;
  /** Highest number of requests ever handled at the same time. */
  readonly maxInFlight: number;
  enqueueFailure(...failures: StubFailure[]): void;
  /** Failures queued and not yet consumed. */
  readonly pendingFailures: number;
  /** Drops queued failures, e.g. one left behind when a client gave up before its request arrived. */
  clearFailures(): void;
  enqueueReply(...replies: StubReply[]): void;
  /** Replaces (or with undefined removes) the `failWhen` rule. */
  setFailWhen(rule: ((body: StubChatBody, path: string) => StubFailure | undefined) | undefined): void;
  setReply(reply: (body: StubChatBody, index: number) => StubReply): void;
  setLatency(ms: number): void;
  /** Forget recorded requests and the in-flight maximum (queues are kept). */
  resetRecords(): void;
  close(): Promise<void>;
}

/** A deterministic unit vector derived from a hash of `text`. */
export function stubEmbedding(text: string, dim: number): number[] {
  const values: number[] = [];
  for (let block = 0; values.length < dim; block++) {
    const digest = createHash("sha256").update(`${block}\u0000${text}`).digest();
    for (let i = 0; i + 4 <= digest.length && values.length < dim; i += 4) {
      values.push(digest.readUInt32LE(i) / 0xffffffff - 0.5);
    }
  }
  const norm = Math.sqrt(values.reduce((s, v) => s + v * v, 0)) || 1;
  return values.map((v) => v / norm);
}

function defaultReply(body: StubChatBody): StubReply {
  const lastUser = [...(body.messages ?? [])].reverse().find((m) => m.role === "user");
  const content = typeof lastUser?.content === "string" ? lastUser.content : "";
  return `stub reply to: ${content}`;
}

function roughTokens(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const data = JSON.stringify(payload);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(data), ...headers });
  res.end(data);
}

function errorBody(message: string, type: string): unknown {
  return { error: { message, type, param: null, code: null } };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function chatCompletion(model: string, content: string, promptText: string): unknown {
  const promptTokens = roughTokens(promptText);
  const completionTokens = roughTokens(content);
  return {
    id: `chatcmpl-stub-${Date.now()}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

function embeddingInputs(input: unknown): string[] {
  if (typeof input === "string") return [input];
  if (Array.isArray(input)) return input.map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
  return [];
}

export async function startOpenAIStub(options: OpenAIStubOptions = {}): Promise<OpenAIStub> {
  let latencyMs = options.latencyMs ?? 0;
  let replyFn = options.reply ?? defaultReply;
  let failWhen = options.failWhen;
  const replies: StubReply[] = [...(options.replies ?? [])];
  const failures: StubFailure[] = [...(options.failures ?? [])];
  const models = options.models ?? ["stub-model"];
  const embeddingDim = options.embeddingDim ?? 8;
  let requests: StubRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let chatIndex = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    let body: unknown;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = undefined;
    }
    requests.push({ method: req.method ?? "GET", path, body, headers: req.headers, time: performance.now() });

    if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs));

    const authorised = options.apiKey === undefined || req.headers.authorization === `Bearer ${options.apiKey}`;
    const unauthorised = () => sendJson(res, 401, errorBody("invalid api key", "invalid_request_error"));

    if (req.method === "GET" && path === "/v1/models") {
      if (!authorised) return unauthorised();
      sendJson(res, 200, {
        object: "list",
        data: models.map((id) => ({ id, object: "model", created: 0, owned_by: "stub" })),
      });
      return;
    }
    if (req.method !== "POST" || (path !== "/v1/chat/completions" && path !== "/v1/embeddings")) {
      sendJson(res, 404, errorBody(`no route ${req.method} ${path}`, "invalid_request_error"));
      return;
    }
    if (body === undefined || typeof body !== "object" || body === null) {
      sendJson(res, 400, errorBody("body must be a JSON object", "invalid_request_error"));
      return;
    }

    const failure = failures.shift() ?? failWhen?.(body as StubChatBody, path);
    if (failure && "timeout" in failure) return; // held open; close() or the client ends it
    if (failure && "reset" in failure) {
      req.socket.destroy();
      return;
    }
    if (failure && "status" in failure) {
      const headers: Record<string, string> = {};
      if (failure.retryAfter !== undefined) headers["retry-after"] = String(failure.retryAfter);
      const type =
        failure.status === 429 ? "rate_limit_error" : failure.status >= 500 ? "server_error" : "invalid_request_error";
      sendJson(res, failure.status, errorBody(failure.message ?? `injected failure ${failure.status}`, type), headers);
      return;
    }
    if (!authorised) return unauthorised();
    if (failure && ("truncatedBody" in failure || "resetMidBody" in failure || "hangMidBody" in failure)) {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id": "chatcmpl-cut", "object": "chat.completion", "choices": [{"index": 0, "message": {"con');
      if ("truncatedBody" in failure) res.end();
      else if ("resetMidBody" in failure) setTimeout(() => req.socket.destroy(), 10);
      return;
    }

    if (path === "/v1/embeddings") {
      if (failure && "malformedJson" in failure) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end('{"object": "list", "data": [');
        return;
      }
      const b = body as { input?: unknown; model?: string; dimensions?: number; encoding_format?: string };
      const dim = typeof b.dimensions === "number" ? b.dimensions : embeddingDim;
      const inputs = embeddingInputs(b.input);
      const data = inputs.map((text, index) => {
        const vector = stubEmbedding(text, dim);
        // The official SDK asks for base64 by default and decodes it as little-endian float32.
        const embedding =
          b.encoding_format === "base64" ? Buffer.from(new Float32Array(vector).buffer).toString("base64") : vector;
        return { object: "embedding", index, embedding };
      });
      const tokens = inputs.reduce((s, t) => s + roughTokens(t), 0);
      sendJson(res, 200, {
        object: "list",
        data,
        model: b.model ?? "stub-embedding",
        usage: { prompt_tokens: tokens, total_tokens: tokens },
      });
      return;
    }

    const chat = body as StubChatBody;
    const model = typeof chat.model === "string" ? chat.model : (models[0] ?? "stub-model");
    const promptText = (chat.messages ?? []).map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
    if (failure && "malformedJson" in failure) {
      sendJson(res, 200, chatCompletion(model, '{"answer": "unterminated', promptText));
      return;
    }
    const index = chatIndex++;
    const reply = replies.length > 0 ? replies.shift()! : replyFn(chat, index);
    const content = typeof reply === "string" ? reply : JSON.stringify(reply);
    sendJson(res, 200, chatCompletion(model, content, promptText));
  };

  const server = createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      inFlight--;
    };
    res.on("close", finish);
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, errorBody(`stub crashed: ${String(error)}`, "server_error"));
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    get requests() {
      return requests;
    },
    get chatRequests() {
      return requests.filter((r) => r.method === "POST" && r.path === "/v1/chat/completions");
    },
    get embeddingRequests() {
      return requests.filter((r) => r.method === "POST" && r.path === "/v1/embeddings");
    },
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    enqueueFailure: (...f) => {
      failures.push(...f);
    },
    get pendingFailures() {
      return failures.length;
    },
    clearFailures: () => {
      failures.length = 0;
    },
    enqueueReply: (...r) => {
      replies.push(...r);
    },
    setReply: (fn) => {
      replyFn = fn;
    },
    setFailWhen: (rule) => {
      failWhen = rule;
    },
    setLatency: (ms) => {
      latencyMs = ms;
    },
    resetRecords: () => {
      requests = [];
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * One stub for the enclosing `describe`, started before its tests and closed
 * after them, with failures and records cleared before each test. Read it
 * inside tests through the returned getter.
 */
export function suiteStub(options: OpenAIStubOptions = {}): () => OpenAIStub {
  let stub: OpenAIStub | undefined;
  before(async () => {
    stub = await startOpenAIStub(options);
  });
  after(() => stub?.close());
  beforeEach(() => {
    stub!.clearFailures();
    stub!.resetRecords();
  });
  return () => {
    if (!stub) throw new Error("suiteStub() is read only inside the tests of the describe that created it");
    return stub;
  };
}

/** The last user message of a chat request, as text. */
export const lastUserMessage = (body: StubChatBody): string => String(body.messages?.at(-1)?.content ?? "");
