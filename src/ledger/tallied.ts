/**
 * Which memories are tallied: the namespace index files them under their
 * attribute as they are added, and tally.ts adds them up for a question. Both
 * read these patterns, so they live below both.
 */
import type { Memory } from "./types.ts";

/** Attribute prefixes whose entries add up. */
export const TALLIED = /^(expense|log):(.+)$/;
/** A target for a tallied quantity (`goal:coffee`, `goal:step`). */
export const GOAL = /^goal:(.+)$/;

/** Whether a memory is a tallied entry (indexed under its attribute in `NamespaceIndex.tallies`). */
export function talliedAttribute(m: Pick<Memory, "kind" | "attribute">): boolean {
  return (m.kind === "event" && TALLIED.test(m.attribute)) || (m.kind === "plan" && GOAL.test(m.attribute));
}
