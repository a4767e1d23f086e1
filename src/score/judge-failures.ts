/** Failed judge verdicts by cause: what `score` and `run` print (apart from judge.ts so the CLI loads no model code to define itself). */

/**
 * Why a judge call gave no verdict: `endpoint` — the call itself failed (HTTP
 * error, timeout, reset, after every retry; no reply arrived); `unparsable` — a
 * reply arrived but held no usable verdict, even after the repair request;
 * `error` — anything else. All three are failures, scored as the worst outcome.
 */
export type JudgeFailureCause = "endpoint" | "unparsable" | "error";

/** The cause of a failed verdict; for verdicts stored without one, read from its message. */
export function failureCauseOf(v: { cause?: JudgeFailureCause; reason: string }): JudgeFailureCause {
  if (v.cause) return v.cause;
  if (/^structured output "[^"]*" unusable/.test(v.reason)) return "unparsable";
  // A ModelError's message starts with its endpoint, and then its status in brackets.
  if (/^(https?:\/\/|scripted:)\S*( \[\d+\])?: /.test(v.reason)) return "endpoint";
  return "error";
}

const CAUSE_NAMES: Record<JudgeFailureCause, [string, string]> = {
  unparsable: ["unparsable reply", "unparsable replies"],
  endpoint: ["endpoint failure", "endpoint failures"],
  error: ["other error", "other errors"],
};

/** "2 unparsable replies, 1 endpoint failure": failed verdicts counted by cause, most frequent first. */
export function describeJudgeFailures(list: ReadonlyArray<{ cause?: JudgeFailureCause; reason: string }>): string {
  const counts = new Map<JudgeFailureCause, number>();
  for (const f of list) {
    const cause = failureCauseOf(f);
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  const order = Object.keys(CAUSE_NAMES) as JudgeFailureCause[];
  return [...counts]
    .sort((a, b) => b[1] - a[1] || order.indexOf(a[0]) - order.indexOf(b[0]))
    .map(([cause, n]) => `${n} ${CAUSE_NAMES[cause][n === 1 ? 0 : 1]}`)
    .join(", ");
}
