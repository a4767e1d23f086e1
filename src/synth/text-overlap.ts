/**
 * How much of a fact a piece of dialogue states, without a model: the share
 * of the fact's content words found in the text. Generators use it to check
 * that a session carries the fact it was written for, and validators to find
 * evidence a file no longer supports. It is a screen, not a judge: a
 * paraphrase that changes every word is not recognised.
 */

const STOP = new Set(
  "the and for that this with from are was were has have had its it's his her their our your my you not but about into over than then them they what when where which who why how all any can could would should will just also very more most some such only own same other user".split(
    " ",
  ),
);

/** Content words of a text: numbers, and words of three letters or more that are not stop words or in `drop`. */
export function contentWords(text: string, drop: ReadonlySet<string> = new Set()): Set<string> {
  const words =
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .match(/[a-z0-9]+/g) ?? [];
  return new Set(words.filter((w) => (/^\d+$/.test(w) || w.length >= 3) && !STOP.has(w) && !drop.has(w)));
}

/** Share of the fact's content words found in `text` (1 for a fact with none). */
export function coverage(fact: string, text: string, drop: ReadonlySet<string> = new Set()): number {
  const want = contentWords(fact, drop);
  if (!want.size) return 1;
  const have = contentWords(text, drop);
  let hit = 0;
  for (const w of want) if (have.has(w)) hit++;
  return hit / want.size;
}
