/**
 * Query rewriting, the query side of retrieval that the offline pipeline cannot
 * do: a message such as "Okay, good that we sorted those three out. What next?"
 * names nothing a lexical or vector search can match. A model that reads it can
 * say what it is about ("itinerary for the Kyoto trip, the three hotel
 * bookings"). The rewrites are extra lists in the same fusion (search.ts); the
 * original query keeps its own lists, so a poor rewrite costs rank, not recall.
 *
 * Off unless asked (`rewriter` in LedgerOptions, `--ledger-query-rewrite`): it
 * costs one model call per search, and its gain is unmeasured here, where no
 * model runs (docs/ledger.md, "What a perfect query would reach").
 */
import { z } from "zod";
import { structured } from "../llm/structured.ts";
import type { ChatModel } from "../llm/types.ts";
import { log } from "../util/log.ts";

export interface QueryRewriter {
  readonly id: string;
  /** Up to a few search queries for `query`; an empty list when it has none (never throws). */
  rewrite(query: string, at?: string): Promise<string[]>;
}

const RewriteSchema = z.object({
  queries: z.array(z.string()).describe("short search queries, most useful first"),
});

/** Our wording; the RealMem harness's keyword step is the same idea (the RealMemBench README's `generate_query_llm` step). */
const REWRITE_PROMPT = `An assistant with a long-term memory of earlier conversations with this user is about to answer the user's message below.
Write up to {max} short search queries that would find, among those earlier conversations, the ones holding what the assistant needs to answer well.
Name the likely topic or project, the people, places and things involved, and the facts or preferences of the user that matter, in plain words a past conversation would use.
Do not answer the message, and do not invent details that the message does not suggest.`;

/** Longest message sent to the model; a long form keeps its opening, which says what is asked. */
const MAX_QUERY_CHARS = 4000;

export class LlmQueryRewriter implements QueryRewriter {
  readonly id: string;
  private readonly max: number;

  constructor(
    private readonly model: ChatModel,
    options: { max?: number } = {},
  ) {
    this.id = `llm:${model.id}`;
    this.max = options.max ?? 3;
  }

  async rewrite(query: string, at?: string): Promise<string[]> {
    try {
      const { value } = await structured(
        this.model,
        {
          role: "retriever",
          temperature: 0,
          messages: [
            { role: "system", content: REWRITE_PROMPT.replace("{max}", String(this.max)) },
            {
              role: "user",
              content: `${at ? `Date of the message: ${at.slice(0, 10)}\n\n` : ""}${query.slice(0, MAX_QUERY_CHARS)}`,
            },
          ],
        },
        RewriteSchema,
        { name: "ledger_queries" },
      );
      const seen = new Set([query.trim().toLowerCase()]);
      return value.queries
        .map((q) => q.trim())
        .filter((q) => {
          const key = q.toLowerCase();
          if (!q || seen.has(key)) return false;
          seen.add(key);
          return true;
        })
        .slice(0, this.max);
    } catch (error) {
      // Search goes on with the original query alone: a rewrite is an aid, not a requirement.
      log.warn(`query rewrite failed, searching with the message alone: ${(error as Error).message}`);
      return [];
    }
  }
}
