/**
 * How Memora's released evaluator reads one judge reply (arXiv 2604.20006
 * §4.2 describes the robust parsing; the details are from the released
 * geniesinc/Memora@a6493188:evals/model_eval/model_based_evaluator.py,
 * `_parse_judge_response`).
 * Used by `failed_verdicts=code` only: membench's own rule is that a reply it
 * cannot parse is a failure, never a vote inferred from its wording.
 *
 * The released reading, step by step:
 * - the reply is trimmed; when it starts with a code fence, its first and last
 *   lines are dropped (if it has more than two) and every "```json" and "```"
 *   is removed;
 * - what is left must be one JSON value (`json.loads`, no text around it).
 *   An object gives `answer` (lower-cased, trimmed): "yes" or "no" stands;
 *   anything else is inferred from `explanation` as below;
 * - text that is not JSON at all is inferred from the whole reply, lower-cased:
 *   "yes" inside and "no" not → yes; "no" inside and "yes" not → no; else
 *   "unclear". These are plain substrings ("no" is inside "not" and "know").
 * - "unclear" stays in the vote as a vote for neither answer. JSON that is not
 *   an object, an `answer` or `explanation` that is not a string, or a
 *   `confidence` that is not a number raise inside the released parser, which
 *   marks the judge as failed: it is left out of the vote like a failed call.
 */

import { pythonFloat } from "../../score/python-values.ts";

export type ReleasedReading = "yes" | "no" | "unclear" | "error";

function inferFrom(text: string): "yes" | "no" | "unclear" {
  const lower = text.toLowerCase();
  const yes = lower.includes("yes");
  const no = lower.includes("no");
  if (yes && !no) return "yes";
  if (no && !yes) return "no";
  return "unclear";
}

function withoutFence(text: string): string {
  if (!text.startsWith("```")) return text;
  const lines = text.split("\n");
  const inner = lines.length > 2 ? lines.slice(1, -1).join("\n") : text;
  return inner.replaceAll("```json", "").replaceAll("```", "").trim();
}

/** The released evaluator's reading of one reply: a vote, "unclear" (a vote for neither), or "error" (left out). */
export function releasedReading(reply: string): ReleasedReading {
  const body = withoutFence(reply.trim());
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return inferFrom(reply);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return "error";
  const fields = parsed as Record<string, unknown>;
  // Python's dict.get: a key present with null gives None (which then raises), only a missing key the default.
  const field = (key: string, fallback: unknown) => (key in fields ? fields[key] : fallback);
  const answer = field("answer", "");
  const explanation = field("explanation", "");
  if (typeof answer !== "string") return "error";
  if (pythonFloat(field("confidence", 0)) === undefined) return "error";
  const said = answer.toLowerCase().trim();
  if (said === "yes" || said === "no") return said;
  if (typeof explanation !== "string") return "error";
  return inferFrom(explanation);
}
