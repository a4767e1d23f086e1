/**
 * The long-context baseline: every prior turn, newest first until the token budget
 * (o200k tokens of the turn texts, default 128000) is spent, handed back oldest
 * first. Whole turns only: the walk back stops at the first turn that does not fit,
 * so what is returned is always an unbroken stretch ending at the latest turn.
 *
 * The query text is ignored. `k` still caps the number of turns, as the contract
 * says; a runner that wants the whole budget passes `k: Infinity`.
 */
import { z } from "zod";
import { ConfigError } from "../core/errors.ts";
import { countTokens } from "../tokens/count.ts";
import type { SystemDefinition, SystemInfo } from "./definition.ts";
import { checkBatch, History, type StoredSession, type StoredTurn } from "./history.ts";
import { Namespaces } from "./namespaces.ts";
import { resultLimit } from "./query.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";
import { toRetrieved, turnUnit } from "./units.ts";

export const DEFAULT_TOKEN_BUDGET = 128_000;

export interface FullContextOptions {
  /** o200k tokens of turn text returned at most (default 128000). */
  tokenBudget?: number;
}

interface State {
  history: History;
  /** Token count of each turn's text, by turn object, counted once at ingest. */
  tokens: WeakMap<StoredTurn, number>;
}

export class FullContextSystem implements MemorySystem {
  readonly id = "full-context";
  readonly caps: SystemCaps = {
    granularity: "session",
    // Chronological, not best first.
    ranked: false,
    provenance: true,
    readback: true,
    nativeAnswer: false,
  };
  readonly tokenBudget: number;
  private readonly spaces = new Namespaces<State>(this.id, () => ({ history: new History(), tokens: new WeakMap() }));

  constructor(options: FullContextOptions = {}) {
    const budget = options.tokenBudget ?? DEFAULT_TOKEN_BUDGET;
    if (!(budget >= 0)) throw new ConfigError(`must be a number ≥ 0, got ${budget}`, "tokenBudget");
    this.tokenBudget = budget;
  }

  async open(ns: string): Promise<void> {
    this.spaces.open(ns);
  }

  async ingest(ns: string, batch: IngestBatch): Promise<void> {
    const state = this.spaces.get(ns, "ingest");
    checkBatch(batch, this.id);
    for (const turn of state.history.add(batch).turns) state.tokens.set(turn, countTokens(turn.content));
  }

  /** The newest turns within the budget and `k`, oldest first; every item scores 1. */
  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const state = this.spaces.get(ns, "search");
    const limit = resultLimit(q, this.id);
    const kept: { session: StoredSession; turn: StoredTurn }[] = [];
    let spent = 0;
    const sessions = state.history.orderedSessions();
    outer: for (let s = sessions.length - 1; s >= 0; s--) {
      const session = sessions[s]!;
      for (let t = session.turns.length - 1; t >= 0; t--) {
        const turn = session.turns[t]!;
        const cost = state.tokens.get(turn) ?? countTokens(turn.content);
        if (kept.length >= limit || spent + cost > this.tokenBudget) break outer;
        spent += cost;
        kept.push({ session, turn });
      }
    }
    return kept.reverse().map(({ session, turn }) => toRetrieved(turnUnit(session, turn), 1));
  }

  /** Every stored turn of the given sessions, budget or not, oldest first. */
  async readback(ns: string, sessionIds: string[]): Promise<Retrieved[]> {
    const state = this.spaces.get(ns, "readback");
    const wanted = new Set(sessionIds);
    return state.history
      .orderedSessions()
      .filter((s) => wanted.has(s.id))
      .flatMap((s) => s.turns.map((t) => toRetrieved(turnUnit(s, t), 1)));
  }

  async close(ns: string): Promise<void> {
    this.spaces.close(ns);
  }

  info(): SystemInfo {
    return { unit: "turn", tokenBudget: this.tokenBudget };
  }
}

export const FULL_CONTEXT_OPTIONS = z
  .object({
    tokenBudget: z
      .number()
      .int()
      .nonnegative()
      .optional()
      .describe(
        `o200k tokens of turn text returned at most (default: the run's --token-budget, else ${DEFAULT_TOKEN_BUDGET})`,
      ),
  })
  .strict();

export const FULL_CONTEXT_SYSTEM: SystemDefinition<z.infer<typeof FULL_CONTEXT_OPTIONS>> = {
  id: "full-context",
  summary: "the long-context baseline: the newest turns within a token budget",
  options: FULL_CONTEXT_OPTIONS,
  create: (options, context) => new FullContextSystem({ tokenBudget: options.tokenBudget ?? context.tokenBudget }),
};
