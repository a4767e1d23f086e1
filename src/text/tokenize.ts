/**
 * The lexical tokeniser of the built-in BM25 index and of the ledger's term
 * indexes (text machinery below both): lowercased words, English
 * stopwords dropped, no stemming. Only the possessive `'s` is cut, because
 * "sister's" and "sister" should meet and that costs nothing.
 */

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)*/gu;

/**
 * Function words that carry no topic. Kept short on purpose: questions such as
 * "when", "who" and "first" still say something about what is asked, so they stay.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both
  but by can could did do does doing don't down during each few for from further had has have having he her here
  hers herself him himself his how i i'd i'll i'm i've if in into is isn't it it's its itself just let's me more
  most my myself no nor not of off on once only or other ought our ours ourselves out over own same she should so
  some such than that that's the their theirs them themselves then there these they this those through to too
  under until up very was wasn't we were what which while whom why will with would you you'd you'll you're you've
  your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);

/** Lowercased content words of `text`, in order, repeats kept. */
export function lexicalTokens(text: string): string[] {
  const words = text.normalize("NFKC").toLowerCase().replaceAll("’", "'").match(WORD) ?? [];
  const out: string[] = [];
  for (const word of words) {
    if (STOPWORDS.has(word)) continue;
    // A string test, not a regex replace per word: a third of the tokeniser's time.
    const stem = word.endsWith("'s") ? word.slice(0, -2) : word;
    if (stem) out.push(stem);
  }
  return out;
}
