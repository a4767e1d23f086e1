/**
 * BM25 over turns (`bm25`) or over whole sessions (`bm25-session`), on minisearch.
 *
 * Scoring is minisearch's BM25+ (k1 = 1.2, b = 0.7, δ = 0.5, idf = ln(1 + (N − n + ½)/(n + ½))),
 * summed over the distinct query terms a unit contains; a unit's length is its number
 * of distinct terms (minisearch's convention). minisearch also multiplies
 * each score by the number of query terms matched; that factor is divided out here
 * so the score is the plain BM25+ sum. No prefix or fuzzy matching: a term matches
 * only itself, after the tokeniser in text/tokenize.ts.
 */
import MiniSearch from "minisearch";
import { z } from "zod";
import { lexicalTokens } from "../text/tokenize.ts";
import type { SystemDefinition } from "./definition.ts";
import { type Ranker, RetrievalSystem } from "./retrieval-system.ts";
import type { RetrievalUnit, Scored, Unit } from "./units.ts";

export interface Bm25Params {
  /** Term-frequency saturation (default 1.2). */
  k1?: number;
  /** Length normalisation (default 0.7). */
  b?: number;
  /** BM25+ lower bound for a matching term (default 0.5; 0 gives classic BM25). */
  delta?: number;
}

export interface Bm25Options extends Bm25Params {
  unit?: RetrievalUnit;
}

interface Doc {
  id: string;
  text: string;
}

/** A BM25 index of units; used alone by `bm25` and inside `hybrid`. */
export class Bm25Ranker implements Ranker {
  private readonly index: MiniSearch<Doc>;
  private readonly bm25: { k: number; b: number; d: number };
  /** Indexed text by key: minisearch removes a document exactly only when given its old text. */
  private readonly docs = new Map<string, string>();

  constructor(params: Bm25Params = {}) {
    this.bm25 = { k: params.k1 ?? 1.2, b: params.b ?? 0.7, d: params.delta ?? 0.5 };
    this.index = new MiniSearch<Doc>({
      fields: ["text"],
      tokenize: lexicalTokens,
      processTerm: (term) => term,
    });
  }

  upsert(units: readonly Unit[]): void {
    for (const unit of units) {
      const old = this.docs.get(unit.key);
      if (old !== undefined) this.index.remove({ id: unit.key, text: old });
      this.index.add({ id: unit.key, text: unit.text });
      this.docs.set(unit.key, unit.text);
    }
  }

  score(text: string): Scored[] {
    const terms = [...new Set(lexicalTokens(text))];
    if (terms.length === 0) return [];
    const hits = this.index.search(terms.join(" "), {
      combineWith: "OR",
      prefix: false,
      fuzzy: false,
      bm25: this.bm25,
      tokenize: (query) => query.split(" "),
    });
    return hits.map((hit) => ({ key: String(hit.id), score: hit.score / Math.max(1, hit.queryTerms.length) }));
  }
}

export class Bm25System extends RetrievalSystem {
  private readonly params: Bm25Params;

  constructor(options: Bm25Options = {}) {
    const unit = options.unit ?? "turn";
    super(unit === "session" ? "bm25-session" : "bm25", unit);
    this.params = { k1: options.k1, b: options.b, delta: options.delta };
  }

  protected createRanker(): Ranker {
    return new Bm25Ranker(this.params);
  }
}

/** BM25's parameters as options (`bm25#{"k1":1.5}`); also hybrid's `bm25` option. */
export const BM25_OPTIONS = z
  .object({
    k1: z.number().nonnegative().optional().describe("term-frequency saturation (default 1.2)"),
    b: z.number().min(0).max(1).optional().describe("length normalisation, 0 to 1 (default 0.7)"),
    delta: z
      .number()
      .nonnegative()
      .optional()
      .describe("BM25+ lower bound of a matching term; 0 gives classic BM25 (default 0.5)"),
  })
  .strict();

function bm25Definition(
  id: string,
  unit: RetrievalUnit,
  summary: string,
): SystemDefinition<z.infer<typeof BM25_OPTIONS>> {
  return { id, summary, options: BM25_OPTIONS, create: (options) => new Bm25System({ ...options, unit }) };
}

export const BM25_SYSTEM = bm25Definition("bm25", "turn", "BM25+ over turns (minisearch)");
export const BM25_SESSION_SYSTEM = bm25Definition("bm25-session", "session", "BM25+ over whole sessions (minisearch)");
