/**
 * Request bodies of the ledger service, checked before anything is written: a
 * bad body is a 400 naming the field at fault, never a half-written session.
 */
import { z } from "zod";
import { formatPath } from "../../core/validate.ts";
import { RequestError } from "../../util/http-server.ts";
import { normaliseTime } from "../ids.ts";

const time = z.string().refine((v) => normaliseTime(v) !== undefined, {
  message: "expected a date or date-time (ISO 8601, e.g. 2024-05-01 or 2024-05-01T09:30:00Z)",
});
const text = z.string().min(1);

/** Most turns one request may carry: each costs an insert and an embedding, however short. */
export const MAX_TURNS = 10_000;

/** A turn; `turnChars` bounds its content (the ledger's limit, said in the OpenAPI description too). */
export function turnSchema(turnChars?: number) {
  const content =
    turnChars === undefined
      ? z.string()
      : z.string().max(turnChars, { message: `longer than the limit of ${turnChars} characters per turn` });
  return z
    .object({
      id: text,
      role: z.enum(["user", "assistant", "system"]),
      speaker: z.string().optional(),
      content,
      time: time.optional(),
    })
    .strict();
}

export const TurnSchema = turnSchema();

/** A session's turns to add, whole or the next part. */
export function sessionSchema(turnChars?: number) {
  return z
    .object({
      sessionId: text,
      sessionIndex: z.number().int().min(0).optional(),
      time: time.optional(),
      turns: z
        .array(turnSchema(turnChars))
        .min(1)
        .max(MAX_TURNS, { message: `more than ${MAX_TURNS} turns in one request (send the session in parts)` }),
    })
    .strict()
    .superRefine((session, ctx) => {
      // A repeated id in one request would overwrite its own turn and leave memories of the lost text.
      const seen = new Set<string>();
      session.turns.forEach((t, i) => {
        if (seen.has(t.id))
          ctx.addIssue({ code: "custom", path: ["turns", i, "id"], message: `duplicate turn id "${t.id}"` });
        seen.add(t.id);
      });
    });
}

export const SessionSchema = sessionSchema();

/** Most results one search returns. */
export const MAX_K = 1000;

export const SearchSchema = z
  .object({
    query: z.string(),
    k: z.number().int().min(1).max(MAX_K).optional(),
    at: time.optional(),
  })
  .strict();

export const ContextSchema = SearchSchema.extend({
  tokenBudget: z.number().int().min(1).optional(),
});

export const ForgetSchema = z
  .object({
    at: time.optional(),
  })
  .strict()
  .optional();

const MemorySchema = z.object({
  id: text,
  ns: z.string(),
  subject: text,
  kind: z.enum(["fact", "preference", "event", "plan", "schedule", "project"]),
  attribute: text,
  value: z.string(),
  condition: z.string().optional(),
  text: z.string(),
  validFrom: z.string().optional(),
  validTo: z.string().optional(),
  recordedAt: z.string().optional(),
  retiredAt: z.string().optional(),
  sessionId: text,
  turnIds: z.array(z.string()),
  status: z.enum(["active", "superseded", "contested", "retired"]),
  canonical: z.boolean(),
  seq: z.number().int(),
});

/** The items of an export's lists, each checked on its own when an import is read a record at a time. */
export const EXPORT_ITEMS = {
  sessions: z.object({ id: text, index: z.number().int(), time: z.string().optional() }),
  turns: TurnSchema.extend({ sessionId: text, position: z.number().int(), sessionIndex: z.number().int() }),
  memories: MemorySchema,
  links: z.object({
    from: text,
    to: text,
    relation: z.enum(["supersedes", "contradicts", "conditional", "complements"]),
  }),
};

export const ExportSchema = z.object({
  format: z.literal("membench-ledger"),
  version: z.literal(1),
  ns: z.string(),
  sessions: z.array(EXPORT_ITEMS.sessions),
  turns: z.array(EXPORT_ITEMS.turns),
  memories: z.array(EXPORT_ITEMS.memories),
  links: z.array(EXPORT_ITEMS.links),
});

/**
 * The first problem of a failed parse: the field's path ("turns[2].role") and a
 * message naming it; `limit` when a string or list is longer than allowed.
 */
export function firstIssue(
  error: z.ZodError,
  /** Where the parsed value sits in the body (an import's `turns[12]`). */
  at: readonly PropertyKey[] = [],
): { field: string; message: string; limit?: number } {
  const issue = error.issues[0];
  if (!issue) return { field: formatPath(at), message: "invalid body" };
  const field = formatPath([...at, ...issue.path]);
  const what = issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message;
  const limit =
    issue.code === "too_big" && (issue.origin === "string" || issue.origin === "array")
      ? Number(issue.maximum)
      : undefined;
  return { field, message: field ? `${field}: ${what}` : what, ...(limit !== undefined ? { limit } : {}) };
}

/** A request body checked against `schema`: a 400 naming the field at fault, or a 413 when past a limit. */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const { field, message, limit } = firstIssue(parsed.error);
  // Longer than a limit: too large, not malformed.
  if (limit !== undefined) throw new RequestError(413, message, { field, limit });
  throw new RequestError(400, message, field ? { field } : {});
}
