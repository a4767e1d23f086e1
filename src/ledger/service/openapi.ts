/**
 * The service's routes as data, and the OpenAPI 3.1 description built from
 * them (`GET /v1/openapi.json`): request bodies come from the same zod schemas
 * the service checks, so the description cannot drift from what is enforced.
 */
import type { z } from "zod";
import { jsonSchemaOf } from "../../llm/structured.ts";
import { packageVersion } from "../../util/paths.ts";
import type { ServiceLimits } from "./limits.ts";
import { ContextSchema, ExportSchema, ForgetSchema, SearchSchema, sessionSchema } from "./schemas.ts";

export interface RouteDoc {
  method: "GET" | "POST" | "DELETE";
  /** OpenAPI path template under the server root. */
  path: string;
  summary: string;
  body?: z.ZodType;
  query?: Array<{ name: string; required: boolean; description: string }>;
}

/** The routes, the sessions body bounded by `turnChars` (the ledger's limit). */
export function routes(turnChars?: number): readonly RouteDoc[] {
  return [
    { method: "GET", path: "/v1/health", summary: "Store, embedder, extractor, query rewrite and namespace count" },
    { method: "GET", path: "/v1/openapi.json", summary: "This description" },
    { method: "GET", path: "/v1/namespaces", summary: "Namespace names" },
    {
      method: "DELETE",
      path: "/v1/namespaces/{ns}",
      summary: "Erase a namespace and everything in it (forgetting retires; this erases)",
    },
    {
      method: "POST",
      path: "/v1/namespaces/{ns}/sessions",
      summary: "Add a session's turns (all of it or the next part); creates the namespace",
      body: sessionSchema(turnChars),
    },
    {
      method: "POST",
      path: "/v1/namespaces/{ns}/search",
      summary: "Ranked hits, one bundle per session",
      body: SearchSchema,
    },
    {
      method: "POST",
      path: "/v1/namespaces/{ns}/context",
      summary: "The hits rendered for a prompt, with dates, sources and flags, within a token budget",
      body: ContextSchema,
    },
    {
      method: "GET",
      path: "/v1/namespaces/{ns}/memories",
      summary: "What held for an attribute at a time",
      query: [
        { name: "attribute", required: true, description: 'e.g. "residence", "preference:coffee"' },
        { name: "subject", required: false, description: '"user" (default) or a named other person' },
        { name: "at", required: false, description: "ISO date or date-time (default: now)" },
      ],
    },
    { method: "GET", path: "/v1/namespaces/{ns}/memories/{id}", summary: "One memory" },
    {
      method: "GET",
      path: "/v1/namespaces/{ns}/memories/{id}/history",
      summary: "Every version of the attribute and everything linked, oldest first",
    },
    {
      method: "POST",
      path: "/v1/namespaces/{ns}/memories/{id}/forget",
      summary: "Retire a memory: search no longer shows it, history does",
      body: ForgetSchema,
    },
    {
      method: "GET",
      path: "/v1/namespaces/{ns}/export",
      summary: "The namespace as a membench-ledger export, streamed (any size)",
    },
    {
      method: "POST",
      path: "/v1/namespaces/{ns}/import",
      summary:
        "Load an export into an empty namespace; read a record at a time, so any size, each record within the body limit",
      body: ExportSchema,
    },
  ];
}

export const ROUTES = routes();

const ERROR = {
  description: "An error: what went wrong, the field at fault (400, 413) and the limit it passed (413)",
  content: {
    "application/json": {
      schema: {
        type: "object",
        properties: { error: { type: "string" }, field: { type: "string" }, limit: { type: "integer" } },
        required: ["error"],
      },
    },
  },
};

/** The limits in words, for the description. */
function limitsText(limits: ServiceLimits): string {
  const parts = [
    `a request body of at most ${limits.bodyBytes} bytes (each record of an import)`,
    `${limits.turnsPerWrite} turns per request`,
    limits.turnChars === undefined ? undefined : `${limits.turnChars} characters per turn`,
    limits.sessionChars === undefined ? undefined : `${limits.sessionChars} characters of turns per session`,
    limits.memoriesPerWrite === undefined ? undefined : `${limits.memoriesPerWrite} memories extracted per write`,
  ].filter(Boolean);
  return `Limits: ${parts.join("; ")}. Past one, the answer is a 413 whose \`field\` names what is too large and \`limit\` the bound.`;
}

/** The OpenAPI 3.1 document of the service; `secured` when a bearer token is required. */
export function openApi(secured: boolean, limits: ServiceLimits): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes(limits.turnChars)) {
    const params = [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const query = (route.query ?? []).map((q) => ({
      name: q.name,
      in: "query",
      required: q.required,
      description: q.description,
      schema: { type: "string" },
    }));
    paths[route.path] ??= {};
    paths[route.path]![route.method.toLowerCase()] = {
      summary: route.summary,
      ...(params.length || query.length ? { parameters: [...params, ...query] } : {}),
      ...(route.body
        ? { requestBody: { required: true, content: { "application/json": { schema: jsonSchemaOf(route.body) } } } }
        : {}),
      responses: {
        "200": { description: "OK", content: { "application/json": { schema: { type: "object" } } } },
        "4XX": ERROR,
        "500": ERROR,
      },
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "membench ledger service",
      version: packageVersion(),
      description: `The ledger memory engine over HTTP (docs/serve.md). ${limitsText(limits)}`,
    },
    paths,
    ...(secured
      ? {
          components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
          security: [{ bearer: [] }],
        }
      : {}),
  };
}
