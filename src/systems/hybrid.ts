/**
 * BM25 and dense retrieval fused by reciprocal-rank fusion (c = 60), over turns
 * (`hybrid`) or sessions (`hybrid-session`). Each list is cut to max(5k, 50) before
 * fusing, so a unit deep in one list still counts when the other ranks it well.
 */
import { z } from "zod";
import type { Embedder } from "../embed/types.ts";
import { BM25_OPTIONS, type Bm25Params, Bm25Ranker } from "./bm25.ts";
import type { SystemDefinition } from "./definition.ts";
import { DEFAULT_EMBED_BATCH, DENSE_OPTIONS, DenseRanker, requireEmbedder } from "./dense.ts";
import { type Ranker, RetrievalSystem } from "./retrieval-system.ts";
import { RRF_K, reciprocalRankFusion } from "./rrf.ts";
import { type RetrievalUnit, type Scored, topScored, type Unit } from "./units.ts";

export interface HybridOptions {
  /** Required; optional in the type only so a missing one is reported as a ConfigError. */
  embedder?: Embedder;
  unit?: RetrievalUnit;
  bm25?: Bm25Params;
  /** Texts per embedder call at ingest (default 64). */
  batchSize?: number;
  /** The RRF constant (default 60). */
  rrfK?: number;
}

/** How deep each list is read before fusion, for `k` final results. */
export function fusionDepth(k: number): number {
  return Math.max(k * 5, 50);
}

class HybridRanker implements Ranker {
  constructor(
    private readonly lexical: Bm25Ranker,
    private readonly dense: DenseRanker,
    private readonly rrfK: number,
  ) {}

  async upsert(units: readonly Unit[]): Promise<void> {
    // Dense first: if the embedder fails, neither index holds the units.
    await this.dense.upsert(units);
    this.lexical.upsert(units);
  }

  async score(text: string, k: number, units: ReadonlyMap<string, Unit>): Promise<Scored[]> {
    const depth = fusionDepth(k);
    const lexical = topScored(this.lexical.score(text), units, depth);
    const dense = topScored(await this.dense.score(text), units, depth);
    return reciprocalRankFusion([lexical, dense], this.rrfK);
  }
}

export class HybridSystem extends RetrievalSystem {
  private readonly embedder: Embedder;
  private readonly options: HybridOptions;

  constructor(options: HybridOptions = {}) {
    const unit = options.unit ?? "turn";
    const id = unit === "session" ? "hybrid-session" : "hybrid";
    super(id, unit);
    this.embedder = requireEmbedder(options.embedder, id);
    this.options = options;
  }

  protected createRanker(): Ranker {
    return new HybridRanker(
      new Bm25Ranker(this.options.bm25),
      new DenseRanker(this.embedder, this.id, this.options.batchSize ?? DEFAULT_EMBED_BATCH),
      this.options.rrfK ?? RRF_K,
    );
  }
}

export const HYBRID_OPTIONS = DENSE_OPTIONS.extend({
  bm25: BM25_OPTIONS.optional().describe("the BM25 list's parameters: k1, b, delta"),
  rrfK: z.number().positive().optional().describe(`reciprocal-rank fusion constant (default ${RRF_K})`),
}).strict();

function hybridDefinition(
  id: string,
  unit: RetrievalUnit,
  summary: string,
): SystemDefinition<z.infer<typeof HYBRID_OPTIONS>> {
  return {
    id,
    summary,
    options: HYBRID_OPTIONS,
    needsEmbedder: () => true,
    create: async (options, context) => new HybridSystem({ ...options, unit, embedder: await context.embedder() }),
  };
}

export const HYBRID_SYSTEM = hybridDefinition("hybrid", "turn", "bm25 and dense fused by reciprocal rank, over turns");
export const HYBRID_SESSION_SYSTEM = hybridDefinition(
  "hybrid-session",
  "session",
  "bm25 and dense fused by reciprocal rank, over whole sessions",
);
