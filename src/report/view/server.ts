/**
 * `membench view`: a small HTTP server on the loopback interface — the JSON API
 * plus three static files. It only answers requests addressed to the host it
 * listens on (DNS rebinding), changes data only on JSON requests from its own
 * origin (cross-site forms), and serves no file outside its fixed list.
 */
import { readFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { join } from "node:path";
import {
  allowedHosts,
  checkHost,
  DEFAULT_HOST,
  DEFAULT_VIEW_PORT,
  isLoopback,
  type Listening,
  listen,
  RequestError,
  readJsonBody,
  requireJson,
  sendJson as sendJsonWith,
  send as sendWith,
} from "../../util/http-server.ts";
import { log } from "../../util/log.ts";
import { assetPath } from "../../util/paths.ts";
import { handleApi } from "./api.ts";

export { DEFAULT_HOST, isLoopback };
export const DEFAULT_PORT = DEFAULT_VIEW_PORT;

const STATIC_DIR = assetPath("report/view/static");
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

export interface ViewerOptions {
  runsDir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
}

export type Viewer = Listening;

const send = (res: ServerResponse, status: number, type: string, body: string | Buffer) =>
  sendWith(res, status, type, body, SECURITY_HEADERS);
const sendJson = (res: ServerResponse, status: number, body: unknown) =>
  sendJsonWith(res, status, body, SECURITY_HEADERS);

function checkRequest(req: IncomingMessage, hosts: ReadonlySet<string>): void {
  checkHost(req, hosts);
  if (req.method === "GET" || req.method === "HEAD") return;
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== `http://${req.headers.host}`) {
    throw new RequestError(403, "cross-origin request refused");
  }
  requireJson(req);
}

async function handle(req: IncomingMessage, res: ServerResponse, runsDir: string, hosts: ReadonlySet<string>) {
  try {
    checkRequest(req, hosts);
    const url = new URL(req.url ?? "/", "http://viewer.invalid");
    if (url.pathname.startsWith("/api/")) {
      const body = req.method === "POST" || req.method === "DELETE" ? await readJsonBody(req, MAX_BODY) : undefined;
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
  return listen((req, res) => void handle(req, res, options.runsDir, hosts), host, options.port ?? DEFAULT_PORT);
}
