/**
 * The membench HTTP system protocol, version 1 (docs/http-protocol.md): the
 * bodies a client sends and a server answers, as zod schemas. They are the one
 * source of truth: the client (http.ts) checks every answer against them, the
 * reference server (ledger/service/protocol.ts) every request, and the OpenAPI
 * document (http-openapi.ts, committed as docs/http-protocol.openapi.json) is
 * generated from them.
 *
 * Requests are checked strictly (an unknown field is refused, so a misspelt one
 * shows); answers leniently (fields a later minor version adds are ignored).
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { IsoTime, Role } from "../core/model.ts";
import type { IngestBatch } from "./types.ts";

/** `MAJOR.MINOR`: a client speaks every minor version of its major one. */
export const PROTOCOL_VERSION = "1.0";
export const PROTOCOL_MAJOR = 1;

/** Longest `batchId` a server must accept. */
export const MAX_BATCH_ID = 128;

const nonEmpty = z.string().min(1);

export const CapsSchema = z.object({
  granularity: z.enum(["turn", "session", "batch", "chunk"]).describe("How the system wants history fed to it"),
  ranked: z.boolean().describe("Search results are ranked best first"),
  provenance: z.boolean().describe("Results carry the session and turn ids they came from"),
  readback: z.boolean().describe("POST readback is served (what the system wrote from given sessions)"),
  nativeAnswer: z.boolean().describe("POST answer is served (the system answers questions itself)"),
});

export const CapsAnswerSchema = z.object({
  protocolVersion: z
    .string()
    .regex(/^\d+\.\d+$/, "expected MAJOR.MINOR, e.g. 1.0")
    .describe("The protocol version the server speaks, MAJOR.MINOR"),
  name: nonEmpty.describe("The memory system's own name"),
  version: z.string().describe("The memory system's own version"),
  caps: CapsSchema,
  info: z
    .record(z.string(), z.unknown())
    .optional()
    .describe("Anything else worth recording in a run's snapshot (models, store); never secrets"),
});
export type CapsAnswer = z.infer<typeof CapsAnswerSchema>;

export const TurnSchema = z
  .object({
    id: nonEmpty,
    role: Role,
    speaker: z.string().optional(),
    content: z.string(),
    time: IsoTime.optional(),
  })
  .strict();

export const BatchSchema = z
  .object({
    sessionId: nonEmpty,
    sessionIndex: z.number().int().min(0).describe("The session's position in the history"),
    time: IsoTime.optional(),
    turns: z.array(TurnSchema),
  })
  .strict();

export const IngestBodySchema = z
  .object({
    batchId: nonEmpty
      .max(MAX_BATCH_ID)
      .describe(
        "Idempotency key: the same for every attempt of one ingest; a batch already applied is not applied again",
      ),
    batch: BatchSchema,
  })
  .strict();
export type IngestBody = z.infer<typeof IngestBodySchema>;

export const SearchBodySchema = z
  .object({
    text: z.string().describe("The question"),
    k: z.number().int().min(0).describe("Most items to return; 9007199254740991 asks for everything"),
    time: IsoTime.optional().describe("The question's time: nothing later may inform the answer"),
  })
  .strict();

export const ReadbackBodySchema = z.object({ sessionIds: z.array(z.string()) }).strict();

export const AnswerBodySchema = z
  .object({
    probe: z.object({ id: nonEmpty, question: z.string(), time: IsoTime.optional() }).strict(),
  })
  .strict();

/** open, flush and close take an empty object (or no body). */
export const EmptyBodySchema = z.object({}).strict().optional();

export const RetrievedSchema = z.object({
  text: z.string(),
  score: z.number(),
  time: z.string().optional(),
  sessionIds: z.array(z.string()).optional().describe("Provenance: the sessions the item came from"),
  turnIds: z.array(z.string()).optional().describe("Provenance: the turns the item came from"),
  kind: z.enum(["turn", "session", "memory", "chunk"]).optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});

export const ResultsAnswerSchema = z.object({ results: z.array(RetrievedSchema) });
export const AnswerAnswerSchema = z.object({ answer: z.string() });
export const OkAnswerSchema = z.object({
  ok: z.literal(true),
  duplicate: z.boolean().optional().describe("ingest: this batchId was applied before; nothing was written"),
});

export const ErrorAnswerSchema = z.object({
  error: z.string().describe("What went wrong"),
  field: z.string().optional().describe("The field at fault (400, 413)"),
});

/** A namespace as one path segment: namespaces are unit ids such as `ledger|conv-26`. */
export function namespaceSegment(ns: string): string {
  return encodeURIComponent(ns);
}

/**
 * The batchId a client sends: the first 32 hex digits of the SHA-256 of the
 * batch's JSON. Every attempt of one ingest carries the same id, whichever
 * process sends it, so a retry after a lost answer is never written twice.
 */
export function batchIdOf(batch: IngestBatch): string {
  const canonical = {
    sessionId: batch.sessionId,
    sessionIndex: batch.sessionIndex,
    time: batch.time,
    turns: batch.turns.map((t) => ({ id: t.id, role: t.role, speaker: t.speaker, content: t.content, time: t.time })),
  };
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex").slice(0, 32);
}
