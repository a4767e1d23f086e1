/**
 * `membench serve`: the ledger over HTTP, for agents in any language. JSON in
 * and out (api.ts); optional bearer-token auth; the Host check of
 * util/http-server.ts against DNS rebinding.
 */
import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  allowedHosts,
  checkHost,
  DEFAULT_HOST,
  DEFAULT_SERVICE_PORT,
  type Listening,
  listen,
  RequestError,
  readJsonBody,
  requireJson,
  sendJson,
  sendStream,
} from "../../util/http-server.ts";
import { log } from "../../util/log.ts";
import type { Ledger } from "../ledger.ts";
import { LedgerApi, type ServiceInfo } from "./api.ts";
import { DEFAULT_MAX_BODY } from "./limits.ts";

export { DEFAULT_MAX_BODY, DEFAULT_SERVICE_LIMITS } from "./limits.ts";
export { DEFAULT_SERVICE_PORT };

export interface LedgerServiceOptions {
  ledger: Ledger;
  info: ServiceInfo;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** When set, every request needs `Authorization: Bearer <token>`. */
  token?: string;
  maxBody?: number;
}

const HEADERS = { "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff" };

function authorised(req: IncomingMessage, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "");
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim());
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  api: LedgerApi,
  hosts: ReadonlySet<string>,
  options: LedgerServiceOptions,
): Promise<void> {
  const started = performance.now();
  let status = 500;
  try {
    checkHost(req, hosts);
    if (options.token && !authorised(req, options.token)) {
      throw new RequestError(401, "missing or wrong bearer token (Authorization: Bearer <token>)");
    }
    const url = new URL(req.url ?? "/", "http://ledger.invalid");
    const method = req.method ?? "GET";
    if (method === "POST") requireJson(req);
    const out = await api.handle({
      method,
      url,
      body: () => readJsonBody(req, options.maxBody ?? DEFAULT_MAX_BODY),
      chunks: req,
    });
    status = out.status;
    if (out.stream) await sendStream(res, out.status, "application/json; charset=utf-8", out.stream, HEADERS);
    else sendJson(res, out.status, out.body, HEADERS);
  } catch (error) {
    if (res.headersSent) {
      // Part of a streamed answer is out: the connection is cut, so the client sees it unfinished.
      log.error(`serve: ${req.method} ${req.url}: cut short: ${(error as Error).message}`);
      res.destroy();
    } else if (error instanceof RequestError) {
      status = error.status;
      sendJson(res, error.status, { error: error.message, ...error.detail }, HEADERS);
    } else {
      log.error(`serve: ${req.method} ${req.url}: ${(error as Error).stack ?? error}`);
      sendJson(res, 500, { error: (error as Error).message }, HEADERS);
    }
  } finally {
    log.debug(`serve: ${req.method} ${req.url} → ${status} in ${(performance.now() - started).toFixed(1)} ms`);
  }
}

/** Starts the service; resolves once it listens. Closing it leaves the ledger open (the caller owns it). */
export function startLedgerService(options: LedgerServiceOptions): Promise<Listening> {
  const host = options.host ?? DEFAULT_HOST;
  const hosts = allowedHosts(host);
  const api = new LedgerApi(options.ledger, options.info, Boolean(options.token), options.maxBody ?? DEFAULT_MAX_BODY);
  return listen((req, res) => void handle(req, res, api, hosts, options), host, options.port ?? DEFAULT_SERVICE_PORT);
}
