/**
 * How a benchmark is replayed: when its probes fire (that lives in the data, as
 * each probe's `position`), how deep the system retrieves, how the retrieved
 * items become the answerer's context, and the answer prompt. Each benchmark's
 * `protocol.ts` overrides what its paper does differently from these defaults.
 */
import type { Episode, Probe, Session } from "../../core/model.ts";
import type { ChatMessage } from "../../llm/types.ts";
import type { EvidenceUnit } from "../../score/retrieval.ts";
import type { Retrieved } from "../../systems/types.ts";
import { countTokens } from "../../tokens/count.ts";

export interface ProtocolOptions {
  /** MemoryAgentBench: override the paper's chunk size. */
  chunkSize?: number;
  /** Override the paper's retrieval depth. */
  depth?: number;
  /** Cap on the context given to the answerer, in o200k tokens. */
  contextTokens?: number;
  /**
   * RealMem's two context settings: `memory` gives the answerer the retrieved
   * items (top 20), `session` the whole source sessions of the first 5
   * distinct sessions they came from.
   */
  context?: "memory" | "session";
  /**
   * The benchmark's `--score-option` values, for the few that shape what the
   * answerer is given (scorer options with `stage: "answer"`, e.g. Memora's
   * `question_date`). Checked against the scorer's options before the run starts.
   */
  benchmark?: Record<string, string>;
}

export interface ContextInput {
  /** Overrides the answer depth (an unranked system gives its whole history). */
  maxItems?: number;
  /** Sessions ingested by the time the probe fires, by id, for session contexts. */
  sessions?: ReadonlyMap<string, Session>;
}

export interface BuiltContext {
  text: string;
  tokens: number;
  /** How many retrieved items made it into the context. */
  used: number;
}

export interface Protocol {
  /** Items the system is asked for per probe. */
  depth: number;
  /** Items of that list given to the answerer (MemConflict: retrieve 5, answer from 3). */
  answerDepth: number;
  /** What the gold evidence ids name. */
  evidenceUnit: EvidenceUnit;
  /** k values of the provenance retrieval metrics. */
  ks: number[];
  /** k values of MemConflict-style SEH/SRS by provenance (empty: not reported). */
  supportKs: number[];
  contextTokens: number;
  /** Turns an episode into what is replayed (MemoryAgentBench chunks its context here). */
  prepare(episode: Episode): Episode;
  /** Gold evidence for the oracle setting, from sessions ingested by the time the probe fires. */
  oracle(probe: Probe, ingested: readonly Session[]): Retrieved[];
  buildContext(items: readonly Retrieved[], input?: ContextInput): BuiltContext;
  answerMessages(probe: Probe, context: BuiltContext): ChatMessage[];
}

export type ProtocolFactory = (options?: ProtocolOptions) => Protocol;

/** A session rendered for a reader: date line, then `Speaker: text` lines. */
export function renderSession(session: Session): string {
  const head = session.time ? `[session ${session.id}, ${session.time}]` : `[session ${session.id}]`;
  const lines = session.turns.map((t) => `${t.speaker ?? t.role}: ${t.content}`);
  return [head, ...lines].join("\n");
}

/** The gold sessions that exist by now, in chronological (canonical) order, as session items. */
export function oracleSessions(probe: Probe, ingested: readonly Session[]): Retrieved[] {
  const gold = new Set(probe.gold.evidenceSessionIds);
  const turnGold = new Set(probe.gold.evidenceTurnIds);
  return ingested
    .filter((s) => gold.has(s.id) || s.turns.some((t) => turnGold.has(t.id)))
    .map((s) => ({
      text: renderSession(s),
      score: 1,
      time: s.time,
      sessionIds: [s.id],
      turnIds: s.turns.map((t) => t.id),
      kind: "session" as const,
    }));
}

/** Gold memory texts as items (RealMem memory setting, MemConflict supporting memories). */
export function oracleMemories(probe: Probe): Retrieved[] {
  return probe.gold.evidenceMemories.map((text) => ({ text, score: 1, kind: "memory" as const }));
}

/** Token counts of memory texts by content: an item recurs at many ranks over a run's probes (~17× on RealMem). */
const textTokens = new Map<string, number>();
const headerTokens: number[] = [];
/** Past this many texts the memo starts over, so a long process holds a bounded number. */
const MAX_MEMO = 200_000;

