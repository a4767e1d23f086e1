/**
 * What membench's two local HTTP servers (`view`, `serve`) share: JSON bodies
 * read with a size cap, answers with fixed headers, the Host-header check that
 * stops DNS rebinding, and listening with a printable URL.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export const DEFAULT_HOST = "127.0.0.1";
/** Default ports of `membench view` and `membench serve` (here so the CLI's help loads neither server). */
export const DEFAULT_VIEW_PORT = 4173;
export const DEFAULT_SERVICE_PORT = 4180;

/** An answer to a bad request: its HTTP status and a message for the caller. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** Extra fields of the JSON error body (the field at fault, …). */
    readonly detail: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { ...headers, "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(body), headers);
}

/**
 * An answer written a piece at a time (chunked), as `produce` hands pieces to
 * `write`, which waits while the client is behind. If the client goes away,
 * `write` throws, so the producer stops; if the producer fails, the
 * connection is cut, so the client sees the answer unfinished, not complete.
 */
export async function sendStream(
  res: ServerResponse,
  status: number,
  type: string,
  produce: (write: (chunk: string) => Promise<void>) => Promise<void>,
  headers: Record<string, string> = {},
): Promise<void> {
  res.writeHead(status, { ...headers, "Content-Type": type });
  const write = async (chunk: string) => {
    if (res.destroyed) throw new Error("the client went away");
    if (res.write(chunk)) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        res.off("drain", done);
        res.off("close", done);
        resolve();
      };
      res.on("drain", done);
      res.on("close", done);
    });
    if (res.destroyed) throw new Error("the client went away");
  };
  await produce(write);
  res.end();
}

/** The request's JSON body (undefined when empty); 413 past `maxBytes`, 400 when not JSON. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new RequestError(413, `request body larger than ${maxBytes} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString("utf8");
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    throw new RequestError(400, "the body is not valid JSON");
  }
}

/** Host names a server answers to: what it listens on, and loopback names when it listens on loopback. */
export function allowedHosts(host: string): Set<string> {
  const names = new Set([host.toLowerCase()]);
  if (isLoopback(host)) for (const n of ["localhost", "127.0.0.1", "[::1]"]) names.add(n);
  if (host.includes(":")) names.add(`[${host.toLowerCase()}]`);
  return names;
}

function hostName(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const m = /^(\[[^\]]+\]|[^:]+)(?::\d+)?$/.exec(header.toLowerCase());
  return m?.[1];
}

/** 403 unless the Host header names this server (any name when it listens on every interface). */
export function checkHost(req: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = hostName(req.headers.host);
  const anyHost = hosts.has("0.0.0.0") || hosts.has("::") || hosts.has("[::]");
  if (!host || (!anyHost && !hosts.has(host))) throw new RequestError(403, "unexpected Host header");
}

/** 415 unless the request says it sends JSON: a plain HTML form cannot, so a cross-site form cannot write. */
export function requireJson(req: IncomingMessage): void {
  if (!/^application\/json\b/.test(req.headers["content-type"] ?? "")) {
    throw new RequestError(415, "send JSON (Content-Type: application/json)");
  }
}

export interface Listening {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Starts `handler` on host:port (0: any free port); resolves once it listens. */
export function listen(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
  port: number,
): Promise<Listening> {
  const server = createServer(handler);
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      const { port: bound } = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${bound}/`,
        server,
        close: () =>
          new Promise<void>((done, failed) => {
            server.close((error) => (error ? failed(error) : done()));
            server.closeAllConnections();
          }),
      });
    });
  });
}
