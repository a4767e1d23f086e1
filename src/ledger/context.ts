/**
 * The context builder: renders hits for a reader within a token budget, each with
 * its date and source, and memory flags — "updated on …" for a value that was
 * superseded, "conflicts with …" for both sides of a contradiction, "when …" for
 * a conditional preference.
 */
import { countTokens } from "../tokens/count.ts";
import type { Hit, Memory } from "./types.ts";

export interface ContextOptions {
  /** o200k tokens at most (default 4000). */
  tokenBudget?: number;
  /** The question time: flags say what had changed by then (default: now). */
  at?: string;
}

export interface RenderedContext {
  text: string;
  tokens: number;
  /** Hits that fit. */
  used: number;
}

function day(time: string | undefined): string {
  return time ? time.slice(0, 10) : "undated";
}

/**
 * Flags of one memory, from its status and the links among the hits, as they
 * stood at `at` (the question time; default now): a value replaced only after
 * `at` was still the standing one then.
 */
export function memoryFlags(m: Memory, hit: Hit, byId: ReadonlyMap<string, Memory>, at?: string): string[] {
  const told = (x: Memory | undefined) => !at || !x?.recordedAt || x.recordedAt <= at;
  const retired = m.status !== "active" && (!at || !m.retiredAt || m.retiredAt <= at);
  const flags: string[] = [];
  if (m.condition) flags.push(`when ${m.condition.replace(/^when\s+/i, "")}`);
  if (m.status === "superseded" && retired) flags.push(`updated on ${day(m.retiredAt ?? m.validTo)}`);
  if (m.status === "contested" && retired) flags.push("contested: conflicts with an earlier statement");
  for (const l of hit.links) {
    if (l.relation === "contradicts" && (l.from === m.id || l.to === m.id)) {
      const other = byId.get(l.from === m.id ? l.to : l.from);
      if (told(other)) flags.push(`conflicts with "${other ? other.value : "another statement"}"`);
    }
    if (l.relation === "supersedes" && l.to === m.id) {
      const next = byId.get(l.from);
      if (next && told(next)) flags.push(`now "${next.value}"`);
    }
  }
  return [...new Set(flags)];
}

/** A hit's lines with each memory line flagged, without the date and source head. */
export function renderBody(hit: Hit, byId: ReadonlyMap<string, Memory>, at?: string): string {
  return hit.text
    .split("\n")
    .map((line) => {
      // Several memories may be read off one sentence: the line carries all their flags.
      const ms = hit.memories.filter((x) => line === `[memory] ${x.text}`);
      if (!ms.length) return line;
      // Flags name their attribute when the line holds several memories ("residence: updated on …").
      const flags = ms.flatMap((m) => {
        const own = memoryFlags(m, hit, byId, at);
        return ms.length > 1 && own.length ? [`${m.attribute}: ${own.join(", ")}`] : own;
      });
      const others = [...new Set(ms.map((m) => m.subject).filter((s) => s !== "user"))];
      const who = others.length ? ` (about ${others.join(", ")})` : "";
      return `- ${ms[0]!.text}${who}${flags.length ? ` [${flags.join("; ")}]` : ""}`;
    })
    .join("\n");
}

export function renderHit(hit: Hit, byId: ReadonlyMap<string, Memory>, at?: string): string {
  return `[${day(hit.time)} · session ${hit.sessionIds.join(", ")}]\n${renderBody(hit, byId, at)}`;
}

/** Every memory the hits show, by id: a flag names the value on the other side of a link. */
export function memoriesById(hits: readonly Hit[]): Map<string, Memory> {
  return new Map(hits.flatMap((h) => h.memories.map((m) => [m.id, m] as const)));
}

/** The hits in order, whole, until the budget is spent. */
export function buildContext(hits: readonly Hit[], options: ContextOptions = {}): RenderedContext {
  const budget = options.tokenBudget ?? 4000;
  const byId = memoriesById(hits);
  const parts: string[] = [];
  let tokens = 0;
  for (const hit of hits) {
    const text = renderHit(hit, byId, options.at);
    const t = countTokens(text) + 1;
    if (tokens + t > budget) break;
    parts.push(text);
    tokens += t;
  }
  return { text: parts.join("\n\n"), tokens, used: parts.length };
}
