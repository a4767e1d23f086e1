/**
 * The retrieval pipeline's parameters and their defaults (search.ts runs it,
 * bundle.ts shapes its hits, retrieval-overrides.ts changes them per run): a
 * module of their own, so those modules depend on it and not on each other.
 */

export interface RetrievalWeights {
  sessionLexical: number;
  sessionVector: number;
  turnLexical: number;
  turnVector: number;
  memoryLexical: number;
  memoryVector: number;
  /** Prior for recent sessions (by timeline position, newest first). */
  recency: number;
  /** Sessions ranked by their turns nearest the query moved towards the first-pass top sessions' best turns (Rocchio feedback). */
  feedback: number;
  /** Session BM25+ for the characteristic terms of the first-pass top sessions (lexical feedback). */
  lexicalFeedback: number;
  /**
   * Session BM25+ for each rewrite of the query (query-rewrite.ts; only when a
   * rewriter is set). A rewrite weighs as much as the message itself: it is
   * there for messages whose own words say little.
   */
  rewriteLexical: number;
  /** Sessions by their turns nearest each rewrite's vector. */
  rewriteVector: number;
  /**
   * The turn-vector list's vote in the session ranking; `turnVector` weighs it
   * only where it picks the turns shown in a bundle.
   */
  turnVectorVote: number;
}

export interface RetrievalParams {
  /** Candidates read from each list. */
  depth: number;
  rrfK: number;
  weights: RetrievalWeights;
  /** First-pass sessions whose best turns move the query for the feedback list. */
  feedbackDepth: number;
  /** Terms taken from the first-pass top sessions for the lexical feedback query. */
  feedbackTerms: number;
  /** Best-matching turns per session bundle. */
  turnsPerHit: number;
  /**
   * Neighbouring turns shown on each side of a matched turn. In a dialogue the
   * fact often sits in the reply to (or the prompt of) the turn that matched.
   */
  turnWindow: number;
  /** Memories shown per session bundle. */
  memoriesPerHit: number;
  /** Score factor of a memory not valid at the question time (superseded then). */
  staleFactor: number;
  /** Session factor when every memory it matched had been superseded by the question time. */
  staleSessionFactor: number;
  /**
   * In a large namespace, query terms found in more than this share of the
   * sessions (for session BM25+) or of the turns or memories (for their term
   * indexes) are left out: their IDF is near zero, and scoring every document
   * they match is what makes lexical search slow at scale.
   */
  maxTermShare: number;
  /** Score factor of a contested (non-canonical) memory. */
  contestedFactor: number;
  /** Score factor of another person's memory when the query is about the user. */
  otherSubjectFactor: number;
  /**
   * Whether a memory's restatements (`complements` links, events excepted) pull
   * their sessions in as siblings, as superseded values, contradictions and
   * conditions always do.
   */
  pullComplements: boolean;
  /**
   * How many of the session BM25+ list's first sessions may be held near
   * their rank (`clearMatches`, `holdRanks`): the i-th held one is placed at
   * position i + `lexicalSlack` at the latest, whatever the other lists say.
   * 0 holds none; a search with query rewrites holds none either. The ledger keeps
   * every turn that list ranks, so it should not rank a clear lexical match
   * lower than a BM25 over whole sessions would; without the hold, sessions
   * found at middling ranks by many lists outvoted one that session BM25+ put
   * 2nd–4th (docs/ledger.md, "Tuning and checking halves").
   */
  lexicalHold: number;
  lexicalSlack: number;
  /** Only sessions scoring at least this share of the first one's BM25+ score are held (a clear match). */
  lexicalHoldShare: number;
  /**
   * Only sessions that turn BM25 also finds, among the first this many
   * sessions its turns name, are held: the match is in a turn, not words
   * scattered over a long session. 0 asks for no such agreement.
   */
  lexicalHoldTurnRank: number;
}

export const DEFAULT_RETRIEVAL: RetrievalParams = {
  depth: 200,
  rrfK: 60,
  weights: {
    sessionLexical: 2,
    sessionVector: 0.7,
    turnLexical: 0.5,
    turnVector: 0.3,
    memoryLexical: 0.3,
    memoryVector: 0,
    recency: 0.5,
    feedback: 1,
    lexicalFeedback: 0.5,
    turnVectorVote: 1.25,
    rewriteLexical: 2,
    rewriteVector: 1.25,
  },
  feedbackDepth: 3,
  feedbackTerms: 20,
  turnsPerHit: 2,
  turnWindow: 1,
  memoriesPerHit: 3,
  staleFactor: 0.5,
  staleSessionFactor: 0.85,
  maxTermShare: 0.05,
  contestedFactor: 0.8,
  otherSubjectFactor: 0.7,
  pullComplements: false,
  lexicalHold: 5,
  lexicalSlack: 1,
  lexicalHoldShare: 0.5,
  lexicalHoldTurnRank: 10,
};
