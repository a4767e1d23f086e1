/**
 * The common part of the local stand-ins for hosted memory services (mem0, Zep,
 * Letta, supermemory): a node:http server on 127.0.0.1 that checks the auth
 * header, records every request, injects failures on demand and routes the rest
 * to the service's handlers. Each handler validates the request body the way the
 * service documents it and answers 400/422 with the reason when it is wrong, so a
 * test fails when an adapter sends the wrong shape.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  headers: IncomingHttpHeaders;
}

export interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export class BadRequest extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
  }
}

export type Handler = (req: RecordedRequest, params: string[]) => Reply | Promise<Reply>;

export interface Route {
  method: string;
  /** Matched against the path without the query; capture groups become `params`. */
  pattern: RegExp;
  handler: Handler;
}

export interface InjectedFailure {
  status: number;
  retryAfter?: string;
  /** Only requests whose `METHOD path` matches; any request when absent. */
  match?: RegExp;
}

export interface RemoteServerOptions {
  /** The exact Authorization header value every request must carry. */
  authorization: string;
  /** How the service words a refused key. */
  unauthorised?: (req: RecordedRequest) => Reply;
  routes: Route[];
}

export interface RemoteServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Requests the server refused as malformed, with the reason (a test asserts there are none). */
  readonly rejected: { request: string; reason: string }[];
  fail(...failures: InjectedFailure[]): void;
  close(): Promise<void>;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

function send(res: ServerResponse, reply: Reply): void {
  if (reply.status === 204 || reply.body === undefined) {
    res.writeHead(reply.status, reply.headers ?? {});
    res.end();
    return;
  }
  const data = JSON.stringify(reply.body);
  res.writeHead(reply.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(data),
    ...reply.headers,
  });
  res.end(data);
}

export async function startRemoteServer(options: RemoteServerOptions): Promise<RemoteServer> {
  const requests: RecordedRequest[] = [];
  const rejected: { request: string; reason: string }[] = [];
  const failures: InjectedFailure[] = [];

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const raw = await readBody(req);
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    let body: unknown;
    if (raw !== "") {
      try {
        body = JSON.parse(raw);
      } catch {
        rejected.push({ request: `${req.method} ${url.pathname}`, reason: "body is not JSON" });
        return send(res, { status: 400, body: { error: "body is not JSON" } });
      }
    }
    const recorded: RecordedRequest = {
      method: req.method ?? "GET",
      path: url.pathname,
      query: url.searchParams,
      body,
      headers: req.headers,
    };
    requests.push(recorded);
    const line = `${recorded.method} ${recorded.path}`;
    const failureAt = failures.findIndex((f) => !f.match || f.match.test(line));
    if (failureAt >= 0) {
      const [failure] = failures.splice(failureAt, 1);
      return send(res, {
        status: failure!.status,
        body: { error: `injected failure ${failure!.status}` },
        ...(failure!.retryAfter !== undefined ? { headers: { "retry-after": failure!.retryAfter } } : {}),
      });
    }
    if (req.headers.authorization !== options.authorization) {
      return send(res, options.unauthorised?.(recorded) ?? { status: 401, body: { error: "invalid api key" } });
    }
    for (const route of options.routes) {
      if (route.method !== recorded.method) continue;
      const match = route.pattern.exec(recorded.path);
      if (!match) continue;
      try {
        return send(res, await route.handler(recorded, match.slice(1).map(decodeURIComponent)));
      } catch (error) {
        if (error instanceof BadRequest) {
          rejected.push({ request: line, reason: error.message });
          return send(res, { status: error.status, body: { error: error.message } });
        }
        throw error;
      }
    }
    rejected.push({ request: line, reason: "no such route" });
    send(res, { status: 404, body: { error: `no route ${line}` } });
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, { status: 500, body: { error: String(error) } });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    rejected,
    fail: (...f) => {
      failures.push(...f);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

// ------------------------------------------------------------ validation helpers

export function object(value: unknown, what: string): Record<string, unknown> {
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new BadRequest(`${what} must be an object`);
  return value as Record<string, unknown>;
}

export function string(value: unknown, what: string): string {
  if (typeof value !== "string" || value === "") throw new BadRequest(`${what} must be a non-empty string`);
  return value;
}

export function optionalString(value: unknown, what: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  return string(value, what);
}

export function integer(value: unknown, what: string): number {
  if (typeof value !== "number" || !Number.isInteger(value)) throw new BadRequest(`${what} must be an integer`);
  return value;
}

export function array(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new BadRequest(`${what} must be an array`);
  return value;
}

export function isoDate(value: unknown, what: string): string {
  const text = string(value, what);
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text)) {
    throw new BadRequest(`${what} must be an RFC 3339 date-time, got ${JSON.stringify(text)}`);
  }
  return text;
}

/** Rejects keys the service does not document, so a misspelt field is caught. */
export function onlyKeys(value: Record<string, unknown>, allowed: string[], what: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new BadRequest(`${what}: unknown field ${key}`, 422);
  }
}

/** Words of a text, for the servers' crude keyword search. */
export function words(text: string): Set<string> {
  return new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
}

/** Share of the query's words found in `text`; 0 when none. */
export function overlap(query: string, text: string): number {
  const q = words(query);
  if (q.size === 0) return 0;
  const t = words(text);
  let hits = 0;
  for (const w of q) if (t.has(w) && w.length > 3) hits++;
  return hits / q.size;
}
