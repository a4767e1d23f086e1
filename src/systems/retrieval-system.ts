/**
 * The shared body of the ranked baselines (bm25, dense, hybrid): a history per
 * namespace, its units (turns or sessions), and a ranker that scores units for a
 * query. Each system only supplies its ranker.
 *
 * Ingests into one namespace run one after another, so a session that arrives in
 * several batches is indexed in order; a search waits for the ingests before it.
 */

import type { SystemInfo } from "./definition.ts";
import { checkBatch, History } from "./history.ts";
import { Namespaces } from "./namespaces.ts";
import { resultLimit } from "./query.ts";
import type { IngestBatch, MemorySystem, Retrieved, SearchQuery, SystemCaps } from "./types.ts";
import { type RetrievalUnit, type Scored, topScored, toRetrieved, turnUnit, type Unit, unitsOf } from "./units.ts";

/** Scores the units of one namespace. */
export interface Ranker {
  /** Indexes new units and re-indexes changed ones (same key). */
  upsert(units: readonly Unit[]): void | Promise<void>;
  /** Scores of units that match `text`, in any order; `k` is the number of results the caller wants. */
  score(text: string, k: number, units: ReadonlyMap<string, Unit>): Scored[] | Promise<Scored[]>;
}

interface State {
  history: History;
  units: Map<string, Unit>;
  ranker: Ranker;
  /** The last ingest; later operations chain on it. */
  tail: Promise<void>;
}

export abstract class RetrievalSystem implements MemorySystem {
  readonly caps: SystemCaps = {
    granularity: "session",
    ranked: true,
    provenance: true,
    readback: true,
    nativeAnswer: false,
  };
  private readonly spaces: Namespaces<State>;

  constructor(
    readonly id: string,
    readonly unit: RetrievalUnit,
  ) {
    this.spaces = new Namespaces(id, () => ({
      history: new History(),
      units: new Map(),
      ranker: this.createRanker(),
      tail: Promise.resolve(),
    }));
  }

  /** `unit`: what one result is, so the runner can tell when its depth covers the whole haystack. */
  info(): SystemInfo {
    return { unit: this.unit };
  }

  /** A fresh, empty ranker for one namespace. */
  protected abstract createRanker(): Ranker;

  async open(ns: string): Promise<void> {
    this.spaces.open(ns);
  }

  async close(ns: string): Promise<void> {
    this.spaces.close(ns);
  }

  ingest(ns: string, batch: IngestBatch): Promise<void> {
    let state: State;
    try {
      state = this.spaces.get(ns, "ingest");
      checkBatch(batch, this.id);
    } catch (error) {
      return Promise.reject(error);
    }
    const run = state.tail.then(async () => {
      const { session, turns } = state.history.add(batch);
      const changed = this.unit === "session" ? unitsOf(session, "session") : turns.map((t) => turnUnit(session, t));
      await state.ranker.upsert(changed);
      for (const unit of changed) state.units.set(unit.key, unit);
    });
    // A failed ingest is reported to its caller; later operations still run.
    state.tail = run.catch(() => undefined);
    return run;
  }

  async flush(ns: string): Promise<void> {
    await this.spaces.get(ns, "flush").tail;
  }

  async search(ns: string, q: SearchQuery): Promise<Retrieved[]> {
    const state = this.spaces.get(ns, "search");
    const limit = resultLimit(q, this.id);
    await state.tail;
    if (limit === 0 || state.units.size === 0) return [];
    const scored = await state.ranker.score(q.text, limit, state.units);
    return topScored(scored, state.units, limit).map((hit) => toRetrieved(state.units.get(hit.key)!, hit.score));
  }

  /** The stored units of the given sessions, in timeline order, each with score 1. */
  async readback(ns: string, sessionIds: string[]): Promise<Retrieved[]> {
    const state = this.spaces.get(ns, "readback");
    await state.tail;
    const wanted = new Set(sessionIds);
    return state.history
      .orderedSessions()
      .filter((s) => wanted.has(s.id))
      .flatMap((s) => unitsOf(s, this.unit))
      .map((u) => toRetrieved(u, 1));
  }
}
