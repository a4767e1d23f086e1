/**
 * The ledger service's JSON API: each route is one call of the library. The
 * routes, with their bodies, are listed once in openapi.ts (`ROUTES`), which
 * `GET /v1/openapi.json` serves; docs/serve.md explains them.
 *
 * Writes to one namespace run one at a time, in arrival order; reads never wait.
 */
import { LedgerSystem } from "../../systems/ledger.ts";
import { RequestError } from "../../util/http-server.ts";
import { KeyedQueue } from "../../util/keyed-queue.ts";
import { packageVersion } from "../../util/paths.ts";
import { buildContext } from "../context.ts";
import { LedgerConflictError, LedgerLimitError } from "../errors.ts";
import { normaliseTime } from "../ids.ts";
import type { Ledger } from "../ledger.ts";
import { importBodyParts } from "./import-body.ts";
import { DEFAULT_MAX_BODY, type ServiceLimits } from "./limits.ts";
import { openApi } from "./openapi.ts";
import { SystemProtocolApi } from "./protocol.ts";
import { ContextSchema, ForgetSchema, MAX_TURNS, parseBody, SearchSchema, sessionSchema } from "./schemas.ts";

export interface ServiceInfo {
  /** The SQLite file, or ":memory:". */
  store: string;
  /** The embedder id, or undefined for lexical-only search. */
  embedder?: string;
  extractor: string;
  /** The query rewriter's id, when searches are rewritten by a model. */
  queryRewrite?: string;
}

export interface ApiRequest {
  method: string;
  url: URL;
  /** The JSON body, read whole within the body limit (undefined when empty). */
  body(): Promise<unknown>;
  /** The body as it arrives, for an import (a whole namespace: no total limit). */
  chunks: AsyncIterable<Buffer>;
}

export interface ApiResponse {
  status: number;
  body?: unknown;
  /** A JSON body written a piece at a time instead (an export: a whole namespace). */
  stream?: (write: (chunk: string) => Promise<void>) => Promise<void>;
}

const DEFAULT_K = 10;

/** The name the store is served under by the HTTP system protocol (`/v1/systems/ledger`). */
export const PROTOCOL_SYSTEM = "ledger";

function segments(url: URL): string[] {
  try {
    return url.pathname.split("/").filter(Boolean).map(decodeURIComponent);
  } catch {
    throw new RequestError(400, "malformed URL");
  }
}

function optionalTime(value: string | null, name: string): string | undefined {
  if (value === null || value === "") return undefined;
  const at = normaliseTime(value);
  if (!at) throw new RequestError(400, `${name}: expected a date or date-time (ISO 8601)`, { field: name });
  return at;
}

export class LedgerApi {
  private readonly writes = new KeyedQueue();
  private readonly limits: ServiceLimits;
  private readonly sessionSchema: ReturnType<typeof sessionSchema>;
  private readonly protocol: SystemProtocolApi;

  constructor(
    private readonly ledger: Ledger,
    private readonly info: ServiceInfo,
    /** Whether requests need a bearer token (said in the OpenAPI description). */
    private readonly secured = false,
    bodyBytes = DEFAULT_MAX_BODY,
  ) {
    this.limits = { ...ledger.limits, bodyBytes, turnsPerWrite: MAX_TURNS };
    this.sessionSchema = sessionSchema(ledger.limits.turnChars);
    // The same store over the HTTP system protocol: `membench run --system http:…/v1/systems/ledger`.
    this.protocol = new SystemProtocolApi(
      // A write whose extraction failed keeps its turns but answers 500, so a client's retry extracts again.
      new LedgerSystem({ failOnExtractionError: true }, ledger),
      { name: "membench-ledger", version: packageVersion(), info: { ...info } },
      `/v1/systems/${PROTOCOL_SYSTEM}`,
    );
  }

  async handle(req: ApiRequest): Promise<ApiResponse> {
    try {
      return await this.route(req);
    } catch (error) {
      if (error instanceof LedgerConflictError) throw new RequestError(409, error.message);
      if (error instanceof LedgerLimitError) {
        throw new RequestError(413, error.message, { field: error.field, limit: error.limit });
      }
      throw error;
    }
  }

