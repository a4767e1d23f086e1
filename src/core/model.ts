/**
 * The unified domain model every benchmark maps into. Nothing downstream of a
 * loader knows which file format the data came from.
 *
 * Times are ISO 8601 strings. Some releases give only a day (`2024-03-05`), some
 * nothing at all; some step backwards, which is why `index` (the release's own
 * array order) and not time is the canonical order.
 */
import { z } from "zod";

/** ISO 8601 date (`YYYY-MM-DD`) or date-time. */
export const IsoTime = z
  .string()
  .regex(
    /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/,
    "expected an ISO 8601 date or date-time",
  );

/** Free-form extra data kept from the release; never shown to a memory system. */
export const Meta = z.record(z.string(), z.unknown());

export const Role = z.enum(["user", "assistant", "system"]);
export type Role = z.infer<typeof Role>;

export const Turn = z.object({
  id: z.string().min(1),
  index: z.number().int().nonnegative(),
  role: Role,
  /** The speaker's own name where the data has one (LoCoMo, Memora agents). */
  speaker: z.string().optional(),
  content: z.string(),
  time: IsoTime.optional(),
  meta: Meta.optional(),
});
export type Turn = z.infer<typeof Turn>;

export const Session = z.object({
  id: z.string().min(1),
  index: z.number().int().nonnegative(),
  time: IsoTime.optional(),
  turns: z.array(Turn),
  /** Labels such as the RealMem project name: ids for reports, never content. */
  meta: Meta.optional(),
});
export type Session = z.infer<typeof Session>;

export const CriterionKind = z.enum(["presence", "absence"]);
export const Criterion = z.object({
  text: z.string().min(1),
  /** presence: the answer must contain it; absence: it must not (a forgotten fact). */
  kind: CriterionKind,
  /** The answer a judge should give for the criterion to be satisfied. */
  expected: z.enum(["yes", "no"]).optional(),
  meta: Meta.optional(),
});
export type Criterion = z.infer<typeof Criterion>;

export const Gold = z.object({
  answers: z.array(z.string()).default([]),
  wrongAnswers: z.array(z.string()).default([]),
  criteria: z.array(Criterion).default([]),
  evidenceSessionIds: z.array(z.string()).default([]),
  evidenceTurnIds: z.array(z.string()).default([]),
  /** Evidence given as memory texts (RealMem `memory_used`, MemConflict points). */
  evidenceMemories: z.array(z.string()).default([]),
  /** Sessions holding facts that were later invalidated (Memora `forgetting_evidence`). */
  staleSessionIds: z.array(z.string()).default([]),
});
export type Gold = z.infer<typeof Gold>;

/**
 * Where in the timeline a probe fires.
 * - `end`: after the whole history.
 * - `before`: inside `sessionId`, before any of it is ingested (RealMem).
 * - `after`: right after `sessionId` is ingested (MemConflict).
 */
export const ProbePosition = z.discriminatedUnion("at", [
  z.object({ at: z.literal("end") }),
  z.object({ at: z.literal("before"), sessionId: z.string().min(1) }),
  z.object({ at: z.literal("after"), sessionId: z.string().min(1) }),
]);
export type ProbePosition = z.infer<typeof ProbePosition>;

export const Probe = z.object({
  id: z.string().min(1),
  question: z.string().min(1),
  time: IsoTime.optional(),
  position: ProbePosition,
  /** The benchmark's own breakdowns, e.g. `{category: "temporal"}`. */
  labels: z.record(z.string(), z.string()).default({}),
  gold: Gold,
  meta: Meta.optional(),
});
export type Probe = z.infer<typeof Probe>;
export type ProbeInput = z.input<typeof Probe>;

export const Episode = z.object({
  id: z.string().min(1),
  benchmark: z.string().min(1),
  sessions: z.array(Session),
  probes: z.array(Probe),
  labels: z.record(z.string(), z.string()).default({}),
  meta: Meta.optional(),
});
export type Episode = z.infer<typeof Episode>;
export type EpisodeInput = z.input<typeof Episode>;

export const SourceFile = z.object({ path: z.string(), bytes: z.number().int().nonnegative() });
export type SourceFile = z.infer<typeof SourceFile>;

export const Dataset = z.object({
  benchmark: z.string().min(1),
  variant: z.string().optional(),
  /** The path the user gave and the files actually read. */
  source: z.object({ path: z.string(), files: z.array(SourceFile).default([]) }),
  episodes: z.array(Episode),
  /** Things a loader found suspicious but could still load (lenient mode). */
  warnings: z.array(z.string()).default([]),
});
export type Dataset = z.infer<typeof Dataset>;