/**
 * o200k tokens of `---- memory ${rank} ----\n${text}`, counted as its header and
 * its text apart, each once. That sum is exact: o200k's pre-tokenizer ends the
 * header's last piece (" ----") with its newline, and starts the text afresh,
 * unless the text goes on with a newline, a carriage return or "/", which that
 * piece would take in; such a part is counted whole.
 */
function memoryPartTokens(header: string, rank: number, text: string): number {
  if (/^[\r\n/]/.test(text)) return countTokens(`${header}\n${text}`);
  headerTokens[rank] ??= countTokens(`${header}\n`);
  let n = textTokens.get(text);
  if (n === undefined) {
    if (textTokens.size >= MAX_MEMO) textTokens.clear();
    n = countTokens(text);
    textTokens.set(text, n);
  }
  return headerTokens[rank]! + n;
}

/**
 * Numbered memory list within a token budget; items that do not fit are
 * dropped whole rather than cut, so a reader never sees half a memory.
 */
export function numberedContext(items: readonly Retrieved[], maxItems: number, maxTokens: number): BuiltContext {
  const parts: string[] = [];
  let tokens = 0;
  let used = 0;
  for (const item of items.slice(0, maxItems)) {
    const dated = item.time && item.kind !== "session" ? `(${item.time}) ${item.text}` : item.text;
    const header = `---- memory ${used + 1} ----`;
    const part = `${header}\n${dated}`;
    const n = memoryPartTokens(header, used + 1, dated) + 1;
    if (tokens + n > maxTokens) break;
    parts.push(part);
    tokens += n;
    used++;
  }
  return { text: parts.join("\n\n"), tokens, used };
}

/**
 * The whole source sessions of the first `maxSessions` distinct sessions the
 * items came from, in rank order (RealMem's "chunk" items), within the budget.
 */
export function sessionContext(
  items: readonly Retrieved[],
  sessions: ReadonlyMap<string, Session>,
  maxSessions: number,
  maxTokens: number,
): BuiltContext {
  const seen = new Set<string>();
  const picked: Retrieved[] = [];
  for (const item of items) {
    for (const id of item.sessionIds ?? []) {
      const session = sessions.get(id);
      if (!session || seen.has(id) || picked.length >= maxSessions) continue;
      seen.add(id);
      picked.push({ text: renderSession(session), score: item.score, time: session.time, kind: "session" });
    }
  }
  return numberedContext(picked, maxSessions, maxTokens);
}

export interface DefaultProtocolSpec {
  depth: number;
  answerDepth?: number;
  evidenceUnit?: EvidenceUnit;
  ks?: number[];
  supportKs?: number[];
  contextTokens?: number;
  /** The instruction for the answerer, in our own words. */
  instruction?: string;
  oracle?: Protocol["oracle"];
  prepare?: Protocol["prepare"];
  buildContext?: (
    items: readonly Retrieved[],
    input: ContextInput & { maxItems: number; maxTokens: number },
  ) => BuiltContext;
}

const DEFAULT_INSTRUCTION =
  "You are an assistant with a long-term memory of your past conversations with this user. " +
  "Answer the question using the memories below. If they do not contain the answer, say that you do not know. " +
  "Answer briefly.";

export function makeProtocol(spec: DefaultProtocolSpec, options: ProtocolOptions = {}): Protocol {
  const depth = options.depth ?? spec.depth;
  const answerDepth = Math.min(spec.answerDepth ?? depth, depth);
  const contextTokens = options.contextTokens ?? spec.contextTokens ?? 32_000;
  const instruction = spec.instruction ?? DEFAULT_INSTRUCTION;
  return {
    depth,
    answerDepth,
    evidenceUnit: spec.evidenceUnit ?? "session",
    ks: spec.ks ?? [5, 10, 20],
    supportKs: spec.supportKs ?? [],
    contextTokens,
    prepare: spec.prepare ?? ((e) => e),
    oracle: spec.oracle ?? oracleSessions,
    buildContext: (items, input = {}) => {
      const args = { ...input, maxItems: input.maxItems ?? answerDepth, maxTokens: contextTokens };
      return spec.buildContext ? spec.buildContext(items, args) : numberedContext(items, args.maxItems, contextTokens);
    },
    answerMessages: (probe, context) => [
      { role: "system", content: instruction },
      {
        role: "user",
        content: `Memories:\n${context.text || "(none)"}\n\n${probe.time ? `Current date: ${probe.time}\n` : ""}Question: ${probe.question}\nAnswer:`,
      },
    ],
  };
}