  private async route({ method, url, body: read, chunks }: ApiRequest): Promise<ApiResponse> {
    const path = segments(url);
    if (path[0] !== "v1") throw new RequestError(404, `no route ${method} ${url.pathname}; the API is under /v1`);
    const [, head, ns, ...rest] = path;
    const route = `${method} ${[head, ns === undefined ? "" : ":ns", ...rest.map((r, i) => (i === 1 ? ":id" : r))]
      .filter((x) => x !== "")
      .join("/")}`;
    if (route === "GET health") {
      return ok({ ok: true, ...this.info, namespaces: this.ledger.namespaces().length, limits: this.limits });
    }
    if (route === "GET openapi.json") return ok(openApi(this.secured, this.limits));
    if (route === "GET namespaces") return ok({ namespaces: this.ledger.namespaces() });
    if (head === "systems") {
      if (ns !== PROTOCOL_SYSTEM) {
        throw new RequestError(404, `no system "${ns ?? ""}" here; the HTTP system protocol is at /v1/systems/ledger`);
      }
      return this.protocol.handle(method, rest, read);
    }
    if (head !== "namespaces" || ns === undefined) throw notFound(method, url);
    const id = rest[1];
    switch (route) {
      case "POST namespaces/:ns/sessions": {
        const session = parseBody(this.sessionSchema, await read());
        const added = await this.writes.run(ns, () => this.ledger.add(ns, session));
        return ok(added);
      }
      case "DELETE namespaces/:ns":
        this.need(ns);
        await this.writes.run(ns, () => this.ledger.drop(ns));
        return ok({ dropped: ns });
      case "POST namespaces/:ns/search": {
        const q = parseBody(SearchSchema, await read());
        this.need(ns);
        const hits = await this.ledger.search(ns, q.query, { k: q.k ?? DEFAULT_K, ...(q.at ? { at: q.at } : {}) });
        return ok({ hits });
      }
      case "POST namespaces/:ns/context": {
        const q = parseBody(ContextSchema, await read());
        this.need(ns);
        const at = normaliseTime(q.at);
        const hits = await this.ledger.search(ns, q.query, { k: q.k ?? DEFAULT_K, ...(at ? { at } : {}) });
        const context = buildContext(hits, {
          ...(q.tokenBudget ? { tokenBudget: q.tokenBudget } : {}),
          ...(at ? { at } : {}),
        });
        return ok({ ...context, hits });
      }
      case "GET namespaces/:ns/memories": {
        this.need(ns);
        const subject = url.searchParams.get("subject") || "user";
        const attribute = url.searchParams.get("attribute");
        if (!attribute)
          throw new RequestError(400, "attribute: name the attribute (?attribute=residence)", { field: "attribute" });
        const at = optionalTime(url.searchParams.get("at"), "at");
        return ok({ memories: this.ledger.current(ns, subject, attribute, at) });
      }
      case "GET namespaces/:ns/memories/:id":
        return ok(this.memory(ns, id!));
      case "GET namespaces/:ns/memories/:id/history":
        this.memory(ns, id!);
        return ok({ versions: this.ledger.history(ns, id!) });
      case "POST namespaces/:ns/memories/:id/forget": {
        const options = parseBody(ForgetSchema, await read());
        this.memory(ns, id!);
        const retired = await this.writes.run(ns, () => this.ledger.forget(ns, id!, options?.at));
        return ok(retired);
      }
      case "GET namespaces/:ns/export":
        this.need(ns);
        // Streamed: a namespace has no size limit. Its writes wait until the export is sent.
        return { status: 200, stream: (write) => this.writes.run(ns, () => this.ledger.exportTo(ns, write)) };
      case "POST namespaces/:ns/import": {
        // Read a record at a time: whatever export wrote imports, whatever its size.
        const counts = await this.writes.run(ns, () =>
          this.ledger.importParts(ns, importBodyParts(chunks, this.limits.bodyBytes)),
        );
        return ok({ imported: ns, sessions: counts.sessions, turns: counts.turns, memories: counts.memories });
      }
      default:
        throw notFound(method, url);
    }
  }

  private need(ns: string): void {
    if (!this.ledger.has(ns)) {
      throw new RequestError(
        404,
        `no namespace "${ns}"; POST /v1/namespaces/${encodeURIComponent(ns)}/sessions creates it`,
      );
    }
  }

  private memory(ns: string, id: string) {
    this.need(ns);
    const m = this.ledger.get(ns, id);
    if (!m) throw new RequestError(404, `no memory "${id}" in namespace "${ns}"`);
    return m;
  }
}

const ok = (body: unknown): ApiResponse => ({ status: 200, body });

function notFound(method: string, url: URL): RequestError {
  return new RequestError(404, `no route ${method} ${url.pathname}`);
}
