/**
 * The OpenAPI 3.1 document of the HTTP system protocol, generated from the
 * schemas of http-protocol.ts. The reference server serves it at
 * `{base}/openapi.json`; docs/http-protocol.openapi.json is the same document,
 * committed (a test keeps the two equal).
 */
import type { z } from "zod";
import { jsonSchemaOf } from "../llm/structured.ts";
import {
  AnswerAnswerSchema,
  AnswerBodySchema,
  CapsAnswerSchema,
  ErrorAnswerSchema,
  IngestBodySchema,
  OkAnswerSchema,
  PROTOCOL_VERSION,
  ReadbackBodySchema,
  ResultsAnswerSchema,
  SearchBodySchema,
} from "./http-protocol.ts";

interface ProtocolRoute {
  method: "get" | "post";
  path: string;
  operationId: string;
  summary: string;
  body?: z.ZodType;
  answer: z.ZodType;
  optional?: string;
}

/** The routes, relative to the system's base URL (what follows `http:` in `--system http:URL`). */
export const PROTOCOL_ROUTES: readonly ProtocolRoute[] = [
  {
    method: "get",
    path: "/caps",
    operationId: "caps",
    summary: "The protocol version, the system's name and version, and its capabilities",
    answer: CapsAnswerSchema,
  },
  {
    method: "post",
    path: "/ns/{ns}/open",
    operationId: "open",
    summary: "Open a namespace (one work unit); opening an open namespace keeps its data",
    answer: OkAnswerSchema,
  },
  {
    method: "post",
    path: "/ns/{ns}/ingest",
    operationId: "ingest",
    summary: "Write a batch of one session's turns; a batchId already applied is answered without writing again",
    body: IngestBodySchema,
    answer: OkAnswerSchema,
  },
  {
    method: "post",
    path: "/ns/{ns}/flush",
    operationId: "flush",
    summary: "Answer once everything ingested so far is searchable",
    answer: OkAnswerSchema,
  },
  {
    method: "post",
    path: "/ns/{ns}/search",
    operationId: "search",
    summary: "At most k items for a question, best first when ranked, with provenance; nothing later than `time`",
    body: SearchBodySchema,
    answer: ResultsAnswerSchema,
  },
  {
    method: "post",
    path: "/ns/{ns}/readback",
    operationId: "readback",
    summary: "What the system wrote from the given sessions (the perfect-retrieval setting)",
    body: ReadbackBodySchema,
    answer: ResultsAnswerSchema,
    optional: "caps.readback",
  },
  {
    method: "post",
    path: "/ns/{ns}/answer",
    operationId: "answer",
    summary: "The system's own answer to a question (agent-style systems)",
    body: AnswerBodySchema,
    answer: AnswerAnswerSchema,
    optional: "caps.nativeAnswer",
  },
  {
    method: "post",
    path: "/ns/{ns}/close",
    operationId: "close",
    summary: "Erase the namespace and everything in it; closing a namespace that is not open does nothing",
    answer: OkAnswerSchema,
  },
];

// What each schema accepts: a request's unknown fields are refused, an answer's allowed (a later minor version adds some).
const json = (schema: z.ZodType) => ({ "application/json": { schema: jsonSchemaOf(schema, "input") } });

const ERROR = { description: "An error: `{error, field?}`", content: json(ErrorAnswerSchema) };

const NAMESPACE = {
  name: "ns",
  in: "path",
  required: true,
  description:
    "The namespace, percent-encoded as one path segment (`ledger|conv-26` → `ledger%7Cconv-26`); split the path on `/` before decoding",
  schema: { type: "string", minLength: 1 },
};

/** The protocol's OpenAPI 3.1 document; the same for every server. */
export function protocolOpenApi(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of PROTOCOL_ROUTES) {
    const notServed = route.optional
      ? {
          "501": {
            description: `Not served: ${route.optional} is false`,
            content: json(ErrorAnswerSchema),
          },
        }
      : {};
    paths[route.path] = {
      [route.method]: {
        operationId: route.operationId,
        summary: route.summary,
        ...(route.path.includes("{ns}") ? { parameters: [NAMESPACE] } : {}),
        ...(route.body
          ? { requestBody: { required: true, content: json(route.body) } }
          : route.method === "post"
            ? { requestBody: { required: false, content: { "application/json": { schema: { type: "object" } } } } }
            : {}),
        responses: {
          "200": { description: "Done", content: json(route.answer) },
          ...notServed,
          "4XX": ERROR,
          "5XX": { ...ERROR, description: "A fault of the server, or busy; retried by the client (but 501)" },
        },
      },
    };
  }
  paths["/openapi.json"] = {
    get: {
      operationId: "openapi",
      summary: "This document (optional)",
      responses: { "200": { description: "The OpenAPI document", content: { "application/json": {} } } },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "membench HTTP system protocol",
      version: PROTOCOL_VERSION,
      description:
        "How membench drives a memory system that runs as an HTTP server, in any language (docs/http-protocol.md). Every route is relative to the system's base URL. Requests and answers are JSON (requests with Content-Type: application/json). A bearer token, when the server wants one, goes in Authorization. 429 and 5xx answers (but 501) are retried, honouring Retry-After; other 4xx are not.",
    },
    servers: [
      {
        url: "{base}",
        variables: {
          base: { default: "http://127.0.0.1:4180/v1/systems/ledger", description: "The system's base URL" },
        },
      },
    ],
    paths,
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    // The token is the server's choice: with none, anonymous requests are fine.
    security: [{}, { bearer: [] }],
  };
}
