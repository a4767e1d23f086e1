/**
 * `membench view`: a small HTTP server on the loopback interface — the JSON API
 * plus three static files. It only answers requests addressed to the host it
 * listens on (DNS rebinding), changes data only on JSON requests from its own
 * origin (cross-site forms), and serves no file outside its fixed list.
 */
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { log } from "../../util/log.ts";
import { handleApi } from "./api.ts";

export const DEFAULT_PORT = 4173;
export const DEFAULT_HOST = "127.0.0.1";

const STATIC_DIR = join(dirname(fileURLToPath(import.meta.url)), "static");
const STATIC: Record<string, { file: string; type: string }> = {
  "/": { file: "index.html", type: "text/html; charset=utf-8" },
  "/app.js": { file: "app.js", type: "text/javascript; charset=utf-8" },
  "/style.css": { file: "style.css", type: "text/css; charset=utf-8" },
};

const SECURITY_HEADERS = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-store",
};

const MAX_BODY = 64 * 1024;

export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export interface ViewerOptions {
  runsDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

export interface Viewer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, type: string, body: string | Buffer): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, "Content-Length": Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  send(res, status, "application/json; charset=utf-8", JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) throw new RequestError(413, "request body too large");
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

class RequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Host names this server answers to: what it listens on, and loopback names when it listens on loopback. */
function allowedHosts(host: string): Set<string> {
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

function checkRequest(req: IncomingMessage, hosts: ReadonlySet<string>): void {
  const host = hostName(req.headers.host);
  const anyHost = hosts.has("0.0.0.0") || hosts.has("::") || hosts.has("[::]");
  if (!host || (!anyHost && !hosts.has(host))) throw new RequestError(403, "unexpected Host header");
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) {
    throw new RequestError(403, "cross-origin request refused");
  }
  if (!/^application\/json\b/.test(req.headers["content-type"] ?? "")) {
    throw new RequestError(415, "send JSON (Content-Type: application/json)");
  }
}

async function handle(req: IncomingMessage, res: ServerResponse, runsDir: string, hosts: ReadonlySet<string>) {
  try {
    checkRequest(req, hosts);
    const url = new URL(req.url ?? "/", "http://viewer.invalid");
    if (url.pathname.startsWith("/api/")) {
      const body = req.method === "POST" || req.method === "DELETE" ? await readBody(req) : undefined;
      const { status, body: out } = await handleApi(runsDir, req.method ?? "GET", url, body);
      sendJson(res, status, out);
      return;
    }
    const asset = STATIC[url.pathname];
    if (!asset || (req.method !== "GET" && req.method !== "HEAD")) {
      send(res, 404, "text/plain; charset=utf-8", "not found\n");
      return;
    }
    send(res, 200, asset.type, readFileSync(join(STATIC_DIR, asset.file)));
  } catch (error) {
    if (error instanceof RequestError) return sendJson(res, error.status, { error: error.message });
    if (error instanceof URIError) return sendJson(res, 400, { error: "malformed URL" });
    log.error(`viewer: ${req.method} ${req.url}: ${(error as Error).stack ?? error}`);
    sendJson(res, 500, { error: (error as Error).message });
  }
}

/** Starts the viewer; resolves once it listens. */
export function startViewer(options: ViewerOptions): Promise<Viewer> {
  const host = options.host ?? DEFAULT_HOST;
  const hosts = allowedHosts(host);
  const server = createServer((req, res) => {
    void handle(req, res, options.runsDir, hosts);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? DEFAULT_PORT, host, () => {
      server.off("error", reject);
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${port}/`,
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
