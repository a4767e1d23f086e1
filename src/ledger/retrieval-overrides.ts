/**
 * Overrides of the ledger's retrieval parameters from outside the code (a run's
 * `--ledger-retrieval '{"pullComplements":true,"weights":{"memoryLexical":1}}'`),
 * checked against DEFAULT_RETRIEVAL: every key must be one it has, with a value
 * of the same type, so a misspelt weight is an error instead of a silent no-op.
 */
import { z } from "zod";
import { DEFAULT_RETRIEVAL, type RetrievalParams, type RetrievalWeights } from "./retrieval-params.ts";

export type RetrievalOverrides = Partial<Omit<RetrievalParams, "weights">> & { weights?: Partial<RetrievalWeights> };

const number = z.number().finite().nonnegative();

function shapeOf(defaults: Record<string, unknown>): Record<string, z.ZodType> {
  return Object.fromEntries(
    Object.entries(defaults).map(([key, value]) => [
      key,
      (typeof value === "boolean" ? z.boolean() : number).optional().describe(`default ${value}`),
    ]),
  );
}

const { weights: defaultWeights, ...defaultParams } = DEFAULT_RETRIEVAL;
/** The overrides' schema: the ledger system's `retrieval` option. */
export const RETRIEVAL_OVERRIDES = z
  .object({
    ...shapeOf(defaultParams),
    weights: z
      .object(shapeOf({ ...defaultWeights }))
      .strict()
      .optional(),
  })
  .strict();

/** Validated overrides, or an Error that names the offending key. */
export function parseRetrievalOverrides(value: unknown): RetrievalOverrides {
  const parsed = RETRIEVAL_OVERRIDES.safeParse(value);
  if (parsed.success) return parsed.data as RetrievalOverrides;
  const issue = parsed.error.issues[0]!;
  const keys = issue.code === "unrecognized_keys" ? issue.keys : [];
  const where = [...issue.path.map(String), ...keys].join(".") || "(root)";
  const known =
    issue.code === "unrecognized_keys"
      ? `; known: ${Object.keys(issue.path[0] === "weights" ? defaultWeights : DEFAULT_RETRIEVAL).join(", ")}`
      : "";
  throw new Error(`${where}: ${issue.message}${known}`);
}
