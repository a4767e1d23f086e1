/**
 * Resolution on write, scoped to one subject and one attribute (never the whole
 * store). A proposer names the relation between a new memory and an existing
 * one — rules by default, an LLM when configured — and deterministic interval
 * logic applies it:
 *
 * - supersedes: a real change. The older value is kept and closed at the newer
 *   value's valid-from; a statement about an earlier time than the current value
 *   is filed as the older version instead of replacing it.
 * - contradicts: a different value of an invariant attribute. Both are kept; the
 *   first statement stays canonical and the later one is marked contested. A
 *   restatement of the canonical value stays canonical; one of a contested
 *   value stays contested.
 * - conditional: different conditions, both valid.
 * - complements: a restatement, or another occurrence of an event; both kept
 *   and linked.
 *
 * Complements and conditional links go to the latest standing memory of each
 * occurrence group (`occurrenceGroup`), not to every member: a fact told or an
 * event logged n times is a chain of n − 1 links, not n(n − 1)/2 (1,050
 * occurrences made 550,725 links before). Readers walk the chain
 * (namespace-index.ts `groupLinksOf`).
 */
import { isInvariant, isTask, normaliseValue } from "./extract/attributes.ts";
import type { Link, Memory, Relation } from "./types.ts";

/**
 * Proposes how `incoming` relates to each of `existing` (the standing memories
 * of its subject and attribute), one relation per memory, in order. All of a
 * slot at once, so a model-backed proposer makes one call per new memory rather
 * than one per memory already in the slot.
 */
export interface RelationProposer {
  readonly id: string;
  propose(existing: readonly Memory[], incoming: Memory): Relation[] | Promise<Relation[]>;
}

function tokens(value: string): Set<string> {
  return new Set(
    normaliseValue(value)
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w.length > 1),
  );
}

/** Same value: equal after normalisation, or one's words contained in the other's. */
export function sameValue(a: string, b: string): boolean {
  const na = normaliseValue(a);
  const nb = normaliseValue(b);
  if (na === nb) return true;
  const ta = tokens(a);
  const tb = tokens(b);
  if (!ta.size || !tb.size) return false;
  const [small, big] = ta.size <= tb.size ? [ta, tb] : [tb, ta];
  return [...small].every((w) => big.has(w));
}

/**
 * A relation that needs no judgement, from rules or a model: another
 * occurrence of an event (another coffee bought, another run logged: it adds,
 * never replaces), or a restatement (the same value, negation and condition).
 */
export function settledRelation(existing: Memory, incoming: Memory): Relation | undefined {
  if (existing.kind === "event" && incoming.kind === "event") return "complements";
  const same =
    normaliseValue(existing.value) === normaliseValue(incoming.value) &&
    (existing.condition ?? "") === (incoming.condition ?? "");
  return same ? "complements" : undefined;
}

/**
 * The occurrence group of a memory within its slot: every event is one group
 * (occurrences add up), any other memory groups with its restatements (the same
 * value and condition). Members of a group are settled complements of each other.
 */
export function occurrenceGroup(m: Pick<Memory, "kind" | "value" | "condition">): string {
  return m.kind === "event" ? "event" : `value\u0000${normaliseValue(m.value)}\u0000${m.condition ?? ""}`;
}

/** The rules' relation of one pair. */
function ruleRelation(existing: Memory, incoming: Memory): Relation {
  const settled = settledRelation(existing, incoming);
  if (settled) return settled;
  const negatedOld = existing.value.startsWith("not ");
  const negatedNew = incoming.value.startsWith("not ");
  const conditionOld = existing.condition ?? "";
  const conditionNew = incoming.condition ?? "";
  if (conditionOld !== conditionNew && (conditionOld || conditionNew)) return "conditional";
  if (negatedOld === negatedNew && sameValue(existing.value, incoming.value)) return "complements";
  // A task done or dropped closes the open task of its key (and a new "need to" reopens it), however worded.
  if (isTask(existing.attribute) && negatedOld !== negatedNew) return "supersedes";
  // A negation ends only the value it names: "not experimental music" leaves "jazz music" standing.
  if (
    negatedOld !== negatedNew &&
    !sameValue(existing.value.replace(/^not /, ""), incoming.value.replace(/^not /, ""))
  ) {
    return "complements";
  }
  if (isInvariant(existing.attribute)) return "contradicts";
  return "supersedes";
}

export const ruleProposer: RelationProposer = {
  id: "rules",
  propose: (existing, incoming) => existing.map((old) => ruleRelation(old, incoming)),
};

export interface ResolutionPlan {
  /** The incoming memory with its status and interval set. */
  incoming: Memory;
  /** Existing memories whose status or interval changed. */
  updated: Memory[];
  links: Link[];
}

function before(a: string | undefined, b: string | undefined): boolean {
  return a !== undefined && b !== undefined && a < b;
}

/**
 * Applies the proposed relations. `existing` are the same subject's memories of
 * the same attribute, not retired, oldest first.
 */
export async function resolve(
  incoming: Memory,
  existing: readonly Memory[],
  proposer: RelationProposer = ruleProposer,
): Promise<ResolutionPlan> {
  const next: Memory = { ...incoming };
  const updated = new Map<string, Memory>();
  // In the order of the memories they were made against; a group's earlier link is blanked when a later member replaces it.
  const links: Array<Link | undefined> = [];
  const grouped = new Map<string, number>();
  const current = (m: Memory) => updated.get(m.id) ?? m;
  // Only the versions that still stand are compared; older versions are reached through them.
  const standing = existing.filter((m) => m.status === "active" || m.status === "contested");
  // Each standing memory is visited once, so proposing for all of them up front sees what the loop would.
  const relations = standing.length ? await proposer.propose(standing, next) : [];
  if (relations.length !== standing.length) {
    throw new Error(`proposer ${proposer.id} gave ${relations.length} relations for ${standing.length} memories`);
  }
  for (const [i, raw] of standing.entries()) {
    const old = current(raw);
    const relation = relations[i]!;
    if (relation === "complements" || relation === "conditional") {
      // One link per group: to its latest standing member (the group's earlier ones are reached through it).
      const key = `${relation}\u0000${occurrenceGroup(old)}`;
      const earlier = grouped.get(key);
      if (earlier !== undefined) links[earlier] = undefined;
      grouped.set(key, links.length);
      links.push({ from: next.id, to: old.id, relation });
      continue;
    }
    if (relation === "contradicts") {
      // Restating the canonical value sides with it (the other value's conflict with it is on record).
      // Restating a contested one does not: a contested value never becomes canonical by repetition.
      if (standing.some((m, j) => relations[j] === "complements" && current(m).canonical)) continue;
      const canonical = old.canonical ? old : (standing.find((m) => current(m).canonical) ?? old);
      next.status = "contested";
      next.canonical = false;
      links.push({ from: next.id, to: canonical.id, relation });
      break;
    }
    // supersedes
    if (before(next.validFrom, old.validFrom)) {
      // Told late about an earlier time: the incoming value is the older version.
      next.status = "superseded";
      next.validTo = old.validFrom;
      next.retiredAt = next.recordedAt;
      links.push({ from: old.id, to: next.id, relation: "supersedes" });
    } else {
      updated.set(old.id, {
        ...old,
        status: "superseded",
        validTo: next.validFrom ?? next.recordedAt,
        retiredAt: next.recordedAt,
      });
      links.push({ from: next.id, to: old.id, relation: "supersedes" });
    }
  }
  return {
    incoming: next,
    updated: [...updated.values()],
    links: links.filter((l): l is Link => l !== undefined),
  };
}
