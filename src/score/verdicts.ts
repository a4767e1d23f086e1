/** Verdict shapes shared by several benchmarks' judges. */
import { z } from "zod";

/** The generic correct/wrong verdict every QA judge of membench returns. */
export const QaVerdict = z.object({
  correct: z.boolean(),
  reason: z.string().default(""),
});
export type QaVerdict = z.infer<typeof QaVerdict>;
